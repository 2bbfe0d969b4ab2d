/**
 * wuu-result: print a run's final message and exit with a status that mirrors
 * the run, so `wuu exec --json ... | tee run.jsonl | wuu-result` can be the
 * step that fails a CI build.
 *
 * Each input file is one run (a killed producer in one file must not be hidden
 * by a good run in the next). Messages are printed per file, in order; the
 * first run that did not complete decides the exit status.
 */
import type { Transform } from 'node:stream';
import { coreStream, type Core, type Emit } from '../core.js';
import type { ResultEvent } from '../events.js';
import { escapeControls } from '../text.js';

/**
 * Exit statuses of wuu-result, beyond the shared ones (0 ok, 1 bad data,
 * 2 usage). Chosen not to clash with those.
 */
export const RESULT_EXIT = Object.freeze({
  COMPLETED: 0,
  FAILED: 3,
  PERMISSION_DENIED: 4,
  TIMEOUT: 5,
  INTERRUPTED: 6,
  /** The stream ended with no `result` event: the producer was killed or the stream was cut. */
  NO_RESULT: 7,
  /** `result.status` is missing or not one the wire format names. */
  UNKNOWN_STATUS: 8,
  /** `--structured` on a completed run whose result has no `structured_result`. */
  NO_STRUCTURED: 9,
});

const STATUS_CODES: ReadonlyMap<string, number> = new Map([
  ['completed', RESULT_EXIT.COMPLETED],
  ['failed', RESULT_EXIT.FAILED],
  ['permission_denied', RESULT_EXIT.PERMISSION_DENIED],
  ['timeout', RESULT_EXIT.TIMEOUT],
  ['interrupted', RESULT_EXIT.INTERRUPTED],
]);

/** The exit status for a `result.status` value (8 for anything unknown). */
export function exitCodeForStatus(status: unknown): number {
  return typeof status === 'string' ? (STATUS_CODES.get(status) ?? RESULT_EXIT.UNKNOWN_STATUS) : RESULT_EXIT.UNKNOWN_STATUS;
}

/** What wuu-result prints for each run. */
export type ResultMode = 'message' | 'structured' | 'json';

/** Options of {@link createResult}. */
export interface ResultOptions {
  /** `message` (default): final_message and a newline; `structured`: structured_result as JSON; `json`: the result event. */
  mode?: ResultMode;
  /** Pass every event through unchanged, as it arrives (the output then goes to `write`, or nowhere). */
  tee?: boolean;
  /** Where the output goes instead of the stream (wuu-result --output FILE). */
  write?: (data: string | Buffer) => void;
  /**
   * Whether writing the output through `write` failed (a full disk): the
   * status is then 1, bad data, whatever the result said, since the answer
   * the caller asked for was not delivered.
   */
  writeFailed?: () => boolean;
  /** Diagnostics (status, errors, no result); the binary sends them to stderr, escaped. Default: dropped. */
  warn?: (message: string) => void;
  /**
   * Whether this tool itself was interrupted (SIGINT/SIGTERM): a run whose
   * input stopped early is then reported as not read to its end, never as
   * a killed producer.
   */
  interrupted?: () => boolean;
}

/** One input file's state: the last result and where the stream is. */
interface RunState {
  file: string | undefined;
  result: { event: ResultEvent & Record<string, unknown>; raw: Buffer | undefined } | undefined;
  seen: boolean;
}

/**
 * The core of wuu-result. Only `result` and `error` events are parsed; with
 * `tee` every other event is passed on as its original bytes without a parse.
 */
export function createResult(options: ResultOptions = {}): Core {
  const mode = options.mode ?? 'message';
  const sink = options.warn ?? (() => {});
  // File names, statuses and errors come from the data: safe for a terminal here, once.
  const warn = (message: string) => sink(escapeControls(message));
  let run: RunState = { file: undefined, result: undefined, seen: false };
  let status = 0;

  const out = (data: string | Buffer, emit: Emit) => {
    if (options.write) options.write(data);
    else if (!options.tee) emit(typeof data === 'string' ? data : data.toString('utf8'));
  };

  /** Ends one run: prints its output, reports what went wrong, records the status. */
  const finish = (file: string, emit: Emit) => {
    const name = run.file ?? file;
    const rec = run.result;
    const seen = run.seen;
    run = { file: undefined, result: undefined, seen: false };
    let code: number;
    if (rec === undefined) {
      if (options.interrupted?.()) warn(`${name}: interrupted before the end of the input: no result read`);
      else if (!seen) warn(`${name}: no events (empty input): no result`);
      else warn(`${name}: no result event: the producer was killed or the stream was cut`);
      code = RESULT_EXIT.NO_RESULT;
    } else {
      const event = rec.event;
      code = exitCodeForStatus(event.status);
      const error = typeof event.error === 'string' && event.error !== '' ? `: ${event.error}` : '';
      if (code === RESULT_EXIT.UNKNOWN_STATUS) {
        const shown = typeof event.status === 'string' ? `'${event.status}'` : event.status === undefined ? '(none)' : JSON.stringify(event.status);
        warn(`${name}: unknown status ${shown}${error}`);
      } else if (code !== RESULT_EXIT.COMPLETED) {
        warn(`${name}: status ${String(event.status)}${error}`);
      }
      if (mode === 'json') {
        out(rec.raw !== undefined ? Buffer.concat([rec.raw, NEWLINE]) : `${JSON.stringify(event)}\n`, emit);
      } else if (mode === 'structured') {
        if (Object.hasOwn(event, 'structured_result')) {
          out(`${JSON.stringify(event.structured_result)}\n`, emit);
        } else if (code === RESULT_EXIT.COMPLETED) {
          warn(`${name}: the result has no structured_result (was the run started with --output-schema?)`);
          code = RESULT_EXIT.NO_STRUCTURED;
        }
      } else {
        out(`${typeof event.final_message === 'string' ? event.final_message : ''}\n`, emit);
      }
    }
    if (status === 0) status = code;
  };

  return {
    needsParse: (type) => type === 'result' || type === 'error',
    // A bad line is still data: a stream cut inside its first line is a killed
    // producer, not an empty input. The policy goes on as usual.
    seeBadLine(bad) {
      run.file ??= bad.file;
      run.seen = true;
      return false;
    },
    push(rec, emit) {
      run.file ??= rec.file;
      run.seen = true;
      if (options.tee) emit(rec);
      if (rec.type === 'result') {
        // A real stream has one; should there be more, the last one stands.
        // The raw bytes may be a view into a reused input chunk: keep a copy.
        run.result = { event: rec.event as ResultEvent & Record<string, unknown>, raw: rec.raw && Buffer.from(rec.raw) };
      } else if (rec.type === 'error') {
        // Schema validation disagreed with the server: worth saying, but the result decides.
        const error = (rec.event as { error?: unknown }).error;
        warn(`${rec.file}:${rec.line}: error event: ${typeof error === 'string' ? error : JSON.stringify(error)}`);
      }
    },
    endFile(file, emit) {
      finish(file, emit);
    },
    end(emit) {
      // Output stopped early (a closed pipe under --tee) and the file never ended: still no result.
      if (run.seen) finish(run.file ?? '-', emit);
    },
    status: () => (options.writeFailed?.() === true ? WRITE_FAILED : status),
  };
}

const NEWLINE = Buffer.from('\n');
/** The status of a run whose output could not be written: the shared "bad data" status. */
const WRITE_FAILED = 1;

/** Object-mode stream version of {@link createResult}; its exit status is lost, use the core for it. */
export function result(options: ResultOptions = {}): Transform {
  return coreStream(createResult(options));
}
