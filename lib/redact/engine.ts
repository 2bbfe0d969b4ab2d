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
import { buildRules, storedOf, type Built, type Compiled, type Match, type Spec, type StoredBuild } from './compile.js';
import { Automaton, PROVE_CLEAN, PROVE_HIT, PROVE_UNSURE } from './prefilter.js';
import type { JsonTrack } from './json-track.js';
import { DEFAULT_SALT, Placeholders } from './placeholders.js';
import { caseless, NOT_AFTER_PLACEHOLDER, PLACEHOLDER_PATTERN, prefixPattern, type RuleKind, type RuleSpec } from './rule-spec.js';
import { DEFAULT_RULES, EMAIL_RULE, HOME_RULES, PATH_RULES } from './rules.js';
import { isSharedHome, isUserName } from './users.js';
import { accept } from './verdict.js';
import { View } from './view.js';
import { encodeTables, readStoredTables } from './stored-tables.js';
import { Workspaces } from './workspaces.js';
import { unionEnds, type Ends } from './regex-ends.js';
import type { Allowlist } from './allow.js';

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
  /** Values left alone: known false positives, by value or by fingerprint (see ./allow.ts). */
  allow?: Allowlist;
  /** Keep each finding's value on its span (for --report-path fingerprints); off, spans stay small. */
  values?: boolean;
}

/** One replacement: `text.slice(start, end)` becomes `text`, found by `rule`. */
export interface Span {
  start: number;
  end: number;
  text: string;
  rule: string;
  /** The text replaced (for --report-path fingerprints); absent on patches that only move text. */
  value?: string;
  /** Where the string lies in its event, as a JSON path (set by the walk). */
  path?: string;
}

const MAX_USERS = 256;
/** A scan's attempts buffer is kept for the next scan up to this many entries. */
const MAX_KEPT_ATTEMPTS = 4096;

/**
 * Sorts `a[0, count)` ascending: by insertion for the few attempts of a
 * short string (a subarray and a native sort cost more there).
 */
function sortAttempts(a: Float64Array, count: number): void {
  if (count > 32) {
    a.subarray(0, count).sort();
    return;
  }
  for (let i = 1; i < count; i++) {
    const v = a[i]!;
    let j = i - 1;
    while (j >= 0 && a[j]! > v) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = v;
  }
}
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
  private readonly workspaces = new Workspaces();
  private tables: Tables | undefined;
  /** What the learned tables were built from: they are rebuilt only when their markers change. */
  private learnedKey = '';
  private readonly fixed: Built;
  private readonly pathMode: PathMode;
  private readonly defaultRules: boolean;
  private readonly userRules: RuleSpec[];
  private readonly placeholders: Placeholders;
  /** Known false positives: a finding of one of these values is left as it is. */
  readonly allow: Allowlist | undefined;
  private readonly values: boolean;

  constructor(options: EngineOptions = {}) {
    this.pathMode = options.pathMode ?? 'home';
    this.defaultRules = options.defaultRules !== false;
    this.userRules = options.rules ?? [];
    this.placeholders = new Placeholders(options.pseudonymize === true, options.salt ?? DEFAULT_SALT);
    this.allow = options.allow;
    this.values = options.values === true;
    // Compiled now (a bad user rule fails up front) and never again: what is
    // learned later only rebuilds the small tables of workspaces and user names.
    this.fixed = fixedTables(this.defaultRules, this.pathMode, this.userRules);
    this.compiled();
  }

  /** Whether object keys that name a secret have their string values redacted. */
  get secretKeys(): boolean {
    return this.defaultRules;
  }

  /** Records a workspace root or cwd; its later occurrences become `<workspace>`. */
  learnWorkspace(path: string): void {
    if (this.pathMode === 'none' || path.length < 2 || /^(?:[/\\]+|[A-Za-z]:[/\\]*)$/.test(path)) return;
    // Only an absolute path: `~/x` or a placeholder is what a first pass left (idempotence).
    if (!/^(?:\/|\\\\|[A-Za-z]:[/\\])/.test(path) || path.includes('<')) return;
    const home = /^(?:\/home\/|\/Users\/|[A-Za-z]:[\\/]+Users[\\/]+)([^/\\]+)/i.exec(path);
    if (home?.[1] !== undefined) this.learnUser(home[1]);
    const trimmed = path.replace(/[/\\]+$/, '');
    if (this.workspaces.has(trimmed) || this.workspaces.size >= MAX_WORKSPACES) return;
    this.changed(this.workspaces.add(trimmed));
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

  /** After something was learned; `markers` false: the workspaces' markers and anchors did not change (no need to list them). */
  private changed(markers = true): void {
    this.generation++;
    if (!markers) return; // the learned key is as it was (the workspace rule reads its list itself)
    const key = JSON.stringify([this.workspaces.markers(), this.workspaces.anchors(), [...this.users.keys()]]);
    if (key === this.learnedKey) return; // the workspace rule reads its list itself
    this.learnedKey = key;
    this.tables = undefined;
  }

  /** The rules made of what was learned: the workspaces, then the user names. */
  private learnedSpecs(): Spec[] {
    const specs: Spec[] = [];
    const paths = this.pathMode !== 'none';
    if (paths && this.workspaces.size > 0) {
      specs.push({
        name: 'workspace',
        kind: 'workspace',
        pattern: Workspaces.pattern,
        markers: this.workspaces.markers(),
        partialAnchors: this.workspaces.anchors(),
        compiled: this.workspaces.rule,
        compiledPartial: this.workspaces.anchors().length > 0 ? this.workspaces.partial : undefined,
        builtin: true,
      });
    }
    if (paths && this.users.size > 0) {
      {
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
    return specs;
  }

  /** The tables: the fixed ones and those of what was learned (rebuilt after a user name or workspace is learned). */
  compiled(): Tables {
    this.tables ??= joinTables(this.fixed, this.learnedSpecs());
    return this.tables;
  }

  /**
   * False when the raw line certainly holds nothing to redact: none of the
   * markers occurs in its decoded text, and no `\\/` escape could hide one.
   */
  mayMatchRaw(raw: Uint8Array, start = 0, end = raw.length): boolean {
    const tests = this.compiled().rawTests;
    this.longAnchors = true;
    if (tests === undefined) return true;
    let noted = false;
    for (const test of tests) {
      if (test.testRaw(raw, start, end)) return true;
      noted ||= test.noted;
    }
    this.longAnchors = noted;
    return false;
  }

  /**
   * False when the JSON string body `raw[start, end)` certainly holds no
   * marker: the raw test over its bytes alone (as {@link mayMatchRaw} over a
   * line, and with the same guarantee: a string without any holds nothing to
   * redact, unless its key names a secret). {@link longAnchors} is left alone.
   */
  mayMatchBody(raw: Uint8Array, start: number, end: number): boolean {
    const tests = this.compiled().rawTests;
    if (tests === undefined) return true;
    for (const test of tests) if (test.testRaw(raw, start, end)) return true;
    return false;
  }

  /**
   * {@link mayMatchRaw} and the proof that the line is a valid event in one
   * pass (Automaton.proveRaw, for Core.proves): PROVE_CLEAN (mayMatchRaw
   * would say false, and {@link longAnchors} is set as it would set it),
   * PROVE_HIT (it would say true; the line is not proven) or PROVE_UNSURE.
   * The line is `raw[start, end)` (the runner's chunk: no view made per line).
   */
  proveRaw(raw: Uint8Array, track: JsonTrack, start = 0, end = raw.length): number {
    const tests = this.compiled().rawTests;
    this.longAnchors = true;
    if (tests === undefined) return PROVE_HIT;
    const test = tests[0];
    if (tests.length !== 1 || test === undefined) return PROVE_UNSURE;
    const verdict = test.proveRaw(raw, start, end, track);
    if (verdict === PROVE_CLEAN) this.longAnchors = test.noted;
    return verdict;
  }

  /**
   * After {@link mayMatchRaw} said false: whether the line holds an anchor of
   * a long partial (a private key, a JWT, a key word) that the hold-back must
   * look for beyond the last line of a delta.
   */
  longAnchors = true;

  /** False when the text certainly holds no marker (and so nothing to redact). */
  mayMatch(text: string): boolean {
    const tests = this.compiled().markerTests;
    if (tests === undefined) return true;
    for (const test of tests) if (test.test(text)) return true;
    return false;
  }

  /**
   * Calls `onMatch` for each match of the anchored rules from `from` on, left
   * to right; stops when it returns false. `null` means the match was
   * rejected (by the verdict): the scan goes on as if it had not matched, so a
   * rule that starts inside it (a provider token after a refused key) is tried.
   */
  scan(text: string, from: number, onMatch: (m: Match, rule: Compiled) => boolean | null): void {
    const tables = this.compiled();
    // Every (position, rule) worth trying, in text order then rule order, in
    // a typed array that grows by doubling (no spread, no per-hit objects).
    // The outermost scan reuses one buffer: a fresh one per string (an
    // ArrayBuffer outside the heap) cost more than the scan of a short string.
    // A scan made by `onMatch` (a secret's head, scanned again) makes its own.
    const outer = !this.scanning;
    let attempts = outer ? this.attempts : new Float64Array(64);
    let count = 0;
    const { scanners, rules } = tables;
    for (let s = 0; s < scanners.length; s++) {
      // One automaton pass per table finds every marker; nothing is lower-cased.
      const { markers, prios } = scanners[s]!;
      markers.scan(text, from);
      const { hits, hitCount, lengths } = markers;
      for (let h = 0; h < hitCount; h++) {
        const id = hits[2 * h + 1]!;
        const at = hits[2 * h]! - lengths[id]!;
        const list = prios[id]!;
        for (let p = 0; p < list.length; p++) {
          const prio = list[p]!;
          for (let k = rules[prio]!.reach; k >= 0; k--) {
            if (at - k < from) continue;
            if (count === attempts.length) {
              const bigger = new Float64Array(count * 2);
              bigger.set(attempts);
              attempts = bigger;
            }
            attempts[count++] = (at - k) * 4096 + prio;
          }
        }
      }
    }
    // A buffer grown by a long string is not kept (bounded state).
    if (outer && attempts.length <= MAX_KEPT_ATTEMPTS) this.attempts = attempts;
    if (count === 0) return;
    sortAttempts(attempts, count);
    if (outer) this.scanning = true;
    try {
      this.tryAttempts(text, from, attempts, count, rules, onMatch);
    } finally {
      if (outer) this.scanning = false;
    }
  }

  /** The attempts of one {@link scan} buffer. */
  private attempts = new Float64Array(64);
  /** Whether a {@link scan} is running (its callback may scan again, with a buffer of its own). */
  private scanning = false;

  /** Runs the sorted attempts of a {@link scan}. */
  private tryAttempts(text: string, from: number, attempts: Float64Array, count: number, rules: readonly Compiled[], onMatch: (m: Match, rule: Compiled) => boolean | null): void {
    let next = from;
    for (let i = 0; i < count; i++) {
      const attempt = attempts[i]!;
      const at = Math.floor(attempt / 4096);
      if (at < next) continue;
      const rule = rules[attempt % 4096]!;
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
    const tables = this.compiled();
    if (!this.mayMatch(input)) return [];
    const spans: Span[] = [];
    let last = from;
    // Placeholders already in the text: no finding may cut into one (idempotence).
    const guards: number[] = [];
    /** Where placeholders end: a rule that refuses a letter before its start refuses these too (they replaced one). */
    const guardEnds = new Set<number>();
    if (input.includes('<')) {
      const re = new RegExp(PLACEHOLDER_PATTERN, 'g');
      for (let p: RegExpExecArray | null; (p = re.exec(input)) !== null; ) {
        guards.push(p.index, p.index + p[0].length);
        guardEnds.add(p.index + p[0].length);
      }
    }
    let guard = 0;
    /** Records a match; false when it is refused (starts inside a placeholder, or the verdict refuses it). */
    const add = (m: Match, rule: Compiled, inner = false): boolean => {
      // The verdict (./verdict.ts), asked before anything is recorded: placeholders,
      // examples, references and low-entropy values are kept, and the scan goes on inside them.
      if (rule.kind === 'secret') {
        const value = m.secret ? input.slice(m.secret[0], m.secret[1]) : input.slice(m.lead ?? m.start, m.end);
        const key = m.secret ? input.slice(m.start, m.secret[0]) : undefined;
        const before = input.slice(Math.max(0, m.start - 48), m.start);
        if (!accept({ rule: rule.name, value, keyed: rule.keepSettings === true, key, before })) return false;
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
      // Allowed and reported as a whole, even when only its tail is new here (a released piece held its head).
      const value = input.slice(m.lead !== undefined ? Math.min(start, m.lead) : start, end);
      if (this.allow?.has(value) === true) return false;
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
      const span: Span = { start, end, text: this.placeholder(rule.kind as RuleKind, rule.name, key), rule: rule.name };
      if (this.values) span.value = value;
      spans.push(span);
      hits.push(rule.name);
      last = end;
      return true;
    };
    // Matches may start in the context before `from` (a key there, its value after it).
    this.scan(input, 0, (m, rule) => {
      if (rule.kind === 'skip' || (rule.leftEdge === true && guardEnds.has(m.start))) return true;
      return add(m, rule) ? true : null;
    });
    if (tables.unanchored.length === 0) return spans;
    return this.unanchoredSpans(input, hits, from, spans, tables.unanchored);
  }

  /** Adds the findings of the rules without markers (everywhere, except inside placeholders and `spans`), sorted. */
  private unanchoredSpans(input: string, hits: string[], from: number, spans: Span[], unanchored: readonly Compiled[]): Span[] {
    // Rules without markers: everywhere, except inside placeholders and earlier spans.
    const taken: Array<[number, number]> = spans.map((s) => [s.start, s.end]);
    const skip = new RegExp(PLACEHOLDER_PATTERN, 'g');
    skip.lastIndex = from;
    for (let p: RegExpExecArray | null; (p = skip.exec(input)) !== null; ) taken.push([p.index, p.index + p[0].length]);
    const extra: Span[] = [];
    for (const rule of unanchored) {
      for (let at = from; at <= input.length; ) {
        const m = rule.exec(input, at);
        if (m === null) break;
        const s = m.secret ? m.secret[0] : m.start;
        const e = m.secret ? m.secret[1] : m.end;
        if (m.end === m.start || e <= s || taken.some(([a, b]) => s < b && e > a) || this.allow?.has(input.slice(s, e)) === true) {
          at = m.start + 1;
          continue;
        }
        const span: Span = { start: s, end: e, text: this.placeholder('secret', rule.name, input.slice(s, e)), rule: rule.name };
        if (this.values) span.value = input.slice(s, e);
        extra.push(span);
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

/** What the scan and the hold-back use: the fixed tables and the learned ones, joined by priority. */
export interface Tables {
  /** Every rule by priority (0: the placeholder skip); an attempt is `position * 4096 + priority`. */
  rules: Compiled[];
  /** Marker automata, each with its pattern id → rule priorities. */
  scanners: Array<{ markers: Automaton; prios: Int32Array[] }>;
  unanchored: Compiled[];
  /** Undefined when some rule has no markers (no shortcut). */
  markerTests: Automaton[] | undefined;
  rawTests: Automaton[] | undefined;
  /** The tables whose partials the hold-back searches, with the offset of their partial indexes. */
  holds: Array<{ built: Built; offset: number }>;
  /** Every partial, fixed ones first. */
  partials: Built['partials'];
  freePartials: Built['freePartials'];
  fallbackHold: number;
  /** Characters at a text's end that decide every free partial (Infinity: unbounded). */
  freeReach: number;
  /** The ASCII characters that can end a match of a free partial; undefined: any. */
  freeEnds: Ends | undefined;
  /** Whether e-mail addresses are redacted (their local part is held back at a piece's end). */
  email: boolean;
}

/**
 * The marker automaton of the fixed and the learned tables as one (the
 * learned `<`, pattern 0, left out: the fixed one finds it); undefined when
 * their characters are too many for one automaton (then each table scans).
 */
function joinedMarkers(fixed: Built, learned: Built): Automaton | undefined {
  try {
    return new Automaton([...fixed.markerPatterns, ...learned.markerPatterns.slice(1)]);
  } catch {
    return undefined;
  }
}

/** The rules that never change: built-in and user rules, homes, e-mail, paths. */
export function fixedSpecs(defaults: boolean, mode: PathMode, user: readonly RuleSpec[]): Spec[] {
  const specs: Spec[] = [];
  const paths = mode !== 'none';
  if (defaults) for (const rule of DEFAULT_RULES) specs.push({ ...rule, kind: 'secret', builtin: true });
  for (const rule of user) specs.push({ ...rule, kind: 'secret', builtin: false });
  if (paths) {
    for (const rule of HOME_RULES) specs.push({ ...rule, kind: rule.kind ?? 'home', builtin: true });
    specs.push({ ...EMAIL_RULE, kind: 'email', builtin: true });
  }
  if (mode === 'all') for (const rule of PATH_RULES) specs.push({ ...rule, kind: 'path', builtin: true });
  return specs;
}

/** Fixed tables by options: rebuilt by no Redactor after the first with the same rules. */
const fixedCache = new Map<string, Built>();

const optionsKey = (defaults: boolean, mode: PathMode, user: readonly RuleSpec[]) => `${defaults}\u0000${mode}\u0000${JSON.stringify(user)}`;

/** The options whose tables the build stores: the defaults (no user rules; --allow and placeholders do not change the tables). */
const STORED_KEY = optionsKey(true, 'home', []);

/** The stored tables (./stored-tables.ts) when the build wrote them for these options; else they are built. */
function storedTables(): StoredBuild | undefined {
  const decoded = readStoredTables();
  return decoded?.key === STORED_KEY ? decoded.stored : undefined;
}

function fixedTables(defaults: boolean, mode: PathMode, user: readonly RuleSpec[]): Built {
  const key = optionsKey(defaults, mode, user);
  let built = fixedCache.get(key);
  if (built === undefined) {
    built = buildRules(fixedSpecs(defaults, mode, user), key === STORED_KEY ? storedTables() : undefined);
    if (fixedCache.size >= 16) fixedCache.clear();
    fixedCache.set(key, built);
  }
  return built;
}

/** The default options' tables as the build stores them (scripts/bundle.mjs), built afresh. */
export function defaultTablesBytes(): Uint8Array {
  const specs = fixedSpecs(true, 'home', []);
  return encodeTables(STORED_KEY, storedOf(specs, buildRules(specs)));
}

/**
 * Joins the fixed tables with those of the learned rules: the workspace rule
 * comes first (priority 1), the user-name rule after e-mail and before
 * `--paths all`'s path rules, as when all were one list.
 */
function joinTables(fixed: Built, learned: Spec[]): Tables {
  const firstPath = fixed.rules.findIndex((r) => r.kind === 'path');
  const userAt = firstPath < 0 ? fixed.rules.length : firstPath;
  const fixedPrio = (i: number) => (i === 0 ? 0 : i < userAt ? i + 1 : i + 2);
  const rules: Compiled[] = new Array<Compiled>(fixed.rules.length + 2);
  fixed.rules.forEach((rule, i) => (rules[fixedPrio(i)] = rule));
  const never = fixed.rules[0]!;
  rules[1] = never;
  rules[userAt + 1] = never;
  const scanners = [{ markers: fixed.markers, prios: fixed.rulesOf.map((list) => list.map(fixedPrio)) }];
  const tables: Tables = {
    rules,
    scanners,
    unanchored: fixed.unanchored,
    markerTests: fixed.markerTest ? [fixed.markerTest] : undefined,
    rawTests: fixed.rawTest ? [fixed.rawTest] : undefined,
    holds: [{ built: fixed, offset: 0 }],
    partials: fixed.partials,
    freePartials: fixed.freePartials,
    fallbackHold: fixed.fallbackHold,
    freeReach: fixed.freeReach,
    freeEnds: fixed.freeEnds,
    email: fixed.rules.some((r) => r.kind === 'email'),
  };
  if (learned.length === 0) return tables;
  const built = buildRules(learned);
  const learnedPrio = (i: number) => (i === 0 ? -1 : built.rules[i]!.kind === 'workspace' ? 1 : userAt + 1);
  built.rules.forEach((rule, i) => {
    if (i > 0) rules[learnedPrio(i)] = rule;
  });
  // Pattern 0 is `<`, already found by the fixed automaton.
  const learnedPrios = built.rulesOf.map((list, id) => (id === 0 ? new Int32Array(0) : list.map(learnedPrio)));
  const joined = joinedMarkers(fixed, built);
  if (joined === undefined) {
    scanners.push({ markers: built.markers, prios: learnedPrios });
    if (tables.markerTests && built.markerTest) tables.markerTests = [...tables.markerTests, built.markerTest];
  } else {
    // One automaton over fixed and learned markers: a scanned string costs one pass, not one per table.
    tables.scanners = [{ markers: joined, prios: [...scanners[0]!.prios, ...learnedPrios.slice(1)] }];
    if (tables.markerTests && built.markerTest) tables.markerTests = [joined];
  }
  // One raw automaton over fixed and learned markers: every line costs one pass, not one per table.
  if (tables.rawTests && built.rawTest) tables.rawTests = [new Automaton([...fixed.rawPatterns, ...built.rawPatterns])];
  tables.holds = [...tables.holds, { built, offset: fixed.partials.length }];
  tables.partials = [...fixed.partials, ...built.partials];
  tables.freePartials = [...fixed.freePartials, ...built.freePartials];
  tables.freeReach = Math.max(fixed.freeReach, built.freeReach);
  tables.freeEnds = unionEnds(fixed.freeEnds, built.freeEnds);
  return tables;
}
