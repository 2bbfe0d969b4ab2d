/**
 * Which ASCII characters can end a match of a regex: read from its source,
 * for the built-in partials without anchors (./hold-back.ts). A piece whose
 * last character is none of them cannot end with the start of such a match,
 * so the hold-back skips decoding its tail and running the partial at all.
 *
 * Conservative: any syntax this reader does not know, a backreference, the
 * `m`, `u` or `v` flag, or a pattern that can match the empty string gives
 * undefined ("cannot tell"). Zero-width parts (anchors, `\b`, look-arounds)
 * consume nothing, so they add no ending character. Only characters below
 * 0x80 are judged: a caller asks nothing about a non-ASCII last character.
 */

/** 128 flags: 1 where an ASCII character may be the last one of a non-empty match. */
export type Ends = Uint8Array;

/** The union of two sets of ends (undefined, "any", wins). */
export function unionEnds(a: Ends | undefined, b: Ends | undefined): Ends | undefined {
  return a === undefined || b === undefined ? undefined : union(a, b);
}

/** Whether no match can end with the character `code` (an ASCII one judged by `ends`). */
export function cannotEnd(ends: Ends | undefined, code: number): boolean {
  return ends !== undefined && code < 0x80 && ends[code] === 0;
}

/** What a piece of pattern can end with, and whether it can match nothing. */
interface Part {
  ends: Uint8Array;
  empty: boolean;
}

class Unknown extends Error {}

const set = (...ranges: Array<[number, number]>): Uint8Array => {
  const out = new Uint8Array(128);
  for (const [a, b] of ranges) out.fill(1, a, b + 1);
  return out;
};
const DIGIT = set([0x30, 0x39]);
const WORD = set([0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a], [0x5f, 0x5f]);
const SPACE = set([0x09, 0x0d], [0x20, 0x20]);
const ALL = set([0, 127]);
/** Plain loops: this runs once per start-up, cold, where array callbacks cost most. */
function invert(s: Uint8Array): Uint8Array {
  const out = new Uint8Array(128);
  for (let c = 0; c < 128; c++) out[c] = s[c] === 1 ? 0 : 1;
  return out;
}
function union(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(128);
  for (let c = 0; c < 128; c++) out[c] = a[c]! | b[c]!;
  return out;
}

/** Short escapes that stand for one control character. */
const CONTROL: Readonly<Record<string, number>> = { n: 0x0a, t: 0x09, r: 0x0d, f: 0x0c, v: 0x0b, '0': 0 };

/**
 * The ASCII characters that may end a non-empty match of `source` (a
 * JavaScript regex) under `flags`; undefined when this reader cannot tell
 * or the pattern may match the empty string.
 */
export function regexEnds(source: string, flags = ''): Ends | undefined {
  if (/[muv]/.test(flags)) return undefined;
  try {
    const reader = new Reader(source, flags.includes('i'));
    const part = reader.alternation();
    if (reader.i !== source.length || part.empty) return undefined;
    return Uint8Array.from(part.ends);
  } catch (caught) {
    if (caught instanceof Unknown) return undefined;
    throw caught;
  }
}

/** A recursive-descent reader over a pattern's source (patterns are short and code-defined). */
class Reader {
  i = 0;

  constructor(
    private readonly src: string,
    private readonly caseless: boolean,
  ) {}

  alternation(): Part {
    let out = this.sequence();
    while (this.src[this.i] === '|') {
      this.i++;
      const next = this.sequence();
      out = { ends: union(out.ends, next.ends), empty: out.empty || next.empty };
    }
    return out;
  }

  private sequence(): Part {
    let out: Part = { ends: new Uint8Array(128), empty: true };
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
      const part = this.quantified(this.atom());
      if (!part.empty) out = part;
      else if (part.ends.includes(1)) out = { ends: union(out.ends, part.ends), empty: out.empty };
    }
    return out;
  }

  /** Applies a quantifier after an atom, when one follows. */
  private quantified(part: Part): Part {
    const { src } = this;
    const c = src[this.i];
    let min = 1;
    let max = Infinity;
    if (c === '?' || c === '*') min = 0;
    if (c === '?') max = 1;
    if (c === '?' || c === '*' || c === '+') this.i++;
    else if (c === '{') {
      const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(src.slice(this.i, this.i + 24));
      if (m === null) throw new Unknown();
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      this.i += m[0].length;
    } else return part;
    if (src[this.i] === '?') this.i++; // lazy: the same matches
    if (max === 0) return { ends: new Uint8Array(128), empty: true };
    return { ends: part.ends, empty: part.empty || min === 0 };
  }

  private atom(): Part {
    const { src } = this;
    const c = src[this.i]!;
    if (c === '(') return this.group();
    if (c === '[') return this.charClass();
    if (c === '^' || c === '$') {
      this.i++;
      return { ends: new Uint8Array(128), empty: true };
    }
    if (c === '.') {
      this.i++;
      return { ends: ALL, empty: false };
    }
    if (c === '\\') {
      const escaped = this.escape();
      return escaped === undefined ? { ends: new Uint8Array(128), empty: true } : { ends: escaped, empty: false };
    }
    if ('*+?{}]'.includes(c)) throw new Unknown();
    this.i++;
    return { ends: this.char(c.charCodeAt(0)), empty: false };
  }

  /** One character's set (both cases under `i`; a non-ASCII one adds nothing ASCII). */
  private char(code: number): Uint8Array {
    const out = new Uint8Array(128);
    if (code < 128) out[code] = 1;
    if (this.caseless) this.fold(out);
    return out;
  }

  /** Adds the other case of every ASCII letter in `s`. */
  private fold(s: Uint8Array): void {
    for (let c = 0x41; c <= 0x5a; c++) if (s[c] === 1 || s[c + 0x20] === 1) s[c] = s[c + 0x20] = 1;
  }

  private group(): Part {
    const { src } = this;
    this.i++;
    let zeroWidth = false;
    if (src[this.i] === '?') {
      const head = /^\?(?::|=|!|<=|<!|<[A-Za-z_][A-Za-z0-9_]*>)/.exec(src.slice(this.i, this.i + 70));
      if (head === null) throw new Unknown();
      zeroWidth = LOOKAROUND.has(head[0]);
      this.i += head[0].length;
    }
    const inner = this.alternation();
    if (src[this.i] !== ')') throw new Unknown();
    this.i++;
    return zeroWidth ? { ends: new Uint8Array(128), empty: true } : inner;
  }

  /** An escape at `this.i` (a backslash) outside a class: its set, or undefined for `\b` and `\B` (zero-width). */
  private escape(): Uint8Array | undefined {
    const e = this.src[this.i + 1];
    if (e === 'b' || e === 'B') {
      this.i += 2;
      return undefined;
    }
    const read = this.escaped();
    return typeof read === 'number' ? this.char(read) : read;
  }

  /**
   * The escape at `this.i` (past it after): a class (`\d`, `\w`, `\s` and
   * their negations) or one character's code (in a class `\b` is a backspace).
   */
  private escaped(): number | Uint8Array {
    const { src } = this;
    const e = src[this.i + 1];
    if (e === undefined) throw new Unknown();
    this.i += 2;
    const named = CLASSES[e];
    if (named !== undefined) return named;
    if (e === 'b') return 0x08;
    const control = CONTROL[e];
    // `\0` followed by a digit is an octal escape: not read here.
    if (control !== undefined && !(e === '0' && /[0-9]/.test(src[this.i] ?? ''))) return control;
    if (e === 'x' || e === 'u') {
      const hex = src.slice(this.i, this.i + (e === 'x' ? 2 : 4));
      if (!(e === 'x' ? /^[0-9A-Fa-f]{2}$/ : /^[0-9A-Fa-f]{4}$/).test(hex)) throw new Unknown();
      this.i += hex.length;
      return Number.parseInt(hex, 16);
    }
    // Any other letter or digit (a backreference, \c, \p, \k): not read here.
    if (/[A-Za-z0-9]/.test(e)) throw new Unknown();
    return e.charCodeAt(0);
  }

  /** A character class `[...]` at `this.i`. */
  private charClass(): Part {
    const { src } = this;
    this.i++;
    const negated = src[this.i] === '^';
    if (negated) this.i++;
    const out = new Uint8Array(128);
    while (src[this.i] !== ']') {
      if (this.i >= src.length) throw new Unknown();
      const low = this.classAtom();
      if (src[this.i] === '-' && src[this.i + 1] !== ']' && typeof low === 'number') {
        this.i++;
        const high = this.classAtom();
        if (typeof high !== 'number' || high < low) throw new Unknown();
        for (let c = low; c <= Math.min(high, 127); c++) out[c] = 1;
      } else if (typeof low === 'number') {
        if (low < 128) out[low] = 1;
      } else for (let c = 0; c < 128; c++) out[c] = out[c]! | low[c]!;
    }
    this.i++;
    if (this.caseless) this.fold(out);
    return { ends: negated ? invert(out) : out, empty: false };
  }

  /** One member of a class: a character code, or a set (`\d`...). */
  private classAtom(): number | Uint8Array {
    const c = this.src[this.i]!;
    if (c === '\\') return this.escaped();
    this.i++;
    return c.charCodeAt(0);
  }
}

/** Look-arounds: groups that consume nothing. */
const LOOKAROUND: ReadonlySet<string> = new Set(['?=', '?!', '?<=', '?<!']);

/** The class escapes. */
const CLASSES: Readonly<Record<string, Uint8Array>> = { d: DIGIT, D: invert(DIGIT), w: WORD, W: invert(WORD), s: SPACE, S: invert(SPACE) };
