/**
 * The workspace rule: announced workspace roots (and cwds) become
 * `<workspace>`. A regex alternation of every root had to be compiled again
 * for each new one; here the roots live in two sorted lists that a new root
 * joins in place, and the rule and its partial (the hold-back's test for a
 * piece ending inside a root) look them up directly.
 */
import type { Compiled, CompiledPartial, Match } from './compile.js';
import { NOT_AFTER_PLACEHOLDER } from './rule-spec.js';

/** Before a root: not glued to a path or word character, not right after a placeholder. */
const LEFT = new RegExp(`(?<![A-Za-z0-9._~-])${NOT_AFTER_PLACEHOLDER}`, 'y');

/** Markers are the first PREFIX characters of the roots. */
const PREFIX = 12;

/**
 * Roots that may start at one position: a set, and their distinct lengths
 * longest first, so a position costs one lookup per length instead of a
 * comparison per root (hundreds of roots share `/home/NAME/src/`).
 */
class Roots {
  private readonly set = new Set<string>();
  private readonly lengths: number[] = [];

  add(root: string): void {
    this.set.add(root);
    if (this.lengths.includes(root.length)) return;
    const at = this.lengths.findIndex((n) => n < root.length);
    this.lengths.splice(at < 0 ? this.lengths.length : at, 0, root.length);
  }

  /** The longest root at `text[at]` that no name character continues: its length, or -1. */
  longestAt(text: string, at: number): number {
    for (const n of this.lengths) {
      // The right edge first, on one or two characters: most lengths end inside a name, and
      // are refused without a slice of the text and a lookup.
      if (at + n > text.length || !rightEdge(text, at + n) || !this.set.has(text.slice(at, at + n))) continue;
      return n;
    }
    return -1;
  }
}

/** A name character (see {@link rightEdge}): an ASCII letter or digit, `_` or `-`. */
function nameChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d;
}

/** After a root: not continued by a name (`/w/app` is not `/w/apple`, nor `/w/app.old`). */
function rightEdge(text: string, end: number): boolean {
  if (end >= text.length) return true;
  const c = text.charCodeAt(end);
  if (nameChar(c)) return false;
  return !(c === 0x2e && end + 1 < text.length && nameChar(text.charCodeAt(end + 1)));
}

/** Roots longer than this are matched, but not held back when cut (the partial's limit). */
const MAX_PARTIAL = 1024;

function leftEdge(text: string, at: number): boolean {
  if (at === 0) return true;
  const c = text.charCodeAt(at - 1);
  // Glued to a path or word character: refused without the regex.
  if (nameChar(c) || c === 0x2e || c === 0x7e) return false;
  // Only a placeholder's closing `>` can make the regex's second look-behind refuse.
  if (c !== 0x3e) return true;
  LEFT.lastIndex = at;
  return LEFT.test(text);
}

/** The workspace roots: the rule, its partial, and the markers (first 12 characters). */
export class Workspaces {
  /** In the order learned. */
  private readonly all: string[] = [];
  private readonly known = new Set<string>();
  /** Sorted, for the prefix search of the partial. */
  private readonly sorted: string[] = [];
  /** Roots of at least PREFIX characters by their first PREFIX, and the shorter ones. */
  private readonly byPrefix = new Map<string, Roots>();
  private readonly short = new Roots();

  get size(): number {
    return this.all.length;
  }

  has(root: string): boolean {
    return this.known.has(root);
  }

  /**
   * Adds a root; false when {@link markers} and {@link anchors} stay as they
   * were (most roots: hundreds share `/home/NAME/src/`), so the caller need
   * not list them again. A marker moves only when its prefix is new or the
   * root is longer than its longest one (the order is by longest root, and
   * the sort is stable); an anchor is added only with a new first character.
   */
  add(root: string): boolean {
    if (this.known.has(root)) return false;
    this.known.add(root);
    this.all.push(root);
    const prefix = root.slice(0, PREFIX);
    const longest = this.longest.get(prefix);
    let changed = longest === undefined || root.length > longest;
    if (changed) this.longest.set(prefix, root.length);
    if (root.length < PREFIX) this.short.add(root);
    else {
      let roots = this.byPrefix.get(prefix);
      if (roots === undefined) this.byPrefix.set(prefix, (roots = new Roots()));
      roots.add(root);
    }
    if (root.length <= MAX_PARTIAL) {
      this.sorted.splice(lowerBound(this.sorted, root), 0, root);
      if (!this.firsts.has(root.charAt(0))) {
        this.firsts.add(root.charAt(0));
        changed = true;
      }
    }
    return changed;
  }

  /** By marker (a root's first PREFIX characters): the length of its longest root. */
  private readonly longest = new Map<string, number>();
  /** The first characters of the roots in `sorted` (the anchors, as a set). */
  private readonly firsts = new Set<string>();

  /** The markers: distinct first 12 characters (in the order of the longest root first, then learned). */
  markers(): string[] {
    const longestFirst = [...this.all].sort((a, b) => b.length - a.length);
    return [...new Set(longestFirst.map((w) => w.slice(0, PREFIX)))];
  }

  /** The first characters of the roots a partial can hold back. */
  anchors(): string[] {
    return [...new Set(this.sorted.map((w) => w.charAt(0)))];
  }

  /** The left-edge test, as a pattern (the prefilter reads the edge condition from it). */
  static readonly pattern = LEFT.source;

  readonly rule: Compiled = {
    name: 'workspace',
    kind: 'workspace',
    reach: 0,
    exec: (text: string, at: number): Match | null => {
      if (!leftEdge(text, at)) return null;
      // Longest first: the roots sharing the text's first characters (all at least PREFIX long), then the short ones.
      const n = this.byPrefix.get(text.slice(at, at + PREFIX))?.longestAt(text, at) ?? -1;
      const length = n >= 0 ? n : this.short.longestAt(text, at);
      return length < 0 ? null : { start: at, end: at + length };
    },
  };

  /** Whether `text` from `at` to its end is a non-empty beginning of a root (and `at` a left edge). */
  readonly partial: CompiledPartial = {
    reach: 0,
    test: (text: string, at: number): boolean => {
      const rest = text.length - at;
      if (rest <= 0 || rest > MAX_PARTIAL || !leftEdge(text, at)) return false;
      const tail = text.slice(at);
      const i = lowerBound(this.sorted, tail);
      return this.sorted[i]?.startsWith(tail) === true;
    },
  };
}

/** Index of the first element not less than `key` (code-unit order). */
function lowerBound(list: readonly string[], key: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
