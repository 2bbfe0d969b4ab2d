/**
 * Strict JSON validation straight from the bytes (RFC 8259, with JSON.parse as
 * the judge), in one pass over the bytes, by two readers that accept the same
 * lines. A line followed by a fence byte in its buffer (its newline, on the
 * per-line fast path: every line wuu-filter writes without parsing it) is read
 * by the fenced reader: each value told by its first byte, string text eight
 * bytes a step, no bound tested. Any other span, and any line the fenced
 * reader does not prove, goes to a table-driven state machine (one table load
 * and one compare per byte; the few bytes that open, close or separate
 * containers take a branch), which has the last word.
 *
 * No recursion: nesting lives in a byte stack that grows with the line, so a
 * line of 100,000 `[` costs 100 KB, not a call stack. Bytes 0x80 and up are
 * accepted inside strings as they are: JSON.parse sees the line decoded as
 * UTF-8, where an invalid sequence becomes U+FFFD, never a quote or backslash
 * (so byte-exact pass-through stays possible).
 *
 * While it validates, it notes where the top-level `"type"` member's value
 * starts, so a caller can tell "a valid event" (an object with a string type)
 * from a single pass, without a second scan or a parse.
 */

// Plain states (< ACTION): the next state is the table entry itself.
const S_START = 0; // before the top-level `{`
const S_VALUE = 1; // a value must come (after `:`, or `,` in an array)
const S_VALUE_OR_CLOSE = 2; // after `[`
const S_AFTER = 3; // after a value: `,` or a closing bracket
const S_KEY_OR_CLOSE = 4; // after `{`
const S_KEY = 5; // after `,` in an object
const S_COLON = 6; // after a key
const S_STR = 7;
const S_ESC = 8;
const S_U1 = 9; // 9..12: the four hex digits of \uXXXX
const S_KSTR = 13; // a key string
const S_KESC = 14;
const S_KU1 = 15; // 15..18
const S_MINUS = 19;
const S_ZERO = 20;
const S_INT = 21;
const S_DOT = 22;
const S_FRAC = 23;
const S_E = 24;
const S_ESIGN = 25;
const S_EXP = 26;
const S_T1 = 27; // t|r|u|e: 27..29
const S_F1 = 30; // f|a|l|s|e: 30..33
const S_N1 = 34; // n|u|l|l: 34..36
const S_END = 37; // after the top-level `}`: only whitespace
const S_KSTR_ESCAPED = 38; // a key string after an escape (it may spell `type`)
const S_KESC2 = 39;
const S_KU1_2 = 40; // 40..43
const STATES = 44;

// Actions (>= ACTION): bytes that need the nesting stack or a key check.
const ACTION = 64;
const A_ERR = 64;
const A_OPEN_OBJ = 65;
const A_OPEN_ARR = 66;
const A_CLOSE_OBJ = 67;
const A_CLOSE_ARR = 68;
const A_COMMA = 69;
const A_KEY_END = 70;
const A_KEY_END_ESCAPED = 71;
const A_COLON = 72;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OBJECT = 1;
const ARRAY = 2;

/** TABLE[state * 256 + byte]: the next state or an action. */
const TABLE = new Uint8Array(STATES * 256).fill(A_ERR);

const code = (ch: string) => ch.charCodeAt(0);
const set = (state: number, bytes: string | number[], next: number) => {
  for (const b of typeof bytes === 'string' ? [...bytes].map(code) : bytes) TABLE[state * 256 + b] = next;
};
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const WS = [0x20, 0x09, 0x0a, 0x0d];
const DIGITS = '0123456789';
const HEX_DIGITS = '0123456789abcdefABCDEF';

/** Where a value may start: strings, containers, numbers and the three words. */
function valueStarts(state: number): void {
  set(state, WS, state);
  set(state, '"', S_STR);
  set(state, '{', A_OPEN_OBJ);
  set(state, '[', A_OPEN_ARR);
  set(state, '-', S_MINUS);
  set(state, '0', S_ZERO);
  set(state, '123456789', S_INT);
  set(state, 't', S_T1);
  set(state, 'f', S_F1);
  set(state, 'n', S_N1);
}

/** What may end a value: whitespace, a comma or a closing bracket. */
function valueEnds(state: number): void {
  set(state, WS, S_AFTER);
  set(state, ',', A_COMMA);
  set(state, '}', A_CLOSE_OBJ);
  set(state, ']', A_CLOSE_ARR);
}

/** A string's body: plain bytes stay, `"` ends it, `\` escapes, control bytes are errors. */
function stringStates(body: number, escape: number, hex1: number, close: number, afterEscape = body): void {
  set(body, range(0x20, 0xff), body);
  set(body, '"', close);
  set(body, '\\', escape);
  set(escape, '"\\/bfnrt', afterEscape);
  set(escape, 'u', hex1);
  for (let k = 0; k < 4; k++) set(hex1 + k, HEX_DIGITS, k === 3 ? afterEscape : hex1 + k + 1);
}

set(S_START, WS, S_START);
set(S_START, '{', A_OPEN_OBJ);
valueStarts(S_VALUE);
valueStarts(S_VALUE_OR_CLOSE);
set(S_VALUE_OR_CLOSE, ']', A_CLOSE_ARR);
valueEnds(S_AFTER);
set(S_AFTER, WS, S_AFTER);
set(S_KEY_OR_CLOSE, WS, S_KEY_OR_CLOSE);
set(S_KEY_OR_CLOSE, '"', S_KSTR);
set(S_KEY_OR_CLOSE, '}', A_CLOSE_OBJ);
set(S_KEY, WS, S_KEY);
set(S_KEY, '"', S_KSTR);
set(S_COLON, WS, S_COLON);
set(S_COLON, ':', A_COLON);
stringStates(S_STR, S_ESC, S_U1, S_AFTER);
stringStates(S_KSTR, S_KESC, S_KU1, A_KEY_END, S_KSTR_ESCAPED);
stringStates(S_KSTR_ESCAPED, S_KESC2, S_KU1_2, A_KEY_END_ESCAPED);
set(S_MINUS, '0', S_ZERO);
set(S_MINUS, '123456789', S_INT);
valueEnds(S_ZERO);
set(S_ZERO, '.', S_DOT);
set(S_ZERO, 'eE', S_E);
valueEnds(S_INT);
set(S_INT, DIGITS, S_INT);
set(S_INT, '.', S_DOT);
set(S_INT, 'eE', S_E);
set(S_DOT, DIGITS, S_FRAC);
valueEnds(S_FRAC);
set(S_FRAC, DIGITS, S_FRAC);
set(S_FRAC, 'eE', S_E);
set(S_E, '+-', S_ESIGN);
set(S_E, DIGITS, S_EXP);
set(S_ESIGN, DIGITS, S_EXP);
valueEnds(S_EXP);
set(S_EXP, DIGITS, S_EXP);
for (const [first, word] of [
  [S_T1, 'rue'],
  [S_F1, 'alse'],
  [S_N1, 'ull'],
] as const) {
  for (let k = 0; k < word.length; k++) set(first + k, word.charAt(k), k === word.length - 1 ? S_AFTER : first + k + 1);
}
set(S_END, WS, S_END);

let nesting = new Uint8Array(256);

/** Bytes that continue a string as they are (not `"`, `\\` or a control byte). */
export const PLAIN = new Uint8Array(256);
for (let b = 0x20; b < 0x100; b++) PLAIN[b] = b === QUOTE || b === BACKSLASH ? 0 : 1;

/**
 * The bytes of `word` (four bytes of string text, little-endian) that may end
 * a run of plain text, as their high bits (& 0x80808080): a quote, a
 * backslash or a control byte (< 0x20). Bit tricks on 32 bits (the classic
 * "has a zero byte" test on the word XORed with each byte sought, and "has a
 * byte below 0x20"): a borrow may mark a plain byte above a special one, never
 * when there is none, so the test is exact for "any" (bytes 0x80 and up are
 * plain: a high bit set in the word clears its mark).
 */
export function plainRunEnds(word: number): number {
  const quote = word ^ 0x22222222;
  const backslash = word ^ 0x5c5c5c5c;
  return ((quote - 0x01010101) & ~quote) | ((backslash - 0x01010101) & ~backslash) | ((word - 0x20202020) & ~word);
}

/** A DataView on the bytes last validated, kept while they are the same memory (a chunk's lines share one). */
let view: DataView = new DataView(new ArrayBuffer(0));
export function viewOf(buf: Uint8Array): DataView {
  if (view.buffer !== buf.buffer) view = new DataView(buf.buffer);
  return view;
}

/** Hex digits, for \uXXXX. */
const HEX = new Uint8Array(256);
for (const ch of HEX_DIGITS) HEX[code(ch)] = 1;

/** Bytes that may follow a backslash, besides `u`. */
const SHORT_ESCAPE = new Uint8Array(256);
for (const ch of '"\\/bfnrt') SHORT_ESCAPE[code(ch)] = 1;
const U = 0x75;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * Where the last validated object's top-level `"type"` value starts: the index
 * of its opening quote; -1 when it has no `type` member or its value is not a
 * string; -2 when a top-level key is spelled with escapes (it might be `type`:
 * ask JSON.parse). Meaningful only right after {@link isJsonObject} returned true.
 */
export let typeValueAt = -1;

const T = 0x74;
const Y = 0x79;
const P = 0x70;
const E = 0x65;

/** Bytes that may come right before a key's opening quote. */
const OPENS_KEY = new Uint8Array(256);
for (const b of [0x7b, 0x2c, 0x20, 0x09, 0x0a, 0x0d]) OPENS_KEY[b] = 1;

/**
 * True when `buf[start..end)` is exactly one JSON object (surrounding
 * whitespace aside) that JSON.parse accepts: strict numbers (no NaN, no
 * leading zeros, no `1.`), strict escapes, no raw control characters in
 * strings, no trailing commas, nothing after the object. Linear time, no
 * recursion, whatever the nesting depth. Also sets {@link typeValueAt}.
 */
export function isJsonObject(buf: Uint8Array, start = 0, end = buf.length): boolean {
  // A line followed by a fence (its newline in the input chunk) is read by the
  // fenced reader; anything it does not prove goes to the table machine,
  // which has the last word (the fenced reader never accepts more than it).
  if (end < buf.length && FENCE[buf[end] ?? 0] === 1 && fencedObject(buf, start, end)) return true;
  return tableObject(buf, start, end);
}

/** {@link isJsonObject} by the table machine: any span, fenced or not. */
function tableObject(buf: Uint8Array, start: number, end: number): boolean {
  const table = TABLE;
  const plain = PLAIN;
  const hex = HEX;
  const shortEscape = SHORT_ESCAPE;
  let stack = nesting;
  let depth = 0;
  let state = S_START;
  let typeKey = false;
  let typeColon = -1;
  let unsure = false;
  // A line followed by a byte that ends string text (the newline after a
  // line in its input chunk) lets the string loops run without a bounds test.
  const fenced = end < buf.length && plain[buf[end] ?? 0] === 0;
  for (let k = start; k < end; k++) {
    let byte = buf[k] ?? 0;
    if (state === S_STR) {
      // Most bytes of an event are string text: skip plain ones, and whole
      // escapes (Go writes \u003c for every <), in the tightest loop.
      for (;;) {
        if (plain[byte] === 1) {
          if (fenced) {
            // The byte after the line stops this loop: no bounds test per byte.
            do byte = buf[++k] ?? 0;
            while (plain[byte] === 1);
            if (k >= end) return false;
          } else {
            if (++k === end) return false;
            byte = buf[k] ?? 0;
          }
        } else if (byte === BACKSLASH && k + 1 < end) {
          const after = buf[k + 1] ?? 0;
          if (after === U) {
            if (k + 5 >= end || hex[buf[k + 2] ?? 0] === 0 || hex[buf[k + 3] ?? 0] === 0 || hex[buf[k + 4] ?? 0] === 0 || hex[buf[k + 5] ?? 0] === 0) return false;
            k += 6;
          } else if (shortEscape[after] === 1) k += 2;
          else return false;
          if (k >= end) return false;
          byte = buf[k] ?? 0;
        } else break;
      }
    } else if (state === S_KSTR) {
      if (fenced) {
        while (plain[byte] === 1) byte = buf[++k] ?? 0;
        if (k >= end) return false;
      } else {
        while (plain[byte] === 1) {
          if (++k === end) return false;
          byte = buf[k] ?? 0;
        }
      }
    }
    const next = table[(state << 8) | byte] ?? A_ERR;
    if (next < ACTION) {
      state = next;
      continue;
    }
    switch (next) {
      case A_OPEN_OBJ:
      case A_OPEN_ARR:
        if (depth === stack.length) {
          const grown = new Uint8Array(stack.length * 2);
          grown.set(stack);
          nesting = stack = grown;
        }
        if (next === A_OPEN_OBJ) {
          stack[depth++] = OBJECT;
          state = S_KEY_OR_CLOSE;
        } else {
          stack[depth++] = ARRAY;
          state = S_VALUE_OR_CLOSE;
        }
        break;
      case A_CLOSE_OBJ:
      case A_CLOSE_ARR:
        if (depth === 0 || stack[depth - 1] !== (next === A_CLOSE_OBJ ? OBJECT : ARRAY)) return false;
        depth--;
        state = depth === 0 ? S_END : S_AFTER;
        break;
      case A_COMMA:
        state = stack[depth - 1] === OBJECT ? S_KEY : S_VALUE;
        break;
      case A_KEY_END:
        // `"type"`: the four bytes, after an opening quote that follows `{`, `,` or a space
        // (a quote inside a key is escaped, so it follows a backslash).
        if (depth === 1) typeKey = buf[k - 1] === E && buf[k - 2] === P && buf[k - 3] === Y && buf[k - 4] === T && buf[k - 5] === QUOTE && k - 6 >= start && OPENS_KEY[buf[k - 6] ?? 0] === 1;
        state = S_COLON;
        break;
      case A_KEY_END_ESCAPED:
        // An escaped spelling (\u0074ype) may still say `type`: JSON.parse decides.
        if (depth === 1) unsure = true;
        state = S_COLON;
        break;
      case A_COLON:
        if (depth === 1 && typeKey) {
          typeColon = k;
          typeKey = false;
        }
        state = S_VALUE;
        break;
      default:
        return false;
    }
  }
  if (state !== S_END) return false;
  if (unsure) typeValueAt = -2;
  else if (typeColon < 0) typeValueAt = -1;
  else {
    let at = typeColon + 1;
    while (buf[at] === 0x20 || buf[at] === 0x09 || buf[at] === 0x0a || buf[at] === 0x0d) at++;
    typeValueAt = buf[at] === QUOTE ? at : -1;
  }
  return true;
}

// The fenced reader: what proves lines on the fast path. It reads an object
// whose line is followed by a fence byte (a control byte that is not a tab
// or a carriage return: the newline after a line in its chunk), which no
// token takes, so no read tests a bound. It accepts exactly what the table
// machine accepts except where it gives up (a raw newline inside the line, a
// top-level key spelled with escapes): then the table machine decides. Each
// value is told by its first byte, nesting lives in the same byte stack (no
// recursion), and string text is skipped eight bytes a step. Bytes 0x80 and
// up are string text as they are, as for the table machine: JSON.parse sees
// an invalid UTF-8 sequence as U+FFFD, so a line that has one is valid.

const NEWLINE = 0x0a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const F = 0x66;
const N = 0x6e;
const R = 0x72;
const L = 0x6c;
const S = 0x73;
const A = 0x61;

/** Bytes that fence a line for the fenced reader: control bytes but the two it skips as whitespace. */
const FENCE = new Uint8Array(256);
for (let b = 0; b < 0x20; b++) FENCE[b] = b === 0x09 || b === 0x0d ? 0 : 1;

/** Decimal digits, for numbers. */
const DIGIT = new Uint8Array(256);
for (const ch of DIGITS) DIGIT[code(ch)] = 1;

/** Where the last fenced object's top-level `type` string starts (its quote), or -1: as {@link typeValueAt}. */
let fencedType = -1;

/**
 * The end of a string whose text starts at `k` (just past its opening quote):
 * the offset just past its closing quote, or -1 (a control byte, the fence
 * among them, or a bad escape). String text is most of an event's bytes: it
 * is read eight bytes a step as two 32-bit words ({@link plainRunEnds}), and
 * the first special byte of a word is found from its lowest mark (a borrow
 * only marks bytes above a special one), so no byte is looked at twice.
 * `base` is the buffer's offset in its memory, `last8` the last offset with
 * eight bytes of the buffer from it.
 */
function stringEnd(buf: Uint8Array, words: DataView, base: number, last8: number, k: number): number {
  for (;;) {
    let byte: number;
    if (k <= last8) {
      const lo = plainRunEnds(words.getInt32(base + k, true)) & 0x80808080;
      if (lo !== 0) k += (31 - Math.clz32(lo & -lo)) >> 3;
      else {
        const hi = plainRunEnds(words.getInt32(base + k + 4, true)) & 0x80808080;
        if (hi === 0) {
          k += 8;
          continue;
        }
        k += 4 + ((31 - Math.clz32(hi & -hi)) >> 3);
      }
      byte = buf[k] ?? 0;
    } else {
      // The buffer's last bytes: one at a time, to the fence at the latest.
      byte = buf[k] ?? 0;
      while (PLAIN[byte] === 1) byte = buf[++k] ?? 0;
    }
    if (byte === QUOTE) return k + 1;
    if (byte !== BACKSLASH) return -1;
    const after = buf[k + 1] ?? 0;
    if (after === U) {
      // The fence is no hex digit: these reads stop at the line's end.
      if (HEX[buf[k + 2] ?? 0] === 0 || HEX[buf[k + 3] ?? 0] === 0 || HEX[buf[k + 4] ?? 0] === 0 || HEX[buf[k + 5] ?? 0] === 0) return -1;
      k += 6;
    } else if (SHORT_ESCAPE[after] === 1) k += 2;
    else return -1;
  }
}

/**
 * Whether the span ending at `end` is fenced: the byte at `end` is a control
 * byte but a tab or a carriage return (the newline after a line in its
 * chunk), which ends every token, so {@link fencedStringEnd} may read on
 * with no bound.
 */
export function isFenced(buf: Uint8Array, end: number): boolean {
  return end < buf.length && FENCE[buf[end] ?? 0] === 1;
}

/**
 * The fenced reader's string skip for other byte readers (wuu-check's member
 * walk): the offset just past the closing quote of the JSON string whose text
 * starts at `k` (just past its opening quote), or -1 when it is not a valid
 * one. The span holding it must be fenced ({@link isFenced}): the fence stops
 * the skip (-1) at the span's end at the latest. `skip` comes from
 * {@link fencedSkip} on the same buffer.
 */
export function fencedStringEnd(buf: Uint8Array, skip: FencedSkip, k: number): number {
  return stringEnd(buf, skip.words, skip.base, skip.last8, k);
}

/** What {@link fencedStringEnd} reads a buffer by. */
export interface FencedSkip {
  words: DataView;
  base: number;
  last8: number;
}

/** What {@link fencedStringEnd} reads `buf` by: made once per buffer (a chunk's lines share it), not per string. */
export function fencedSkip(buf: Uint8Array): FencedSkip {
  return { words: viewOf(buf), base: buf.byteOffset, last8: buf.length - 8 };
}

/** The end of a number starting at `k` (a digit or `-`): strict JSON (no leading zeros, no `1.`), or -1. */
export function numberEnd(buf: Uint8Array, k: number): number {
  let byte = buf[k] ?? 0;
  if (byte === MINUS) byte = buf[++k] ?? 0;
  if (byte === ZERO) byte = buf[++k] ?? 0;
  else if (DIGIT[byte] === 1) {
    do byte = buf[++k] ?? 0;
    while (DIGIT[byte] === 1);
  } else return -1;
  if (byte === DOT) {
    byte = buf[++k] ?? 0;
    if (DIGIT[byte] === 0) return -1;
    do byte = buf[++k] ?? 0;
    while (DIGIT[byte] === 1);
  }
  if (byte === E || byte === 0x45) {
    byte = buf[++k] ?? 0;
    if (byte === PLUS || byte === MINUS) byte = buf[++k] ?? 0;
    if (DIGIT[byte] === 0) return -1;
    do byte = buf[++k] ?? 0;
    while (DIGIT[byte] === 1);
  }
  return k;
}

/**
 * An object member's key at `k` (its opening quote, or -1 when there is
 * none), its colon and the whitespace around: the offset of the member's
 * value, or -1. At the top level (`depth` 1) a `type` key notes where its
 * value starts when it is a string; a key spelled with escapes gives up
 * there (it may spell `type`: the table machine marks it unsure).
 */
function memberValue(buf: Uint8Array, words: DataView, base: number, last8: number, k: number, depth: number): number {
  if (buf[k] !== QUOTE) return -1;
  const keyStart = k + 1;
  if (depth === 1) {
    // A top-level key is read byte by byte: one spelled with escapes gives up
    // here (it may say `type`: the table machine marks it unsure).
    let byte = buf[keyStart] ?? 0;
    k = keyStart;
    while (PLAIN[byte] === 1) byte = buf[++k] ?? 0;
    if (byte !== QUOTE) return -1;
    k++;
  } else if ((k = stringEnd(buf, words, base, last8, keyStart)) < 0) return -1;
  const isType = depth === 1 && k - keyStart === 5 && buf[keyStart] === T && buf[keyStart + 1] === Y && buf[keyStart + 2] === P && buf[keyStart + 3] === E;
  let byte = buf[k] ?? 0;
  while (byte === 0x20 || byte === 0x09 || byte === 0x0d) byte = buf[++k] ?? 0;
  if (byte !== COLON) return -1;
  byte = buf[++k] ?? 0;
  while (byte === 0x20 || byte === 0x09 || byte === 0x0d) byte = buf[++k] ?? 0;
  // The last `type` member is the one JSON.parse keeps.
  if (isType) fencedType = byte === QUOTE ? k : -1;
  return k;
}

/** The end of `true`, `false` or `null` at `k`, or -1. */
export function wordEnd(buf: Uint8Array, k: number): number {
  const byte = buf[k];
  if (byte === T) return buf[k + 1] === R && buf[k + 2] === U && buf[k + 3] === E ? k + 4 : -1;
  if (byte === F) return buf[k + 1] === A && buf[k + 2] === L && buf[k + 3] === S && buf[k + 4] === E ? k + 5 : -1;
  if (byte === N) return buf[k + 1] === U && buf[k + 2] === L && buf[k + 3] === L ? k + 4 : -1;
  return -1;
}

/**
 * Reads the fenced object whose `{` is at `at`: the offset just past its
 * closing brace, or -1 when the fenced reader does not prove it (invalid, or
 * one of the cases it leaves to the table machine). Sets {@link fencedType}.
 * A raw newline is no whitespace here: a line holds none (and the fence may be one).
 */
function fencedObjectEnd(buf: Uint8Array, at: number): number {
  const words = viewOf(buf);
  const base = buf.byteOffset;
  const last8 = buf.length - 8;
  let stack = nesting;
  let depth = 0;
  let k = at;
  fencedType = -1;
  for (;;) {
    // A value starts at `k`: its first byte tells which.
    let byte = buf[k] ?? 0;
    if (byte === QUOTE) k = stringEnd(buf, words, base, last8, k + 1);
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (depth === stack.length) {
        const grown = new Uint8Array(stack.length * 2);
        grown.set(stack);
        nesting = stack = grown;
      }
      stack[depth++] = byte === OPEN_OBJECT ? OBJECT : ARRAY;
      byte = buf[++k] ?? 0;
      while (byte === 0x20 || byte === 0x09 || byte === 0x0d) byte = buf[++k] ?? 0;
      if (byte === (stack[depth - 1] === OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY)) {
        k++;
        depth--;
      } else {
        // The first member's value (or the first element) comes next.
        if (stack[depth - 1] === OBJECT && (k = memberValue(buf, words, base, last8, k, depth)) < 0) return -1;
        continue;
      }
    } else if (DIGIT[byte] === 1 || byte === MINUS) k = numberEnd(buf, k);
    else k = wordEnd(buf, k);
    if (k < 0) return -1;
    // After a value: closing brackets, then a comma and the next value, or the end.
    for (;;) {
      if (depth === 0) return k;
      byte = buf[k] ?? 0;
      while (byte === 0x20 || byte === 0x09 || byte === 0x0d) byte = buf[++k] ?? 0;
      const inObject = stack[depth - 1] === OBJECT;
      if (byte === COMMA) {
        byte = buf[++k] ?? 0;
        while (byte === 0x20 || byte === 0x09 || byte === 0x0d) byte = buf[++k] ?? 0;
        if (inObject && (k = memberValue(buf, words, base, last8, k, depth)) < 0) return -1;
        break;
      }
      if (byte !== (inObject ? CLOSE_OBJECT : CLOSE_ARRAY)) return -1;
      k++;
      depth--;
    }
  }
}

/**
 * The fenced reader's verdict on `buf[start..end)`, whose next byte
 * `buf[end]` must be a fence (a control byte but a tab or a carriage return):
 * true when it proves the span one JSON object, surrounding whitespace aside
 * (and sets {@link typeValueAt}); false when the span is invalid or is one it
 * leaves to the table machine (a raw newline anywhere in it, a top-level key
 * spelled with escapes). Exported for the tests that hold it to the table machine.
 */
export function fencedObject(buf: Uint8Array, start: number, end: number): boolean {
  let k = start;
  while (buf[k] === 0x20 || buf[k] === 0x09 || buf[k] === 0x0d) k++;
  if (buf[k] !== OPEN_OBJECT) return false;
  k = fencedObjectEnd(buf, k);
  if (k < 0) return false;
  while (buf[k] === 0x20 || buf[k] === 0x09 || buf[k] === 0x0d) k++;
  if (k !== end) return false;
  typeValueAt = fencedType;
  return true;
}

/** How many lines the last {@link validEventLines} call proved. */
export let linesValidated = 0;

/**
 * Proves the whole lines of `buf[from..to)` valid events one after another,
 * with no newline search: the runner's fast path for a core that writes
 * every valid line as it came (and, one line at a time, for each line it
 * copies by type). Each line must be what {@link isJsonEvent} accepts and at
 * most `maxLineBytes` long. `to` must be just past a newline. Returns the
 * offset just past the last line proven before the first one that is not
 * (`from` when the first is not), and sets {@link linesValidated} to their
 * count; the caller reads the line that failed the slow way, and may call
 * again after it. Each line's newline fences the fenced reader: a raw
 * newline is invalid inside a line, and it stops every token there.
 */
export function validEventLines(buf: Uint8Array, from: number, to: number, maxLineBytes: number): number {
  linesValidated = 0;
  if (to <= from || buf[to - 1] !== NEWLINE) return from;
  let lineStart = from;
  let lines = 0;
  while (lineStart < to) {
    let k = lineStart;
    while (buf[k] === 0x20 || buf[k] === 0x09 || buf[k] === 0x0d) k++;
    if (buf[k] !== OPEN_OBJECT) break;
    k = fencedObjectEnd(buf, k);
    if (k < 0) break;
    while (buf[k] === 0x20 || buf[k] === 0x09 || buf[k] === 0x0d) k++;
    // An event: its (last) top-level type is a string, and the line is within the cap.
    if (buf[k] !== NEWLINE || fencedType < 0 || k - lineStart > maxLineBytes) break;
    lines++;
    lineStart = k + 1;
  }
  linesValidated = lines;
  return lineStart;
}

/**
 * True when `buf[start..end)` is a valid event by bytes alone: a JSON object
 * JSON.parse accepts whose top-level `type` is a string. False means "not
 * proven" (invalid, no string type, or a key spelled with escapes): parse it.
 */
export function isJsonEvent(buf: Uint8Array, start = 0, end = buf.length): boolean {
  return isJsonObject(buf, start, end) && typeValueAt >= 0;
}
