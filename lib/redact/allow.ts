/**
 * Findings as data that can leave the machine, and known false positives.
 *
 * A FINGERPRINT names a finding's value without revealing it: the first 16
 * hex digits of HMAC-SHA256(key, value), keyed by --salt (or the public
 * default salt). `--report-path FILE` writes one per finding; an ALLOW FILE
 * (`--allow FILE`, the `.gitleaksignore` idea) lists fingerprints or literal
 * values that are known to be safe, so a team silences a false positive
 * without a code change.
 *
 * Allow-file format: one entry per line; blank lines and lines whose first
 * non-blank character is `#` are ignored; blanks around an entry are
 * trimmed. An entry matches a finding whose value is exactly the entry, or
 * whose fingerprint is the entry (16 hex digits, any case; an optional
 * `fp:` prefix is allowed so report values can be pasted as they are).
 */
import { createHmac } from './lazy.js';

/** The fingerprint of a finding's value: 16 hex digits of HMAC-SHA256 keyed by `salt`. */
export function fingerprint(value: string, salt: string): string {
  return createHmac('sha256', salt).update(value).digest('hex').slice(0, 16);
}

const FINGERPRINT = /^(?:fp:)?([0-9a-f]{16})$/i;

/** Values and fingerprints known to be safe. */
export class Allowlist {
  private readonly values = new Set<string>();
  private readonly prints = new Set<string>();
  /** Verdicts by value (bounded): a fingerprint costs an HMAC. */
  private readonly cache = new Map<string, boolean>();

  constructor(
    entries: Iterable<string>,
    private readonly salt: string,
  ) {
    for (const entry of entries) {
      this.values.add(entry);
      const print = FINGERPRINT.exec(entry)?.[1];
      if (print !== undefined) this.prints.add(print.toLowerCase());
    }
  }

  /** Reads the entries of an allow file's text (see the file comment for the format). */
  static parse(text: string, salt: string): Allowlist {
    const entries: string[] = [];
    for (const line of text.split(/\r?\n/)) {
      const entry = line.trim();
      if (entry !== '' && !entry.startsWith('#')) entries.push(entry);
    }
    return new Allowlist(entries, salt);
  }

  /** The entries, as given. */
  entries(): string[] {
    return [...this.values];
  }

  /** Whether a finding of `value` is left alone. */
  has(value: string): boolean {
    if (this.values.has(value)) return true;
    if (this.prints.size === 0) return false;
    let known = this.cache.get(value);
    if (known === undefined) {
      known = this.prints.has(fingerprint(value, this.salt));
      if (this.cache.size >= 4096) this.cache.clear();
      this.cache.set(value, known);
    }
    return known;
  }
}
