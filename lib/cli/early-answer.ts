/**
 * The start-up fast path of a bundled binary (scripts/bundle.mjs): the
 * binary's file is a tiny entry that answers `--version` and `--help` from
 * text captured at build time from the bundle's own runner, before the
 * bundle is loaded; anything else loads the bundle, which runs as before.
 * Start-up is most of a short run, and loading a bundle of 80-550 KB costs
 * more than starting Node itself.
 *
 * This module is inlined into each entry, a CommonJS file (an ES module
 * entry costs Node about a tenth more to start), so it imports nothing but
 * node:fs (which Node has loaded already). Whenever it is not sure the answer would
 * be the same as the full runner's, it declines and the full runner answers:
 * an argument list other than exactly one known flag, a standard output that
 * was closed when the process started (the runner then fails with EBADF), a
 * write that fails or is short (EPIPE, ENOSPC, EAGAIN on a full non-blocking
 * pipe: the runner writes the whole text again and reports as it does).
 */
import fs from 'node:fs';

/** The runner's output for an argument list of one flag, e.g. `--version` → `wuu-filter 0.1.0\n`. */
export type EarlyAnswers = Readonly<Record<string, string>>;

/** `/dev/null`'s device number (major 1, minor 3) on Linux. */
const DEV_NULL_RDEV = (1 << 8) | 3;

/**
 * Whether descriptor `fd` may be written as the runner would: not a
 * descriptor that was closed at start, which Node reopens on /dev/null
 * read-write (see stdoutWasClosed in sink.ts, which this mirrors without
 * importing it). Unsure (no /proc): false.
 */
function writable(fd: number): boolean {
  try {
    if (fs.fstatSync(fd).rdev !== DEV_NULL_RDEV) return true;
    const flags = /^flags:\s+([0-7]+)/m.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
    return flags !== undefined && (parseInt(flags, 8) & 3) !== 2;
  } catch {
    return false;
  }
}

/**
 * Answers `args` from `answers` on descriptor `fd` when it is exactly one
 * known flag and the whole text could be written; true when answered (the
 * process is then done, exit status 0). False: load the runner.
 */
export function answerEarly(args: readonly string[], answers: EarlyAnswers, fd = 1): boolean {
  if (args.length !== 1) return false;
  const flag = args[0];
  if (flag === undefined || !Object.hasOwn(answers, flag)) return false;
  const text = answers[flag];
  if (text === undefined || !writable(fd)) return false;
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    // A blocking descriptor (the runner has not made it non-blocking) takes it all at once.
    while (written < bytes.length) written += fs.writeSync(fd, bytes, written);
    return true;
  } catch {
    if (written === 0) return false;
    // Cut off after a part was written (the reader left): what `cat` does, no second copy.
    process.exitCode = 1;
    return true;
  }
}

/** The global through which an entry tells the bundle it loads that the bundle is the program (see isMain). */
export const MAIN_BUNDLE = Symbol.for('wuu-stream.main-bundle');
