/**
 * Reading one top-level string field of a JSON object straight from its bytes,
 * without JSON.parse. This is what lets `wuu-filter tool` skip the parse of
 * lines that cannot match.
 *
 * The scan is exact for any valid JSON, however it is encoded (key order,
 * whitespace, `\u` escapes in keys or values, nested objects that carry their
 * own `type` key): it walks the structure quote to quote, tracks nesting depth
 * outside strings, and only accepts a key at depth 0. Whenever it cannot be
 * sure (not an object, unbalanced, cut off, duplicate key, non-string value) it
 * answers `undefined`, and the caller falls back to a full parse, which then
 * reports the line if it is bad.
 */

// The bytes of JSON's structure: " \ : { } [ ].
const [QUOTE, BACKSLASH, COLON, LBRACE, RBRACE, LBRACKET, RBRACKET] = [0x22, 0x5c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d] as const;

/** JSON whitespace; a read past the end (undefined) is not. */
function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a;
}

/** Index of the quote closing the string opened at `open` (before `end`), or -1 when cut off. */
function stringEnd(buf: Uint8Array, open: number, end: number): number {
  let at = open + 1;
  for (;;) {
    const quote = buf.indexOf(QUOTE, at);
    if (quote < 0 || quote >= end) return -1;
    let slashes = 0;
    for (let k = quote - 1; k > open && buf[k] === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

function nextNonSpace(buf: Buffer, from: number, end: number): number {
  let at = from;
  while (at < end && isSpace(buf[at])) at++;
  return at;
}

/** Decodes the JSON string literal spanning open..close (quotes included). */
function decodeString(buf: Buffer, open: number, close: number): string | undefined {
  let ascii = true;
  for (let k = open + 1; k < close; k++) {
    const byte = buf[k]!;
    if (byte === BACKSLASH) {
      try {
        const value: unknown = JSON.parse(buf.toString('utf8', open, close + 1));
        return typeof value === 'string' ? value : undefined;
      } catch {
        return undefined;
      }
    }
    if (byte >= 0x80) ascii = false;
  }
  // latin1 decoding is exact for ASCII and cheaper than utf8.
  return buf.toString(ascii ? 'latin1' : 'utf8', open + 1, close);
}

/** Whether the string literal open..close is exactly `key`, without decoding when it has no escape. */
function keyEquals(buf: Buffer, open: number, close: number, key: Buffer): boolean {
  const length = close - open - 1;
  if (length === key.length) {
    let k = 0;
    while (k < length && buf[open + 1 + k] === key[k]) k++;
    if (k === length) return true;
  }
  // An escaped spelling (\u0074ype) is longer than the key itself.
  if (length <= key.length) return false;
  let escaped = false;
  for (let k = open + 1; k < close && !escaped; k++) escaped = buf[k] === BACKSLASH;
  return escaped && decodeString(buf, open, close) === key.toString('utf8');
}

/**
 * The byte a JSON short escape stands for, by the letter after its
 * backslash (`n` → 0x0a); 0 for a letter that is not one (`u` included).
 * For readers that decode escapes from the bytes themselves.
 */
export const SHORT_ESCAPE_VALUE = new Uint8Array(256);
for (const [letter, byte] of [['"', 0x22], ['\\', 0x5c], ['/', 0x2f], ['b', 0x08], ['f', 0x0c], ['n', 0x0a], ['r', 0x0d], ['t', 0x09]] as const) {
  SHORT_ESCAPE_VALUE[letter.charCodeAt(0)] = byte;
}

const keyCache = new Map<string, Buffer>();

/** `key`'s bytes, cached for the few keys the tools ask for. */
function keyBytesOf(key: string): Buffer {
  let keyBytes = keyCache.get(key);
  if (keyBytes === undefined) {
    keyBytes = Buffer.from(key);
    if (keyCache.size < 64) keyCache.set(key, keyBytes);
  }
  return keyBytes;
}

/**
 * Returns the value of the top-level string field `key` of the JSON object in
 * `line[start..end)`, or `undefined` when the scan cannot vouch for the answer.
 * A line that is valid JSON and has the field exactly once always gets it.
 */
export function topLevelString(line: Buffer, key: string, start = 0, end = line.length): string | undefined {
  const keyBytes = keyBytesOf(key);
  return lastMember(line, keyBytes, start, end) ?? fullScan(line, keyBytes, start, end);
}

/**
 * The O(1) case. Go sorts keys, so `type` is the last member of almost every
 * event: a line ending in `,"type":"X"}` (X without quote or backslash). That
 * shape is proof on valid JSON: the final `}` closes the top-level object, so
 * `"X"` is a whole string, the `:` before it is structural, and the key before
 * that is exactly `type`, as its opening quote follows an unescaped `,` or `{`.
 * Being the last member, it is also the value JSON.parse keeps on duplicates.
 */
function lastMember(line: Buffer, key: Buffer, start: number, end: number): string | undefined {
  const valueOpen = lastMemberOpen(line, key, start, end);
  return valueOpen < 0 ? undefined : decodeString(line, valueOpen, line.indexOf(QUOTE, valueOpen + 1));
}

/**
 * The shape test of {@link lastMember}, allocation-free for per-line use:
 * when the object in `line[start..end)` ends with the member `"KEY":"X"}`
 * (X without quote or backslash, at most `maxValueBytes` long), the index of
 * X's opening quote (X ends at the next quote); otherwise -1.
 */
export function lastMemberOpen(line: Buffer, key: Buffer, start = 0, end = line.length, maxValueBytes = Infinity): number {
  let close = end - 1;
  while (close > start && isSpace(line[close])) close--;
  if (line[close] !== RBRACE || line[close - 1] !== QUOTE) return -1;
  const valueClose = close - 1;
  let valueOpen = valueClose - 1;
  const stop = Math.max(start, valueClose - 1 - maxValueBytes);
  while (valueOpen > stop && line[valueOpen] !== QUOTE) {
    if (line[valueOpen] === BACKSLASH) return -1;
    valueOpen--;
  }
  if (line[valueOpen] !== QUOTE) return -1;
  // Expect `"KEY":` right before the value, preceded by `,` or `{`.
  const keyClose = valueOpen - 2;
  const keyOpen = keyClose - key.length - 1;
  if (keyOpen - 1 < start || line[valueOpen - 1] !== COLON || line[keyClose] !== QUOTE || line[keyOpen] !== QUOTE) return -1;
  const before = line[keyOpen - 1];
  if (before !== 0x2c && before !== LBRACE) return -1;
  for (let k = 0; k < key.length; k++) if (line[keyOpen + 1 + k] !== key[k]) return -1;
  return valueOpen;
}

/** The general case: walk the structure quote to quote. */
function fullScan(line: Buffer, keyBytes: Buffer, start: number, end: number): string | undefined {
  const span = valueSpan(line, keyBytes, start, end);
  return span === undefined ? undefined : decodeString(line, span[0], span[1]);
}

/**
 * Where the value of the top-level string field `key` lies in
 * `line[start..end)`: the indexes of its opening and closing quotes, with
 * the same guarantees as {@link topLevelString} (undefined when the scan
 * cannot vouch for it), except that the value's escapes are not checked (it
 * is not decoded): for lines already proven valid. wuu-redact reads a
 * delta's last bytes this way when `delta` is not the line's first member.
 */
export function topLevelStringSpan(line: Buffer, key: string, start = 0, end = line.length): [number, number] | undefined {
  return valueSpan(line, keyBytesOf(key), start, end);
}

/** The quotes of the only top-level member `keyBytes`'s string value (see {@link topLevelStringSpan}). */
function valueSpan(line: Buffer, keyBytes: Buffer, start: number, end: number): [number, number] | undefined {
  let at = nextNonSpace(line, start, end);
  if (line[at] !== LBRACE || at >= end) return undefined;
  at++;
  let depth = 0;
  let found: [number, number] | undefined;
  let seen = 0;
  for (;;) {
    let quote = line.indexOf(QUOTE, at);
    if (quote >= end) quote = -1;
    // Structure between strings: braces and brackets change the depth.
    const stop = quote < 0 ? end : quote;
    for (let k = at; k < stop; k++) {
      const byte = line[k];
      if (byte === LBRACE || byte === LBRACKET) depth++;
      else if (byte === RBRACE || byte === RBRACKET) {
        if (depth === 0) {
          // The top-level object closed: only whitespace may follow.
          if (byte !== RBRACE || nextNonSpace(line, k + 1, end) !== end) return undefined;
          return seen === 1 ? found : undefined;
        }
        depth--;
      }
    }
    if (quote < 0) return undefined;
    const close = stringEnd(line, quote, end);
    if (close < 0) return undefined;
    at = close + 1;
    if (depth !== 0) continue;
    const after = nextNonSpace(line, at, end);
    if (line[after] !== COLON || after >= end) continue; // a value string, not a key
    if (!keyEquals(line, quote, close, keyBytes)) continue;
    seen++;
    const valueOpen = nextNonSpace(line, after + 1, end);
    if (line[valueOpen] !== QUOTE || valueOpen >= end) return undefined;
    const valueClose = stringEnd(line, valueOpen, end);
    if (valueClose < 0) return undefined;
    // Not decoded here: a value that does not decode is refused by the caller (a second one is refused anyway).
    found = [valueOpen, valueClose];
    at = valueClose + 1;
  }
}

/**
 * The O(1) shape check for lines nobody reads: starts with `{` and ends with
 * `}` (whitespace aside). Blank lines, plain text, arrays and lines cut off
 * mid-event fail it and get a full parse, which reports them.
 */
export function looksLikeObject(line: Buffer, start = 0, end = line.length): boolean {
  let first = start;
  while (first < end && isSpace(line[first])) first++;
  let last = end - 1;
  while (last > first && isSpace(line[last])) last--;
  return last > first && line[first] === LBRACE && line[last] === RBRACE;
}

// Strict validation from the bytes lives in validate.ts (one table-driven pass).
export { isJsonEvent, isJsonObject } from './validate.js';

/** Index of the quote closing the string literal opened at `open` (before `end`), or -1 when cut off. */
export function stringLiteralEnd(line: Uint8Array, open: number, end = line.length): number {
  return stringEnd(line, open, end);
}

/**
 * Index just past the key opened at `open` (its closing quote before `end`)
 * when no byte of it is an escape or a control byte, so it compares byte for
 * byte; -1 otherwise (the caller then reads it the general way). A loop, not
 * indexOf: keys are short, and a call into the runtime per member costs
 * more than their bytes (check's and accumulate's member walks).
 */
export function plainKeyEnd(buf: Uint8Array, open: number, end: number): number {
  for (let k = open + 1; k < end; k++) {
    const byte = buf[k] ?? 0;
    if (byte === QUOTE) return k + 1;
    if (byte === BACKSLASH || byte < 0x20) return -1;
  }
  return -1;
}

/**
 * Index just past the object or array opened at `open`, skipped without
 * judging it (brackets counted outside strings); -1 when it does not close
 * before `end`. Not a validation: the byte readers of check and accumulate
 * use it on lines the runner has proven valid, or fall back to a parse.
 */
export function containerEnd(buf: Uint8Array, open: number, end: number): number {
  let depth = 0;
  for (let k = open; k < end; k++) {
    const byte = buf[k];
    if (byte === QUOTE) {
      k = stringEnd(buf, k, end);
      if (k < 0) return -1;
    } else if (byte === LBRACE || byte === LBRACKET) depth++;
    else if (byte === RBRACE || byte === RBRACKET) {
      if (--depth === 0) return k + 1;
    }
  }
  return -1;
}
