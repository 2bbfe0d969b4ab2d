/**
 * Rule compiling: specs (built-in and user rules, plus the learned user names
 * and workspaces) to the tables the scan uses. Built-in rules are native
 * sticky regexes (their patterns are bounded and checked for nested
 * repetition, see ./rule-spec.ts); user rules run on re2js, a linear-time
 * engine, so no user pattern can make the tool hang.
 */
import { fedForm } from './byte-scan.js';
import { Automaton, type AutomatonData, type Lead, type MarkerPattern } from './prefilter.js';
import { numberedPattern, PLACEHOLDER_PATTERN, RuleError, type RuleKind, type RuleSpec } from './rule-spec.js';
import { re2js, type RE2JS } from '../re2.js';
import { regexEnds, unionEnds, type Ends } from './regex-ends.js';
import { SECRET_KEY_WORDS, WORD_MARKERS } from './rules.js';

/** One match of a compiled rule, in UTF-16 indexes. */
export interface Match {
  start: number;
  end: number;
  /** The span of the `secret` group, when the rule has one and it matched. */
  secret?: [number, number];
  /** Start of the `lead` group (e-mail's local part, inside a lookbehind). */
  lead?: number;
  /** The `name` group (the user of a home path). */
  name?: string;
}

/** A compiled rule. */
export interface Compiled {
  /** Anchored rules: the match starting exactly at `at`. Unanchored: the first match at or after `at`. */
  exec(text: string, at: number): Match | null;
  /** Whether {@link exec} finds a non-empty match (cheaper: no match object, no group indices). */
  test?(text: string, at: number): boolean;
  name: string;
  kind: RuleKind | 'skip';
  /** How far before a marker a match may start. */
  reach: number;
  /** Keep matches that look like settings (see RuleSpec.keepSettings). */
  keepSettings?: boolean;
  /** The pattern starts by refusing some characters before it (a left edge). */
  leftEdge?: boolean;
}

/** A partial pattern: whether a match of it starting at `at` runs to the end of the text. */
export interface CompiledPartial {
  test(text: string, at: number): boolean;
  reach: number;
}

/** A rule with what the engine adds: its kind, whether it is built in, and maybe its compiled form (learned workspaces). */
export type Spec = RuleSpec & { kind: RuleKind; builtin: boolean; compiled?: Compiled; compiledPartial?: CompiledPartial };

/** Everything the scan and the hold-back search need, for one list of specs. */
export interface Built {
  /** Rules with markers, in priority order; index 0 is the placeholder skip. */
  rules: Compiled[];
  /** Every marker and `<` (the skip rule), over decoded text. */
  markers: Automaton;
  /** The patterns of `markers` (pattern 0 is `<`), for one automaton over fixed and learned rules (./engine.ts). */
  markerPatterns: MarkerPattern[];
  /** Marker pattern id → indexes into `rules`. */
  rulesOf: Int32Array[];
  /** Rules without markers: scanned everywhere, after the others. */
  unanchored: Compiled[];
  /** Whether any marker of any rule occurs (conditions met); undefined when some rule has none. */
  markerTest: Automaton | undefined;
  /** The same for raw lines (JSON text, escapes decoded on the fly); undefined: no raw shortcut. */
  rawTest: Automaton | undefined;
  /** The patterns of `rawTest`, for one automaton over fixed and learned rules (./engine.ts). */
  rawPatterns: MarkerPattern[];
  /** The same as data (see {@link storedOf}). */
  rawEntries: RawEntry[];
  /** By partial: whether it refuses a glued start (see {@link edgePartial}). */
  partialEdges: boolean[];
  partials: CompiledPartial[];
  /** Partial anchors; `partialsOf` maps a pattern id to partial indexes, `longAnchor` says whether it is a long one. */
  anchors: Automaton | undefined;
  partialsOf: Int32Array[];
  longAnchor: Uint8Array;
  /** Last character (UTF-16 unit) of an anchor's proper prefix → [prefix, partial indexes]. */
  prefixes: Map<string, Array<[string, number[]]>>;
  /** Partials without anchors (user rules): searched over the short window. */
  freePartials: Array<(text: string, from: number) => number>;
  /** Characters every delta piece holds back for rules without a partial (user rules). */
  fallbackHold: number;
  /** Characters at the text's end that decide every free partial (its reach and look-behind); Infinity: unbounded. */
  freeReach: number;
  /** The ASCII characters that can end a match of some free partial (./regex-ends.ts); undefined: any can. */
  freeEnds: Ends | undefined;
}

/** Held tail for user rules that have no `partial` pattern. */
export const FALLBACK_HOLD = 256;

/** Partials whose window exceeds the short one: the long anchors. */
const LONG_ANCHORS: ReadonlySet<string> = new Set(['-----begin', 'eyj', 'bearer', 'basic', ...SECRET_KEY_WORDS]);

/**
 * Files partial `index` under `literal` (a proper prefix of one of its
 * anchors) in `dispatch`, by the literal's last character. `entries` finds
 * a literal's entry directly: a search of the lists made start-up quadratic
 * in the number of anchors (a tenth of the tables' build).
 */
function addDispatch(dispatch: Map<string, Array<[string, number[]]>>, entries: Map<string, [string, number[]]>, literal: string, index: number): void {
  let entry = entries.get(literal);
  if (entry === undefined) {
    const last = literal.charAt(literal.length - 1);
    let list = dispatch.get(last);
    if (!list) dispatch.set(last, (list = []));
    list.push((entry = [literal, []]));
    entries.set(literal, entry);
  }
  const indexes = entry[1];
  // Indexes come in increasing order: a repeat can only be the last one.
  if (indexes[indexes.length - 1] !== index) indexes.push(index);
}

/**
 * Whether a partial refuses an ASCII letter or digit right before where it
 * is tried, its anchor: a built-in tried at its anchor only (reach 0) whose
 * pattern starts with such a lookbehind that holds for the whole pattern
 * (no top-level alternation after it).
 */
export function edgePartial(spec: Spec): boolean {
  const source = spec.partial;
  if (!spec.builtin || spec.compiledPartial !== undefined || (spec.partialReach ?? 0) !== 0 || source === undefined) return false;
  if (!/^\(\?<!\[A-Za-z0-9[^\]\\]*\]\)/.test(source)) return false;
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return false;
  }
  return true;
}

/**
 * A built-in rule on V8's engine. Its regex and group names are made at its
 * first use: a run meets a few of the hundreds of rules, and reading every
 * pattern up front was most of the start-up.
 */
function nativeRule(spec: Spec, sticky: boolean): Compiled {
  let re: RegExp | undefined;
  // The raw prefilter's checks only ask whether a rule matches: without `d`, V8 builds no indices.
  let plain: RegExp | undefined;
  // Groups read by number (numberedPattern: named ones cost old-space garbage per match); 0: none.
  let secret = 0;
  let lead = 0;
  let user = 0;
  const made = (): RegExp => {
    const { source, numbers } = numberedPattern(spec.pattern);
    secret = numbers.get('secret') ?? 0;
    lead = numbers.get('lead') ?? 0;
    user = numbers.get('name') ?? 0;
    // Indices (`d`) only for the groups read by offset: V8 runs a regex with `d` much slower.
    return new RegExp(source, `${sticky ? 'y' : 'g'}${secret || lead ? 'd' : ''}${spec.flags ?? ''}`);
  };
  return {
    name: spec.name,
    kind: spec.kind,
    reach: spec.reach ?? 0,
    keepSettings: spec.keepSettings === true,
    leftEdge: /^\(\?<!\[/.test(spec.pattern),
    exec(text, at) {
      re ??= made();
      re.lastIndex = at;
      const m = re.exec(text);
      if (m === null) return null;
      const match: Match = { start: m.index, end: m.index + m[0].length };
      const indices = m.indices;
      if (secret > 0 && indices?.[secret] !== undefined) match.secret = indices[secret];
      if (lead > 0 && indices?.[lead] !== undefined) match.lead = indices[lead]![0];
      if (user > 0 && m[user] !== undefined) match.name = m[user];
      return match;
    },
    test(text, at) {
      plain ??= new RegExp(spec.pattern, `${sticky ? 'y' : 'g'}${spec.flags ?? ''}`);
      plain.lastIndex = at;
      const m = plain.exec(text);
      return m !== null && m[0].length > 0;
    },
  };
}

/** RE2 flags for the JavaScript flags a rule may carry. */
function re2Flags(flags: string | undefined): number {
  let out = 0;
  const RE2JS = re2js();
  if (flags?.includes('i')) out |= RE2JS.CASE_INSENSITIVE;
  if (flags?.includes('m')) out |= RE2JS.MULTILINE;
  if (flags?.includes('s')) out |= RE2JS.DOTALL;
  return out;
}

/**
 * Compiles a user pattern on re2js; a construct RE2 cannot run in linear time
 * (backreferences, lookaround) is a {@link RuleError} that says so.
 */
export function compileLinear(source: string, flags: string | undefined, what: string): RE2JS {
  try {
    return re2js().compile(source, re2Flags(flags));
  } catch (err) {
    const reason = (err as Error).message;
    throw new RuleError(
      `${what}: ${reason} (user patterns run on a linear-time engine, RE2: no backreferences, lookahead or lookbehind)`,
    );
  }
}

function linearRule(spec: Spec, sticky: boolean): Compiled {
  const re = compileLinear(spec.pattern, spec.flags, `rule '${spec.name}'`);
  const secret = 'secret' in re.namedGroups();
  return {
    name: spec.name,
    kind: spec.kind,
    reach: spec.reach ?? 0,
    exec(text, at) {
      const m = re.matcher(text);
      if (!m.find(at)) return null;
      if (sticky && m.start() !== at) return null;
      const match: Match = { start: m.start(), end: m.end() };
      if (secret && m.start('secret') >= 0) match.secret = [m.start('secret'), m.end('secret')];
      return match;
    },
  };
}

/** Compiled built-in rules by source: compiled once, not at every rebuild. */
const cache = new Map<string, Compiled>();

function compileRule(spec: Spec, sticky: boolean): Compiled {
  if (spec.compiled !== undefined) return spec.compiled;
  if (!spec.builtin) return linearRule(spec, sticky);
  const key = `${sticky}\u0000${spec.kind}\u0000${spec.name}\u0000${spec.reach ?? 0}\u0000${spec.flags ?? ''}\u0000${spec.pattern}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const compiled = nativeRule(spec, sticky);
  if (spec.kind !== 'workspace' && spec.kind !== 'user') cache.set(key, compiled);
  return compiled;
}

const partialCache = new Map<string, CompiledPartial>();

function nativePartial(spec: Spec): CompiledPartial {
  const key = `${spec.partialReach ?? 0}\u0000${spec.flags ?? ''}\u0000${spec.partial}`;
  const cached = partialCache.get(key);
  if (cached) return cached;
  const made = nativePartialFresh(spec);
  if (spec.kind !== 'workspace' && spec.kind !== 'user') partialCache.set(key, made);
  return made;
}

function nativePartialFresh(spec: Spec): CompiledPartial {
  const re = new RegExp(`(?:${spec.partial})$`, `y${spec.flags ?? ''}`);
  return {
    reach: spec.partialReach ?? 0,
    test(text, at) {
      re.lastIndex = at;
      return re.test(text);
    },
  };
}

function linearPartial(spec: Spec): CompiledPartial {
  const re = compileLinear(`(?:${spec.partial})$`, spec.flags, `rule '${spec.name}': partial`);
  return {
    reach: spec.partialReach ?? 0,
    test(text, at) {
      const m = re.matcher(text);
      return m.find(at) && m.start() === at;
    },
  };
}

/** A partial without anchors: the earliest start of a suffix match from `from` (text length when none). */
function freePartial(spec: Spec): (text: string, from: number) => number {
  if (spec.builtin) {
    const re = new RegExp(`(?:${spec.partial})$`, `g${spec.flags ?? ''}`);
    // A match runs to the text's end, so it starts at most `ahead` characters before it
    // (unless `$` also matches at line ends, or `u` makes a character two units).
    const ahead = /[mu]/.test(spec.flags ?? '') ? Infinity : patternExtent(spec.partial ?? '').ahead;
    return (text, from) => {
      re.lastIndex = Math.max(from, text.length - ahead);
      const m = re.exec(text);
      return m ? m.index : text.length;
    };
  }
  const re = compileLinear(`(?:${spec.partial})$`, spec.flags, `rule '${spec.name}': partial`);
  return (text, from) => {
    const m = re.matcher(text);
    return m.find(from) ? m.start() : text.length;
  };
}

const anchored = (spec: Spec) => spec.markers !== undefined && spec.markers.length > 0 && spec.markers.every((m) => m !== '');

/** Whether a rule's pattern refuses a letter or digit right before its start (EDGE in ./providers.ts). */
function leftEdge(spec: Spec): boolean {
  return spec.builtin && (spec.reach ?? 0) === 0 && /^\(\?<!\[A-Za-z0-9/.test(spec.pattern);
}

/** Marker → rule indexes, and whether every one of those rules needs a left edge. */
function markerTable(specs: readonly Spec[], indexOf: (spec: Spec) => number): Map<string, { indexes: number[]; edge: boolean }> {
  const table = new Map<string, { indexes: number[]; edge: boolean }>();
  for (const spec of specs) {
    if (!anchored(spec)) continue;
    const index = indexOf(spec);
    const edge = leftEdge(spec);
    for (const marker of spec.markers!) {
      const key = marker.toLowerCase();
      let entry = table.get(key);
      if (entry === undefined) table.set(key, (entry = { indexes: [], edge }));
      if (!entry.indexes.includes(index)) entry.indexes.push(index);
      entry.edge &&= edge;
    }
  }
  return table;
}

/** Rules tried at a raw marker hit, and how many characters after the marker a match may look at. */
interface Check {
  /** Indexes into the built rules. */
  rules: number[];
  /** Exact texts one of which every rule's match starts with; null: some rule has none (no filter). */
  leads: Lead[] | null;
  behind: number;
  ahead: number;
  ok: boolean;
  cuttable: boolean;
}

/**
 * Whether a pattern may read a quote, a blank or a control character: `.`,
 * `\\s`, `\\S`, `\\W`, `\\D` or a negated class (ASCII classes of token
 * alphabets cannot).
 */
export function readsAnyCharacter(source: string): boolean {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source.charAt(i);
    if (ch === '\\') {
      if (/[sSWD]/.test(source[i + 1] ?? '') || (inClass && /[nrtbf"]/.test(source[i + 1] ?? ''))) return true;
      i++;
    } else if (inClass) {
      if (ch === ']') inClass = false;
      else if (ch === '"' || ch === ' ') return true;
    } else if (ch === '[') {
      if (source[i + 1] === '^') return true;
      inClass = true;
    } else if (ch === '.' || ch === '"' || ch === ' ') return true;
  }
  return false;
}

/**
 * Whether a raw marker can be checked by its rules at the hit: a built-in
 * secret rule with a left edge (a prefixed token), whose pattern looks at a
 * bounded number of characters; key words, homes and e-mail cannot (a key
 * makes its whole value a secret, a home teaches a user name).
 */
function checkable(spec: Spec): Extent | undefined {
  if (!leftEdge(spec) || spec.kind !== 'secret' || (spec.flags ?? '') !== '') return undefined;
  const extent = patternExtent(spec.pattern);
  if (!Number.isFinite(extent.ahead) || extent.ahead > 8192 || !Number.isFinite(extent.behind)) return undefined;
  // Only negative lookbehinds (less context can only let more through): none is needed then.
  return { behind: /\(\?<=/.test(spec.pattern) ? extent.behind : 0, ahead: extent.ahead };
}

/**
 * A pattern of the raw-line test as data (./stored-tables.ts stores the
 * default rules'): its `check` is the rules at `rules` (indexes into the
 * built rules) tried at a hit; a `note` entry has only its text.
 */
export interface RawEntry {
  text: string;
  edge?: boolean;
  word?: boolean;
  /** Undefined: no check (every hit counts). */
  rules?: number[];
  leads?: Lead[];
  behind?: number;
  ahead?: number;
  cuttable?: boolean;
  note?: boolean;
}

/** The patterns of the raw-line test: each marker as the automaton is fed it (UTF-8 bytes, escapes). */
function rawEntries(specs: readonly Spec[], indexOf: (spec: Spec) => number | undefined): RawEntry[] {
  const table = new Map<string, { edge: boolean; check: Check }>();
  for (const spec of specs) {
    const edge = leftEdge(spec);
    const extent = checkable(spec);
    const rule = indexOf(spec);
    // Read from the pattern once per rule, not once per marker (start-up: every run builds these).
    const readable = extent !== undefined && rule !== undefined;
    const leads = readable && (spec.reach ?? 0) === 0 ? leadingLiterals(spec.pattern) : undefined;
    const cuttable = readable && !readsAnyCharacter(spec.pattern);
    for (const marker of spec.markers!) {
      const key = fedForm(marker).toLowerCase();
      let entry = table.get(key);
      if (entry === undefined) table.set(key, (entry = { edge, check: { rules: [], leads: [], behind: 0, ahead: 0, ok: true, cuttable: true } }));
      entry.edge &&= edge;
      const check = entry.check;
      if (!readable || /[^\x20-\x7e]/.test(key)) check.ok = false;
      else {
        check.rules.push(rule);
        if (leads === undefined) check.leads = null;
        else if (check.leads !== null) for (const lead of leads) check.leads.push(lead);
        check.behind = Math.max(check.behind, extent.behind + (spec.reach ?? 0));
        check.ahead = Math.max(check.ahead, extent.ahead);
        check.cuttable &&= cuttable;
      }
    }
  }
  return [...table].map(([text, { edge, check }]) => ({
    text,
    edge,
    word: WORD_MARKERS.has(text),
    rules: check.ok ? check.rules : undefined,
    leads: check.ok && check.leads !== null ? check.leads : undefined,
    behind: check.behind,
    ahead: check.ahead,
    cuttable: check.cuttable,
  }));
}

/** The raw test's patterns of {@link rawEntries}, their checks over `rules`. */
function rawFromEntries(entries: readonly RawEntry[], rules: readonly Compiled[]): MarkerPattern[] {
  return entries.map((e) => {
    if (e.note === true) return { text: e.text, note: true };
    const checked = e.rules?.map((i) => rules[i]!);
    return {
      text: e.text,
      edge: e.edge,
      word: e.word,
      check: checked === undefined ? undefined : (text: string, at: number) => tryRules(checked, text, at),
      leads: e.leads,
      behind: e.behind,
      ahead: e.ahead,
      cuttable: e.cuttable,
    };
  });
}

/** Regex syntax characters: anything else stands for itself. */
const SYNTAX = new Set('\\^$.*+?()[]{}|/');

/** Index after the group or class opened at `open` (escapes and classes skipped); -1 when unbalanced. */
function skipGroup(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') i++;
    else if (ch === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
    } else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i + 1;
  }
  return -1;
}

/** One literal character of `source` at `i` (a plain one or an escaped punctuation mark): [character, length], or undefined. */
function literalAt(source: string, i: number): [string, number] | undefined {
  const ch = source[i];
  if (ch === undefined) return undefined;
  if (ch !== '\\') return SYNTAX.has(ch) ? undefined : [ch, 1];
  const next = source[i + 1];
  return next !== undefined && /[^A-Za-z0-9]/.test(next) ? [next, 2] : undefined;
}

/**
 * How every match of `source` starts, read from its start: lookarounds
 * skipped, then a literal run or a group of literal alternatives
 * (`(?:SK|AC)`, the token helpers' prefixes), then maybe a character class
 * repeated at least n times (`[A-Za-z0-9]{14}`); undefined when the pattern
 * does not start with a literal (no filter). Lets the raw prefilter refuse a
 * hit whose bytes cannot start a match (`access` for Twilio's `AC`, `path`
 * for Airtable's `pat`) before any text is decoded.
 */
export function leadingLiterals(source: string): Lead[] | undefined {
  if (hasTopLevelBar(source)) return undefined;
  let i = skipLookarounds(source, 0);
  if (i < 0) return undefined;
  const quantified = (at: number) => '?*+{'.includes(source[at] ?? '-');
  const texts: string[] = [];
  if (source.startsWith('(?:', i)) {
    const close = skipGroup(source, i);
    if (close < 0 || quantified(close)) return undefined;
    let text = '';
    for (let k = i + 3; k < close - 1; ) {
      if (source[k] === '|') {
        if (text === '') return undefined;
        texts.push(text);
        text = '';
        k++;
        continue;
      }
      const lit = literalAt(source, k);
      if (lit === undefined) return undefined;
      text += lit[0];
      k += lit[1];
    }
    if (text === '') return undefined;
    texts.push(text);
    i = close;
  } else {
    let text = '';
    for (;;) {
      const lit = literalAt(source, i);
      if (lit === undefined || quantified(i + lit[1])) break;
      text += lit[0];
      i += lit[1];
    }
    if (text === '') return undefined;
    texts.push(text);
  }
  const after = skipLookarounds(source, i);
  const run = after < 0 ? undefined : classRun(source, after);
  return texts.map((text) => (run === undefined ? { text, min: 0 } : { text, run: run.members, min: run.min }));
}

/** Index after the lookarounds that start at `i` (they only restrict a match); -1 when unbalanced. */
function skipLookarounds(source: string, i: number): number {
  let at = i;
  while (at >= 0 && /^\(\?<?[!=]/.test(source.slice(at, at + 4))) at = skipGroup(source, at);
  return at;
}

/**
 * A class of ASCII characters (plain ones, ranges, escaped punctuation) at
 * `at`, repeated at least `min` times (`{n}`, `{n,}`, `{n,m}` or `+`).
 */
function classRun(source: string, at: number): { members: Uint8Array; min: number } | undefined {
  if (source[at] !== '[' || source[at + 1] === '^') return undefined;
  // The class's characters, each with whether it was escaped (an escaped dash is no range).
  const items: Array<{ code: number; escaped: boolean }> = [];
  let k = at + 1;
  for (; k < source.length && source[k] !== ']'; k++) {
    let ch = source[k];
    const escaped = ch === '\\';
    if (escaped) {
      ch = source[++k];
      if (ch === undefined || /[A-Za-z0-9]/.test(ch)) return undefined; // \w, \d, \s, \u...
    }
    if (ch === undefined || ch.charCodeAt(0) >= 0x80) return undefined;
    items.push({ code: ch.charCodeAt(0), escaped });
  }
  if (source[k] !== ']') return undefined;
  const members = new Uint8Array(128);
  for (let c = 0; c < items.length; c++) {
    const from = items[c];
    const dash = items[c + 1];
    const to = items[c + 2];
    if (from === undefined) break;
    if (dash !== undefined && dash.code === 0x2d && !dash.escaped && to !== undefined) {
      if (to.code < from.code) return undefined;
      for (let x = from.code; x <= to.code; x++) members[x] = 1;
      c += 2;
    } else members[from.code] = 1;
  }
  const quantifier = /^(?:\{([0-9]+)(?:,[0-9]*)?\}|\+)/.exec(source.slice(k + 1, k + 16));
  if (quantifier === null) return undefined;
  const min = quantifier[1] === undefined ? 1 : Number(quantifier[1]);
  return min > 0 ? { members, min } : undefined;
}

/** Whether `source` has an alternation at its top level (outside every group and class). */
function hasTopLevelBar(source: string): boolean {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') i++;
    else if (ch === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
    } else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === '|' && depth === 0) return true;
  }
  return false;
}

/** Whether one of the rules matches (non-empty) at `at`, or up to its reach before. */
function tryRules(rules: readonly Compiled[], text: string, at: number): boolean {
  for (const rule of rules) {
    for (let k = rule.reach; k >= 0; k--) {
      if (at - k < 0) continue;
      if (rule.test !== undefined) {
        if (rule.test(text, at - k)) return true;
        continue;
      }
      const m = rule.exec(text, at - k);
      if (m !== null && m.end > m.start) return true;
    }
  }
  return false;
}

/**
 * What the build stores of the default rules' tables (./stored-tables.ts):
 * the raw test's patterns as data and the automata, which are most of the
 * tables' cost at start-up (cold code: a short run builds them once).
 */
export interface StoredBuild {
  /** The specs it was made of (JSON): the stored tables fit only those. */
  specs: string;
  /** The marker automaton's texts and the number of rules: checked too. */
  markerTexts: string[];
  rules: number;
  raw: RawEntry[];
  /** By partial: whether it refuses a glued start (see {@link edgePartial}). */
  partialEdges: boolean[];
  freeEnds: Ends | undefined;
  freeReach: number;
  markers: AutomatonData;
  rawTest: AutomatonData | undefined;
  anchors: AutomatonData | undefined;
}

/** What {@link buildRules} may take from the build for `built`, made of `specs` (its own tables as data). */
export function storedOf(specs: readonly Spec[], built: Built): StoredBuild {
  return {
    specs: JSON.stringify(specs),
    markerTexts: built.markerPatterns.map((p) => p.text),
    rules: built.rules.length,
    raw: built.rawEntries,
    partialEdges: built.partialEdges,
    freeEnds: built.freeEnds,
    freeReach: built.freeReach,
    markers: built.markers.data(),
    rawTest: built.rawTest?.data(),
    anchors: built.anchors?.data(),
  };
}

/** Whether `stored` was made from `specs`, whose markers are `patterns` and rules `rules` (else it is not used). */
function fits(stored: StoredBuild, specs: readonly Spec[], patterns: readonly MarkerPattern[], rules: number, all: boolean): boolean {
  if (stored.rules !== rules || stored.markerTexts.length !== patterns.length || (stored.rawTest !== undefined) !== all) return false;
  return patterns.every((p, i) => p.text === stored.markerTexts[i]) && JSON.stringify(specs) === stored.specs;
}

/** The partials of {@link buildRules}, by anchor and without one. */
interface Partials {
  partials: CompiledPartial[];
  partialEdges: boolean[];
  prefixes: Map<string, Array<[string, number[]]>>;
  freePartials: Array<(text: string, from: number) => number>;
  anchorIndexes: Map<string, { indexes: number[]; long: boolean; edge: boolean }>;
  fallbackHold: number;
  freeReach: number;
  freeEnds: Ends | undefined;
}

/** The partials of `specs`; what `fit` stored of them is taken (their edges, the free partials' ends and reach). */
function buildPartials(specs: readonly Spec[], fit: StoredBuild | undefined): Partials {
  const out: Partials = { partials: [], partialEdges: [], prefixes: new Map(), freePartials: [], anchorIndexes: new Map(), fallbackHold: 0, freeReach: 0, freeEnds: new Uint8Array(128) };
  const dispatchEntries = new Map<string, [string, number[]]>();
  for (const spec of specs) {
    if (spec.partial === undefined && spec.compiledPartial === undefined) {
      // A built-in without a partial is covered by another one's (aws-secret-key by key-value);
      // a user rule without one is covered by holding back a fixed tail.
      if (!spec.builtin) out.fallbackHold = FALLBACK_HOLD;
      continue;
    }
    const anchors = (spec.partialAnchors ?? spec.markers ?? []).map((a) => a.toLowerCase());
    if (anchors.length === 0 || anchors.some((a) => a === '')) {
      out.freePartials.push(freePartial(spec));
      if (fit !== undefined) continue; // its ends and reach are stored
      // Only built-ins are read (user partials are RE2 syntax).
      out.freeEnds = unionEnds(out.freeEnds, spec.builtin && spec.partial !== undefined ? regexEnds(spec.partial, spec.flags) : undefined);
      const extent = patternExtent(spec.partial ?? '');
      out.freeReach = Math.max(out.freeReach, spec.builtin && spec.partial !== undefined && !/[mu]/.test(spec.flags ?? '') ? extent.ahead + extent.behind : Infinity);
      continue;
    }
    out.partials.push(spec.compiledPartial ?? (spec.builtin ? nativePartial(spec) : linearPartial(spec)));
    const index = out.partials.length - 1;
    // Read from the partial once per rule, not once per anchor.
    const edge = fit?.partialEdges[index] ?? edgePartial(spec);
    out.partialEdges.push(edge);
    for (const anchor of anchors) {
      let entry = out.anchorIndexes.get(anchor);
      if (entry === undefined) out.anchorIndexes.set(anchor, (entry = { indexes: [], long: false, edge: true }));
      if (!entry.indexes.includes(index)) entry.indexes.push(index);
      entry.long ||= !spec.builtin || LONG_ANCHORS.has(anchor);
      entry.edge &&= edge;
      for (let k = 1; k < anchor.length; k++) addDispatch(out.prefixes, dispatchEntries, anchor.slice(0, k), index);
    }
  }
  if (fit !== undefined) {
    out.freeEnds = fit.freeEnds;
    out.freeReach = fit.freeReach;
  }
  return out;
}

/** Builds the scan tables for `specs` (priority order); `stored`: what the build stored of their tables, taken when made of these very specs. */
export function buildRules(specs: readonly Spec[], stored?: StoredBuild): Built {
  const skip = nativeRule({ name: '', pattern: PLACEHOLDER_PATTERN, kind: 'secret', builtin: true }, true);
  skip.kind = 'skip';
  const rules: Compiled[] = [skip];
  const unanchored: Compiled[] = [];
  const indexOf = new Map<Spec, number>();
  for (const spec of specs) {
    if (!anchored(spec)) {
      unanchored.push(compileRule(spec, false));
      continue;
    }
    rules.push(compileRule(spec, true));
    indexOf.set(spec, rules.length - 1);
  }
  const table = markerTable(specs, (spec) => indexOf.get(spec)!);
  const patterns: MarkerPattern[] = [{ text: '<', test: false }];
  const rulesOf: Int32Array[] = [Int32Array.of(0)];
  for (const [marker, { indexes, edge }] of table) {
    patterns.push({ text: marker, word: WORD_MARKERS.has(marker), edge });
    rulesOf.push(Int32Array.from(indexes));
  }
  const all = unanchored.length === 0;
  const fit = stored !== undefined && fits(stored, specs, patterns, rules.length, all) ? stored : undefined;
  const { partials, partialEdges, prefixes, freePartials, anchorIndexes, fallbackHold, freeReach, freeEnds } = buildPartials(specs, fit);
  const anchorList = [...anchorIndexes];
  const markers = new Automaton(patterns, fit?.markers);
  let entries = fit?.raw;
  if (entries === undefined) {
    entries = all ? rawEntries(specs, (spec) => indexOf.get(spec)) : [];
    // Long anchors are noted by the raw test: without one, a piece's hold-back looks at its last line only.
    for (const [anchor, { long }] of anchorList) if (long) entries.push({ text: fedForm(anchor).toLowerCase(), note: true });
  }
  const raw = rawFromEntries(entries, rules);
  return {
    rules,
    markers,
    markerPatterns: patterns,
    rulesOf,
    unanchored,
    markerTest: all ? markers : undefined,
    rawTest: all ? new Automaton(raw, fit?.rawTest) : undefined,
    rawPatterns: raw,
    rawEntries: entries,
    partials,
    partialEdges,
    // `edge`: the quiet-tail reader (clearTail) passes over an anchor glued to a word, as every partial it leads refuses that.
    anchors: anchorList.length > 0 ? new Automaton(anchorList.map(([text, { edge }]) => ({ text, edge })), fit?.anchors) : undefined,
    partialsOf: anchorList.map(([, { indexes }]) => Int32Array.from(indexes)),
    longAnchor: Uint8Array.from(anchorList.map(([, { long }]) => (long ? 1 : 0))),
    prefixes,
    freePartials,
    fallbackHold,
    freeReach,
    freeEnds,
  };
}

/** How far a pattern can look: characters before its start (lookbehinds) and after it (match and lookaheads). */
export interface Extent {
  behind: number;
  ahead: number;
}

/**
 * An upper bound of how many characters a regex source may look at, before
 * and from its start; Infinity for unbounded repetition or backreferences.
 * Lookbehinds count as context before the start (all of them added up),
 * lookaheads as if they consumed what they look at.
 */
export function patternExtent(source: string): Extent {
  let behind = 0;
  let i = 0;
  /** Parses an alternation up to `)` or the end; returns its longest branch. */
  const alternation = (): number => {
    let best = 0;
    let branch = 0;
    let last = 0; // length of the last atom, for a quantifier
    while (i < source.length) {
      const ch = source.charAt(i);
      if (ch === ')') break;
      if (ch === '|') {
        best = Math.max(best, branch);
        branch = 0;
        last = 0;
        i++;
        continue;
      }
      if (ch === '*' || ch === '+') {
        branch = last > 0 ? Infinity : branch;
        i++;
        if (source[i] === '?') i++;
        continue;
      }
      if (ch === '?') {
        i++;
        if (source[i] === '?') i++;
        continue;
      }
      if (ch === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24));
        if (m) {
          const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
          branch += last > 0 ? last * (max - 1) : 0;
          if (last > 0 && max === Infinity) branch = Infinity;
          i += m[0].length;
          if (source[i] === '?') i++;
          last = 0;
          continue;
        }
      }
      let atom = 1;
      if (ch === '\\') {
        const next = source[i + 1] ?? '';
        if (/[1-9k]/.test(next)) return Infinity; // a backreference: any length
        if (/[bB]/.test(next)) atom = 0;
        i += next === 'u' && /^[0-9a-fA-F]{4}/.test(source.slice(i + 2, i + 6)) ? 6 : next === 'x' ? 4 : 2;
      } else if (ch === '[') {
        let j = i + 1;
        while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
        i = j + 1;
      } else if (ch === '^' || ch === '$') {
        atom = 0;
        i++;
      } else if (ch === '(') {
        let kind = '';
        if (source[i + 1] === '?') {
          const head = /^\(\?(?::|=|!|<=|<!|<[A-Za-z_][A-Za-z0-9_]*>)/.exec(source.slice(i, i + 70));
          kind = head?.[0].slice(2, 4) ?? '';
          i += head ? head[0].length : 3;
        } else i++;
        const inner = alternation();
        i++; // the `)`
        if (kind === '<=' || kind === '<!') {
          behind += inner;
          atom = 0;
        } else atom = inner;
      } else i++;
      branch += atom;
      last = atom;
    }
    return Math.max(best, branch);
  };
  let ahead = 0;
  while (i < source.length) {
    ahead = Math.max(ahead, alternation());
    i++; // a stray `)`
  }
  return { behind, ahead };
}
