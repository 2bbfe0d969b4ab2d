/**
 * The runner's side of {@link Core.oversize}: a line over --max-line-bytes is
 * offered to the core, and if it takes it, the line's bytes flow to it piece
 * by piece as they are read. Memory stays bounded: the runner reads no further
 * until the core has consumed what it was given.
 */
import type { Core, Emit } from '../core.js';
import type { OversizeStream } from '../jsonl.js';

interface Current {
  line: number;
  queue: Buffer[];
  ended: boolean;
  total: number;
  terminated: boolean;
  promise: Promise<void> | undefined;
  settled: boolean;
  failure: string | undefined;
  wakeReader: (() => void) | undefined;
  wakeRunner: (() => void) | undefined;
}

/** Reports a line the core declined or failed on. */
export type ReportOversize = (line: number, bytes: number, terminated: boolean, reason?: string) => void;

/** Connects a LineSplitter's oversize pieces to a core's hook. */
export function oversizeStreamer(
  hook: NonNullable<Core['oversize']>,
  fileOf: () => string,
  emit: Emit,
  flush: () => Promise<void>,
): { lines: OversizeStream; settle(report: ReportOversize): Promise<void> } {
  let current: Current | undefined;

  const wake = (which: 'wakeReader' | 'wakeRunner') => {
    if (!current) return;
    const fn = current[which];
    current[which] = undefined;
    fn?.();
  };

  const source = (c: Current): AsyncIterable<Buffer> => ({
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const piece = c.queue.shift();
        if (piece !== undefined) {
          if (c.queue.length === 0) wake('wakeRunner');
          yield piece;
          // Backpressure per piece: what the core made of it is written before it
          // gets the next. The line's first pieces arrive all at once (up to
          // --max-line-bytes held before the line was known to be oversize), and
          // without this their output piled up unwritten. The event loop gets a
          // turn too, so a signal is served in the middle of a long line.
          await flush();
          await new Promise<void>((resolve) => setImmediate(resolve));
          continue;
        }
        if (c.ended) return;
        await new Promise<void>((resolve) => (c.wakeReader = resolve));
      }
    },
  });

  const lines: OversizeStream = {
    start(line) {
      const c: Current = {
        line,
        queue: [],
        ended: false,
        total: 0,
        terminated: true,
        promise: undefined,
        settled: false,
        failure: undefined,
        wakeReader: undefined,
        wakeRunner: undefined,
      };
      current = c;
      c.promise = hook(source(c), { file: fileOf(), line }, emit);
      c.promise?.then(
        () => undefined,
        (err: unknown) => {
          c.failure = err instanceof Error ? err.message : String(err);
        },
      ).finally(() => {
        c.settled = true;
        c.wakeRunner?.();
      });
    },
    piece(bytes) {
      if (!current || current.promise === undefined || current.settled) return;
      current.queue.push(bytes);
      wake('wakeReader');
    },
    end(total, terminated) {
      if (!current) return false;
      current.ended = true;
      current.total = total;
      current.terminated = terminated;
      wake('wakeReader');
      return true;
    },
  };

  /** Waits until the core has taken what it was given (or, at the line's end, finished it). */
  const settle = async (report: ReportOversize) => {
    const c = current;
    if (!c) return;
    if (c.promise === undefined) {
      if (c.ended) {
        current = undefined;
        report(c.line, c.total, c.terminated);
      }
      return;
    }
    while (!c.settled && (c.ended || c.queue.length > 0)) {
      await new Promise<void>((resolve) => (c.wakeRunner = resolve));
      await flush();
    }
    await flush();
    if (c.ended || c.settled) {
      if (c.ended) current = undefined;
      if (c.ended && c.failure !== undefined) report(c.line, c.total, c.terminated, c.failure);
    }
  };

  return { lines, settle };
}
