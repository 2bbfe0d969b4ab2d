/**
 * What replaces a finding: `<secret:RULE>`, `~`, `<user>`, `<workspace>`,
 * `<email>`, `<path>`, `<redacted>`; with --pseudonymize a keyed HMAC makes
 * them stable per distinct value (`<secret:RULE:1a2b3c4d>`). Placeholders are
 * ASCII without quotes or backslashes, so they read the same at any level of
 * JSON encoding, and every rule skips them (idempotence).
 */
import { createHmac } from './lazy.js';
import { PLACEHOLDER_PATTERN, type RuleKind } from './rule-spec.js';

/** The salt used by --pseudonymize without --salt. Public: use a per-project salt. */
export const DEFAULT_SALT = 'wuu-redact/v1';

/** A value that is already nothing but a placeholder (or `~`). */
export const PLACEHOLDER_ONLY = new RegExp(`^(?:${PLACEHOLDER_PATTERN}|~)$`);

/** Makes placeholders, plain or keyed. */
export class Placeholders {
  private readonly hashes = new Map<string, string>();
  private readonly plain = new Map<string, string>();

  constructor(
    private readonly pseudonymize: boolean,
    private readonly salt: string = DEFAULT_SALT,
  ) {}

  /** The placeholder for `value` found by rule `name` of `kind`. */
  make(kind: RuleKind, name: string, value: string): string {
    if (!this.pseudonymize) {
      switch (kind) {
        case 'secret': {
          let text = this.plain.get(name);
          if (text === undefined) this.plain.set(name, (text = `<secret:${name}>`));
          return text;
        }
        case 'home':
        case 'root':
          return '~';
        default:
          return `<${kind}>`;
      }
    }
    const tag = kind === 'home' || kind === 'root' || kind === 'user' ? 'user' : kind;
    const normal = tag === 'user' || tag === 'email' ? value.toLowerCase() : value;
    const id = `${tag}\u0000${normal}`;
    let hash = this.hashes.get(id);
    if (hash === undefined) {
      hash = createHmac('sha256', this.salt).update(id).digest('hex').slice(0, 8);
      if (this.hashes.size > 65536) this.hashes.clear();
      this.hashes.set(id, hash);
    }
    if (kind === 'secret') return `<secret:${name}:${hash}>`;
    return `<${kind === 'root' ? 'home' : kind}:${hash}>`;
  }
}

/** The sentinel replacing a censored value of each JSON type (JSONPath censoring). */
export function censored(value: unknown): unknown {
  if (typeof value === 'string') return '<redacted>';
  if (typeof value === 'number') return 0;
  if (typeof value === 'boolean') return false;
  if (Array.isArray(value)) return [];
  if (value !== null && typeof value === 'object') return {};
  return value;
}
