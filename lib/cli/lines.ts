/**
 * THE line policy, used by the runner, by `parse()` in core.ts, by wuu-check
 * and by wuu-usage's workers and --merge: split → size cap → validate →
 * report a bad line, with one wording per message.
 *
 * A line that is blank, not JSON, not a JSON object, has no string "type", is
 * longer than --max-line-bytes, or is a last line cut off without a newline
 * is bad; it is reported as `PROG: FILE:LINE: message`, every message made
 * safe for a terminal (V8's "Unexpected token" snippet quotes the data).
 */
import type { Core } from '../core.js';
import { InvalidLineError, LineRecord, parseNothing, type Line } from '../jsonl.js';
import { looksLikeObject } from '../scan.js';
import { escapeControls } from '../text.js';

/** What {@link readLine} does with a line. */
export interface LineHandler {
  maxLineBytes: number;
  /** The core's choice of lines to parse (undefined: all; parseNothing: none). */
  needsParse?: Core['needsParse'];
  /** The line's type when the runner has already sniffed it from the bytes. */
  type?: string;
  /** A line that is an event. */
  push(rec: LineRecord): void;
  /** A line that is not: why (without the cut-off prefix), and its bytes (empty when oversize). */
  bad(reason: string, raw: Buffer): void;
}

/** The message for a line over the cap (the one wording). */
export function oversizeReason(bytes: number, maxLineBytes: number): string {
  return `line of ${bytes} bytes exceeds --max-line-bytes ${maxLineBytes}; dropped`;
}

/**
 * The shared reading rules for one line: the size cap, lazy or full parsing
 * as the core asks, and events too deeply nested for the engine (RangeError)
 * counted as bad data. Reasons handed to `bad` are terminal-safe.
 */
export function readLine(file: string, line: Line, handler: LineHandler): void {
  if (line.oversizeBytes !== undefined) {
    handler.bad(oversizeReason(line.oversizeBytes, handler.maxLineBytes), Buffer.alloc(0));
    return;
  }
  const rec = new LineRecord(line.source, file, line.line, line.start, line.end);
  if (handler.type !== undefined) rec.knownType(handler.type);
  const { needsParse } = handler;
  try {
    if (needsParse === parseNothing) {
      if (!looksLikeObject(line.source, line.start, line.end)) rec.validate();
    } else if (needsParse === undefined || needsParse(rec.type)) {
      rec.validate();
    }
    handler.push(rec);
  } catch (caught) {
    // An event nested too deeply for the engine's recursion is bad data, not a crash.
    const message = caught instanceof RangeError ? `cannot process this event: ${caught.message}` : caught instanceof InvalidLineError ? caught.message : undefined;
    if (message === undefined) throw caught;
    handler.bad(escapeControls(message), rec.raw);
  }
}

/** A bad line's message as reported: a last line without newline says it was cut off. */
export function badLineMessage(line: Pick<Line, 'terminated' | 'oversizeBytes'>, reason: string): string {
  return line.terminated || line.oversizeBytes !== undefined ? reason : `last line cut off (no newline at end of input): ${reason}`;
}

/** How many bad lines in a row make an input "not a wuu stream". */
export const BAD_STREAK = 20;

/**
 * Reports bad lines on stderr, and stops listing them after {@link BAD_STREAK}
 * in a row: such an input is not a `wuu exec --json` stream, and a screen of
 * identical complaints helps nobody. The counts come at the end.
 */
export class BadLineLog {
  /** Bad lines seen (listed or not). */
  count = 0;
  private streak = 0;
  private unlisted = 0;
  private announced = false;

  constructor(private readonly warn: (message: string) => void) {}

  /** A good line ends a streak. */
  good(): void {
    this.streak = 0;
  }

  /** Reports one bad line (`message` already worded). */
  bad(file: string, line: number, message: string): void {
    this.count++;
    this.streak++;
    if (this.streak <= BAD_STREAK) {
      this.warn(`${file}:${line}: ${message}`);
      return;
    }
    this.unlisted++;
    if (!this.announced) {
      this.announced = true;
      this.warn(`${file}: this does not look like a 'wuu exec --json' stream (${BAD_STREAK} bad lines in a row); not listing further bad lines`);
    }
  }

  /** The closing count, when lines went unlisted. */
  summary(): string | undefined {
    return this.unlisted > 0 ? `${this.count} bad lines in all, ${this.unlisted} not listed` : undefined;
  }
}
