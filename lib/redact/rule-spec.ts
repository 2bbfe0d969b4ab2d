/**
 * The shape of a wuu-redact rule and the small regex toolkit that keeps
 * rules safe: a source analyser (bounded quantifiers only, no nested
 * repetition, group renaming so rules can share one alternation) and a
 * builder for "partial" patterns (a suffix of a delta piece that could be the
 * beginning of a match, so that a secret split across pieces is held back).
 *
 * LINEAR TIME. Every built-in pattern uses bounded quantifiers only and never
 * repeats a group that itself repeats. Each rule starts with a literal marker
 * (or, for e-mail, anchors on `@`), and where a long bounded run is followed
 * by more syntax, that syntax is optional: an attempt either fails within a
 * few characters of its marker or succeeds and consumes what it scanned. So
 * the scan of a line costs O(length x small constant) whatever its content;
 * test/redact.test.ts checks the structure, bench/redact-adversarial.ts runs
 * every rule on 8 MiB adversarial strings.
 */
import { re2js } from '../re2.js';

/** One redaction rule. Built-in and user rules have the same shape. */
export interface RuleSpec {
  /** Placeholder and report name: letters, digits, `_`, `.`, `-`. */
  name: string;
  /**
   * JavaScript regex source. The whole match is replaced, unless the pattern
   * has a group named `secret`: then only that group is (the rest is kept,
   * e.g. `password=` before the value).
   */
  pattern: string;
  /** Extra regex flags: any of `i`, `m`, `s`, `u`. */
  flags?: string;
  /**
   * Literals (ASCII, compared case-insensitively), one of which occurs in
   * every match. They let a line be passed through unparsed when none occurs.
   * A rule without markers turns that shortcut off.
   */
  markers?: string[];
  /**
   * Regex source that matches, at the END of a delta piece, a suffix that
   * could begin a match continued by the next piece. Without it a rule is
   * covered by holding back a fixed tail of every piece. A built-in partial
   * must not match a line break unless its anchors are long ones
   * (compile.ts: private keys, JWTs, key words): only the last line of a
   * piece is searched for the others.
   */
  partial?: string;
  /**
   * How many characters before the start of a marker a match may begin
   * (default 0: every match starts with a marker). The engine only tries the
   * rules near marker occurrences.
   */
  reach?: number;
  /** Literals (ASCII, case-insensitive) near which a `partial` match starts; default: the markers. */
  partialAnchors?: string[];
  /** How far before a partial anchor a partial match may start (default 0). */
  partialReach?: number;
  /** One line for the man page and --help. */
  description?: string;
  /**
   * The match (its `secret` group) is kept when it looks like a setting or a
   * reference rather than a secret: a small number (`TOKEN_LIMIT=4000`), an
   * env-var name (`api_key_env: OPENAI_API_KEY`), a known word
   * (`token_type: Bearer`), a mask (`****`). For rules keyed by a name.
   */
  keepSettings?: boolean;
  /** What the match is; built-ins only. Default `secret`. */
  kind?: RuleKind;
}

/** What a match stands for; it decides the placeholder. */
export type RuleKind = 'secret' | 'home' | 'root' | 'user' | 'workspace' | 'email' | 'path';

/** Escapes a literal for use in a regex source. */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** A literal with ASCII letters matched in either case (`[Tt][Oo]...`), without the `i` flag. */
export function caseless(word: string): string {
  let out = '';
  for (const ch of word) {
    const lower = ch.toLowerCase();
    const upper = ch.toUpperCase();
    out += /[a-z]/i.test(ch) && lower !== upper ? `[${upper}${lower}]` : escapeRegex(ch);
  }
  return out;
}

interface TrieNode {
  next: Map<string, TrieNode>;
}

/**
 * A regex source matching any non-empty prefix of any of `words` (the words
 * themselves included), as nested optional groups: a trie, linear to match.
 */
export function prefixPattern(words: readonly string[], options: { caseless?: boolean } = {}): string {
  const root: TrieNode = { next: new Map() };
  for (const word of words) {
    let node = root;
    for (const ch of word) {
      const key = options.caseless ? ch.toLowerCase() : ch;
      let child = node.next.get(key);
      if (!child) {
        child = { next: new Map() };
        node.next.set(key, child);
      }
      node = child;
    }
  }
  const atom = (ch: string) => (options.caseless ? caseless(ch) : escapeRegex(ch));
  const build = (node: TrieNode): string => {
    const alternatives = [...node.next].map(([ch, child]) => atom(ch) + (child.next.size > 0 ? `(?:${build(child)})?` : ''));
    return alternatives.length === 1 ? (alternatives[0] ?? '') : `(?:${alternatives.join('|')})`;
  };
  return root.next.size === 0 ? '(?!)' : build(root);
}

// ---------------------------------------------------------------------------
// Regex source analysis

/** What {@link analyzePattern} finds in a regex source. */
export interface PatternAnalysis {
  /** Number of capturing groups. */
  captures: number;
  /** Names of the named groups, in order. */
  names: string[];
  /** Uses a numbered backreference (`\1`): cannot share an alternation. */
  numberedBackref: boolean;
  /** Uses `*`, `+` or `{n,}`. */
  unbounded: boolean;
  /** Repeats (max > 1) a group that itself contains a repetition (max > 1). */
  nestedRepetition: boolean;
  /** Largest finite upper bound of any quantifier. */
  maxBound: number;
  /** The source with every group name `N` renamed `prefix + N`. */
  renamed: string;
  /** Each named group's number in the source (its place among its capturing groups, before any offset), in the order of `names`. */
  numbers: number[];
}

/**
 * Walks a regex source (flags without `v`): counts groups, finds named groups
 * and backreferences, checks quantifiers, and renames named groups so several
 * rules can live in one alternation.
 */
export function analyzePattern(source: string, renamePrefix = '', groupOffset = 0): PatternAnalysis {
  // Numbered backreferences are shifted by `groupOffset` (the rule's place in
  // an alternation), which needs the rule's own group count first.
  const ownCaptures = groupOffset > 0 ? analyzePattern(source).captures : 0;
  return new PatternWalker(source, renamePrefix, groupOffset, ownCaptures).walk();
}

/**
 * The source with its named groups made plain capturing groups (same
 * numbers) and each `\k<name>` a numbered backreference, and the number of
 * each name. V8 builds the `d` flag's `indices.groups` object of a match in
 * the old generation: 30-60 bytes of old-space garbage per match, which piled
 * up to tens of MB on a piece with 200k findings. Read by number, nothing of
 * it is made.
 */
export function numberedPattern(source: string): { source: string; numbers: ReadonlyMap<string, number> } {
  const { names, numbers } = analyzePattern(source);
  const byName = new Map(names.map((name, k) => [name, numbers[k]!]));
  return { source: new PatternWalker(source, '', 0, 0, byName).walk().renamed, numbers: byName };
}

/** What came last in a regex source: it decides what a quantifier applies to. */
type LastAtom = 'none' | 'char' | 'group' | 'quantifier';

/** The state of one {@link analyzePattern} walk: one method per kind of token. */
class PatternWalker {
  private readonly result: PatternAnalysis = { captures: 0, names: [], numberedBackref: false, unbounded: false, nestedRepetition: false, maxBound: 0, renamed: '', numbers: [] };
  /** One frame per open group: whether something inside repeats (the outermost is the pattern). */
  private readonly frames: Array<{ repeats: boolean }> = [{ repeats: false }];
  private out = '';
  private i = 0;
  private lastAtom: LastAtom = 'none';
  private lastGroupRepeats = false;

  constructor(
    private readonly source: string,
    private readonly renamePrefix: string,
    private readonly groupOffset: number,
    private readonly ownCaptures: number,
    /** Set: named groups are written plain, `\\k<name>` as the group's number (see {@link numberedPattern}). */
    private readonly unnamed?: ReadonlyMap<string, number>,
  ) {}

  walk(): PatternAnalysis {
    const { source } = this;
    while (this.i < source.length) {
      const ch = source.charAt(this.i);
      if (ch === '\\') this.escape();
      else if (ch === '[') this.charClass();
      else if (ch === '(') this.openGroup();
      else if (ch === ')') this.closeGroup();
      else if (ch === '*' || ch === '+') this.emit(ch, Infinity);
      else if (ch === '?') this.optional();
      else if (ch !== '{' || !this.braces()) this.copy(ch, 1, 'char');
    }
    this.result.renamed = this.out;
    return this.result;
  }

  /** The innermost open group (or the pattern itself). */
  private get frame(): { repeats: boolean } {
    return this.frames[this.frames.length - 1] ?? { repeats: false };
  }

  private copy(text: string, advance: number, atom: LastAtom): void {
    this.out += text;
    this.i += advance;
    this.lastAtom = atom;
  }

  /** A quantifier with upper bound `max` after the last atom. */
  private quantify(max: number): void {
    if (max === Infinity) this.result.unbounded = true;
    else this.result.maxBound = Math.max(this.result.maxBound, max);
    if (max > 1) {
      if (this.lastAtom === 'group' && this.lastGroupRepeats) this.result.nestedRepetition = true;
      this.frame.repeats = true;
    }
    this.lastAtom = 'quantifier';
  }

  private emit(text: string, max: number): void {
    this.out += text;
    this.i += text.length;
    this.quantify(max);
  }

  /** `\\1` (shifted into the alternation), `\\k<name>` (renamed), or any other escape. */
  private escape(): void {
    const { source, i } = this;
    const next = source.charAt(i + 1);
    const digits = /^[1-9][0-9]*/.exec(source.slice(i + 1))?.[0];
    if (digits !== undefined) {
      this.result.numberedBackref = true;
      const n = Number(digits);
      const shifted = this.groupOffset > 0 && n <= this.ownCaptures ? String(n + this.groupOffset) : digits;
      this.copy(`\\${shifted}`, 1 + digits.length, 'char');
      return;
    }
    if (next === 'k' && source[i + 2] === '<') {
      const close = source.indexOf('>', i + 3);
      const name = source.slice(i + 3, close < 0 ? source.length : close);
      const number = this.unnamed?.get(name);
      // In a group of its own: a digit after it must not extend the number.
      const text = number === undefined ? `\\k<${this.renamePrefix}${name}>` : `(?:\\${number})`;
      this.copy(text, (close < 0 ? source.length : close + 1) - i, 'char');
      return;
    }
    this.copy(`\\${next}`, 2, 'char');
  }

  /** A class runs to the first unescaped `]` (in JS, even right after `[`). */
  private charClass(): void {
    const { source, i } = this;
    let j = i + 1;
    while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
    this.copy(source.slice(i, j + 1), j + 1 - i, 'char');
  }

  private openGroup(): void {
    const { source, i } = this;
    this.frames.push({ repeats: false });
    if (source[i + 1] !== '?') {
      this.result.captures++;
    } else if (source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') {
      const close = source.indexOf('>', i + 3);
      const name = source.slice(i + 3, close < 0 ? source.length : close);
      this.result.names.push(name);
      this.result.captures++;
      this.result.numbers.push(this.result.captures);
      this.copy(this.unnamed === undefined ? `(?<${this.renamePrefix}${name}>` : '(', (close < 0 ? source.length : close + 1) - i, 'none');
      return;
    }
    this.copy('(', 1, 'none');
  }

  private closeGroup(): void {
    const frame = (this.frames.length > 1 ? this.frames.pop() : undefined) ?? { repeats: false };
    this.lastGroupRepeats = frame.repeats;
    if (frame.repeats) this.frame.repeats = true;
    this.copy(')', 1, 'group');
  }

  /** `?`: optional, or the lazy modifier of a quantifier. */
  private optional(): void {
    if (this.lastAtom === 'quantifier') this.copy('?', 1, 'quantifier');
    else this.emit('?', 1);
  }

  /** `{n}`, `{n,}`, `{n,m}`; false for a brace that is no quantifier (copied as a character). */
  private braces(): boolean {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.i));
    if (!m) return false;
    this.emit(m[0], m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]));
    return true;
  }
}

// ---------------------------------------------------------------------------
// Building blocks of the built-in rules

/** Placeholders already in the text; a rule never matches inside one. */
export const PLACEHOLDER_PATTERN = '<(?:secret:[A-Za-z0-9_.-]{1,64}|email|user|home|workspace|path|redacted)(?::[0-9a-f]{8})?>';

/**
 * Not right after a placeholder. A lookbehind that refuses a letter before a
 * match must refuse a placeholder too: it replaced text that refused it the
 * first time, and a second pass must find nothing new (idempotence).
 */
export const NOT_AFTER_PLACEHOLDER = `(?<!${PLACEHOLDER_PATTERN})`;


/** Thrown for a rule that cannot be used; the CLI turns it into a usage error. */
export class RuleError extends Error {
  override name = 'RuleError';
}

const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;

/** Checks one user rule and returns it normalised; throws {@link RuleError}. */
export function checkRule(rule: unknown, where: string): RuleSpec {
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) throw new RuleError(`${where}: a rule is an object {name, pattern, flags?}`);
  const { name, pattern, flags, partial, markers } = rule as Record<string, unknown>;
  if (typeof name !== 'string' || !NAME_RE.test(name)) {
    throw new RuleError(`${where}: rule name must be 1-64 letters, digits, '_', '.' or '-', not ${JSON.stringify(name)}`);
  }
  if (typeof pattern !== 'string' || pattern === '') throw new RuleError(`${where}: rule '${name}' needs a non-empty string "pattern"`);
  if (flags !== undefined && (typeof flags !== 'string' || !/^[imsu]*$/.test(flags) || new Set(flags).size !== flags.length)) {
    throw new RuleError(`${where}: rule '${name}': flags may only combine i, m, s, u`);
  }
  try {
    new RegExp(pattern, `${flags ?? ''}gd`);
  } catch (err) {
    throw new RuleError(`${where}: rule '${name}': ${(err as Error).message}`);
  }
  linearCheck(pattern, `${where}: rule '${name}'`);
  if (partial !== undefined) {
    if (typeof partial !== 'string') throw new RuleError(`${where}: rule '${name}': "partial" must be a string`);
    try {
      new RegExp(`(?:${partial})$`, `${flags ?? ''}g`);
    } catch (err) {
      throw new RuleError(`${where}: rule '${name}': partial: ${(err as Error).message}`);
    }
    linearCheck(partial, `${where}: rule '${name}': partial`);
  }
  if (markers !== undefined && (!Array.isArray(markers) || markers.some((m) => typeof m !== 'string' || m === '' || /[^\x20-\x7e]/.test(m)))) {
    throw new RuleError(`${where}: rule '${name}': "markers" must be a list of non-empty ASCII strings`);
  }
  const spec: RuleSpec = { name, pattern };
  if (typeof flags === 'string' && flags !== '') spec.flags = flags;
  if (typeof partial === 'string') spec.partial = partial;
  if (Array.isArray(markers)) spec.markers = markers.map(String);
  return spec;
}

/**
 * User patterns run on re2js (linear time, so no input can make them hang):
 * refuse up front what RE2 cannot do, saying why.
 */
function linearCheck(pattern: string, what: string): void {
  try {
    re2js().compile(pattern);
  } catch (err) {
    throw new RuleError(
      `${what}: ${(err as Error).message} (user patterns run on RE2, a linear-time engine without backreferences, lookahead or lookbehind)`,
    );
  }
}

/** Parses `NAME=REGEX` (from --pattern). */
export function parsePatternOption(text: string): RuleSpec {
  const at = text.indexOf('=');
  if (at <= 0) throw new RuleError(`--pattern takes NAME=REGEX, not '${text}'`);
  return checkRule({ name: text.slice(0, at), pattern: text.slice(at + 1) }, '--pattern');
}

/** Parses the text of a rule file: a JSON array of {name, pattern, flags?, partial?, markers?}. */
export function parseRuleFile(text: string, file: string): RuleSpec[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new RuleError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  if (!Array.isArray(value)) throw new RuleError(`${file}: a rule file is a JSON array of rules`);
  return value.map((rule, i) => checkRule(rule, `${file}: rule ${i + 1}`));
}
