/**
 * The exit status of a run, from what happened, in order of precedence: a
 * write error (1), a signal (128 + number), an unreadable input (2), the
 * tool's own status, bad lines (1), else 0. See EXIT in args.ts and
 * man/wuu-stream.7.
 */
import { EXIT } from './args.js';
import { SIGNAL_STATUS } from './process.js';
import type { RunState } from './run-state.js';
import { describeWriteError } from './sink.js';

export function exitStatus(state: RunState, toolStatus: number, writeFailure: NodeJS.ErrnoException | undefined, warn: (message: string) => void): number {
  const summary = state.bad.summary();
  if (summary !== undefined) warn(summary);
  if (writeFailure !== undefined) {
    warn(`write error: ${describeWriteError(writeFailure)}`);
    return EXIT.BAD_DATA;
  }
  if (state.signal !== undefined) return SIGNAL_STATUS[state.signal as keyof typeof SIGNAL_STATUS] ?? EXIT.SIGTERM;
  if (state.unreadable > 0) return EXIT.USAGE;
  if (toolStatus !== 0) return toolStatus;
  if (state.bad.count > 0) return EXIT.BAD_DATA;
  return EXIT.OK;
}
