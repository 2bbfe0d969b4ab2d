/**
 * A decoded view of escaped text with the way back: decoded offsets map to
 * offsets in the encoded text, so a finding in the view patches exactly the
 * encoded characters it covers.
 */
/** The tables of a view without escapes (never written: escapes are only pushed while decoding). */
const NO_ESCAPES: number[] = [];
const NO_EXTRA: number[] = [0];

/** A decoded string literal and the way back to its encoded offsets. */
export class View {
  constructor(
    public text: string,
    private readonly base: number,
    /** Decoded offsets of the escapes, ascending. */
    private readonly escAt: number[] | Int32Array = [],
    /** Extra encoded length of the first k escapes (k = index). */
    private readonly extra: number[] | Int32Array = [0],
  ) {}

  /** Decodes the body `src[a, b)` of a string literal; undefined when an escape is invalid. */
  static decode(src: string, a: number, b: number): View | undefined {
    let slash = src.indexOf('\\', a);
    // A string without escapes (most of them) shares the empty tables.
    if (slash < 0 || slash >= b) return new View(src.slice(a, b), a, NO_ESCAPES, NO_EXTRA);
    if (b - a >= LONG_BODY) {
      const view = decodeLong(src, a, b, slash);
      if (view !== null) return view;
    }
    const parts: string[] = [];
    const view = new View('', a);
    let extra = 0;
    let decoded = 0;
    let from = a;
    while (slash >= 0 && slash < b) {
      parts.push(src.slice(from, slash));
      decoded += slash - from;
      const c = src[slash + 1];
      let ch: string;
      let len = 2;
      switch (c) {
        case '"': ch = '"'; break;
        case '\\': ch = '\\'; break;
        case '/': ch = '/'; break;
        case 'b': ch = '\b'; break;
        case 'f': ch = '\f'; break;
        case 'n': ch = '\n'; break;
        case 'r': ch = '\r'; break;
        case 't': ch = '\t'; break;
        case 'u': {
          const hex = src.slice(slash + 2, slash + 6);
          if (slash + 6 > b || !/^[0-9a-fA-F]{4}$/.test(hex)) return undefined;
          ch = String.fromCharCode(parseInt(hex, 16));
          len = 6;
          break;
        }
        default:
          return undefined;
      }
      parts.push(ch);
      (view.escAt as number[]).push(decoded);
      extra += len - 1;
      (view.extra as number[]).push(extra);
      decoded++;
      from = slash + len;
      slash = src.indexOf('\\', from);
    }
    parts.push(src.slice(from, b));
    view.text = parts.join('');
    return view;
  }

  /**
   * Decodes `\\uXXXX` (not control characters) and `\\/` however many
   * backslashes precede them (JSON nested in JSON, or escaped text printed by
   * a tool): the view in which escaped text cannot hide a secret.
   */
  static loose(src: string): View {
    const parts: string[] = [];
    const view = new View('', 0);
    let decoded = 0;
    let extra = 0;
    let from = 0;
    const re = /\\+(?:u([0-9a-fA-F]{4})|\/)/g;
    for (let m: RegExpExecArray | null; (m = re.exec(src)) !== null; ) {
      let ch = '/';
      if (m[1] !== undefined) {
        const code = parseInt(m[1], 16);
        if (code < 0x20) continue;
        ch = String.fromCharCode(code);
      }
      parts.push(src.slice(from, m.index), ch);
      decoded += m.index - from;
      (view.escAt as number[]).push(decoded);
      extra += m[0].length - 1;
      (view.extra as number[]).push(extra);
      decoded++;
      from = m.index + m[0].length;
    }
    parts.push(src.slice(from));
    view.text = parts.join('');
    return view;
  }

  /** The encoded offset of decoded offset `i` (an end offset maps past a whole escape). */
  rawOf(i: number): number {
    const esc = this.escAt;
    if (esc.length === 0) return this.base + i;
    let lo = 0;
    let hi = esc.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (esc[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    return this.base + i + this.extra[lo]!;
  }
}


/**
 * From this many characters on, a body is decoded by {@link decodeLong}: a
 * 4 MiB delta of short lines has some 200k escapes, and the loop of
 * {@link View.decode} made two strings and two array entries for each, tens
 * of MB that lived long enough to be promoted to the old generation.
 */
const LONG_BODY = 64 * 1024;

/** The length of the escape at `src[slash]` (a backslash) in a body ending at `b`; 0 when invalid or cut by `b`. */
function escapeLength(src: string, slash: number, b: number): number {
  switch (src.charCodeAt(slash + 1)) {
    case 0x22: // " \ / b f n r t
    case 0x5c:
    case 0x2f:
    case 0x62:
    case 0x66:
    case 0x6e:
    case 0x72:
    case 0x74:
      return slash + 2 <= b ? 2 : 0;
    case 0x75: {
      if (slash + 6 > b) return 0;
      for (let k = slash + 2; k < slash + 6; k++) {
        const c = src.charCodeAt(k);
        if (!((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66))) return 0;
      }
      return 6;
    }
    default:
      return 0;
  }
}

/**
 * {@link View.decode} for a long body with an escape at `slash`: the escapes
 * counted and checked, their offsets in two typed arrays, the text decoded
 * natively by JSON.parse. Null for a body that is not plain JSON (a raw
 * control character, which the loop keeps, or a bad escape): the caller then
 * takes the loop, which has the last word on those.
 */
function decodeLong(src: string, a: number, b: number, slash: number): View | null {
  let count = 0;
  for (let at = slash; at >= 0 && at < b; at = src.indexOf('\\', at)) {
    const len = escapeLength(src, at, b);
    if (len === 0) return null;
    count++;
    at += len;
  }
  const escAt = new Int32Array(count);
  const extra = new Int32Array(count + 1);
  let encoded = 0; // extra encoded length so far
  let k = 0;
  for (let at = slash; at >= 0 && at < b; at = src.indexOf('\\', at)) {
    const len = escapeLength(src, at, b);
    // The decoded offset: the body's characters before it, less the escapes' extra length.
    escAt[k] = at - a - encoded;
    encoded += len - 1;
    extra[++k] = encoded;
    at += len;
  }
  // The literal itself when the body sits between its quotes (no copy of it), else a quoted copy.
  const literal = src.charCodeAt(a - 1) === 0x22 && src.charCodeAt(b) === 0x22 ? src.slice(a - 1, b + 1) : `"${src.slice(a, b)}"`;
  let text: string;
  try {
    text = JSON.parse(literal) as string;
  } catch {
    return null;
  }
  return new View(text, a, escAt, extra);
}
