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
/** After a root: not continued by a name (`/w/app` is not `/w/apple`, nor `/w/app.old`). */
const RIGHT = /(?![A-Za-z0-9_-]|\.[A-Za-z0-9_-])/y;

/** Markers are the first PREFIX characters of the roots. */
const PREFIX = 12;

/** Inserts `root` into a list kept longest first. */
function insertByLength(list: string[], root: string): void {
  const at = list.findIndex((w) => w.length < root.length);
  list.splice(at < 0 ? list.length : at, 0, root);
}

/** Roots longer than this are matched, but not held back when cut (the partial's limit). */
const MAX_PARTIAL = 1024;

function leftEdge(text: string, at: number): boolean {
  LEFT.lastIndex = at;
  return LEFT.test(text);
}

/** The workspace roots: the rule, its partial, and the markers (first 12 characters). */
export class Workspaces {
  /** Longest first: the longest root wins at a position. */
  private readonly byLength: string[] = [];
  /** Sorted, for the prefix search of the partial. */
  private readonly sorted: string[] = [];
  /** Roots of at least PREFIX characters by their first PREFIX (longest first), and the shorter ones. */
  private readonly byPrefix = new Map<string, string[]>();
  private readonly short: string[] = [];

  get size(): number {
    return this.byLength.length;
  }

  has(root: string): boolean {
    return this.byLength.includes(root);
  }

  add(root: string): void {
    insertByLength(this.byLength, root);
    if (root.length < PREFIX) insertByLength(this.short, root);
    else {
      const key = root.slice(0, PREFIX);
      let list = this.byPrefix.get(key);
      if (list === undefined) this.byPrefix.set(key, (list = []));
      insertByLength(list, root);
    }
    if (root.length <= MAX_PARTIAL) this.sorted.splice(lowerBound(this.sorted, root), 0, root);
  }

  /** The markers: distinct first 12 characters. */
  markers(): string[] {
    return [...new Set(this.byLength.map((w) => w.slice(0, PREFIX)))];
  }

  /** The first characters of the roots a partial can hold back. */
  anchors(): string[] {
    return [...new Set(this.sorted.map((w) => w[0]!))];
  }

  /** The left-edge test, as a pattern (the prefilter reads the edge condition from it). */
  static readonly pattern = LEFT.source;

  readonly rule: Compiled = {
    name: 'workspace',
    kind: 'workspace',
    reach: 0,
    exec: (text: string, at: number): Match | null => {
      if (!leftEdge(text, at)) return null;
      // Longest first: the roots sharing the text's first characters, then the short ones.
      for (const list of [this.byPrefix.get(text.slice(at, at + PREFIX)), this.short]) {
        for (const root of list ?? []) {
          if (!text.startsWith(root, at)) continue;
          RIGHT.lastIndex = at + root.length;
          if (RIGHT.test(text)) return { start: at, end: at + root.length };
        }
      }
      return null;
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
      return i < this.sorted.length && this.sorted[i]!.startsWith(tail);
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
