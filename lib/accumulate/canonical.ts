/**
 * A delta's text kept as JSON rather than as a string (issue 20): what
 * JSON.stringify would write for it, made straight from the bytes of the
 * literal on the line, so the text the accumulating tools write is never
 * decoded nor encoded again.
 *
 * The producer escapes as Go does (`\u003c` for `<`, `\u2028`, `\/` from
 * other writers); {@link Transcoder} rewrites a literal into JSON.stringify's
 * spelling (only `\"`, `\\`, `\b\f\n\r\t`, `\u00xx` for other control
 * characters and `\udxxx` for a lone surrogate escaped; everything else as
 * its UTF-8), judging it valid JSON text in the same pass. {@link JsonText}
 * accumulates such pieces up to a byte cap and turns into a {@link CappedText}
 * (the text as a string) as soon as anything cannot stay exact in JSON form:
 * a piece over the cap, one given as a string, one with bytes that are not
 * UTF-8 (decoding replaces them), or a lone surrogate at a piece's edge (it
 * may pair with the neighbouring piece's once decoded and joined).
 */
import { isUtf8 } from 'node:buffer';
import { PLAIN, plainRunEnds, viewOf } from '../validate.js';
import { CappedText } from './units.js';

const [QUOTE, BACKSLASH, SLASH, LETTER_U] = [0x22, 0x5c, 0x2f, 0x75] as const;

/** What {@link Transcoder.run} made of a literal. */
export const TRANSCODED = 0;
/** Not valid JSON text: the line is not valid JSON. */
export const INVALID = 1;
/** Valid or not, not kept as JSON: read it as a string instead. */
export const UNSUPPORTED = 2;

/** The short escapes JSON.stringify writes, by the letter after the backslash. */
const KEPT_SHORT = new Uint8Array(256);
for (const ch of '"\\bfnrt') KEPT_SHORT[ch.charCodeAt(0)] = 1;
/** The short escape of a control character, by its code; 0 when it has none. */
const SHORT_OF = new Uint8Array(32);
SHORT_OF[0x08] = 0x62;
SHORT_OF[0x09] = 0x74;
SHORT_OF[0x0a] = 0x6e;
SHORT_OF[0x0c] = 0x66;
SHORT_OF[0x0d] = 0x72;
const HEX_DIGITS = Buffer.from('0123456789abcdef');
/** Bodies up to this many bytes are copied by a loop (see {@link Transcoder.copyBody}); past some 40 bytes a native copy costs less. */
const SHORT_COPY = 48;

/** Room past a literal's bytes in {@link Transcoder}'s buffer: the copy loop writes whole words. */
const WORD_SLACK = 4;
/** The high bit of each byte of a word. */
const HIGH_BITS = 0x80808080 | 0;
/** The bytes of a word below its first `n` (0 to 3), as a mask. */
const PLAIN_LOW = [0, 0xff, 0xffff, 0xffffff] as const;

/** The value of each hex digit byte; -1 for any other byte. */
const HEX_VALUE = new Int8Array(256).fill(-1);
for (let d = 0; d < 16; d++) {
  HEX_VALUE[(HEX_DIGITS[d] ?? 0)] = d;
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(d)] = d;
}

/** The value of the four hex digits at `at`, or -1 (also wire.ts's `\u` decoding). One table load a digit: producers escape `<`, `>` and `&` so, most tool outputs are full of them. */
export function hex4(source: Buffer, at: number): number {
  const a = HEX_VALUE[source[at] ?? 0] ?? -1;
  const b = HEX_VALUE[source[at + 1] ?? 0] ?? -1;
  const c = HEX_VALUE[source[at + 2] ?? 0] ?? -1;
  const d = HEX_VALUE[source[at + 3] ?? 0] ?? -1;
  if ((a | b | c | d) < 0) return -1;
  return (a << 12) | (b << 8) | (c << 4) | d;
}

/**
 * Rewrites string literals into JSON.stringify's spelling, into a buffer of
 * its own that is reused: what it holds lasts until the next {@link run}.
 */
export class Transcoder {
  /** Unpooled (allocUnsafeSlow): a word written at its end must not reach another buffer's bytes. */
  private out: Buffer = Buffer.allocUnsafeSlow(256);
  private outWords: DataView = new DataView(this.out.buffer, this.out.byteOffset, this.out.length);
  /** Bytes of the last literal made, quotes included. */
  length = 0;
  /** UTF-8 bytes of its text (Buffer.byteLength of the decoded string: a lone surrogate counts 3). */
  decodedBytes = 0;

  /** Index of the quote closing the last literal made ({@link runTo}, {@link measureTo}). */
  close = -1;

  /**
   * Rewrites the literal between the quotes at `open` and `close` (`close`
   * the quote that ends it, as lib/scan.ts finds it).
   */
  run(source: Buffer, open: number, close: number): number {
    const made = this.runTo(source, open, close + 1);
    // A quote before `close` ended the text: not the literal the caller meant.
    return made === TRANSCODED && this.close !== close ? INVALID : made;
  }

  /**
   * Rewrites the string literal opened at `open`, finding its end in the
   * same pass (issue 20: a delta's bytes are walked once, proven, measured
   * and rewritten together): its closing quote (then in {@link close}) must
   * lie before `end`, and a byte that is not plain text (a quote, a
   * backslash, a control byte such as the line's newline) or the buffer's
   * end must come at `end` at the latest, which stops the copy loop with no
   * bounds test per byte. INVALID when the literal is not valid JSON text
   * or does not close before `end`; UNSUPPORTED (the closing quote then not
   * sought) as {@link run}.
   */
  runTo(source: Buffer, open: number, end: number): number {
    // The JSON spelling is never longer than the producer's; the copy loop stops by `end`.
    if (this.out.length < end - open + 1 + WORD_SLACK) this.grow(end - open + 1 + WORD_SLACK);
    const out = this.out;
    const outWords = this.outWords;
    const words = viewOf(source);
    const base = source.byteOffset;
    // Words are read while all four bytes lie in the buffer.
    const last4 = source.length - 4;
    out[0] = QUOTE;
    let p = 1;
    let k = open + 1;
    let decoded = 0;
    // The bytes' high bits, or-ed: whether to check that the text is UTF-8 (after the loop, natively).
    let high = 0;
    for (;;) {
      const runStart = k;
      // Plain text four bytes a step (issue 20: most runs between escapes are 4 to 12 bytes):
      // a word is written whole, its bytes past the first special one are written over next.
      while (k <= last4) {
        const word = words.getInt32(base + k, true);
        const marks = plainRunEnds(word) & HIGH_BITS;
        outWords.setInt32(p, word, true);
        if (marks !== 0) {
          // The lowest mark is the first special byte (a borrow only marks bytes above one).
          const plain = (31 - Math.clz32(marks & -marks)) >> 3;
          high |= word & (PLAIN_LOW[plain] ?? 0);
          k += plain;
          p += plain;
          break;
        }
        high |= word;
        k += 4;
        p += 4;
      }
      let byte = source[k] ?? QUOTE;
      // A byte that is not plain stops this loop (by `end` at the latest): no bounds test per byte.
      while (PLAIN[byte] === 1) {
        out[p++] = byte;
        high |= byte;
        byte = source[++k] ?? QUOTE;
      }
      decoded += k - runStart;
      if (byte === QUOTE) {
        // Also the buffer's end (read as a quote): never before `end`.
        if (k >= end) return INVALID;
        break;
      }
      if (byte !== BACKSLASH) return INVALID;
      const letter = source[k + 1] ?? 0;
      if (KEPT_SHORT[letter] === 1) {
        out[p++] = BACKSLASH;
        out[p++] = letter;
        k += 2;
        decoded++;
        continue;
      }
      if (letter === SLASH) {
        out[p++] = SLASH;
        k += 2;
        decoded++;
        continue;
      }
      if (letter !== LETTER_U) return INVALID;
      const code = hex4(source, k + 2);
      if (code < 0) return INVALID;
      k += 6;
      if (code >= 0xd800 && code <= 0xdfff) {
        const low = code <= 0xdbff && source[k] === BACKSLASH && source[k + 1] === LETTER_U ? hex4(source, k + 2) : -1;
        if (low >= 0xdc00 && low <= 0xdfff) {
          const point = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          out[p++] = 0xf0 | (point >> 18);
          out[p++] = 0x80 | ((point >> 12) & 0x3f);
          out[p++] = 0x80 | ((point >> 6) & 0x3f);
          out[p++] = 0x80 | (point & 0x3f);
          k += 6;
          decoded += 4;
          continue;
        }
        // A lone surrogate at either end may pair with the next or last piece's (a quote after an escape closes the literal).
        if (code <= 0xdbff ? source[k] === QUOTE : k - 6 === open + 1) return UNSUPPORTED;
        p = this.escape(p, code);
        decoded += 3;
        continue;
      }
      decoded += code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
      p = this.put(p, code);
    }
    if ((high & HIGH_BITS) !== 0 && !isUtf8(source.subarray(open + 1, k))) return UNSUPPORTED;
    out[p++] = QUOTE;
    this.close = k;
    this.length = p;
    this.decodedBytes = decoded;
    return TRANSCODED;
  }

  private grow(size: number): void {
    this.out = Buffer.allocUnsafeSlow(Math.max(size, 2 * this.out.length));
    this.outWords = new DataView(this.out.buffer, this.out.byteOffset, this.out.length);
  }

  /**
   * Judges the literal as {@link run} does and counts its text's UTF-8 bytes
   * (into {@link decodedBytes}), writing nothing: for a tool that counts
   * output and keeps none (wuu-turns). UNSUPPORTED for bytes that are not
   * UTF-8 (decoding would replace them).
   */
  measure(source: Buffer, open: number, close: number): number {
    const made = this.measureTo(source, open, close + 1);
    return made === TRANSCODED && this.close !== close ? INVALID : made;
  }

  /** {@link measure} finding the literal's end in the same pass, as {@link runTo} (the same contract on `end`). */
  measureTo(source: Buffer, open: number, end: number): number {
    let k = open + 1;
    let decoded = 0;
    let high = 0;
    for (;;) {
      const runStart = k;
      let byte = source[k] ?? QUOTE;
      while (PLAIN[byte] === 1) {
        high |= byte;
        byte = source[++k] ?? QUOTE;
      }
      decoded += k - runStart;
      if (byte === QUOTE) {
        if (k >= end) return INVALID;
        break;
      }
      if (byte !== BACKSLASH) return INVALID;
      const letter = source[k + 1] ?? 0;
      if (KEPT_SHORT[letter] === 1 || letter === SLASH) {
        k += 2;
        decoded++;
        continue;
      }
      if (letter !== LETTER_U) return INVALID;
      const code = hex4(source, k + 2);
      if (code < 0) return INVALID;
      k += 6;
      if (code >= 0xd800 && code <= 0xdbff && source[k] === BACKSLASH && source[k + 1] === LETTER_U) {
        const low = hex4(source, k + 2);
        if (low >= 0xdc00 && low <= 0xdfff) {
          k += 6;
          decoded += 4;
          continue;
        }
      }
      // A lone surrogate encodes as U+FFFD: 3 bytes, as Buffer.byteLength counts it.
      decoded += code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
    }
    if ((high & 0x80) !== 0 && !isUtf8(source.subarray(open + 1, k))) return UNSUPPORTED;
    this.close = k;
    this.length = 0;
    this.decodedBytes = decoded;
    return TRANSCODED;
  }

  /** Writes the character `code` (not a surrogate) at `p` as JSON.stringify spells it; past it. */
  private put(at: number, code: number): number {
    const out = this.out;
    let p = at;
    if (code < 0x20) {
      const short = SHORT_OF[code] ?? 0;
      if (short !== 0) {
        out[p++] = BACKSLASH;
        out[p++] = short;
        return p;
      }
      return this.escape(p, code);
    }
    if (code === QUOTE || code === BACKSLASH) {
      out[p++] = BACKSLASH;
      out[p++] = code;
    } else if (code < 0x80) {
      out[p++] = code;
    } else if (code < 0x800) {
      out[p++] = 0xc0 | (code >> 6);
      out[p++] = 0x80 | (code & 0x3f);
    } else {
      out[p++] = 0xe0 | (code >> 12);
      out[p++] = 0x80 | ((code >> 6) & 0x3f);
      out[p++] = 0x80 | (code & 0x3f);
    }
    return p;
  }

  /** Writes `\uxxxx` (lower-case hex) at `p`; past it. */
  private escape(at: number, code: number): number {
    const out = this.out;
    out[at] = BACKSLASH;
    out[at + 1] = LETTER_U;
    for (let i = 0; i < 4; i++) out[at + 2 + i] = HEX_DIGITS[(code >> (12 - 4 * i)) & 0xf] ?? 0;
    return at + 6;
  }

  /** Copies the body of the last literal made (between its quotes) into `target` at `at`. */
  copyBody(target: Buffer, at: number): void {
    const out = this.out;
    const end = this.length - 1;
    // A delta is short: a loop costs less than the views a native copy makes.
    if (end > SHORT_COPY) {
      out.copy(target, at, 1, end);
      return;
    }
    for (let k = 1, p = at; k < end; k++, p++) target[p] = out[k] ?? 0;
  }

  /** The last literal made, quotes included (a view of this transcoder's buffer). */
  literal(): Buffer {
    return this.out.subarray(0, this.length);
  }

  /** The text of the last literal made. */
  text(): string {
    return decodeJson(this.out, this.length);
  }
}

/** The text of the JSON string literal in `buf[0..length)` (one this module made). */
export function decodeJson(buf: Buffer, length: number): string {
  return JSON.parse(buf.toString('utf8', 0, length)) as string;
}

/**
 * Text accumulated up to a byte cap, kept as JSON while it can be (see the
 * module comment), else as a {@link CappedText}: the same text, bytes and
 * truncation as a CappedText fed the same pieces as strings.
 */
export class JsonText {
  /** `"` and the JSON body so far; room for the closing quote is kept. */
  private json: Buffer | undefined;
  private used = 0;
  private jsonBytes = 0;
  private capped: CappedText | undefined;

  constructor(private readonly cap: number) {}

  /** UTF-8 bytes appended in all. */
  get bytes(): number {
    return this.capped !== undefined ? this.capped.bytes : this.jsonBytes;
  }

  /** Whether the text is still kept as JSON (see {@link literal}). */
  get isJson(): boolean {
    return this.capped === undefined;
  }

  /** Appends the literal the transcoder made last. */
  appendJson(piece: Transcoder): void {
    if (this.capped !== undefined || this.jsonBytes + piece.decodedBytes > this.cap) {
      this.asCapped().append(piece.text());
      return;
    }
    const body = piece.length - 2;
    let json = this.json;
    if (json === undefined || json.length < this.used + body + 2) {
      const grown = Buffer.allocUnsafe(Math.max(this.used + body + 2, json === undefined ? 0 : 2 * json.length));
      if (json !== undefined) json.copy(grown, 0, 0, this.used + 1);
      grown[0] = QUOTE;
      json = grown;
      this.json = json;
    }
    piece.copyBody(json, 1 + this.used);
    this.used += body;
    this.jsonBytes += piece.decodedBytes;
  }

  append(text: string): void {
    this.asCapped().append(text);
  }

  appendAscii(bytes: Buffer): void {
    this.asCapped().appendAscii(bytes);
  }

  count(bytes: number): void {
    this.asCapped().count(bytes);
  }

  /** The text as JSON (a string literal, quotes included), or undefined when it is kept as a string. */
  literal(): Buffer | undefined {
    if (this.capped !== undefined) return undefined;
    if (this.json === undefined) return EMPTY_LITERAL;
    this.json[this.used + 1] = QUOTE;
    return this.json.subarray(0, this.used + 2);
  }

  /** The kept text and the number of bytes left out, as {@link CappedText.result}. */
  result(): { text: string; truncatedBytes: number } {
    if (this.capped !== undefined) return this.capped.result();
    const literal = this.literal() ?? EMPTY_LITERAL;
    return { text: decodeJson(literal, literal.length), truncatedBytes: this.cap === 0 ? this.jsonBytes : 0 };
  }

  /** The text as a CappedText from now on (what was kept as JSON decoded into it). */
  private asCapped(): CappedText {
    if (this.capped !== undefined) return this.capped;
    const capped = new CappedText(this.cap);
    const literal = this.literal();
    if (literal !== undefined && this.used > 0) capped.append(decodeJson(literal, literal.length));
    this.capped = capped;
    this.json = undefined;
    return capped;
  }
}

const EMPTY_LITERAL = Buffer.from('""');
