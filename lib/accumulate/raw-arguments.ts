/**
 * A tool call's `arguments` written from the bytes of its line (issue 20):
 * a tool_call carries `"arguments":A,"arguments_raw":R`, where R is the
 * JSON.stringify of the argument string and A the JSON.stringify of its
 * parse. Decoding the string, parsing it and serializing both again costs
 * more than the rest of the call; read from the bytes instead:
 *
 * - R is the literal on the line in JSON.stringify's spelling (./canonical.ts);
 * - A is the string's own text when that text is already what
 *   JSON.stringify(JSON.parse(text)) writes, which {@link canonicalJson}
 *   proves: compact, unique keys none of which is an array index (V8 puts
 *   those first), strings in JSON.stringify's escapes, integers of at most
 *   15 digits and no `-0`, nested at most {@link MAX_DEPTH} deep.
 *
 * Whatever it cannot prove so is declined (undefined): the caller then
 * decodes and parses as before, so the bytes written are the same either way.
 */
import { TRANSCODED, Transcoder } from './canonical.js';

const [QUOTE, BACKSLASH, COMMA, COLON, LBRACE, RBRACE, LBRACKET, RBRACKET, MINUS, ZERO, NINE] = [0x22, 0x5c, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d, 0x2d, 0x30, 0x39] as const;

/** Deepest nesting proven (deeper is declined: it may not even serialize). */
export const MAX_DEPTH = 64;
/** Most object keys proven per text (their uniqueness is checked pairwise). */
const MAX_KEYS = 64;
/** Longest integer proven: every integer of up to 15 digits is exact as a double and written back as it came. */
const MAX_DIGITS = 15;

const LEAD = Buffer.from('"arguments":');
const MIDDLE = Buffer.from(',"arguments_raw":');
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');
const PROTO = Buffer.from('__proto__');

/** The letters of the short escapes JSON.stringify writes. */
const SHORT = new Uint8Array(256);
for (const ch of '"\\bfnrt') SHORT[ch.charCodeAt(0)] = 1;
/** Control characters JSON.stringify writes as a short escape, not `\u00xx`. */
const HAS_SHORT = new Uint8Array(32);
for (const code of [0x08, 0x09, 0x0a, 0x0c, 0x0d]) HAS_SHORT[code] = 1;

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= ZERO && byte <= NINE;
}

/** The value of the four lower-case hex digits at `at`, or -1 (JSON.stringify writes lower case). */
function lowerHex4(text: Uint8Array, at: number): number {
  let value = 0;
  for (let k = at; k < at + 4; k++) {
    const byte = text[k] ?? 0;
    const digit = byte >= ZERO && byte <= NINE ? byte - ZERO : byte >= 0x61 && byte <= 0x66 ? byte - 0x57 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** Past the string opened at `open` when it is in JSON.stringify's spelling and closes before `end`; else -1. */
function stringEnd(text: Uint8Array, open: number, end: number): number {
  let k = open + 1;
  while (k < end) {
    const byte = text[k] ?? 0;
    if (byte === QUOTE) return k + 1;
    if (byte < 0x20) return -1;
    if (byte !== BACKSLASH) {
      k++;
      continue;
    }
    const letter = text[k + 1] ?? 0;
    if (SHORT[letter] === 1) {
      k += 2;
      continue;
    }
    // `\u00xx` only for a control character without a short escape (a lone surrogate is declined).
    if (letter !== 0x75) return -1;
    const code = lowerHex4(text, k + 2);
    if (code < 0 || code >= 0x20 || HAS_SHORT[code] === 1) return -1;
    k += 6;
  }
  return -1;
}

/** Past the integer at `at` when JSON.stringify writes it back so (no fraction, exponent, `-0` or leading zero; at most 15 digits); else -1. */
function numberEnd(text: Uint8Array, at: number, end: number): number {
  let k = text[at] === MINUS ? at + 1 : at;
  const first = k;
  if (text[k] === ZERO) {
    k++;
    if (k - at > 1) return -1; // -0
  } else {
    while (k < end && isDigit(text[k])) k++;
    if (k === first || k - first > MAX_DIGITS) return -1;
  }
  const next = text[k];
  return next === 0x2e || next === 0x65 || next === 0x45 || isDigit(next) ? -1 : k;
}

/** Past the word at `at` when it is `word`; else -1. */
function wordEnd(text: Uint8Array, at: number, end: number, word: Buffer): number {
  if (at + word.length > end) return -1;
  for (let k = 0; k < word.length; k++) if (text[at + k] !== word[k]) return -1;
  return at + word.length;
}

/** Whether the key between `open` and `close` (quotes) is one JSON.stringify may not write where it stands: all digits (an array index), or `__proto__`. */
function movableKey(text: Uint8Array, open: number, close: number): boolean {
  let digits = true;
  for (let k = open + 1; k < close && digits; k++) digits = isDigit(text[k]);
  if (digits) return true;
  return close - open - 1 === PROTO.length && wordEnd(text, open + 1, close, PROTO) === close;
}

/** The proof's stack, made once (it is synchronous): per open container 1 for an object, 2 for an array, and where its keys start in keyOpen/keyEnd. */
const WORK = {
  stack: new Uint8Array(MAX_DEPTH),
  keyBase: new Int32Array(MAX_DEPTH),
  keyOpen: new Int32Array(MAX_KEYS),
  keyEnd: new Int32Array(MAX_KEYS),
};

function sameBytes(text: Uint8Array, a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a !== bEnd - b) return false;
  for (let k = 0; k < aEnd - a; k++) if (text[a + k] !== text[b + k]) return false;
  return true;
}

/**
 * Whether `text[from, end)` is exactly what JSON.stringify(JSON.parse(it))
 * writes (see the module comment for what is proven). A loop over an
 * explicit stack: no recursion on input.
 */
export function canonicalJson(text: Uint8Array, from: number, end: number): boolean {
  const { stack, keyBase, keyOpen, keyEnd } = WORK;
  let keys = 0;
  let depth = 0;
  let k = from;
  let expectKey = false;
  for (;;) {
    if (expectKey) {
      expectKey = false;
      if (text[k] !== QUOTE) return false;
      const after = stringEnd(text, k, end);
      if (after < 0 || text[after] !== COLON || movableKey(text, k, after - 1) || keys === MAX_KEYS) return false;
      for (let i = keyBase[depth - 1] ?? 0; i < keys; i++) if (sameBytes(text, keyOpen[i] ?? 0, keyEnd[i] ?? 0, k, after)) return false;
      keyOpen[keys] = k;
      keyEnd[keys] = after;
      keys++;
      k = after + 1;
    }
    // A value at k.
    const byte = text[k];
    if (byte === LBRACE || byte === LBRACKET) {
      if (depth === MAX_DEPTH) return false;
      stack[depth] = byte === LBRACE ? 1 : 2;
      keyBase[depth] = keys;
      depth++;
      k++;
      if (text[k] !== (byte === LBRACE ? RBRACE : RBRACKET)) {
        expectKey = byte === LBRACE;
        continue;
      }
      // An empty container: closed at once.
      k++;
      depth--;
    } else if (byte === QUOTE) k = stringEnd(text, k, end);
    else if (byte === 0x74) k = wordEnd(text, k, end, TRUE);
    else if (byte === 0x66) k = wordEnd(text, k, end, FALSE);
    else if (byte === 0x6e) k = wordEnd(text, k, end, NULL);
    else k = numberEnd(text, k, end);
    if (k < 0) return false;
    // After a value: a comma, or the ends of containers.
    for (;;) {
      if (depth === 0) return k === end;
      const inObject = stack[depth - 1] === 1;
      if (text[k] === COMMA) {
        k++;
        expectKey = inObject;
        break;
      }
      if (text[k] !== (inObject ? RBRACE : RBRACKET)) return false;
      k++;
      depth--;
      keys = keyBase[depth] ?? 0;
    }
  }
}

/**
 * Bytes up to this many are copied by a loop. Past some 40 bytes a native
 * copy costs less (measured in process: 300 bytes 80 ns natively, 600 ns
 * by a loop; 40 bytes the same either way).
 */
const SHORT_COPY = 32;

/** Copies `source[from, to)` into `target` at `at`; past the copy in `target`. */
export function copyBytes(source: Buffer, from: number, to: number, target: Buffer, at: number): number {
  if (to - from > SHORT_COPY) return at + source.copy(target, at, from, to);
  let p = at;
  for (let k = from; k < to; k++) target[p++] = source[k] ?? 0;
  return p;
}

/** A buffer of its own holding `source[0, length)`. */
function ownCopy(source: Buffer, length: number): Buffer {
  const made = Buffer.allocUnsafe(length);
  copyBytes(source, 0, length, made, 0);
  return made;
}

/**
 * Makes `"arguments":A,"arguments_raw":R` from a string literal's bytes
 * (see the module comment), into a buffer of its own each time.
 */
export class ArgumentsWriter {
  private readonly transcoder = new Transcoder();
  private scratch: Buffer = Buffer.allocUnsafe(1024);

  /** The string literal between the quotes at `open` and `close` in JSON.stringify's spelling (a copy); undefined when it cannot be kept so (then decode it). */
  literal(source: Buffer, open: number, close: number): Buffer | undefined {
    if (this.transcoder.run(source, open, close) !== TRANSCODED) return undefined;
    const literal = this.transcoder.literal();
    return ownCopy(literal, literal.length);
  }

  /**
   * The member bytes for the literal between the quotes at `open` and
   * `close` (lib/scan.ts's close); undefined when not proven so (then
   * decode and parse it).
   */
  json(source: Buffer, open: number, close: number): Buffer | undefined {
    if (this.transcoder.run(source, open, close) !== TRANSCODED) return undefined;
    const literal = this.transcoder.literal();
    const size = LEAD.length + literal.length + MIDDLE.length + literal.length;
    if (this.scratch.length < size) this.scratch = Buffer.allocUnsafe(Math.max(size, 2 * this.scratch.length));
    const out = this.scratch;
    let p = copyBytes(LEAD, 0, LEAD.length, out, 0);
    const textStart = p;
    // The text is the literal's body with its own escapes undone; any escape
    // but `\"` and `\\` stands for a control character, never in compact JSON.
    const bodyEnd = literal.length - 1;
    for (let k = 1; k < bodyEnd; k++) {
      let byte = literal[k] ?? 0;
      if (byte === BACKSLASH) {
        byte = literal[++k] ?? 0;
        if (byte !== QUOTE && byte !== BACKSLASH) return undefined;
      }
      out[p++] = byte;
    }
    if (!canonicalJson(out, textStart, p)) return undefined;
    p = copyBytes(MIDDLE, 0, MIDDLE.length, out, p);
    p = copyBytes(literal, 0, literal.length, out, p);
    return ownCopy(out, p);
  }
}
