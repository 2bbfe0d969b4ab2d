/**
 * THE bad-line policy, written once: what happens to a line the line rules
 * (lib/jsonl.ts `readLine`) found bad. Used by the runner (cli/run.ts) and by
 * wuu-usage's reader, whose workers and --merge read files outside the runner.
 *
 * A bad line is reported as `PROG: FILE:LINE: message`. By default it is
 * dropped and counted against the exit status; --pass-invalid copies it
 * through uncounted (a line over the size cap has no bytes left to copy, so it
 * still counts); --strict stops the input after it. A last line cut off
 * without a newline is, where the tool says so, a warning about the run (a
 * producer killed mid-write, trap 11), not bad data: reported, not counted.
 */
import type { Line } from '../jsonl.js';

/** The options of the bad-line policy (the runner's --strict and --pass-invalid). */
export interface BadLinePolicy {
  /** Stop the input after a bad line that counts. */
  strict: boolean;
  /** Copy a bad line through (uncounted) instead of dropping it. */
  passInvalid: boolean;
  /** Report a cut last line as a warning, uncounted (wuu-usage). */
  cutLineIsWarning?: boolean;
}

/**
 * What becomes of one bad line: `warn` (a cut last line, reported as a
 * warning, not counted), `pass` (reported, copied through, not counted) or
 * `count` (reported and counted; under --strict the input stops).
 */
export type BadLineVerdict = 'warn' | 'pass' | 'count';

/** The policy's verdict on a bad line. */
export function judgeBadLine(policy: BadLinePolicy, line: Pick<Line, 'terminated' | 'oversizeBytes'>): BadLineVerdict {
  if (line.oversizeBytes !== undefined) return 'count';
  if (policy.cutLineIsWarning && !line.terminated) return 'warn';
  return policy.passInvalid ? 'pass' : 'count';
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
