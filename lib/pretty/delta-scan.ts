/**
 * agent_message_delta is most of a stream. The producer writes it in one
 * shape (Go sorts map keys): `{"delta":"…","thread_id":"…","turn_id":"…",
 * "type":"agent_message_delta"}`. A line in exactly that shape is read here
 * in one pass over its bytes, without JSON.parse of the whole event; any
 * other line (another key order, extra keys, escapes in the ids, raw
 * control characters) gets `undefined` and the caller parses it fully.
 */
import { stringLiteralEnd } from '../scan.js';

const PREFIX = Buffer.from('{"delta":"');
const AFTER_DELTA = Buffer.from('","thread_id":"');
const AFTER_THREAD = Buffer.from('","turn_id":"');
const SUFFIX = Buffer.from('","type":"agent_message_delta"}');
// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\x00-\x1f]/;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The three strings of a producer-shaped delta line. */
export interface DeltaFields {
  delta: string;
  threadId: string;
  turnId: string;
}

function matchAt(line: Buffer, at: number, bytes: Buffer): boolean {
  if (at < 0 || at + bytes.length > line.length) return false;
  for (let k = 0; k < bytes.length; k++) if (line[at + k] !== bytes[k]) return false;
  return true;
}

/**
 * The ids repeat on every line of a turn: the last one decoded is kept with
 * its bytes, so a repeat costs a byte comparison instead of a new string.
 */
class IdCache {
  private bytes = Buffer.alloc(0);
  private text = '';

  get(line: Buffer, start: number, end: number): string {
    const length = end - start;
    if (length === this.bytes.length) {
      let k = 0;
      while (k < length && line[start + k] === this.bytes[k]) k++;
      if (k === length) return this.text;
    }
    this.bytes = Buffer.from(line.subarray(start, end));
    this.text = this.bytes.toString('utf8');
    return this.text;
  }
}

const threads = new IdCache();
const turns = new IdCache();

/** A plain id between `from` and the next quote (no escape, no control byte), or undefined. */
function plainUntilQuote(line: Buffer, from: number, end: number): number {
  const quote = line.indexOf(QUOTE, from);
  if (quote < 0 || quote >= end) return -1;
  for (const byte of line.subarray(from, quote)) if (byte === BACKSLASH || byte < 0x20) return -1;
  return quote;
}

/** Reads a producer-shaped agent_message_delta line; undefined for any other shape. */
export function scanProducerDelta(line: Buffer): DeltaFields | undefined {
  const end = line.length - SUFFIX.length;
  if (!matchAt(line, 0, PREFIX) || !matchAt(line, end, SUFFIX)) return undefined;
  // The delta: up to the first quote not escaped (found with indexOf, not a byte loop).
  const open = PREFIX.length - 1;
  let close = line.indexOf(QUOTE, open + 1);
  const firstBackslash = line.indexOf(BACKSLASH, open + 1);
  const escaped = firstBackslash >= 0 && firstBackslash < close;
  if (escaped) {
    while (close >= 0 && close < end) {
      let slashes = 0;
      for (let k = close - 1; k > open && line[k] === BACKSLASH; k--) slashes++;
      if (slashes % 2 === 0) break;
      close = line.indexOf(QUOTE, close + 1);
    }
  }
  if (close < 0 || !matchAt(line, close, AFTER_DELTA)) return undefined;
  const threadStart = close + AFTER_DELTA.length;
  const threadEnd = plainUntilQuote(line, threadStart, end);
  if (threadEnd < 0 || !matchAt(line, threadEnd, AFTER_THREAD)) return undefined;
  const turnStart = threadEnd + AFTER_THREAD.length;
  const turnEnd = plainUntilQuote(line, turnStart, end + 1);
  if (turnEnd !== end) return undefined;
  let delta: string;
  if (escaped) {
    try {
      // The slice is one JSON string literal, so it parses to a string.
      delta = String(JSON.parse(line.toString('utf8', open, close + 1)));
    } catch {
      return undefined;
    }
  } else {
    delta = line.toString('utf8', open + 1, close);
    if (CONTROL_RE.test(delta)) return undefined; // raw control byte: not valid JSON, let the parser say so
  }
  return { delta, threadId: threads.get(line, threadStart, threadEnd), turnId: turns.get(line, turnStart, turnEnd) };
}

/**
 * Output deltas (tool_output_delta, command_output_delta) can be megabytes
 * on one line, of which a fold shows a few clipped lines. A line this long
 * has its delta decoded in windows ({@link deltaWindows}) rather than
 * parsed whole, so no string the size of the line is ever made; shorter
 * lines are parsed as usual.
 */
export const LONG_DELTA_BYTES = 1 << 16;
/**
 * Bytes of a long delta decoded at a time (a window ends a little past this,
 * at a safe cut). Measured on 8 MiB lines: 1 MiB windows gave the lowest peak
 * RSS (64 KiB ones 160 MiB, 4 MiB ones 170, 1 MiB 130-140).
 */
const WINDOW_BYTES = 1 << 20;
const DELTA_KEY = Buffer.from('"delta":"');

/** A long output-delta line: its other fields (delta set to 0) and the span of the delta's literal. */
export interface LongDelta {
  fields: Record<string, unknown>;
  /** Indexes of the literal's opening and closing quotes. */
  open: number;
  close: number;
}

/**
 * Locates the top-level `"delta"` string of a long line and parses the rest
 * of the line with the literal replaced by `0`; the literal itself is checked
 * window by window (no raw control character, every escape valid), so the
 * line is known to be valid JSON without a pass over it in JS. Undefined when
 * the line is short, not plainly in that shape or not valid: the caller then
 * parses it whole (which reports a bad line).
 */
export function locateLongDelta(line: Buffer): LongDelta | undefined {
  if (line.length < LONG_DELTA_BYTES) return undefined;
  const key = line.indexOf(DELTA_KEY);
  if (key < 0) return undefined;
  const open = key + DELTA_KEY.length - 1;
  const close = stringLiteralEnd(line, open);
  if (close < 0) return undefined;
  const tail = line.subarray(close + 1);
  // A later "delta" key (spelled plainly or with escapes) would win in a parse.
  if (tail.includes('"delta"') || tail.includes('\\u')) return undefined;
  let fields: unknown;
  try {
    fields = JSON.parse(`${line.toString('utf8', 0, open)}0${tail.toString('utf8')}`);
  } catch {
    return undefined;
  }
  // delta is 0 only when the literal found is the top-level one (not one nested deeper).
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return undefined;
  const record = fields as Record<string, unknown>;
  if (record.delta !== 0) return undefined;
  const long = { fields: record, open, close };
  return literalValid(line, long) ? long : undefined;
}

/** Whether the delta's literal is valid JSON text, read a window at a time (see {@link deltaWindows}). */
function literalValid(line: Buffer, long: LongDelta): boolean {
  for (const [at, cut] of windowSpans(line, long)) {
    if (line.subarray(at, cut).includes(BACKSLASH)) {
      try {
        JSON.parse(`"${line.toString('utf8', at, cut)}"`);
      } catch {
        return false;
      }
    } else if (hasControlByte(line, at, cut)) return false;
  }
  return true;
}

/** Whether a raw control byte lies in line[from, to): a loop over the bytes, no string made. */
function hasControlByte(line: Buffer, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if ((line[k] ?? 0x20) < 0x20) return true;
  return false;
}

/**
 * Where a window may end at or after `from`: before an ASCII byte with no
 * backslash among the six bytes ahead of it, so never inside an escape
 * (`\uXXXX` is the longest) nor inside a UTF-8 sequence; each window then
 * decodes to exactly its part of the whole string, invalid bytes included.
 */
function safeCut(line: Buffer, from: number, close: number): number {
  for (let k = from; k < close; k++) {
    if ((line[k] ?? 0) >= 0x80) continue;
    let clean = true;
    for (let j = k - 6; j < k; j++) if (line[j] === BACKSLASH) clean = false;
    if (clean) return k;
  }
  return close;
}

/** The windows of a long delta's literal, as byte spans, in order. */
function* windowSpans(line: Buffer, long: LongDelta): Generator<[number, number]> {
  let at = long.open + 1;
  while (at < long.close) {
    const cut = at + WINDOW_BYTES >= long.close ? long.close : safeCut(line, at + WINDOW_BYTES, long.close);
    yield [at, cut];
    at = cut;
  }
}

/** The delta of a {@link LongDelta}, decoded window by window, in order. */
export function* deltaWindows(line: Buffer, long: LongDelta): Generator<string> {
  for (const [at, cut] of windowSpans(line, long)) {
    // A window holds whole escapes only, so it is a JSON string body of its own.
    yield line.subarray(at, cut).includes(BACKSLASH) ? String(JSON.parse(`"${line.toString('utf8', at, cut)}"`)) : line.toString('utf8', at, cut);
  }
}
