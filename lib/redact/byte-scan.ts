/**
 * The byte-level prefilter of wuu-redact: decides from a raw line's bytes,
 * without decoding or parsing it, whether it can hold anything a rule would
 * match. One pass over the bytes with a table from each (lower-cased) first
 * byte to the literals that start with it.
 *
 * JSON escapes other than `\uXXXX` and `\/` decode to a quote, a backslash or
 * a control character, none of which can complete an ASCII marker; so a line
 * without any marker and without those two escapes is written unparsed.
 */
import { WORD_MARKERS } from './rules.js';

const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const LOWER_U = 0x75;

/** ASCII upper case to lower case, other bytes unchanged. */
export function fold(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte + 32 : byte;
}

/** Text as latin1 of its UTF-8 bytes: how raw lines are searched. */
export function rawForm(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** The longest run of a literal that a JSON encoder writes verbatim. */
export function verbatimRun(text: string): string {
  let best = '';
  for (const run of text.split(/["\\\u0000-\u001f\u2028\u2029]/)) if (run.length > best.length) best = run;
  return best;
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

interface Literal {
  bytes: Buffer;
  /** A key word: counts only when no lower-case letter follows. */
  word: boolean;
}

/**
 * Case-insensitive search for ASCII-folded byte strings in a Buffer, without
 * copying it. Also flags JSON escapes that could spell a marker (every
 * `\uXXXX` but Go's five HTML escapes, and `\/`).
 */
export class ByteMarkers {
  private readonly table: Array<Literal[] | undefined> = new Array<Literal[] | undefined>(256);
  /** Folded byte pairs that begin some literal (a one-byte literal marks every pair it begins). */
  private readonly pairs = new Uint8Array(65536);

  constructor(literals: readonly string[]) {
    for (const literal of literals) {
      const bytes = Buffer.from(literal, 'latin1');
      for (let i = 0; i < bytes.length; i++) bytes[i] = fold(bytes[i]!);
      const first = bytes[0]!;
      (this.table[first] ??= []).push({ bytes, word: WORD_MARKERS.has(literal) });
      if (bytes.length === 1) for (let b = 0; b < 256; b++) this.pairs[(first << 8) | b] = 1;
      else this.pairs[(first << 8) | bytes[1]!] = 1;
    }
    // A backslash pair is checked for escapes.
    this.pairs[(BACKSLASH << 8) | SLASH] = 1;
    this.pairs[(BACKSLASH << 8) | LOWER_U] = 1;
  }

  /** Whether any literal or a doubtful escape occurs in `buf`. */
  test(buf: Buffer): boolean {
    const pairs = this.pairs;
    const n = buf.length;
    if (n === 0) return false;
    let prev = FOLD[buf[0]!]!;
    for (let i = 1; i <= n; i++) {
      const next = i < n ? FOLD[buf[i]!]! : 0;
      const pair = (prev << 8) | next;
      const at = i - 1;
      prev = next;
      if (pairs[pair] === 0) continue;
      if (this.verify(buf, at)) return true;
    }
    return false;
  }

  private verify(buf: Buffer, i: number): boolean {
    const n = buf.length;
    const c = FOLD[buf[i]!]!;
    if (c === BACKSLASH && i + 1 < n) {
      const next = buf[i + 1]!;
      if (next === SLASH) return true;
      // `\\u0073` is no escape here but becomes one in JSON nested in a string: no skipping.
      if (next === LOWER_U && !goEscapeAt(buf, i + 2)) return true;
    }
    const list = this.table[c];
    if (list === undefined) return false;
    for (const { bytes: literal, word } of list) {
      if (i + literal.length > n) continue;
      let k = 1;
      while (k < literal.length && FOLD[buf[i + k]!] === literal[k]) k++;
      if (k < literal.length) continue;
      const after = buf[i + k];
      if (!word || after === undefined || after < 0x61 || after > 0x7a) return true;
    }
    return false;
  }
}

/** ASCII case folding as a table. */
const FOLD = new Uint8Array(256);
for (let b = 0; b < 256; b++) FOLD[b] = fold(b);
