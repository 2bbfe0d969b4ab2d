/**
 * wuu-redact: make a log safe to share without breaking it.
 *
 * Every string value (and object key) of every event, at any depth, goes
 * through the rules of lib/redact-rules.ts: secrets become `<secret:RULE>`,
 * home directories `~`, the announced workspace `<workspace>`, user names
 * `<user>`, e-mail addresses `<email>`. Strings that hold JSON (`arguments`)
 * are decoded, redacted and re-encoded, so JSON escapes never hide a secret.
 * An event with nothing to redact is written as its original bytes.
 *
 * SPLIT DELTAS. A secret can arrive cut across two `agent_message_delta`,
 * `tool_output_delta` or `command_output_delta` pieces of the same stream
 * (same type, thread, turn and item). When a piece ENDS with text that could
 * begin a match (each rule's `partial` pattern: `sk-pro`, `/home/al`,
 * `password=`...), that tail is held back: the event is still emitted at
 * once, with the safe prefix as its `delta`, and the tail is prepended to the
 * next piece of the same stream. A held tail is bounded (at most
 * {@link MAX_HOLD} characters, in practice a few dozen). When the stream ends
 * (tool_completed/command_completed/tool_removed/command_removed for items,
 * agent_message_final or the turn's end for messages, result, end of input)
 * the held text is emitted, redacted, as one extra delta piece of the same
 * type and ids, right before the event that ended the stream. Only then can
 * the event count grow (by at most one per stream); types and the order of
 * the original events never change, and a consumer that concatenates the
 * pieces gets exactly the redacted text.
 *
 * FAST PATH. Before parsing, the raw line is searched (as latin1 bytes,
 * case-insensitively) for every rule's markers, the learned user names and
 * workspaces, and for `\u` or `\/` escapes. JSON escapes other than those
 * decode to a single quote, backslash or control character, none of which
 * can complete an ASCII marker, so a line without any marker and without
 * those escapes cannot hold anything the rules would match: it is written
 * unparsed. Anything in doubt takes the full path.
 */
import crypto from 'node:crypto';
import type { Transform } from 'node:stream';
import { coreStream, type Core, type Emit } from '../core.js';
import { FAMILIES, TURN_END_TYPES, type WuuEvent } from '../events.js';
import { LineRecord, type EventRecord } from '../jsonl.js';
import { checkPath, JsonPathError, selectPointers } from '../jsonpath.js';
import { analyzePattern, caseless, escapeRegex, NOT_AFTER_PLACEHOLDER, PLACEHOLDER_PATTERN, prefixPattern, type RuleKind, type RuleSpec } from './rule-spec.js';
import { DEFAULT_RULES, EMAIL_RULE, HOME_RULES, NOT_USER_NAMES, PATH_RULES, SECRET_KEY_NAME, WORD_MARKERS } from './rules.js';
import { topLevelString } from '../scan.js';

export { RuleError, parsePatternOption, parseRuleFile, type RuleSpec } from './rule-spec.js';
export { DEFAULT_RULES } from './rules.js';

/** The salt used by --pseudonymize without --salt. Public: use a per-project salt. */
export const DEFAULT_SALT = 'wuu-redact/v1';

/** The longest tail held back per delta stream, in characters. */
export const MAX_HOLD = 20000;

/** Held tail for rules that have no `partial` pattern (user rules). */
export const FALLBACK_HOLD = 256;

/** Which paths are private: `none`, `home` (default: homes, user names, workspace, e-mail), `all` (also every absolute path). */
export type PathMode = 'none' | 'home' | 'all';

/** Options of {@link createRedact}. */
export interface RedactOptions {
  /** JSONPath expressions whose values are censored (`"<redacted>"`) or removed. */
  paths?: string[];
  /** Remove the fields selected by `paths` instead of censoring them. */
  remove?: boolean;
  /** Extra rules, after the built-in ones. */
  rules?: RuleSpec[];
  /** Use the built-in secret rules (default true). */
  defaultRules?: boolean;
  /** Private-path handling (default `home`). */
  pathMode?: PathMode;
  /** Stable keyed placeholders (`<secret:RULE:1a2b3c4d>`) instead of plain ones. */
  pseudonymize?: boolean;
  /** HMAC key for `pseudonymize` (default {@link DEFAULT_SALT}). */
  salt?: string;
  /** Log counts per rule and per event type at the end. */
  report?: boolean;
  /** Write nothing; log `FILE:LINE: RULE` for each finding; status 1 when any. */
  check?: boolean;
  /** Where report and check lines go (the CLI: stderr with the program name). */
  log?: (line: string) => void;
}

const SHORT_WINDOW = 1100;
const MAX_WINDOW = 16600;
const MAX_DEPTH = 256;
const MAX_JSON_NESTING = 8;
const MAX_USERS = 256;
const MAX_WORKSPACES = 256;
const MAX_CARRIES = 1024;

const DELTA_TYPES: ReadonlySet<string> = new Set(['agent_message_delta', 'tool_output_delta', 'command_output_delta']);
/** The events that announce a workspace (and a home) to learn: session_configured and thread_*. */
const LEARN_TYPES: ReadonlySet<string> = new Set(FAMILIES.session);
const FLUSH_TYPES: ReadonlySet<string> = new Set([
  'agent_message_final',
  'tool_completed',
  'tool_removed',
  'command_completed',
  'command_removed',
  'result',
  ...TURN_END_TYPES,
]);

/** Top-level field names of the wire format: never rewritten as keys. */
const WIRE_FIELDS: ReadonlySet<string> = new Set(
  (
    'type thread_id turn_id item_id agent_id run_id protocol_version provider model effort variant max_parallel ' +
    'workspace_root permissions cwd delta message input_tokens output_tokens cache_creation_tokens cache_read_tokens ' +
    'trace_path awaiting_auto_continuation error reason name arguments status command process_id tool_name path action ' +
    'move_path old_file_sha new_file_sha workspace_revision patch_journal_path manifest_path agent_type task_name ' +
    'agent_profile agent_path parent_id description result result_path result_bytes result_truncated todo step_index ' +
    'protocol transport replay_mode previous_response_id_used connection_reused diagnostic transport_failure_phase ' +
    'fallback_transport events_emitted fallback_active fallback_reason fallback_pin_status fallback_retry_after_ms ' +
    'fallback_ttl_ms input_items full_input_items delta_input_items message_count tool_count system_hash system_bytes ' +
    'stable_prefix_hash turn_prefix_hash tool_surface_hash prompt_cache_key system_sections retrying final_message structured_result'
  ).split(' '),
);

const PLACEHOLDER_ONLY = new RegExp(`^(?:${PLACEHOLDER_PATTERN}|~)$`);
const ESCAPED = /\\(?:u[0-9a-fA-F]{4}|\/)/;
const PLACEHOLDERS = new RegExp(PLACEHOLDER_PATTERN, 'g');

/** Whether an object key names a secret (a placeholder inside it does not count). */
function namesSecret(key: string): boolean {
  return SECRET_KEY_NAME.test(key.includes('<') ? key.replace(PLACEHOLDERS, ' ') : key);
}

/**
 * Decodes `\uXXXX` and `\/` escapes however many backslashes precede them
 * (JSON nested in JSON), leaving control characters escaped. Used to look
 * for secrets that escaped text would otherwise hide.
 */
export function looseUnescape(text: string): string {
  return text
    .replace(/\\+u([0-9a-fA-F]{4})/g, (match, hex: string) => {
      const code = parseInt(hex, 16);
      return code < 0x20 ? match : String.fromCharCode(code);
    })
    .replace(/\\+\//g, '/');
}

/** A rule compiled on its own: a sticky regex tried only at candidate positions. */
interface Compiled {
  re: RegExp;
  name: string;
  kind: RuleKind | 'skip';
  reach: number;
  /** Only the text of these named groups is replaced, when present. */
  secret: boolean;
  lead: boolean;
  user: boolean;
}

interface CompiledPartial {
  re: RegExp;
  reach: number;
}

interface Built {
  /** Rules with markers, in priority order; index 0 is the placeholder skip. */
  rules: Compiled[];
  /** Finds every candidate position: markers and `<` (case-insensitive, global). */
  candidates: RegExp;
  /** Marker (lower-case) → indexes into `rules`, grouped by first character. */
  dispatch: Map<string, Array<[string, number[]]>>;
  /** Rules without markers: scanned everywhere, after the others. */
  unanchored: Compiled[];
  /** Whether any marker of any rule occurs (case-insensitive); undefined when some rule has none. */
  markerTest: RegExp | undefined;
  /** The same for raw lines (bytes of verbatim JSON text); undefined: no raw shortcut. */
  rawTest: ByteMarkers | undefined;
  partials: CompiledPartial[];
  /** Partial anchors over the short window, and over the long one for long partials. */
  shortAnchors: RegExp | undefined;
  longAnchors: RegExp | undefined;
  anchorDispatch: Map<string, Array<[string, number[]]>>;
  /** Last character of an anchor's proper prefix → [prefix, partial indexes]. */
  prefixes: Map<string, Array<[string, number[]]>>;
  /** Partials without anchors (user rules): searched over the short window. */
  freePartials: RegExp[];
  fallbackHold: number;
}

type Spec = RuleSpec & { kind: RuleKind; builtin: boolean; rawMarkers?: string[] };

/** Partials whose window exceeds the short one: the long anchors. */
const LONG_ANCHORS = ['-----begin', 'eyj', 'bearer', 'basic'];

/** Text as latin1 of its UTF-8 bytes: how raw lines are searched. */
function rawForm(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** The longest run of a literal that a JSON encoder writes verbatim. */
function verbatimRun(text: string): string {
  let best = '';
  for (const run of text.split(/["\\\u0000-\u001f\u2028\u2029]/)) if (run.length > best.length) best = run;
  return best;
}

/**
 * Drops literals that contain another (the shorter one's presence is implied),
 * unless the shorter one is a key word, which only counts before a non-letter.
 */
function minimalLiterals(list: Iterable<string>): string[] {
  const unique = [...new Set(list)].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const m of unique) if (!kept.some((k) => !WORD_MARKERS.has(k) && m.includes(k))) kept.push(m);
  return kept;
}

/** A case-insensitive alternation of literals, longest first. */
function literalsRegex(literals: Iterable<string>, flags: string): RegExp | undefined {
  const list = [...new Set(literals)].sort((a, b) => b.length - a.length);
  return list.length === 0 ? undefined : new RegExp(list.map(escapeRegex).join('|'), flags);
}

/** Markers as one regex: ASCII letters in either case, key words not followed by a lower-case letter. */
function markerRegex(markers: string[]): RegExp | undefined {
  if (markers.length === 0) return undefined;
  const sorted = [...markers].sort((a, b) => b.length - a.length);
  return new RegExp(sorted.map((m) => caseless(m) + (WORD_MARKERS.has(m) ? '(?![a-z])' : '')).join('|'));
}

function addDispatch(dispatch: Map<string, Array<[string, number[]]>>, literal: string, index: number): void {
  const first = literal[0]!;
  let list = dispatch.get(first);
  if (!list) dispatch.set(first, (list = []));
  let entry = list.find(([lit]) => lit === literal);
  if (!entry) list.push((entry = [literal, []]));
  if (!entry[1].includes(index)) entry[1].push(index);
}

/**
 * Case-insensitive search for ASCII-folded byte strings in a Buffer, without
 * copying it: one pass over the bytes, a table from each (lower-cased) first
 * byte to the literals that start with it. Also flags JSON escapes that could
 * spell a marker (every `\uXXXX` but Go's five, and `\/`).
 */
class ByteMarkers {
  private readonly table: Array<Array<{ bytes: Buffer; word: boolean }> | undefined> = new Array(256);

  constructor(literals: string[]) {
    for (const literal of literals) {
      const bytes = Buffer.from(literal, 'latin1');
      for (let i = 0; i < bytes.length; i++) bytes[i] = fold(bytes[i]!);
      const first = bytes[0]!;
      (this.table[first] ??= []).push({ bytes, word: WORD_MARKERS.has(literal) });
    }
  }

  /** Whether any literal or a doubtful escape occurs in `buf`. */
  test(buf: Buffer): boolean {
    const table = this.table;
    const n = buf.length;
    for (let i = 0; i < n; i++) {
      const c = buf[i]!;
      if (c === BACKSLASH && i + 1 < n) {
        const next = buf[i + 1]!;
        if (next === SLASH) return true;
        // `\\u0073` is no escape here but becomes one in JSON nested in a string: no skipping.
        if (next === LOWER_U && !goEscapeAt(buf, i + 2)) return true;
      }
      const list = table[fold(c)];
      if (list === undefined) continue;
      for (const { bytes: literal, word } of list) {
        if (i + literal.length > n) continue;
        let k = 1;
        while (k < literal.length && fold(buf[i + k]!) === literal[k]) k++;
        if (k < literal.length) continue;
        const after = buf[i + k];
        if (!word || after === undefined || after < 0x61 || after > 0x7a) return true;
      }
    }
    return false;
  }
}

const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const LOWER_U = 0x75;

function fold(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte + 32 : byte;
}

/** Whether the 4 hex digits at `at` are one of Go's escapes: 003c 003e 0026 2028 2029. */
function goEscapeAt(buf: Buffer, at: number): boolean {
  if (at + 4 > buf.length) return false;
  const a = buf[at]!;
  const b = buf[at + 1]!;
  const c = buf[at + 2]!;
  const d = fold(buf[at + 3]!);
  if (a === 0x30 && b === 0x30) return (c === 0x33 && (d === 0x63 || d === 0x65)) || (c === 0x32 && d === 0x36);
  return a === 0x32 && b === 0x30 && c === 0x32 && (d === 0x38 || d === 0x39);
}

/** Compiled rules by source: the built-ins are compiled once, not at every rebuild. */
const compiledCache = new Map<string, Compiled>();

function compileRule(spec: Spec, sticky: boolean): Compiled {
  const key = `${sticky}\u0000${spec.kind}\u0000${spec.name}\u0000${spec.reach ?? 0}\u0000${spec.flags ?? ''}\u0000${spec.pattern}`;
  const cached = spec.builtin ? compiledCache.get(key) : undefined;
  if (cached) return cached;
  const compiled = compileFresh(spec, sticky);
  if (spec.builtin && spec.kind !== 'workspace' && spec.kind !== 'user') compiledCache.set(key, compiled);
  return compiled;
}

function compileFresh(spec: Spec, sticky: boolean): Compiled {
  const names = analyzePattern(spec.pattern).names;
  return {
    re: new RegExp(spec.pattern, `${sticky ? 'y' : 'g'}d${spec.flags ?? ''}`),
    name: spec.name,
    kind: spec.kind,
    reach: spec.reach ?? 0,
    secret: names.includes('secret'),
    lead: names.includes('lead'),
    user: names.includes('name'),
  };
}

/**
 * The rule engine over plain strings. Each rule is its own sticky regex,
 * tried only where one of its markers occurs (at most `reach` characters
 * before it); at one position the earlier rule wins, and placeholders already
 * in the text are skipped whole. It learns user names (from home paths) and
 * workspaces as the stream goes.
 */
export class Redactor {
  /** Increases whenever a user name or workspace is learned. */
  generation = 0;
  private readonly users = new Map<string, string>();
  private readonly workspaces: string[] = [];
  private built: Built | undefined;
  private readonly hashes = new Map<string, string>();
  private readonly pathMode: PathMode;
  private readonly defaultRules: boolean;
  private readonly userRules: RuleSpec[];
  private readonly salt: string;

  constructor(private readonly options: RedactOptions = {}) {
    this.pathMode = options.pathMode ?? 'home';
    this.defaultRules = options.defaultRules !== false;
    this.userRules = options.rules ?? [];
    this.salt = options.salt ?? DEFAULT_SALT;
    this.ensure(); // compile now: a bad user rule fails up front
  }

  /** Whether object keys that name a secret have their string values redacted. */
  get secretKeys(): boolean {
    return this.defaultRules;
  }

  /** Records a workspace root or cwd; its later occurrences become `<workspace>`. */
  learnWorkspace(path: string): void {
    if (this.pathMode === 'none' || path.length < 2 || /^(?:[/\\]+|[A-Za-z]:[/\\]*)$/.test(path)) return;
    const trimmed = path.replace(/[/\\]+$/, '');
    if (this.workspaces.includes(trimmed) || this.workspaces.length >= MAX_WORKSPACES) return;
    this.workspaces.push(trimmed);
    this.workspaces.sort((a, b) => b.length - a.length);
    this.changed();
  }

  /** Records a user name seen in a home path. */
  learnUser(name: string): void {
    const key = name.toLowerCase();
    if (name.length < 2 || NOT_USER_NAMES.has(key) || this.users.has(key) || this.users.size >= MAX_USERS) return;
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

  private ensure(): Built {
    if (this.built) return this.built;
    const specs = this.specs();
    const anchored = (spec: Spec) => spec.markers !== undefined && spec.markers.length > 0 && spec.markers.every((m) => m !== '');

    const rules: Compiled[] = [
      { re: new RegExp(PLACEHOLDER_PATTERN, 'yd'), name: '', kind: 'skip', reach: 0, secret: false, lead: false, user: false },
    ];
    const dispatch = new Map<string, Array<[string, number[]]>>();
    addDispatch(dispatch, '<', 0);
    const unanchored: Compiled[] = [];
    for (const spec of specs) {
      if (!anchored(spec)) {
        unanchored.push(compileRule(spec, false));
        continue;
      }
      rules.push(compileRule(spec, true));
      for (const marker of spec.markers!) addDispatch(dispatch, marker.toLowerCase(), rules.length - 1);
    }
    const markers = specs.filter(anchored).flatMap((s) => s.markers!.map((m) => m.toLowerCase()));
    const all = unanchored.length === 0;

    const partials: CompiledPartial[] = [];
    const anchorDispatch = new Map<string, Array<[string, number[]]>>();
    const prefixes = new Map<string, Array<[string, number[]]>>();
    const freePartials: RegExp[] = [];
    const shortAnchors: string[] = [];
    const longAnchors: string[] = [];
    let fallbackHold = 0;
    for (const spec of specs) {
      if (spec.partial === undefined) {
        // A built-in without a partial is covered by another one's (aws-secret-key by key-value);
        // a user rule without one is covered by holding back a fixed tail.
        if (!spec.builtin) fallbackHold = FALLBACK_HOLD;
        continue;
      }
      const anchors = (spec.partialAnchors ?? spec.markers ?? []).map((a) => a.toLowerCase());
      if (anchors.length === 0 || anchors.some((a) => a === '')) {
        freePartials.push(new RegExp(`(?:${spec.partial})$`, `g${spec.flags ?? ''}`));
        continue;
      }
      partials.push({ re: new RegExp(`(?:${spec.partial})$`, `y${spec.flags ?? ''}`), reach: spec.partialReach ?? 0 });
      const index = partials.length - 1;
      for (const anchor of anchors) {
        addDispatch(anchorDispatch, anchor, index);
        (spec.builtin && LONG_ANCHORS.includes(anchor) ? longAnchors : shortAnchors).push(anchor);
        for (let k = 1; k < anchor.length; k++) addDispatch(prefixes, [...anchor.slice(0, k)].reverse().join(''), index);
      }
    }
    this.built = {
      rules,
      candidates: literalsRegex([...markers, '<'], 'gi')!,
      dispatch,
      unanchored,
      markerTest: all ? markerRegex(minimalLiterals(markers)) : undefined,
      rawTest: all ? new ByteMarkers(minimalLiterals(specs.flatMap((s) => (s.rawMarkers ?? s.markers!).map((m) => rawForm(m).toLowerCase())))) : undefined,
      partials,
      shortAnchors: literalsRegex(shortAnchors, 'gi'),
      longAnchors: literalsRegex(longAnchors, 'gi'),
      anchorDispatch,
      prefixes,
      freePartials,
      fallbackHold,
    };
    return this.built;
  }

  /**
   * False when the raw line certainly holds nothing to redact: none of the
   * markers occurs in its bytes and no escape could spell one (see FAST PATH).
   */
  mayMatchRaw(raw: Buffer): boolean {
    const test = this.ensure().rawTest;
    return test === undefined || test.test(raw);
  }

  /**
   * Redacts one string; pushes a rule name onto `hits` per replacement. With
   * `from`, only `input.slice(from)` is redacted and returned: the text
   * before it is context that rules look behind at (the emitted part of a
   * delta stream whose held tail this is).
   */
  text(input: string, hits: string[], from = 0): string {
    const test = this.ensure().markerTest;
    const escaped = input.includes('\\') && ESCAPED.test(input);
    if (test !== undefined && !escaped && !test.test(input)) return from === 0 ? input : input.slice(from);
    let direct: string[] = [];
    const generation = this.generation;
    let out = this.apply(input, direct, from);
    if (this.generation !== generation) {
      // A user name was learned from this very string: its other occurrences go too.
      direct = [];
      out = this.apply(input, direct, from);
    }
    if (escaped) {
      // Escaped text must not hide a secret: look at it decoded too.
      const left = looseUnescape(input.slice(0, from));
      const decoded = left + looseUnescape(input.slice(from));
      if (decoded !== input) {
        const found: string[] = [];
        const redacted = this.apply(decoded, found, left.length);
        if (found.length > 0) {
          hits.push(...found);
          return redacted;
        }
      }
    }
    hits.push(...direct);
    return out;
  }

  /**
   * Calls `onMatch` for each match of the anchored rules from `from` on, left
   * to right; stops when it returns false.
   */
  private scan(text: string, from: number, onMatch: (m: RegExpExecArray, rule: Compiled) => boolean): void {
    const built = this.ensure();
    // Every (position, rule) worth trying, in text order then rule order.
    const attempts: number[] = [];
    const candidates = built.candidates;
    candidates.lastIndex = from;
    let m: RegExpExecArray | null;
    while ((m = candidates.exec(text)) !== null) {
      const at = m.index;
      for (const [literal, indexes] of built.dispatch.get(text[at]!.toLowerCase()) ?? []) {
        if (text.slice(at, at + literal.length).toLowerCase() !== literal) continue;
        for (const index of indexes) {
          for (let k = built.rules[index]!.reach; k >= 0; k--) if (at - k >= from) attempts.push((at - k) * 4096 + index);
        }
      }
      candidates.lastIndex = at + 1;
    }
    if (attempts.length === 0) return;
    attempts.sort((a, b) => a - b);
    let next = from;
    for (const attempt of attempts) {
      const at = Math.floor(attempt / 4096);
      if (at < next) continue;
      const rule = built.rules[attempt % 4096]!;
      rule.re.lastIndex = at;
      const found = rule.re.exec(text);
      if (found === null || found[0].length === 0) continue;
      if (!onMatch(found, rule)) return;
      next = found.index + found[0].length;
    }
  }

  private apply(input: string, hits: string[], from = 0): string {
    let out = '';
    let last = from;
    const replace = (m: RegExpExecArray, rule: Compiled, text: string) => {
      let start = m.index;
      let end = m.index + m[0].length;
      const groups = m.indices?.groups;
      if (rule.secret && groups?.secret) [start, end] = groups.secret;
      if (rule.lead && groups?.lead) start = Math.min(start, groups.lead[0]);
      if (start < last) start = last;
      if (end <= start) return;
      let key = text.slice(start, end);
      if (rule.kind === 'home') {
        const name = rule.user ? m.groups?.name : undefined;
        if (name !== undefined) {
          this.learnUser(name);
          key = name;
        }
      } else if (rule.kind === 'root') key = 'root';
      out += text.slice(last, start) + this.placeholder(rule.kind as RuleKind, rule.name, key);
      last = end;
      hits.push(rule.name);
    };
    const built = this.ensure();
    this.scan(input, from, (m, rule) => {
      if (rule.kind !== 'skip') replace(m, rule, input);
      return true;
    });
    let text = last > from ? out + input.slice(last) : input.slice(from);
    // Rules without markers: everywhere, except inside placeholders.
    for (const rule of built.unanchored) {
      const placeholders: Array<[number, number]> = [];
      const skip = new RegExp(PLACEHOLDER_PATTERN, 'g');
      for (let p: RegExpExecArray | null; (p = skip.exec(text)) !== null; ) placeholders.push([p.index, p.index + p[0].length]);
      out = '';
      last = 0;
      rule.re.lastIndex = 0;
      for (let m: RegExpExecArray | null; (m = rule.re.exec(text)) !== null; ) {
        const s = m.index;
        const e = s + m[0].length;
        if (e === s || placeholders.some(([a, b]) => s < b && e > a)) {
          rule.re.lastIndex = s + 1;
          continue;
        }
        replace(m, rule, text);
      }
      if (last > 0) text = out + text.slice(last);
    }
    return text;
  }

  /** The placeholder for a value (keyed HMAC when pseudonymizing). */
  placeholder(kind: RuleKind, name: string, value: string): string {
    if (!this.options.pseudonymize) {
      switch (kind) {
        case 'secret':
          return `<secret:${name}>`;
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
      hash = crypto.createHmac('sha256', this.salt).update(id).digest('hex').slice(0, 8);
      if (this.hashes.size > 65536) this.hashes.clear();
      this.hashes.set(id, hash);
    }
    if (kind === 'secret') return `<secret:${name}:${hash}>`;
    return `<${kind === 'root' ? 'home' : kind}:${hash}>`;
  }

  /**
   * Where to cut a delta piece: the start of the earliest suffix that could
   * begin a match continued by the next piece (the text's length when none).
   */
  holdPoint(text: string): number {
    const built = this.ensure();
    const len = text.length;
    if (len === 0) return 0;
    let hold = len;
    if (built.fallbackHold > 0) hold = Math.max(0, len - built.fallbackHold);
    const attempts: number[] = [];
    const tryAt = (at: number, indexes: number[]) => {
      for (const index of indexes) {
        const reach = built.partials[index]!.reach;
        for (let k = reach; k >= 0; k--) if (at - k >= 0) attempts.push((at - k) * 4096 + index);
      }
    };
    // Anchors cut by the end of the piece: the text ends with their beginning.
    const tail = text.slice(-16).toLowerCase();
    for (const [reversed, indexes] of built.prefixes.get(tail[tail.length - 1]!) ?? []) {
      const prefix = [...reversed].reverse().join('');
      if (tail.endsWith(prefix)) tryAt(len - prefix.length, indexes);
    }
    // Whole anchors within reach of the end.
    const search = (re: RegExp | undefined, window: number) => {
      if (re === undefined) return;
      const start = Math.max(0, len - window);
      re.lastIndex = start;
      let m: RegExpExecArray | null;
      while ((m = re.exec(text)) !== null) {
        const at = m.index;
        for (const [literal, indexes] of built.anchorDispatch.get(text[at]!.toLowerCase()) ?? []) {
          if (text.slice(at, at + literal.length).toLowerCase() === literal) tryAt(at, indexes);
        }
        re.lastIndex = at + 1;
      }
    };
    search(built.shortAnchors, SHORT_WINDOW);
    search(built.longAnchors, MAX_WINDOW);
    attempts.sort((a, b) => a - b);
    for (const attempt of attempts) {
      const at = Math.floor(attempt / 4096);
      if (at >= hold) break;
      const partial = built.partials[attempt % 4096]!;
      partial.re.lastIndex = at;
      if (partial.re.test(text)) {
        hold = at;
        break;
      }
    }
    for (const free of built.freePartials) {
      free.lastIndex = Math.max(0, len - SHORT_WINDOW);
      const m = free.exec(text);
      if (m && m.index < hold) hold = m.index;
    }
    if (len - hold > MAX_HOLD) hold = len - MAX_HOLD;
    if (hold < len) hold = this.outsideMatches(text, hold);
    return hold;
  }

  /** Moves a cut point back to the start of a complete match that spans it. */
  private outsideMatches(text: string, cut: number): number {
    let result = cut;
    this.scan(text, Math.max(0, cut - 70000), (m) => {
      if (m.index >= cut) return false;
      if (m.index + m[0].length > cut) {
        result = m.index;
        return false;
      }
      return true;
    });
    return result;
  }
}

/** Pretty-printing of a JSON string being re-encoded: keep its indentation. */
function indentOf(text: string): string | undefined {
  const m = /\n([ \t]+)\S/.exec(text);
  return m ? m[1] : undefined;
}

function looksLikeJson(text: string): boolean {
  let a = 0;
  while (a < text.length && text.charCodeAt(a) <= 0x20) a++;
  let b = text.length - 1;
  while (b > a && text.charCodeAt(b) <= 0x20) b--;
  const first = text[a];
  const last = text[b];
  return b > a && ((first === '{' && last === '}') || (first === '[' && last === ']') || (first === '"' && last === '"'));
}

/** Go's json.Encoder escapes these; a changed event keeps that style. */
function goEscape(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const LT = 0x3c;
const GT = 0x3e;
const AMP = 0x26;

/** Whether a raw line was written with Go's HTML escaping (no literal `<`, `>`, `&`). */
function goStyle(raw: Buffer | undefined): boolean {
  return raw === undefined || (raw.indexOf(LT) < 0 && raw.indexOf(GT) < 0 && raw.indexOf(AMP) < 0);
}

/**
 * A record for a changed event, serialized now so the escaping style is kept.
 * It is a LineRecord over the new bytes: the event object is not retained
 * while output waits to be written (it parses again if a consumer asks).
 */
function changedRecord(event: WuuEvent, from: { file: string; line: number }, go: boolean): EventRecord {
  const json = JSON.stringify(event);
  return new LineRecord(Buffer.from(go ? goEscape(json) : json), from.file, from.line);
}

interface Carry {
  key: string;
  /** The original text just before the held tail: context for lookbehinds. */
  left: string;
  type: string;
  thread: string;
  turn: string;
  text: string;
  template: Record<string, unknown>;
  go: boolean;
}

function idOf(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

function streamKey(type: string, event: Record<string, unknown>): string {
  const base = `${type}\u0000${idOf(event.thread_id)}\u0000${idOf(event.turn_id)}`;
  return type === 'agent_message_delta' ? base : `${base}\u0000${idOf(event.item_id)}`;
}

/** The sentinel replacing a censored value of each JSON type. */
function censored(value: unknown): unknown {
  if (typeof value === 'string') return '<redacted>';
  if (typeof value === 'number') return 0;
  if (typeof value === 'boolean') return false;
  if (Array.isArray(value)) return [];
  if (value !== null && typeof value === 'object') return {};
  return value;
}

/**
 * The redactor's core. Throws a JsonPathError for an unusable path and a
 * SyntaxError-carrying RuleError for a bad rule (the CLI reports both as
 * usage errors).
 */
export function createRedact(options: RedactOptions = {}): Core {
  const engine = new Redactor(options);
  const paths = options.paths ?? [];
  for (const path of paths) checkPath(path);
  const check = options.check === true;
  const log = options.log ?? (() => {});
  const carries = new Map<string, Carry>();
  const ruleCounts = new Map<string, number>();
  const typeCounts = new Map<string, number>();
  let events = 0;
  let changedEvents = 0;
  let findings = 0;
  let last = { file: '-', line: 0 };

  const shortcut = paths.length === 0;

  const record = (type: string, hits: string[], where: { file: string; line: number }) => {
    if (hits.length === 0) return;
    findings += hits.length;
    changedEvents++;
    typeCounts.set(type, (typeCounts.get(type) ?? 0) + hits.length);
    const seen = new Set<string>();
    for (const name of hits) {
      ruleCounts.set(name, (ruleCounts.get(name) ?? 0) + 1);
      if (check && !seen.has(name)) {
        seen.add(name);
        log(`${where.file}:${where.line}: ${name}`);
      }
    }
  };

  const walkString = (text: string, depth: number, hits: string[]): string => {
    if (depth < MAX_JSON_NESTING && looksLikeJson(text)) {
      let parsed: unknown;
      let ok = false;
      try {
        parsed = JSON.parse(text);
        ok = true;
      } catch {
        // not JSON after all: plain text
      }
      if (ok) {
        const redacted = typeof parsed === 'string' ? walkString(parsed, depth + 1, hits) : walkValue(parsed, depth + 1, hits);
        if (redacted === parsed) return text;
        return JSON.stringify(redacted, null, indentOf(text));
      }
    }
    return engine.text(text, hits);
  };

  const walkObject = (obj: Record<string, unknown>, depth: number, hits: string[], top: boolean, skip?: string): Record<string, unknown> => {
    let changed = false;
    const entries: Array<[string, unknown]> = [];
    for (const key of Object.keys(obj)) {
      const value = obj[key];
      if (key === skip) {
        entries.push([key, value]);
        continue;
      }
      const newKey = top && WIRE_FIELDS.has(key) ? key : engine.text(key, hits);
      let newValue: unknown;
      // The redacted key is judged too: `AKIA…password` only names a password once its
      // secret part became a placeholder, and a second pass would see it that way.
      const keyNamesSecret = namesSecret(key) || (newKey !== key && namesSecret(newKey));
      if (engine.secretKeys && typeof value === 'string' && value !== '' && keyNamesSecret && !PLACEHOLDER_ONLY.test(value)) {
        newValue = engine.placeholder('secret', 'key-value', value);
        hits.push('key-value');
      } else {
        newValue = walkValue(value, depth + 1, hits);
      }
      if (newKey !== key || newValue !== value) changed = true;
      entries.push([newKey, newValue]);
    }
    if (!changed) return obj;
    const out: Record<string, unknown> = {};
    for (const [key, value] of entries) {
      let name = key;
      for (let n = 2; Object.hasOwn(out, name); n++) name = `${key}#${n}`;
      Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
    }
    return out;
  };

  function walkValue(value: unknown, depth: number, hits: string[]): unknown {
    if (typeof value === 'string') return walkString(value, depth, hits);
    if (value === null || typeof value !== 'object') return value;
    if (depth > MAX_DEPTH) {
      hits.push('too-deep');
      return '<redacted>';
    }
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item = walkValue(value[i], depth + 1, hits);
        if (item !== value[i] && out === undefined) out = value.slice(0, i);
        if (out) out.push(item);
      }
      return out ?? value;
    }
    return walkObject(value as Record<string, unknown>, depth, hits, false);
  }

  /** Applies the JSONPath censors to a copy of the event. */
  const censor = (event: Record<string, unknown>, hits: string[]): Record<string, unknown> => {
    if (paths.length === 0) return event;
    let copy: Record<string, unknown> | undefined;
    for (const path of paths) {
      const pointers = selectPointers(path, copy ?? event)
        .filter((p) => p.length > 0 && !(p.length === 1 && p[0] === 'type'))
        .reverse(); // array removals from the end keep earlier indexes valid
      for (const pointer of pointers) {
        copy ??= structuredClone(event);
        let parent: unknown = copy;
        for (const step of pointer.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[step];
        const leaf = pointer[pointer.length - 1]!;
        if (parent === null || typeof parent !== 'object') continue;
        const container = parent as Record<string | number, unknown>;
        if (options.remove) {
          if (Array.isArray(container)) container.splice(Number(leaf), 1);
          else delete container[leaf];
        } else {
          container[leaf] = censored(container[leaf]);
        }
        hits.push('jsonpath');
      }
    }
    return copy ?? event;
  };

  /** Redacts an event (all fields but `skip`); walks again if it taught the engine a new user name. */
  const redactEvent = (event: WuuEvent, hits: string[], skip?: string): Record<string, unknown> => {
    let result: Record<string, unknown> = event as Record<string, unknown>;
    let found: string[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const generation = engine.generation;
      found = [];
      result = walkObject(censor(event as Record<string, unknown>, found), 0, found, true, skip);
      if (engine.generation === generation) break;
    }
    hits.push(...found);
    return result;
  };

  const flush = (carry: Carry, emit: Emit, where: { file: string; line: number }) => {
    carries.delete(carry.key);
    const hits: string[] = [];
    const text = engine.text(carry.left + carry.text, hits, carry.left.length);
    const event = { ...carry.template, delta: text } as WuuEvent;
    record(carry.type, hits, where);
    if (!check) emit(changedRecord(event, where, carry.go));
  };

  const flushFor = (type: string, event: Record<string, unknown>, emit: Emit, where: { file: string; line: number }) => {
    if (carries.size === 0 || !FLUSH_TYPES.has(type)) return;
    if (type === 'result') {
      for (const carry of [...carries.values()]) flush(carry, emit, where);
      return;
    }
    if (TURN_END_TYPES.has(type)) {
      const thread = idOf(event.thread_id);
      const turn = idOf(event.turn_id);
      for (const carry of [...carries.values()]) if (carry.thread === thread && carry.turn === turn) flush(carry, emit, where);
      return;
    }
    const streamType =
      type === 'agent_message_final' ? 'agent_message_delta' : type.startsWith('tool_') ? 'tool_output_delta' : 'command_output_delta';
    const carry = carries.get(streamKey(streamType, event));
    if (carry) flush(carry, emit, where);
  };

  const pushDelta = (rec: EventRecord, event: Record<string, unknown>, emit: Emit) => {
    const key = streamKey(rec.type, event);
    const previous = carries.get(key);
    const piece = event.delta as string;
    const offset = previous ? previous.left.length : 0;
    const text = previous ? previous.left + previous.text + piece : piece;
    const cut = Math.max(offset, engine.holdPoint(text));
    const hits: string[] = [];
    const head = cut === offset ? '' : offset === 0 && cut === text.length ? walkString(text, 1, hits) : engine.text(text.slice(0, cut), hits, offset);
    const rest = redactEvent(rec.event, hits, 'delta');
    const go = goStyle(rec.raw);
    const unchanged = head === piece && rest === event;
    const out = unchanged ? event : ({ ...rest, delta: head } as Record<string, unknown>);
    carries.delete(key);
    if (cut < text.length) {
      if (carries.size >= MAX_CARRIES) flush(carries.values().next().value as Carry, emit, rec);
      carries.set(key, {
        key,
        left: text.slice(Math.max(offset, cut - 96), cut),
        type: rec.type,
        thread: idOf(event.thread_id),
        turn: idOf(event.turn_id),
        text: text.slice(cut),
        template: out,
        go,
      });
    }
    record(rec.type, hits, rec);
    if (check) return;
    emit(unchanged ? rec : changedRecord(out as WuuEvent, rec, go));
  };

  return {
    // Lines are read lazily: push decides whether a line needs parsing at all.
    needsParse: () => !shortcut,
    push(rec, emit) {
      events++;
      last = { file: rec.file, line: rec.line };
      const type = rec.type;
      if (shortcut && rec.raw !== undefined && !LEARN_TYPES.has(type) && !(carries.size > 0 && FLUSH_TYPES.has(type))) {
        if (!DELTA_TYPES.has(type)) {
          if (!engine.mayMatchRaw(rec.raw)) {
            if (!check) emit(rec);
            return;
          }
        } else if (carries.size === 0 && !engine.mayMatchRaw(rec.raw)) {
          const delta = topLevelString(rec.raw, 'delta');
          if (delta !== undefined && engine.holdPoint(delta) === delta.length) {
            if (!check) emit(rec);
            return;
          }
        }
      }
      const event = rec.event as Record<string, unknown>; // parses; a bad line throws before anything is emitted
      if (LEARN_TYPES.has(type)) {
        for (const field of ['workspace_root', 'cwd']) {
          const value = event[field];
          if (typeof value === 'string') engine.learnWorkspace(value);
        }
      }
      flushFor(type, event, emit, rec);
      if (DELTA_TYPES.has(type) && typeof event.delta === 'string') {
        pushDelta(rec, event, emit);
        return;
      }
      const hits: string[] = [];
      const out = redactEvent(rec.event, hits);
      record(type, hits, rec);
      if (check) return;
      emit(out === event ? rec : changedRecord(out as WuuEvent, rec, goStyle(rec.raw)));
    },
    invalid(raw, emit, where) {
      const text = raw.toString('utf8');
      const hits: string[] = [];
      const out = engine.text(text, hits);
      record('(invalid line)', hits, where ?? last);
      if (!check) emit(`${out}\n`);
    },
    endFile(_file, emit) {
      for (const carry of [...carries.values()]) flush(carry, emit, last);
    },
    end(emit) {
      for (const carry of [...carries.values()]) flush(carry, emit, last);
      if (!options.report) return;
      log(`report: ${findings} redaction${findings === 1 ? '' : 's'} in ${changedEvents} of ${events} events`);
      for (const [name, n] of [...ruleCounts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) log(`report: rule ${name}: ${n}`);
      for (const [type, n] of [...typeCounts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) log(`report: type ${type}: ${n}`);
    },
    status: () => (check && findings > 0 ? 1 : 0),
  };
}

/** Object-mode stream version of {@link createRedact}. */
export function redact(options: RedactOptions = {}): Transform {
  return coreStream(createRedact(options));
}

export { JsonPathError };
