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

  /** Looks at each line read: a `result` (re)starts the grace period. */
  line(line: Line): void {
    if (line.oversizeBytes === undefined && topLevelString(line.source, 'type', line.start, line.end) === 'result') {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.stop.abort(), this.graceMs);
    }
  }

  /** The input ended: no timer outlives it. */
  close(): void {
    clearTimeout(this.timer);
  }
}
