/**
 * Reading an event's fields for the accumulating tools: from the line's bytes
 * when it has the producer's compact shape (./wire.ts), else from the parsed
 * event (which also reports a bad line). Also the decoded end of a long
 * literal, for a bash output's trailer read without decoding all of it.
 */
import { LineRecord, type EventRecord } from '../jsonl.js';
import { Transcoder } from './canonical.js';
import { decodeLiteral, ParsedFields, WireFields, type EventFields, type Key } from './wire.js';

/**
 * Hands out the fields of one record at a time (what it answers holds until
 * the next call): one per core, so a line is read once by its owner.
 */
export class FieldReader {
  private readonly wire = new WireFields();
  private readonly transcoder = new Transcoder();

  /**
   * Proves the line a valid event while reading all of it (Core.proves);
   * false when it is not proven (then parse it). The read serves the calls
   * for this record that follow; `decode` is a string member decoded now,
   * its decode its proof (WireFields.prove); `as` json: it is rewritten
   * as JSON instead where it can be (WireFields.json); `as` size: only its
   * text's bytes are counted (WireFields.measured). `remember`: see
   * WireFields.prove (a twin's output judged by comparing it with the
   * tool_output_delta's).
   */
  prove(rec: LineRecord, decode?: Key, as: 'text' | 'json' | 'size' = 'text', remember?: { keep: boolean; same?: Key }): boolean {
    return this.wire.prove(rec, decode, as === 'text' ? undefined : this.transcoder, as === 'size', remember);
  }

  /** Every field of the record. */
  all(rec: EventRecord): EventFields {
    if (rec instanceof LineRecord && (this.wire.holdsAll(rec) || this.wire.read(rec))) return this.wire;
    return new ParsedFields(rec.event);
  }

  /**
   * At least `fields`, exactly: read from the line's end when they are plain
   * strings there (a bash twin's ids, without a look at its output), else
   * as {@link all}.
   */
  some(rec: EventRecord, fields: readonly Key[]): EventFields {
    if (rec instanceof LineRecord && (this.wire.holdsAll(rec) || this.wire.readTail(rec, fields))) return this.wire;
    return this.all(rec);
  }
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
    const text = decodeLiteral(source, open, close);
    return text === undefined ? undefined : { text, partial: false };
  }
  while (from < close && ((source[from] ?? 0) & 0xc0) === 0x80) from++; // not inside a UTF-8 character
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
