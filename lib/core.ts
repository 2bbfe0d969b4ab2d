/**
 * The contract between a transform and its shells.
 *
 * Each tool's logic is a {@link Core}: a pure, synchronous per-event function
 * with its state in a closure. The same core runs inside the object-mode
 * stream returned by {@link coreStream} (for programmatic use) and directly
 * inside the command-line runner (which skips the per-object stream overhead).
 *
 * The streams here are plain `node:stream` Transforms built directly (no
 * through2/readable-stream), so their type is what it says and the binaries,
 * which import this module for the Core contract, load nothing extra.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { toRecord, type EventRecord, type LineRecord, type Output } from './jsonl.js';

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

/** Where an oversize line sits, for {@link Core.oversize}. */
export interface OversizeLine {
  file: string;
  line: number;
}

/** What {@link Core.passLines} is given and reports. */
export interface LineRun {
  /** The longest line it may take (--max-line-bytes); a longer one goes the per-line way. */
  readonly maxLineBytes: number;
  /** Set by the core: how many lines it took. */
  lines: number;
  /** Writes `source[start, end)` (whole lines, the last newline excluded) through as it is. */
  write(source: Buffer, start: number, end: number): void;
}

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
  /**
   * Which event types this core does anything with. The runner reads each
   * line's type from its bytes and drops a line of an unwanted type before
   * making anything of it (no record, no parse, no validation: it costs the
   * newline search and the type sniff); lines whose type cannot be sniffed
   * still reach `push`. A pure function of the type. Default: every type.
   * Not used under --strict, which checks every line.
   */
  wants?(type: string): boolean;
  /**
   * Which lines the core writes through as they came and does nothing else
   * with (a filter's kept lines): for such a line `push` would only emit the
   * record unchanged once the line is proven a valid event. The runner then
   * proves it at byte level and writes its bytes itself, with no record and
   * no call to `push`; a line it cannot prove goes to `push` as usual.
   * `true`: every line (the type is not even read); a function: lines of the
   * types it returns true for (a pure function of the type, asked only for
   * types `wants` accepts). Not used under --strict, --pass-invalid or
   * --follow, which read every line the general way. Default: none.
   */
  copies?: true | ((type: string) => boolean);
  /**
   * True for a core that keeps nothing of a record past `push` (neither the
   * record nor a view of its bytes; whatever it emits is written before the
   * next read) and has no `oversize`, `badLine`, `seeBadLine` or `invalid`
   * hook: the runner may then read regular files into one buffer used again
   * for every read, and join lines held across reads in another, instead of
   * a fresh buffer each time (peak memory on long lines). Default: false.
   */
  keepsNoBytes?: boolean;
  /** A bad line, under the pass-invalid policy. Default: copied through as is. */
  invalid?(raw: Buffer, emit: Emit, where?: { file: string; line: number }): void;
  /**
   * Every bad line, whatever the policy, for a core that reports bad lines
   * itself (a validator). When defined, the runner hands each bad line here
   * instead of warning, counting or copying it; `--strict` still stops after it.
   */
  badLine?(bad: BadLine, emit: Emit): void;
  /**
   * Sees each bad line before the bad-line policy does (wuu-import recognises
   * a format from lines that are not events: session files, plain text).
   * Return true to take the line off the policy's hands: it is then not
   * reported, counted or copied (the core has said why itself).
   */
  seeBadLine?(bad: BadLine, emit: Emit): boolean;
  /**
   * True for a core that writes lines it does not read (`needsParse` false)
   * through as their original bytes: the runner then proves each such line
   * valid at byte level first, so an invalid line is reported and skipped
   * under the bad-line policy rather than copied through unreported.
   */
  passesThrough?: boolean;
  /**
   * For a core that `passesThrough` and reads lines from their bytes: proves
   * a line a valid event in the same pass that reads it, so the runner does
   * not validate the line first and the core then read the same bytes again.
   * Called by the runner for each line it would otherwise prove at byte level
   * (a line `needsParse` turns down; never under --strict, which parses every
   * line), right before `push` and before the line counts as good. True: the
   * line is exactly what JSON.parse accepts as an event (one object, with a
   * string `type`: the type `rec.type` gives), and what was read of it is
   * kept for the `push` that follows. False: not proven (invalid, or a shape
   * the core does not read from bytes); the runner then parses the line, so
   * a bad line goes to the bad-line policy (lib/cli/policy.ts) worded and
   * counted exactly as without this hook, and a good one reaches `push`
   * parsed. It must not emit or change the core's state beyond that read.
   * Default: the runner proves the line itself (lib/validate.ts).
   */
  proves?(rec: LineRecord): boolean;
  /**
   * For a core that `passesThrough`: a run of whole lines dealt with in one
   * call, before the runner splits them (no record, no `push` per line).
   * Offered `source[start, end)` (`end` just past a newline, no line held
   * across chunks), it takes the leading lines it can, each proven a valid
   * event of at most `run.maxLineBytes` bytes whose `push` would only have
   * written it through unchanged (or, under a mode that writes nothing,
   * nothing), calls `run.write` for the bytes it writes through (a span of
   * `source`, newline excluded), sets `run.lines` to the number taken and
   * returns the offset past them. The first line it does not take goes the
   * per-line way. Never asked under --strict, --pass-invalid or --follow.
   */
  passLines?(source: Buffer, start: number, end: number, run: LineRun): number;
  /**
   * Whether an input line of this type ends a run besides `result` (follow
   * mode then stops after its grace): wuu-import on Codex, whose last line is
   * `turn.completed` or `turn.failed`.
   */
  endsRun?(type: string): boolean;
  /** Exit status owed at the end (for example a failed check); 0 when fine. */
  status?(): number;
  /**
   * Follow mode: the named input does not exist yet and the runner waits for
   * it (called once each time it goes missing). A view can say so instead of
   * showing nothing.
   */
  waiting?(file: string, emit: Emit): void;
  /**
   * A line longer than --max-line-bytes, offered to the core before it is
   * dropped (wuu-redact streams such a line through a streaming JSON parser).
   * Return undefined to decline: the line is reported and dropped as usual.
   * Otherwise the runner hands the line's bytes (newline excluded) through
   * `source` piece by piece as they are read, with backpressure (memory stays
   * bounded), writes whatever the core emits as it comes, and waits for the
   * promise before the next line. The core emits the line's replacement
   * itself, newline included. A rejection with an Error reports the line as
   * bad (`FILE:LINE: message`) and counts it.
   */
  oversize?(source: AsyncIterable<Buffer>, where: OversizeLine, emit: Emit): Promise<void> | undefined;
}

/**
 * Wraps a core in an object-mode Transform: write events (records or plain
 * objects), read records and text. Backpressure is the stream's own.
 */
export function coreStream(core: Core): Transform {
  return new Transform({
    objectMode: true,
    transform(chunk: unknown, _encoding, done: TransformCallback) {
      try {
        core.push(toRecord(chunk), (out) => this.push(out));
        done();
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done: TransformCallback) {
      try {
        core.endFile?.('-', (out) => this.push(out));
        core.end?.((out) => this.push(out));
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  });
}
