/**
 * The input loop of a run: the inputs in order (directories expanded, gzip,
 * stdin, --follow), each read chunk by chunk until it ends, the run stops or
 * the output closes; an input that cannot be read is reported after what
 * could be read of it was processed.
 */
import type { Readable } from 'node:stream';
import { followFile } from './follow.js';
import { FollowSession } from './follow-session.js';
import { abandonRaw, describeInputError, displayName, inputBytes, listInputs, openFileChunks, openRaw, type ReadBuffers } from './inputs.js';
import type { RunState } from './run-state.js';
import type { OutputSink } from './sink.js';

/** What the loop needs from its run. */
export interface InputLoopContext {
  state: RunState;
  sink: OutputSink;
  stdin: Readable;
  warn(message: string): void;
  /** Aborted by a signal. */
  interrupted: AbortSignal;
  follow: boolean;
  graceMs: number;
}

/** Reads `names` (stdin when none); false when the run was stopped. */
export type ReadInputs = (
  names: string[],
  onChunk: (chunk: Buffer, file: string) => void | Promise<void>,
  onStart?: (file: string) => void,
  onEnd?: (file: string, damage: string | undefined) => void | Promise<void>,
  /** A followed file is missing (not there yet, or gone for a while): the core may say it waits. */
  onWaiting?: (file: string) => Promise<void>,
) => Promise<boolean>;

/** The input loop, and the follow session of the input being read (for its lines). */
export interface InputLoop {
  read: ReadInputs;
  /** Defined while a followed input is being read. */
  readonly session: FollowSession | undefined;
  /**
   * Set by a driver whose chunks are dealt with before the next is asked for
   * (nothing keeps a view of them): regular files are then read into these
   * buffers, used again, instead of a fresh buffer per read. Not in follow mode.
   */
  buffers: ReadBuffers | undefined;
}

/**
 * The next chunk, or 'stop' when `stop` aborts first. Not Promise.race with
 * one long-lived "stopped" promise: every race leaves a reaction on it that
 * holds its chunk, so a long input would stay in memory to its end.
 */
function nextOrStop(it: AsyncIterator<Buffer>, stop: AbortSignal): Promise<IteratorResult<Buffer> | 'stop'> {
  if (stop.aborted) return Promise.resolve('stop');
  return new Promise((resolve, reject) => {
    const onStop = () => resolve('stop');
    stop.addEventListener('abort', onStop, { once: true });
    it.next().then(
      (result) => {
        stop.removeEventListener('abort', onStop);
        resolve(result);
      },
      (err: unknown) => {
        stop.removeEventListener('abort', onStop);
        reject(err as Error);
      },
    );
  });
}

export function inputLoop(ctx: InputLoopContext): InputLoop {
  const { state, sink, warn } = ctx;
  let session: FollowSession | undefined;
  let buffers: ReadBuffers | undefined;

  /** Reads one input to its end; the damage when it broke off. */
  const readOne = async (name: string, file: string, onChunk: Parameters<ReadInputs>[1], onWaiting?: Parameters<ReadInputs>[4]): Promise<{ opened: boolean; damage?: string }> => {
    const stop = new AbortController();
    const onInterrupt = () => stop.abort();
    ctx.interrupted.addEventListener('abort', onInterrupt);
    session = ctx.follow ? new FollowSession(stop, ctx.graceMs) : undefined;
    const chunks = ctx.follow || buffers === undefined ? undefined : openFileChunks(name, ctx.stdin, buffers);
    const raw = chunks !== undefined || (ctx.follow && name !== '-') ? undefined : openRaw(name, ctx.stdin);
    raw?.on('error', () => {}); // surfaced through the iterator
    const source: AsyncIterable<Buffer> = chunks ?? raw ?? followFile(name, stop.signal, onWaiting && (() => onWaiting(file)));
    const it = inputBytes(source, chunks !== undefined)[Symbol.asyncIterator]();
    let opened = false;
    try {
      for (;;) {
        const next = await nextOrStop(it, stop.signal);
        if (next === 'stop' || next.done) break;
        opened = true;
        await onChunk(next.value, file);
        if (state.stopped || sink.closed) break;
      }
      return { opened };
    } catch (err) {
      if (state.signal === undefined && !sink.closed) return { opened, damage: describeInputError(err as NodeJS.ErrnoException) };
      return { opened };
    } finally {
      session?.close();
      session = undefined;
      ctx.interrupted.removeEventListener('abort', onInterrupt);
      stop.abort();
      if (raw !== undefined && name !== '-') abandonRaw(raw, name);
      // A pipe that stays open (`tail -f run.jsonl | wuu-result -f`) would keep
      // the process alive after follow mode ended the input: let go of it.
      else if (raw !== undefined && ctx.follow && !raw.readableEnded) raw.destroy();
      void it.return?.(undefined).catch(() => undefined);
    }
  };

  const read: ReadInputs = async (names, onChunk, onStart, onEnd, onWaiting) => {
    const entries = (names.length === 0 ? ['-'] : names).flatMap(listInputs);
    for (const entry of entries) {
      if (state.stopped || sink.closed) break;
      const file = displayName(entry.name);
      if (entry.error !== undefined) {
        warn(`${file}: ${entry.error}`);
        state.unreadable++;
        continue;
      }
      if (entry.name === '-' && ctx.stdin === process.stdin && process.stdin.isTTY) {
        warn("reading a 'wuu exec --json' stream from the terminal (Ctrl-D ends it); name a FILE or pipe one in");
      }
      onStart?.(file);
      const { opened, damage } = await readOne(entry.name, file, onChunk, onWaiting);
      // An input that failed before giving a byte was never opened: no end-of-file handling.
      const read = opened || damage === undefined;
      if (read && onEnd && !sink.closed && !(state.stopped && state.signal === undefined)) await onEnd(file, damage);
      if (damage !== undefined) {
        // Reported after what could be read was processed (a cut .gz still gives its lines).
        warn(`${file}: ${damage}`);
        state.unreadable++;
      }
    }
    return !state.stopped;
  };

  return {
    read,
    get session() {
      return session;
    },
    get buffers() {
      return buffers;
    },
    set buffers(value) {
      buffers = value;
    },
  };
}
