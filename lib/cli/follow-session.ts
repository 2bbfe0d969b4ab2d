/**
 * The end of a followed input (`--follow`): reading stops a grace period
 * after a `result` event (the producer's last), so a racing second `result`
 * (exec's own deadline against the settlement) is still read.
 */
import type { Line } from '../jsonl.js';
import { topLevelString } from '../scan.js';

/** How long `--follow` keeps reading after a `result` (ms). */
export const FOLLOW_GRACE_MS = 500;

/** One followed input; `stop` ends its reading. */
export class FollowSession {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly stop: AbortController,
    private readonly graceMs: number,
  ) {}

  /**
   * Looks at each line read: a `result` (re)starts the grace period, and so
   * does a line of a type the core says ends a run (`endsRun`: wuu-import on
   * Codex, whose last line is its turn's end).
   */
  line(line: Line, endsRun?: (type: string) => boolean): void {
    if (line.oversizeBytes !== undefined) return;
    const type = topLevelString(line.source, 'type', line.start, line.end);
    if (type === 'result' || (type !== undefined && endsRun?.(type) === true)) this.resultSeen();
  }

  /** The run's `result` was seen (by `line`, or by a custom main such as wuu-usage): the grace period (re)starts. */
  resultSeen(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.stop.abort(), this.graceMs);
  }

  /** The input ended: no timer outlives it. */
  close(): void {
    clearTimeout(this.timer);
  }
}
