/**
 * JSON tokens read straight from a line's bytes, for wuu-check's member walk
 * (./fields.ts): strict strings, numbers and the three words, each proven
 * valid as JSON.parse judges them (RFC 8259) while it is skipped, and nested
 * containers skipped without judging them (the walk then asks the whole-line
 * validator, lib/validate.ts). Every function returns the index just past its
 * token, or -1 when the bytes are not that token (the caller then lets
 * JSON.parse decide).
 *
 * Bytes 0x80 and up are accepted in strings as they are: JSON.parse sees the
 * line decoded as UTF-8, where an invalid sequence becomes U+FFFD.
 */

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const U = 0x75;

const table = (bytes: Iterable<number>): Uint8Array => {
  const t = new Uint8Array(256);
  for (const byte of bytes) t[byte] = 1;
  return t;
};
const codes = (text: string): number[] => [...text].map((ch) => ch.charCodeAt(0));

/** Whitespace JSON allows between tokens (the producer writes none). */
const SPACE = table([0x20, 0x09, 0x0a, 0x0d]);
/** Bytes that stand for themselves in a string: not `"`, `\` or a control byte. */
const PLAIN = table(Array.from({ length: 0xe0 }, (_, i) => i + 0x20).filter((byte) => byte !== QUOTE && byte !== BACKSLASH));
const HEX = table(codes('0123456789abcdefABCDEF'));
const SHORT_ESCAPE = table(codes('"\\/bfnrt'));
const DIGIT = table(codes('0123456789'));
const EXPONENT = table(codes('eE'));

/** The first index from `at` that is not whitespace. */
export function skipSpace(buf: Uint8Array, at: number): number {
  let k = at;
  while (SPACE[buf[k] ?? 0] === 1) k++;
  return k;
}

/**
 * Past the valid JSON string opened at `open` (before `end`); -1 when it is
 * not one. Most of a stream's bytes are string text (tool output), so plain
 * bytes are skipped in the tightest loop: when the byte at `end` is not plain
 * (the newline after a line in its chunk) it stops that loop, with no bounds
 * test per byte; escapes are judged where they occur.
 */
export function stringEnd(buf: Uint8Array, open: number, end: number): number {
  const fenced = end < buf.length && PLAIN[buf[end] ?? 0] === 0;
  let k = open + 1;
  for (;;) {
    if (fenced) {
      while (PLAIN[buf[k] ?? 0] === 1) k++;
    } else {
      while (k < end && PLAIN[buf[k] ?? 0] === 1) k++;
    }
    if (k >= end) return -1;
    const byte = buf[k];
    if (byte === QUOTE) return k + 1;
    if (byte !== BACKSLASH || k + 1 >= end) return -1;
    const after = buf[k + 1] ?? 0;
    if (SHORT_ESCAPE[after] === 1) k += 2;
    else if (after === U && k + 5 < end && HEX[buf[k + 2] ?? 0] === 1 && HEX[buf[k + 3] ?? 0] === 1 && HEX[buf[k + 4] ?? 0] === 1 && HEX[buf[k + 5] ?? 0] === 1) k += 6;
    else return -1;
  }
}


function digitsEnd(buf: Uint8Array, at: number, end: number): number {
  let k = at;
  while (k < end && DIGIT[buf[k] ?? 0] === 1) k++;
  return k;
}

/** Past the strict JSON number at `at` (no leading zeros, `+`, `.5` or `1.`); -1 when it is not one. */
export function numberEnd(buf: Uint8Array, at: number, end: number): number {
  let k = at;
  if (buf[k] === MINUS) k++;
  if (k >= end || DIGIT[buf[k] ?? 0] !== 1) return -1;
  k = buf[k] === ZERO ? k + 1 : digitsEnd(buf, k, end);
  if (k < end && buf[k] === DOT) {
    const fraction = digitsEnd(buf, k + 1, end);
    if (fraction === k + 1) return -1;
    k = fraction;
  }
  if (k < end && EXPONENT[buf[k] ?? 0] === 1) {
    k++;
    if (k < end && (buf[k] === PLUS || buf[k] === MINUS)) k++;
    const exponent = digitsEnd(buf, k, end);
    if (exponent === k) return -1;
    k = exponent;
  }
  return k;
}

const WORDS = [codes('true'), codes('false'), codes('null')];

/** Past `true`, `false` or `null` at `at`; -1 when none is there. */
export function wordEnd(buf: Uint8Array, at: number, end: number): number {
  for (const word of WORDS) {
    if (buf[at] !== word[0] || at + word.length > end) continue;
    let k = 1;
    while (k < word.length && buf[at + k] === word[k]) k++;
    return k === word.length ? at + k : -1;
  }
  return -1;
}

const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const RBRACKET = 0x5d;

/** Past the string, number or word at `at`; -1 when none is there (a container included). */
function scalarEnd(buf: Uint8Array, at: number, end: number): number {
  const first = buf[at];
  if (first === QUOTE) return stringEnd(buf, at, end);
  if (first === 0x74 || first === 0x66 || first === 0x6e) return wordEnd(buf, at, end);
  return numberEnd(buf, at, end);
}

/**
 * Past the object or array opened at `open` when it is valid JSON holding
 * only strings, numbers and words (`{}`, `{"mode":"standard"}`, `["a",1]`),
 * each judged as it is skipped; -1 when it is not proven so (invalid, or a
 * container inside it: the caller then skips it unjudged and asks the
 * whole-line validator). Spares the second pass over the line for the
 * shallow objects events carry.
 */
export function flatContainerEnd(buf: Uint8Array, open: number, end: number): number {
  const isObject = buf[open] === LBRACE;
  const close = isObject ? RBRACE : RBRACKET;
  let at = skipSpace(buf, open + 1);
  if (at < end && buf[at] === close) return at + 1;
  for (;;) {
    if (isObject) {
      if (at >= end || buf[at] !== QUOTE) return -1;
      at = stringEnd(buf, at, end);
      if (at < 0) return -1;
      at = skipSpace(buf, at);
      if (at >= end || buf[at] !== COLON) return -1;
      at = skipSpace(buf, at + 1);
    }
    if (at >= end) return -1;
    at = scalarEnd(buf, at, end);
    if (at < 0) return -1;
    at = skipSpace(buf, at);
    if (at >= end) return -1;
    if (buf[at] === close) return at + 1;
    if (buf[at] !== COMMA) return -1;
    at = skipSpace(buf, at + 1);
  }
}

/** Past the object or array opened at `open` (one implementation for every byte reader). */
export { containerEnd } from '../scan.js';
