/**
 * JSONL framing: bytes to lines, lines to event records, records back to bytes.
 *
 * An event read from input keeps its original line bytes, so a transform that
 * leaves it unchanged writes it back byte for byte (Go's key order, its
 * `\u003c` escapes, numbers beyond 2^53 and invalid UTF-8 all survive).
 *
 * The line rules live here too, used by the runner, by `parse()`, and by
 * wuu-usage's workers and --merge: split → size cap → validate → a bad line's
 * reason, with one wording per message. A line that is blank, not JSON, not a
 * JSON object, has no string "type", is longer than --max-line-bytes, or is a
 * last line cut off without a newline is bad; every reason is made safe for a
 * terminal (V8's "Unexpected token" snippet quotes the data). What happens to
 * a bad line (warn, count, pass, stop) is the shell's bad-line policy,
 * lib/cli/policy.ts.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { isEvent, type WuuEvent } from './events.js';
import { looksLikeObject, topLevelString } from './scan.js';
import { isJsonEvent } from './validate.js';
import { escapeControls } from './text.js';

const NEWLINE = 0x0a;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * A `needsParse` for cores that never read event content (a type-only
 * filter): the runner then does not even read the type to decide.
 */
export const parseNothing = (_type: string): boolean => false;

/** Default cap on one line; a longer line is reported and dropped unread. */
export const DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024;

/**
 * One line of input, without its newline. The bytes are `source[start..end)`:
 * a line inside one input chunk is not copied (see {@link lineBytes}).
 */
export interface Line {
  source: Buffer;
  start: number;
  end: number;
  /** 1-based physical line number within its file. */
  line: number;
  /** False for a last line that ended without a newline. */
  terminated: boolean;
  /** Set when the line exceeded the cap: its length, its bytes were dropped. */
  oversizeBytes?: number;
}

/**
 * Receives a line over the cap piece by piece instead of losing it (see
 * {@link LineSplitter.streamOversize}): `start` when the cap is crossed, each
 * piece in order, `end` at its newline (or at the end of input). `end` may
 * return true to make {@link LineSplitter.push} stop right after this line, so
 * the caller can finish the line before the lines after it.
 */
export interface OversizeStream {
  start(line: number): void;
  piece(bytes: Buffer): void;
  end(totalBytes: number, terminated: boolean): boolean;
}

/** The bytes of a line (a view, not a copy). */
export function lineBytes(line: Line): Buffer {
  return line.start === 0 && line.end === line.source.length ? line.source : line.source.subarray(line.start, line.end);
}

const EMPTY = Buffer.alloc(0);

/** Most bytes a join buffer is given at once (see LineSplitter.join). */
const JOIN_RESERVE = 64 * 1024 * 1024;

/**
 * Splits a byte stream into lines, across arbitrary chunk boundaries, while
 * holding at most `maxLineBytes` of one unfinished line.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private dropping = false;
  private lineNo = 0;
  private atStart = true;
  /** Whether the first chunk began with a UTF-8 byte order mark (skipped). */
  sawBom = false;
  /** When set, lines over the cap are handed here piece by piece instead of dropped. */
  streamOversize: OversizeStream | undefined;
  /**
   * The per-line fast path: offered each newline-terminated line that lies
   * whole in one chunk, as its bytes, before any object is made for it; true
   * means the line is dealt with (the splitter only counts it).
   */
  fastLine: ((source: Buffer, start: number, end: number) => boolean) | undefined;
  /**
   * The same for a line held across chunks, before its pieces are joined:
   * offered its first piece and the last one (`tail[start..end)`, the bytes
   * in the chunk that ends it); true means the line is dealt with (dropped
   * for its type, read from its tail) and is never joined.
   */
  fastHeldLine: ((head: Buffer, tail: Buffer, start: number, end: number) => boolean) | undefined;
  /**
   * The fast path for a run of whole lines, before any of them is split:
   * offered `source[start..end)` (end just past a newline) when no line is
   * held; deals with as many leading lines as it can and returns the offset
   * past them, with their count in `lines` (the rest is split as usual).
   */
  fastLines: { take(source: Buffer, start: number, end: number): number; lines: number } | undefined;
  /**
   * Set by a caller whose chunks are never written to after they are handed
   * over (the runner's inputs: every read is a fresh buffer): the part of a
   * line held across chunks is then kept as views, not copies.
   */
  chunksAreFresh = false;
  /**
   * Set by a caller that reads every chunk into a buffer it uses again once
   * the chunk's lines are dealt with (the runner, for a core that keeps no
   * bytes): a line held across chunks is then copied into one join buffer,
   * kept for the next such line, which `reuse()` says whether nothing holds
   * it any more (else a new one is taken). No piece list and no join copy:
   * a long line costs one copy into memory that stays resident.
   */
  reuse: (() => boolean) | undefined;
  private joined: Buffer = EMPTY;
  /**
   * The other join buffer. Only a chunk's first line can be one held across
   * chunks, so each push hands out at most one joined line, which the caller
   * writes after the push: a held line that starts in the same push goes to
   * the other buffer, handed out in an earlier push (or never).
   */
  private spare: Buffer = EMPTY;
  private handedOut = false;

  constructor(private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES) {}

  /**
   * Feeds one chunk; calls `onLine` for each line completed by it. Returns the
   * number of bytes consumed: all of them, unless an oversize stream's `end`
   * asked to stop after its line (then feed the rest again).
   */
  push(chunk: Buffer, onLine: (line: Line) => void): number {
    let from = 0;
    this.handedOut = false;
    if (this.atStart && chunk.length > 0) {
      // A UTF-8 byte order mark before the first line is not part of the JSON.
      this.atStart = false;
      if (chunk.subarray(0, 3).equals(UTF8_BOM)) {
        from = 3;
        this.sawBom = true;
      }
    }
    const whole = this.fastLines === undefined ? 0 : chunk.lastIndexOf(NEWLINE) + 1;
    for (;;) {
      if (from < whole && this.pendingBytes === 0 && !this.dropping && this.fastLines !== undefined) {
        from = this.fastLines.take(chunk, from, whole);
        this.lineNo += this.fastLines.lines;
      }
      const newline = chunk.indexOf(NEWLINE, from);
      if (newline < 0) break;
      const pause = this.finishLine(chunk, from, newline, true, onLine);
      from = newline + 1;
      if (pause) return from;
    }
    if (from < chunk.length) this.hold(chunk.subarray(from));
    return chunk.length;
  }

  /** Signals end of input; emits a last line that had no newline. */
  end(onLine: (line: Line) => void): void {
    if (this.pendingBytes > 0 || this.dropping) this.finishLine(EMPTY, 0, 0, false, onLine);
  }

  private hold(piece: Buffer): void {
    const before = this.pendingBytes;
    this.pendingBytes += piece.length;
    if (this.dropping) {
      if (this.streaming) this.streamOversize?.piece(this.outliving(piece));
      return;
    }
    if (this.pendingBytes > this.maxLineBytes) {
      // Keep counting, stop holding: memory stays bounded whatever the line size.
      this.dropping = true;
      if (this.streamOversize) {
        this.streaming = true;
        this.streamOversize.start(this.lineNo + 1);
        for (const part of this.heldParts(before)) this.streamOversize.piece(part);
        this.streamOversize.piece(this.outliving(piece));
      }
      this.pending = [];
      return;
    }
    if (this.reuse !== undefined) this.join(piece, before);
    // Copy unless the caller vouches its chunks are never reused: a piece is
    // copied once more when the line is joined, and each copy is garbage.
    else this.pending.push(this.chunksAreFresh ? piece : Buffer.from(piece));
  }

  /**
   * A piece of a chunk that an oversize stream may keep past this push: the
   * piece itself when the caller's chunks are fresh (a copy of each piece of
   * a 64 MiB line doubled what the line cost while queued), else a copy.
   */
  private outliving(piece: Buffer): Buffer {
    return this.chunksAreFresh && this.reuse === undefined ? piece : Buffer.from(piece);
  }

  /** The `bytes` held so far of the unfinished line, as pieces that outlive the chunks and the join buffer. */
  private heldParts(bytes: number): Buffer[] {
    return this.reuse === undefined ? this.pending : bytes > 0 ? [Buffer.from(this.joined.subarray(0, bytes))] : [];
  }

  /** Copies `piece` into the join buffer at `at`, growing it (or taking a new one when the last is still held). */
  private join(piece: Buffer, at: number): void {
    if (at === 0 && this.handedOut) {
      const out = this.joined;
      this.joined = this.spare;
      this.spare = out;
      this.handedOut = false;
    }
    let joined = this.joined;
    if (at === 0 && joined.length > 0 && this.reuse?.() !== true) joined = EMPTY;
    const needed = at + piece.length;
    if (needed > joined.length) {
      // Room for a line up to the cap at once (up to 64 MiB; doubling past
      // that): the memory is not touched until written (pages come as a line
      // needs them), and a long line is never copied to grow its buffer.
      const grown = Buffer.allocUnsafeSlow(Math.max(needed, Math.min(this.maxLineBytes, JOIN_RESERVE), joined.length * 2));
      joined.copy(grown, 0, 0, at);
      joined = grown;
    }
    piece.copy(joined, at);
    this.joined = joined;
  }

  private streaming = false;

  private finishLine(chunk: Buffer, start: number, end: number, terminated: boolean, onLine: (line: Line) => void): boolean {
    this.lineNo++;
    const total = this.pendingBytes + (end - start);
    if (this.streamOversize && (this.streaming || total > this.maxLineBytes)) {
      const stream = this.streamOversize;
      if (!this.streaming) {
        stream.start(this.lineNo);
        for (const part of this.heldParts(this.pendingBytes)) stream.piece(part);
      }
      // A reused chunk is overwritten by the next read: the stream gets a copy.
      if (end > start) stream.piece(this.reuse === undefined ? chunk.subarray(start, end) : Buffer.from(chunk.subarray(start, end)));
      this.streaming = false;
      this.reset();
      return stream.end(total, terminated);
    }
    if (this.dropping || total > this.maxLineBytes) {
      this.reset();
      onLine({ source: EMPTY, start: 0, end: 0, line: this.lineNo, terminated, oversizeBytes: total });
      return false;
    }
    if (this.pendingBytes === 0) {
      if (terminated && this.fastLine !== undefined && this.fastLine(chunk, start, end)) return false;
      onLine({ source: chunk, start, end, line: this.lineNo, terminated });
      return false;
    }
    const head = this.reuse === undefined ? this.pending[0] : this.joined.subarray(0, this.pendingBytes);
    if (terminated && head !== undefined && this.fastHeldLine !== undefined && this.fastHeldLine(head, chunk, start, end)) {
      this.reset();
      return false;
    }
    let bytes: Buffer;
    if (this.reuse === undefined) {
      this.pending.push(chunk.subarray(start, end));
      bytes = Buffer.concat(this.pending, total);
    } else {
      this.join(chunk.subarray(start, end), this.pendingBytes);
      bytes = this.joined.subarray(0, total);
      this.handedOut = true;
    }
    this.reset();
    onLine({ source: bytes, start: 0, end: bytes.length, line: this.lineNo, terminated });
    return false;
  }

  private reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.dropping = false;
  }
}

/** An event with where it came from. */
export interface EventRecord {
  /** The event type; cheap to read. */
  readonly type: string;
  /** The parsed event. Do not mutate it: build a new record instead. */
  readonly event: WuuEvent;
  /** Original line bytes; absent for events built or changed by a transform. */
  readonly raw?: Buffer;
  /** Input name (`-` for stdin) and 1-based line, for messages. */
  readonly file: string;
  readonly line: number;
}

/** Why a line is not an event. */
export class InvalidLineError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly line: number,
    readonly raw: Buffer,
  ) {
    super(message);
    this.name = 'InvalidLineError';
  }
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** Parses one line's bytes into an event, or explains why it is not one. */
export function parseEventBytes(bytes: Buffer): { event: WuuEvent } | { error: string } {
  const text = bytes.toString('utf8');
  if (text.trim() === '') return { error: 'blank line' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const detail = err instanceof Error ? err.message.replace(/^JSON\.parse: /, '') : String(err);
    return { error: `not valid JSON (${truncateMessage(detail)})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { error: `not a JSON object (${describeValue(value)})` };
  }
  if (!isEvent(value)) {
    const type = (value as { type?: unknown }).type;
    return { error: type === undefined ? 'no "type" field' : `"type" is ${describeValue(type)}, not a string` };
  }
  return { event: value };
}

function truncateMessage(message: string): string {
  return message.length > 120 ? `${message.slice(0, 117)}...` : message;
}

/**
 * An event read from input. The type is read by a byte scan; the full parse
 * happens on first access to `event` (and `validate()` forces it up front).
 */
export class LineRecord implements EventRecord {
  private parsed: WuuEvent | undefined;
  private scannedType: string | undefined;
  private view: Buffer | undefined;

  /**
   * @param source a buffer holding the line (possibly among others)
   * @param start,end the line's bytes within `source`, newline excluded
   */
  constructor(
    readonly source: Buffer,
    readonly file: string,
    readonly line: number,
    readonly start = 0,
    readonly end = source.length,
  ) {}

  /** The original line bytes (a view into `source`). */
  get raw(): Buffer {
    if (this.view === undefined) {
      this.view = this.start === 0 && this.end === this.source.length ? this.source : this.source.subarray(this.start, this.end);
    }
    return this.view;
  }

  /** Sets the type already read from the line's bytes (the runner's sniff), sparing a second scan. */
  knownType(type: string): this {
    this.scannedType = type;
    return this;
  }

  get type(): string {
    if (this.parsed) return this.parsed.type;
    if (this.scannedType === undefined) {
      this.scannedType = topLevelString(this.source, 'type', this.start, this.end);
      if (this.scannedType === undefined) return this.event.type;
    }
    return this.scannedType;
  }

  get event(): WuuEvent {
    if (this.parsed === undefined) this.validate();
    return this.parsed as WuuEvent;
  }

  /** Parses now; throws {@link InvalidLineError} when the line is not an event. */
  validate(): this {
    if (this.parsed !== undefined) return this;
    const result = parseEventBytes(this.raw);
    if ('error' in result) throw new InvalidLineError(result.error, this.file, this.line, this.raw);
    this.parsed = result.event;
    return this;
  }
}

/** A record for an event built or changed by a transform (serialized afresh). */
export function makeRecord(event: WuuEvent, from?: { file: string; line: number }): EventRecord {
  return { type: event.type, event, file: from?.file ?? '-', line: from?.line ?? 0 };
}

/** What a transform may emit: an event record, or literal text (already newline-terminated). */
export type Output = EventRecord | string;

/** One output item as bytes or text: original bytes when the event is unchanged. */
export function serialize(item: Output): Buffer | string {
  if (typeof item === 'string') return item;
  if (item.raw !== undefined) return item.raw;
  return JSON.stringify(item.event);
}

/** Like {@link serialize} but always newline-terminated, for stream writers. */
export function serializeLine(item: Output): Buffer | string {
  if (typeof item === 'string') return item;
  if (item.raw !== undefined) return Buffer.concat([item.raw, NEWLINE_BUFFER]);
  return `${JSON.stringify(item.event)}\n`;
}

const NEWLINE_BUFFER = Buffer.from('\n');

/**
 * Collects the output of one input chunk as bytes. Unchanged input lines that
 * sit next to each other in the same chunk are written as one span of the
 * chunk (newlines included), so passing events through costs no per-line copy.
 */
export class OutputBatch {
  private parts: Buffer[] = [];
  private spanSource: Buffer | undefined;
  private spanStart = 0;
  private spanEnd = 0;
  private bare: Buffer | undefined;

  /**
   * Marks `source` as holding a last line that had no newline: a span that
   * ends with it is written without one (byte-exact pass-through).
   */
  markUnterminated(source: Buffer): void {
    this.bare = source;
  }

  /** Adds bytes exactly as given (no newline added). */
  addRaw(bytes: Buffer): void {
    this.closeSpan();
    if (bytes.length > 0) this.parts.push(bytes);
  }

  /**
   * Adds an input line as it came: `source[start..end)`, newline excluded.
   * Lines next to each other in one chunk join into one span of it.
   */
  addLine(source: Buffer, start: number, end: number): void {
    if (source === this.spanSource && start === this.spanEnd + 1 && source[this.spanEnd] === NEWLINE) {
      this.spanEnd = end;
      return;
    }
    this.closeSpan();
    this.spanSource = source;
    this.spanStart = start;
    this.spanEnd = end;
  }

  /** Adds one output item. */
  add(out: Output): void {
    if (out instanceof LineRecord) {
      this.addLine(out.source, out.start, out.end);
      return;
    }
    this.closeSpan();
    if (typeof out === 'string') {
      if (out.length > 0) this.parts.push(Buffer.from(out));
    } else if (out.raw !== undefined) {
      this.parts.push(out.raw, NEWLINE_BUFFER);
    } else {
      this.parts.push(Buffer.from(`${JSON.stringify(out.event)}\n`));
    }
  }

  /** Adds raw bytes as one line (newline appended unless `newline` is false). */
  addBytes(bytes: Buffer, newline = true): void {
    this.closeSpan();
    this.parts.push(bytes);
    if (newline) this.parts.push(NEWLINE_BUFFER);
  }

  /** Everything added since the last call, as the pieces it is made of (views, not copies). */
  takeParts(): Buffer[] {
    this.closeSpan();
    const parts = this.parts;
    if (parts.length > 0) this.parts = [];
    return parts;
  }

  private closeSpan(): void {
    const source = this.spanSource;
    if (source === undefined) return;
    this.spanSource = undefined;
    if (this.spanEnd < source.length && source[this.spanEnd] === NEWLINE) {
      this.parts.push(source.subarray(this.spanStart, this.spanEnd + 1));
    } else if (source === this.bare && this.spanEnd === source.length) {
      this.parts.push(source.subarray(this.spanStart, this.spanEnd));
    } else {
      this.parts.push(source.subarray(this.spanStart, this.spanEnd), NEWLINE_BUFFER);
    }
  }
}

/** What {@link readLine} does with a line. */
export interface LineHandler {
  maxLineBytes: number;
  /** The core's choice of lines to parse (undefined: all; parseNothing: none). */
  /**
   * Lines `needsParse` turns down are still proven valid at byte level (and
   * parsed only when that fails, for the message): for a core that writes
   * such lines through as they came (wuu-accumulate, wuu-turns, wuu-redact).
   */
  validateUnread?: boolean;
  /**
   * With `validateUnread`: the core's own proof of such a line, made while it
   * reads it (Core.proves), in place of the byte validator; false means
   * "parse it" (a bad line is then reported as ever).
   */
  prove?: (rec: LineRecord) => boolean;
  needsParse?: (type: string) => boolean;
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
    } else if (handler.validateUnread === true && !(handler.prove !== undefined ? handler.prove(rec) : isJsonEvent(line.source, line.start, line.end))) {
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

/** Accepts an EventRecord or a bare event object, as a stream consumer may write either. */
export function toRecord(chunk: unknown): EventRecord {
  if (chunk instanceof LineRecord) return chunk;
  if (typeof chunk === 'object' && chunk !== null && 'event' in chunk && isEvent((chunk as EventRecord).event)) {
    return chunk as EventRecord;
  }
  if (isEvent(chunk)) return makeRecord(chunk as WuuEvent);
  throw new TypeError('expected an event object with a string "type"');
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
 * an {@link InvalidLineError} (worded as the binaries word it); with `strict`
 * it fails the stream instead.
 */
export function parse(options: ParseOptions = {}): Transform {
  const file = options.file ?? '-';
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const splitter = new LineSplitter(maxLineBytes);
  const handle = (stream: Transform) => (line: Line) => {
    readLine(file, line, {
      maxLineBytes,
      // A copy: the caller may reuse its chunk buffers, and consumers may keep records.
      push: (rec) => stream.push(new LineRecord(Buffer.from(rec.raw), file, line.line).validate()),
      bad: (reason, raw) => {
        const err = new InvalidLineError(reason, file, line.line, Buffer.from(raw));
        if (options.strict) throw err;
        stream.emit('invalid', err);
      },
    });
  };
  return new Transform({
    readableObjectMode: true,
    writableObjectMode: false,
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      try {
        splitter.push(chunk, handle(this));
        done();
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done: TransformCallback) {
      try {
        splitter.end(handle(this));
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  });
}

/** Records, plain events or text back to JSONL bytes (unchanged events byte for byte). */
export function stringify(): Transform {
  return new Transform({
    writableObjectMode: true,
    readableObjectMode: false,
    transform(chunk: unknown, _encoding, done: TransformCallback) {
      try {
        done(null, serializeLine(typeof chunk === 'string' ? chunk : toRecord(chunk)));
      } catch (err) {
        done(err as Error);
      }
    },
  });
}
