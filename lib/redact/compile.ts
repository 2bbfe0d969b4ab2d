/**
 * Rule compiling: specs (built-in and user rules, plus the learned user names
 * and workspaces) to the tables the scan uses. Built-in rules are native
 * sticky regexes (their patterns are bounded and checked for nested
 * repetition, see ./rule-spec.ts); user rules run on re2js, a linear-time
 * engine, so no user pattern can make the tool hang.
 */
import { RE2JS } from 're2js';
import { ByteMarkers, rawForm } from './byte-scan.js';
import { analyzePattern, caseless, escapeRegex, PLACEHOLDER_PATTERN, RuleError, type RuleKind, type RuleSpec } from './rule-spec.js';
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
  name: string;
  kind: RuleKind | 'skip';
  /** How far before a marker a match may start. */
  reach: number;
  /** Keep matches that look like settings (see RuleSpec.keepSettings). */
  keepSettings?: boolean;
}

/** A partial pattern: whether a match of it starting at `at` runs to the end of the text. */
export interface CompiledPartial {
  test(text: string, at: number): boolean;
  reach: number;
}

/** A rule with what the engine adds: its kind, whether it is built in, markers for raw lines. */
export type Spec = RuleSpec & { kind: RuleKind; builtin: boolean; rawMarkers?: string[] };

/** Everything the scan and the hold-back search need. */
export interface Built {
  /** Rules with markers, in priority order; index 0 is the placeholder skip. */
  rules: Compiled[];
  /** Finds every candidate position: markers and `<` (case-insensitive, global). */
  candidates: RegExp;
  /** The same over lower-cased text, case-sensitive (much faster than the `i` flag). */
  lowerCandidates: RegExp;
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
  /** Last character of an anchor's proper prefix (reversed) → [prefix, partial indexes]. */
  prefixes: Map<string, Array<[string, number[]]>>;
  /** Partials without anchors (user rules): searched over the short window. */
  freePartials: Array<(text: string, from: number) => number>;
  /** Characters every delta piece holds back for rules without a partial (user rules). */
  fallbackHold: number;
}

/** Held tail for user rules that have no `partial` pattern. */
export const FALLBACK_HOLD = 256;

/** Partials whose window exceeds the short one: the long anchors. */
const LONG_ANCHORS: ReadonlySet<string> = new Set(['-----begin', 'eyj', 'bearer', 'basic', ...SECRET_KEY_WORDS]);

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

function nativeRule(spec: Spec, sticky: boolean): Compiled {
  const names = analyzePattern(spec.pattern).names;
  const re = new RegExp(spec.pattern, `${sticky ? 'y' : 'g'}d${spec.flags ?? ''}`);
  const secret = names.includes('secret');
  const lead = names.includes('lead');
  const user = names.includes('name');
  return {
    name: spec.name,
    kind: spec.kind,
    reach: spec.reach ?? 0,
    keepSettings: spec.keepSettings === true,
    exec(text, at) {
      re.lastIndex = at;
      const m = re.exec(text);
      if (m === null) return null;
      const match: Match = { start: m.index, end: m.index + m[0].length };
      const groups = m.indices?.groups;
      if (secret && groups?.secret) match.secret = groups.secret;
      if (lead && groups?.lead) match.lead = groups.lead[0];
      if (user && m.groups?.name !== undefined) match.name = m.groups.name;
      return match;
    },
  };
}

/** RE2 flags for the JavaScript flags a rule may carry. */
function re2Flags(flags: string | undefined): number {
  let out = 0;
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
    return RE2JS.compile(source, re2Flags(flags));
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
    return (text, from) => {
      re.lastIndex = from;
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

/** Builds the scan tables for `specs` (priority order). */
export function buildRules(specs: readonly Spec[]): Built {
  const rules: Compiled[] = [nativeRule({ name: '', pattern: PLACEHOLDER_PATTERN, kind: 'secret', builtin: true }, true)];
  rules[0]!.kind = 'skip';
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
  const freePartials: Array<(text: string, from: number) => number> = [];
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
      freePartials.push(freePartial(spec));
      continue;
    }
    partials.push(spec.builtin ? nativePartial(spec) : linearPartial(spec));
    const index = partials.length - 1;
    for (const anchor of anchors) {
      addDispatch(anchorDispatch, anchor, index);
      (!spec.builtin || LONG_ANCHORS.has(anchor) ? longAnchors : shortAnchors).push(anchor);
      for (let k = 1; k < anchor.length; k++) addDispatch(prefixes, [...anchor.slice(0, k)].reverse().join(''), index);
    }
  }
  return {
    rules,
    candidates: literalsRegex([...markers, '<'], 'gi')!,
    lowerCandidates: literalsRegex([...markers, '<'], 'g')!,
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
}
