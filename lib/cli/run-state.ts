/** What the steps of a run share: bad lines seen, unreadable inputs, and whether (and why) it stopped. */
import type { BadLineLog } from './policy.js';

export interface RunState {
  bad: BadLineLog;
  /** Inputs that could not be read (or were cut), each already reported. */
  unreadable: number;
  /** Set by a signal, a bad line under --strict or a closed output: read no further. */
  stopped: boolean;
  /** The signal that stopped the run, if one did. */
  signal: NodeJS.Signals | undefined;
}
