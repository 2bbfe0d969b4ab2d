/**
 * The rule engine over plain strings. Each rule is its own sticky regex,
 * tried only where one of its markers occurs (at most `reach` characters
 * before it); at one position the earlier rule wins, and placeholders already
 * in the text are skipped whole. It learns user names (from home paths, see
 * ./users.ts) and workspaces as the stream goes.
 *
 * The engine reports findings as spans of the text it was given, so the
 * event walk can patch a line's encoded bytes in place (./walk.ts).
 */
import { verbatimRun } from './byte-scan.js';
import { buildRules, type Built, type Compiled, type Match, type Spec } from './compile.js';
import { DEFAULT_SALT, Placeholders } from './placeholders.js';
import { caseless, escapeRegex, NOT_AFTER_PLACEHOLDER, PLACEHOLDER_PATTERN, prefixPattern, type RuleKind, type RuleSpec } from './rule-spec.js';
import { DEFAULT_RULES, EMAIL_RULE, HOME_RULES, PATH_RULES } from './rules.js';
import { isSharedHome, isUserName } from './users.js';
import { accept } from './verdict.js';
import { View } from './view.js';

/** `\\uXXXX` or `\\/`: escapes that could spell a marker. */
const ESCAPED = /\\(?:u[0-9a-fA-F]{4}|\/)/;

/** Which paths are private: `none`, `home` (default: homes, user names, workspace, e-mail), `all` (also every absolute path). */
export type PathMode = 'none' | 'home' | 'all';

/** What the engine needs of the options of createRedact. */
export interface EngineOptions {
  rules?: RuleSpec[];
  defaultRules?: boolean;
  pathMode?: PathMode;
  pseudonymize?: boolean;
  salt?: string;
}

/** One replacement: `text.slice(start, end)` becomes `text`, found by `rule`. */
export interface Span {
  start: number;
  end: number;
  text: string;
  rule: string;
}

const MAX_USERS = 256;
const MAX_WORKSPACES = 256;

/** Applies sorted, disjoint spans to `input`; returns `input.slice(from)` patched. */
export function applySpans(input: string, spans: readonly Span[], from = 0): string {
  if (spans.length === 0) return from === 0 ? input : input.slice(from);
  const parts: string[] = [];
  let last = from;
  for (const span of spans) {
    parts.push(input.slice(last, span.start), span.text);
    last = span.end;
  }
  parts.push(input.slice(last));
  return parts.join('');
}

/** The engine: rules, learned names, placeholders. */
export class Redactor {
  /** Increases whenever a user name or workspace is learned. */
  generation = 0;
  private readonly users = new Map<string, string>();
  private readonly workspaces: string[] = [];
  private built: Built | undefined;
  private readonly pathMode: PathMode;
  private readonly defaultRules: boolean;
  private readonly userRules: RuleSpec[];
  private readonly placeholders: Placeholders;

  constructor(options: EngineOptions = {}) {
    this.pathMode = options.pathMode ?? 'home';
    this.defaultRules = options.defaultRules !== false;
    this.userRules = options.rules ?? [];
    this.placeholders = new Placeholders(options.pseudonymize === true, options.salt ?? DEFAULT_SALT);
    this.compiled(); // compile now: a bad user rule fails up front
  }

  /** Whether object keys that name a secret have their string values redacted. */
  get secretKeys(): boolean {
    return this.defaultRules;
  }

  /** Records a workspace root or cwd; its later occurrences become `<workspace>`. */
  learnWorkspace(path: string): void {
    if (this.pathMode === 'none' || path.length < 2 || /^(?:[/\\]+|[A-Za-z]:[/\\]*)$/.test(path)) return;
    const home = /^(?:\/home\/|\/Users\/|[A-Za-z]:[\\/]+Users[\\/]+)([^/\\]+)/i.exec(path);
    if (home?.[1] !== undefined) this.learnUser(home[1]);
    const trimmed = path.replace(/[/\\]+$/, '');
    if (this.workspaces.includes(trimmed) || this.workspaces.length >= MAX_WORKSPACES) return;
    this.workspaces.push(trimmed);
    this.workspaces.sort((a, b) => b.length - a.length);
    this.changed();
  }

  /** Records a user name seen in a home path, unless it is a common word (see ./users.ts). */
  learnUser(name: string): void {
    const key = name.toLowerCase();
    if (!isUserName(name) || isSharedHome(name) || this.users.has(key) || this.users.size >= MAX_USERS) return;
    this.users.set(key, name);
    this.changed();
  }

  /** The user names learned so far. */
  knownUsers(): string[] {
    return [...this.users.values()];
  }

  private changed(): void {
    this.generation++;
    this.built = undefined;
  }

  private specs(): Spec[] {
    const specs: Spec[] = [];
    const paths = this.pathMode !== 'none';
    if (paths && this.workspaces.length > 0) {
      const shortOnes = this.workspaces.filter((w) => w.length <= 1024);
      specs.push({
        name: 'workspace',
        kind: 'workspace',
        pattern: `(?<![A-Za-z0-9._~-])${NOT_AFTER_PLACEHOLDER}(?:${this.workspaces.map(escapeRegex).join('|')})(?![A-Za-z0-9_-]|\\.[A-Za-z0-9_-])`,
        markers: [...new Set(this.workspaces.map((w) => w.slice(0, 12)))],
        rawMarkers: this.workspaces.map(verbatimRun),
        partial: shortOnes.length > 0 ? `(?<![A-Za-z0-9._~-])${NOT_AFTER_PLACEHOLDER}${prefixPattern(shortOnes)}` : undefined,
        partialAnchors: [...new Set(shortOnes.map((w) => w[0]!))],
        builtin: true,
      });
    }
    if (this.defaultRules) for (const rule of DEFAULT_RULES) specs.push({ ...rule, kind: 'secret', builtin: true });
    for (const rule of this.userRules) specs.push({ ...rule, kind: 'secret', builtin: false });
    if (paths) {
      for (const rule of HOME_RULES) specs.push({ ...rule, kind: rule.kind ?? 'home', builtin: true });
      specs.push({ ...EMAIL_RULE, kind: 'email', builtin: true });
      if (this.users.size > 0) {
        const names = [...this.users.values()].sort((a, b) => b.length - a.length);
        specs.push({
          name: 'user',
          kind: 'user',
          pattern: `(?<![A-Za-z0-9])${NOT_AFTER_PLACEHOLDER}(?:${names.map(caseless).join('|')})(?![A-Za-z0-9]|[A-Za-z0-9._%+-]{0,64}@[A-Za-z0-9-]{1,63}\\.[A-Za-z])`,
          markers: names,
          partial: `(?<![A-Za-z0-9])${NOT_AFTER_PLACEHOLDER}${prefixPattern(names, { caseless: true })}`,
          builtin: true,
        });
      }
    }
    if (this.pathMode === 'all') for (const rule of PATH_RULES) specs.push({ ...rule, kind: 'path', builtin: true });
    return specs;
  }

  /** The compiled tables (rebuilt after a user name or workspace is learned). */
  compiled(): Built {
    this.built ??= buildRules(this.specs());
    return this.built;
  }

  /**
   * False when the raw line certainly holds nothing to redact: none of the
   * markers occurs in its bytes and no escape could spell one.
   */
  mayMatchRaw(raw: Buffer): boolean {
    const test = this.compiled().rawTest;
    return test === undefined || test.test(raw);
  }

  /** False when the text certainly holds no marker (and so nothing to redact). */
  mayMatch(text: string): boolean {
    const test = this.compiled().markerTest;
    return test === undefined || test.test(text);
  }

  /**
   * Calls `onMatch` for each match of the anchored rules from `from` on, left
   * to right; stops when it returns false. `null` means the match was
   * rejected (by the verdict): the scan goes on as if it had not matched, so a
   * rule that starts inside it (a provider token after a refused key) is tried.
   */
  scan(text: string, from: number, onMatch: (m: Match, rule: Compiled) => boolean | null): void {
    const built = this.compiled();
    // Every (position, rule) worth trying, in text order then rule order; a
    // typed array grows by doubling (no spread, no per-hit objects).
    let attempts = new Float64Array(64);
    let count = 0;
    // Markers are lower-case ASCII: search the lower-cased text case-sensitively
    // when lower-casing keeps every offset (it does unless rare letters expand).
    // Only the text from `from` on is searched: a finding's head is scanned again
    // from the finding's start, and lower-casing all of the text before it each
    // time made a string with many findings quadratic (200k `password=x` took minutes).
    const window = from === 0 ? text : text.slice(from);
    const lower = window.toLowerCase();
    const folded = lower.length === window.length;
    const candidates = folded ? built.lowerCandidates : built.candidates;
    const subject = folded ? lower : window;
    candidates.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = candidates.exec(subject)) !== null) {
      const local = m.index;
      const at = local + from;
      for (const [literal, indexes] of built.dispatch.get(subject[local]!.toLowerCase()) ?? []) {
        if (literal.length > 1 && !(folded ? subject.startsWith(literal, local) : subject.slice(local, local + literal.length).toLowerCase() === literal)) continue;
        for (const index of indexes) {
          for (let k = built.rules[index]!.reach; k >= 0; k--) {
            if (at - k < from) continue;
            if (count === attempts.length) {
              const bigger = new Float64Array(count * 2);
              bigger.set(attempts);
              attempts = bigger;
            }
            attempts[count++] = (at - k) * 4096 + index;
          }
        }
      }
      candidates.lastIndex = local + 1;
    }
    if (count === 0) return;
    const sorted = attempts.subarray(0, count).sort();
    let next = from;
    for (let i = 0; i < count; i++) {
      const attempt = sorted[i]!;
      const at = Math.floor(attempt / 4096);
      if (at < next) continue;
      const rule = built.rules[attempt % 4096]!;
      const found = rule.exec(text, at);
      if (found === null || found.end === found.start) continue;
      const taken = onMatch(found, rule);
      if (taken === false) return;
      if (taken === null) continue;
      // Only the secret group is replaced: text the match merely required after it is scanned again.
      next = found.secret ? Math.max(found.secret[1], at + 1) : found.end;
    }
  }

  /** The spans to replace in `input` from `from` on, sorted and disjoint; rule names go to `hits`. */
  spans(input: string, hits: string[], from = 0): Span[] {
    const generation = this.generation;
    const mark = hits.length;
    let out = this.find(input, hits, from);
    if (this.generation !== generation) {
      // A user name was learned from this very string: its other occurrences go too.
      hits.length = mark;
      out = this.find(input, hits, from);
    }
    if (input.includes('\\') && ESCAPED.test(input)) {
      // Escaped text must not hide a secret: look at it decoded too, and map back.
      const view = View.loose(input);
      const found: string[] = [];
      const decodedFrom = from === 0 ? 0 : View.loose(input.slice(0, from)).text.length;
      const inView = this.find(view.text, found, decodedFrom);
      if (found.length > out.length) {
        hits.length = mark;
        for (const hit of found) hits.push(hit);
        return inView.map((s) => ({ ...s, start: view.rawOf(s.start), end: view.rawOf(s.end) }));
      }
    }
    return out;
  }

  private find(input: string, hits: string[], from: number): Span[] {
    const built = this.compiled();
    if (built.markerTest !== undefined && !built.markerTest.test(input)) return [];
    const spans: Span[] = [];
    let last = from;
    // Placeholders already in the text: no finding may cut into one (idempotence).
    const guards: number[] = [];
    if (input.includes('<')) {
      const re = new RegExp(PLACEHOLDER_PATTERN, 'g');
      for (let p: RegExpExecArray | null; (p = re.exec(input)) !== null; ) guards.push(p.index, p.index + p[0].length);
    }
    let guard = 0;
    /** Records a match; false when it is refused (starts inside a placeholder, or the verdict refuses it). */
    const add = (m: Match, rule: Compiled, inner = false): boolean => {
      // The verdict (./verdict.ts), asked before anything is recorded: placeholders,
      // examples, references and low-entropy values are kept, and the scan goes on inside them.
      if (rule.kind === 'secret') {
        const value = m.secret ? input.slice(m.secret[0], m.secret[1]) : input.slice(m.lead ?? m.start, m.end);
        const key = m.secret ? input.slice(m.start, m.secret[0]) : undefined;
        if (!accept({ rule: rule.name, value, keyed: rule.keepSettings === true, key })) return false;
      }
      if (!inner && m.secret && m.secret[0] > Math.max(m.start, last)) {
        // Only the secret group is replaced: what the match holds before it (a
        // user name, a path) is scanned by the other rules too, as a second pass would.
        const head = input.slice(0, m.secret[0]);
        this.scan(head, Math.max(m.start, last), (m2, rule2) => {
          if (rule2.kind !== 'skip') add(m2, rule2, true);
          return true;
        });
      }
      let start = m.start;
      let end = m.end;
      if (m.secret) [start, end] = m.secret;
      if (m.lead !== undefined) {
        if (m.lead < last) return false; // its local part was taken by an earlier finding (user:pass@host)
        start = Math.min(start, m.lead);
      }
      if (start < last) start = last;
      while (guard < guards.length && guards[guard + 1]! <= start) guard += 2;
      if (guard < guards.length) {
        if (guards[guard]! <= start) return false; // starts inside a placeholder
        if (guards[guard]! < end) end = guards[guard]!; // stops before the next one
      }
      if (end <= start) return false;
      let key = input.slice(start, end);
      if (rule.kind === 'home') {
        if (m.name !== undefined) {
          this.learnUser(m.name);
          key = m.name;
        }
      } else if (rule.kind === 'root') key = 'root';
      spans.push({ start, end, text: this.placeholder(rule.kind as RuleKind, rule.name, key), rule: rule.name });
      hits.push(rule.name);
      last = end;
      return true;
    };
    // Matches may start in the context before `from` (a key there, its value after it).
    this.scan(input, 0, (m, rule) => (rule.kind === 'skip' || add(m, rule) ? true : null));
    if (built.unanchored.length === 0) return spans;
    // Rules without markers: everywhere, except inside placeholders and earlier spans.
    const taken: Array<[number, number]> = spans.map((s) => [s.start, s.end]);
    const skip = new RegExp(PLACEHOLDER_PATTERN, 'g');
    skip.lastIndex = from;
    for (let p: RegExpExecArray | null; (p = skip.exec(input)) !== null; ) taken.push([p.index, p.index + p[0].length]);
    const extra: Span[] = [];
    for (const rule of built.unanchored) {
      for (let at = from; at <= input.length; ) {
        const m = rule.exec(input, at);
        if (m === null) break;
        const s = m.secret ? m.secret[0] : m.start;
        const e = m.secret ? m.secret[1] : m.end;
        if (m.end === m.start || e <= s || taken.some(([a, b]) => s < b && e > a)) {
          at = m.start + 1;
          continue;
        }
        extra.push({ start: s, end: e, text: this.placeholder('secret', rule.name, input.slice(s, e)), rule: rule.name });
        taken.push([s, e]);
        hits.push(rule.name);
        at = m.end;
      }
    }
    return spans.concat(extra).sort((a, b) => a.start - b.start);
  }

  /**
   * Redacts one string; pushes a rule name onto `hits` per replacement. With
   * `from`, only `input.slice(from)` is redacted and returned: the text
   * before it is context that rules look behind at.
   */
  text(input: string, hits: string[], from = 0): string {
    return applySpans(input, this.spans(input, hits, from), from);
  }

  /** The placeholder for a value (keyed HMAC when pseudonymizing). */
  placeholder(kind: RuleKind, name: string, value: string): string {
    return this.placeholders.make(kind, name, value);
  }
}
