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

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a;
}

/** Index of the quote closing the string opened at `open`, or -1 when cut off. */
function stringEnd(buf: Buffer, open: number): number {
  let at = open + 1;
  for (;;) {
    const quote = buf.indexOf(QUOTE, at);
    if (quote < 0) return -1;
    let slashes = 0;
    for (let k = quote - 1; k > open && buf[k] === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

function nextNonSpace(buf: Buffer, from: number): number {
  let at = from;
  while (at < buf.length && isSpace(buf[at]!)) at++;
  return at;
}

/** Decodes the JSON string literal spanning open..close (quotes included). */
function decodeString(buf: Buffer, open: number, close: number): string | undefined {
  let escaped = false;
  for (let k = open + 1; k < close && !escaped; k++) escaped = buf[k] === BACKSLASH;
  if (!escaped) return buf.toString('utf8', open + 1, close);
  try {
    const value: unknown = JSON.parse(buf.toString('utf8', open, close + 1));
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Returns the value of the top-level string field `key` of the JSON object in
 * `line`, or `undefined` when the scan cannot vouch for the answer.
 * A line that is valid JSON and has the field exactly once always gets it.
 */
export function topLevelString(line: Buffer, key: string): string | undefined {
  let at = nextNonSpace(line, 0);
  if (line[at] !== LBRACE) return undefined;
  at++;
  let depth = 0;
  let found: string | undefined;
  let seen = 0;
  for (;;) {
    const quote = line.indexOf(QUOTE, at);
    // Structure between strings: braces and brackets change the depth.
    const stop = quote < 0 ? line.length : quote;
    for (let k = at; k < stop; k++) {
      const byte = line[k];
      if (byte === LBRACE || byte === LBRACKET) depth++;
      else if (byte === RBRACE || byte === RBRACKET) {
        if (depth === 0) {
          // The top-level object closed: only whitespace may follow.
          if (byte !== RBRACE || nextNonSpace(line, k + 1) !== line.length) return undefined;
          return seen === 1 ? found : undefined;
        }
        depth--;
      }
    }
    if (quote < 0) return undefined;
    const close = stringEnd(line, quote);
    if (close < 0) return undefined;
    at = close + 1;
    if (depth !== 0) continue;
    const after = nextNonSpace(line, at);
    if (line[after] !== COLON) continue; // a value string, not a key
    if (decodeString(line, quote, close) !== key) continue;
    seen++;
    const valueOpen = nextNonSpace(line, after + 1);
    if (line[valueOpen] !== QUOTE) return undefined;
    const valueClose = stringEnd(line, valueOpen);
    if (valueClose < 0) return undefined;
    found = decodeString(line, valueOpen, valueClose);
    if (found === undefined) return undefined;
    at = valueClose + 1;
  }
}
