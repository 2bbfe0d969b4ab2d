/**
 * Reading the producer's flat lines without a full JSON parse: whole flat
 * events, and delta lines located from their tail (issue 13). Anything else
 * falls back to the record's full parse, which reports a bad line.
 */
import type { WuuEvent } from '../events.js';
import { LineRecord, type EventRecord } from '../jsonl.js';
import { flatStringObject, stringLiteral, stringLiteralEnd, tailStrings } from '../scan.js';

/** A delta line in the producer's shape, located without decoding its text. */
export interface DeltaLine {
  /** The members after the delta: thread_id, turn_id, type (and item_id for tool output). */
  ids: Record<string, string>;
  source: Buffer;
  /** The quotes around the delta's string literal. */
  open: number;
  close: number;
}

const DELTA_HEAD = Buffer.from('{"delta":"');

/**
 * An agent_message_delta or tool_output_delta line as the producer writes it
 * (`{"delta":"…","item_id":…,"thread_id":…,"turn_id":…,"type":…}`): its ids
 * read from the tail and the delta located, not decoded. Undefined for any
 * other shape (the caller parses the line in full).
 */
export function deltaLine(rec: EventRecord): DeltaLine | undefined {
  if (!(rec instanceof LineRecord)) return undefined;
  const { source, start, end } = rec;
  if (end - start < 12 || source.compare(DELTA_HEAD, 0, DELTA_HEAD.length, start, start + DELTA_HEAD.length) !== 0) return undefined;
  const where = { before: -1 };
  const ids = tailStrings(source, rec.type === 'tool_output_delta' ? 'item_id' : 'thread_id', start, end, where);
  if (ids === undefined || ids.type !== rec.type) return undefined;
  const open = start + DELTA_HEAD.length - 1;
  const close = where.before - 1;
  if (close <= open || stringLiteralEnd(source, open, end) !== close) return undefined;
  return { ids, source, open, close };
}

/**
 * The event of a record, read cheaply when the line has the producer's flat
 * shape (every value a string: deltas, tool and command events): then no
 * JSON.parse, see {@link flatStringObject}. Anything else is parsed in full
 * (and a bad line is reported as usual). Meant for records whose core said
 * `needsParse` false for their type, so nothing was parsed before.
 */
export function eventOf(rec: EventRecord): WuuEvent {
  if (rec instanceof LineRecord) {
    const flat = flatStringObject(rec.source, rec.start, rec.end);
    if (flat !== undefined && typeof flat.type === 'string') return flat as unknown as WuuEvent;
  }
  return rec.event;
}


const BACKSLASH = 0x5c;

/** Whether the byte at `at` opens an escape (a backslash not itself escaped). */
function opensEscape(source: Buffer, at: number, open: number): boolean {
  if (source[at] !== BACKSLASH) return false;
  let run = 0;
  for (let i = at - 1; i > open && source[i] === BACKSLASH; i--) run++;
  return run % 2 === 0;
}

/**
 * The decoded END of the string literal between the quotes at `open` and
 * `close`: about its last `maxBytes` bytes, started on a whole character
 * and outside any escape, so a long tool output's last lines are read
 * without decoding all of it. `partial` says text before it was left out;
 * undefined when the piece is not valid JSON text.
 */
export function literalEnd(source: Buffer, open: number, close: number, maxBytes: number): { text: string; partial: boolean } | undefined {
  let from = close - maxBytes;
  if (from <= open + 1) {
    const text = stringLiteral(source, open, close);
    return text === undefined ? undefined : { text, partial: false };
  }
  while (from < close && (source[from]! & 0xc0) === 0x80) from++; // not inside a UTF-8 character
  // Not inside an escape: `\x` is 2 bytes, `\uXXXX` 6; one starting up to 5 bytes back may cover `from`.
  for (let at = from - 1; at >= from - 5 && at > open; at--) {
    if (!opensEscape(source, at, open)) continue;
    const end = at + (source[at + 1] === 0x75 ? 6 : 2);
    if (end > from) from = end;
    break;
  }
  try {
    const value: unknown = JSON.parse(`"${source.toString('utf8', from, close)}"`);
    return typeof value === 'string' ? { text: value, partial: true } : undefined;
  } catch {
    return undefined;
  }
}
