/**
 * The contract between a transform and its shells.
 *
 * Each tool's logic is a {@link Core}: a pure, synchronous per-event function
 * with its state in a closure. The same core runs inside the object-mode
 * stream returned by {@link coreStream} (for programmatic use) and directly
 * inside the command-line runner (which skips the per-object stream overhead).
 */
import through2 from 'through2';
import type { Transform } from 'node:stream';

const EMPTY = Buffer.alloc(0);

type Done = (err?: Error | null, data?: unknown) => void;
import { isEvent, type WuuEvent } from './events.js';
import {
  DEFAULT_MAX_LINE_BYTES,
  InvalidLineError,
  LineRecord,
  LineSplitter,
  lineBytes,
  makeRecord,
  type Line,
  serializeLine,
  type EventRecord,
  type Output,
} from './jsonl.js';

/** A line that is not an event, as handed to {@link Core.badLine}. */
export interface BadLine {
  /** Input name, as in records. */
  file: string;
  /** 1-based line number. */
  line: number;
  /** Why it is not an event (`not valid JSON (...)`, `blank line`, ...). */
  message: string;
  /** False for a last line that ended without a newline (a cut stream). */
  terminated: boolean;
  /** The line's bytes (empty for a line over the size cap). */
  raw: Buffer;
}

/** Receives what a core produces. */
export type Emit = (out: Output) => void;

/** A transform's logic: one event in, zero or more outputs out. */
export interface Core {
  /**
   * Handles one event. `rec.raw` may be a view into a large shared input
   * chunk: copy it (Buffer.from) if it must outlive this call.
   */
  push(rec: EventRecord, emit: Emit): void;
  /** End of one input file (several files may be given). */
  endFile?(file: string, emit: Emit): void;
  /** End of all input: flush whatever is still open. */
  end?(emit: Emit): void;
  /**
   * Which event types this core reads the content of. Lines of other types may
   * reach `push` unparsed (their `event` parses on access). Default: all.
   */
  needsParse?(type: string): boolean;
  /** A bad line, under the pass-invalid policy. Default: copied through as is. */
  invalid?(raw: Buffer, emit: Emit, where?: { file: string; line: number }): void;
  /**
   * Every bad line, whatever the policy, for a core that reports bad lines
   * itself (a validator). When defined, the runner hands each bad line here
   * instead of warning, counting or copying it; `--strict` still stops after it.
   */
  badLine?(bad: BadLine, emit: Emit): void;
  /** Exit status owed at the end (for example a failed check); 0 when fine. */
  status?(): number;
  /**
   * A line longer than --max-line-bytes, handed over as a stream of its bytes
   * (in order, each piece once) instead of being dropped. Outputs go to `emit`
   * as they come; `end` resolves to an error message when the line was bad.
   */
  oversize?(where: { file: string; line: number }, emit: Emit): OversizeLine;
}

/** One oversize line being streamed through {@link Core.oversize}. */
export interface OversizeLine {
  write(piece: Buffer): Promise<void>;
  end(): Promise<string | undefined>;
}

/**
 * A `needsParse` for cores that never read event content (a type-only
 * filter): the runner then does not even read the type to decide.
 */
export const parseNothing = (_type: string): boolean => false;

/** Accepts an EventRecord or a bare event object, as a stream consumer may write either. */
function toRecord(chunk: unknown): EventRecord {
  if (chunk instanceof LineRecord) return chunk;
  if (typeof chunk === 'object' && chunk !== null && 'event' in chunk && isEvent((chunk as EventRecord).event)) {
    return chunk as EventRecord;
  }
  if (isEvent(chunk)) return makeRecord(chunk as WuuEvent);
  throw new TypeError('expected an event object with a string "type"');
}

/**
 * Wraps a core in an object-mode Transform: write events (records or plain
 * objects), read records and text. Backpressure is the stream's own.
 */
export function coreStream(core: Core): Transform {
  return through2.obj(
    function transform(this: Transform, chunk: unknown, _encoding: BufferEncoding, done: Done) {
      try {
        core.push(toRecord(chunk), (out) => this.push(out));
        done();
      } catch (err) {
        done(err as Error);
      }
    },
    function flush(this: Transform, done: Done) {
      try {
        core.endFile?.('-', (out) => this.push(out));
        core.end?.((out) => this.push(out));
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  );
}

/** Options of {@link parse}. */
export interface ParseOptions {
  /** Name used in records and messages. Default `-`. */
  file?: string;
  /** Longest accepted line. Default 32 MiB. */
  maxLineBytes?: number;
  /** Fail the stream on the first bad line instead of skipping it. */
  strict?: boolean;
}

/**
 * Bytes to event records. Each record keeps its original bytes and line
 * number. A bad line is skipped and announced as an `invalid` event carrying
 * an {@link InvalidLineError}; with `strict` it fails the stream instead.
 */
export function parse(options: ParseOptions = {}): Transform {
  const file = options.file ?? '-';
  const splitter = new LineSplitter(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
  let stream: Transform;
  const handle = (line: Line) => {
    if (line.oversizeBytes !== undefined) {
      throw new InvalidLineError(`line of ${line.oversizeBytes} bytes exceeds the maximum line size`, file, line.line, EMPTY);
    }
    // A copy: the caller may reuse its chunk buffers, and consumers may keep records.
    stream.push(new LineRecord(Buffer.from(lineBytes(line)), file, line.line).validate());
  };
  const guarded = (line: Line) => {
    try {
      handle(line);
    } catch (err) {
      if (!(err instanceof InvalidLineError) || options.strict) throw err;
      stream.emit('invalid', err);
    }
  };
  stream = through2(
    { readableObjectMode: true, writableObjectMode: false },
    function transform(this: Transform, chunk: Buffer, _encoding: BufferEncoding, done: Done) {
      try {
        splitter.push(chunk, guarded);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
    function flush(this: Transform, done: Done) {
      try {
        splitter.end(guarded);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  );
  return stream;
}

/** Records, plain events or text back to JSONL bytes (unchanged events byte for byte). */
export function stringify(): Transform {
  return through2(
    { writableObjectMode: true, readableObjectMode: false },
    function transform(this: Transform, chunk: unknown, _encoding: BufferEncoding, done: Done) {
      try {
        done(null, serializeLine(typeof chunk === 'string' ? chunk : toRecord(chunk)));
      } catch (err) {
        done(err as Error);
      }
    },
  );
}
