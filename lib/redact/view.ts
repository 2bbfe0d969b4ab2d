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
  /** Decoded offsets of the escapes, ascending (empty for most strings, which have none). */
  private readonly escAt: number[];
  /** Extra encoded length of the first k escapes (k = index). */
  private readonly extra: number[];

  constructor(
    public text: string,
    private readonly base: number,
    escapes = true,
  ) {
    // A string without escapes (most of them) shares the empty tables.
    this.escAt = escapes ? [] : NO_ESCAPES;
    this.extra = escapes ? [0] : NO_EXTRA;
  }

  /** Decodes the body `src[a, b)` of a string literal; undefined when an escape is invalid. */
  static decode(src: string, a: number, b: number): View | undefined {
    let slash = src.indexOf('\\', a);
    if (slash < 0 || slash >= b) return new View(src.slice(a, b), a, false);
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
      view.escAt.push(decoded);
      extra += len - 1;
      view.extra.push(extra);
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
      view.escAt.push(decoded);
      extra += m[0].length - 1;
      view.extra.push(extra);
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

