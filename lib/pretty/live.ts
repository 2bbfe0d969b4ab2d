/**
 * The live status line of a terminal view: while tools run, one line under
 * the output with the running tool's name and its elapsed time, redrawn in
 * place by a timer (unref'd, so it never keeps the process alive; cleared
 * when nothing runs). It is erased before any normal output, and drawn only
 * when the cursor is at the start of a line, so it never cuts into text.
 *
 * Elapsed times come from ARRIVAL times: the stream carries no timestamps.
 */
import { escapeControls, truncateDisplay } from '../text.js';
import { formatDuration } from './format.js';

/** Erases the current terminal line and returns to its start. */
export const ERASE_LINE = '\r\x1b[2K';
const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** How the status line reaches the terminal. */
export interface LiveOptions {
  /** Arrival clock, in ms. */
  now: () => number;
  /** Writes to the terminal now (outside the per-chunk output batching). */
  write: (text: string) => void;
  /** Redraw period (default 200 ms). */
  intervalMs?: number;
  /** Terminal columns. */
  width: number;
  /** Styles the line (dim on a colored terminal). */
  style: (text: string) => string;
  /** Whether the cursor is at the start of a line (nothing to cut into). */
  atLineStart: () => boolean;
}

interface Running {
  label: string;
  startedAt: number;
}

/** The status line; see the module comment. */
export class LiveStatus {
  private readonly running = new Map<string, Running>();
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  /** Whether the line is on screen now. */
  shown = false;

  constructor(private readonly o: LiveOptions) {}

  /** A tool started: `label` is its name and summary (raw data; escaped here). */
  add(key: string, label: string, startedAt: number): void {
    this.running.set(key, { label, startedAt });
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.draw(), this.o.intervalMs ?? 200);
      this.timer.unref();
    }
  }

  /** A tool ended. */
  remove(key: string): void {
    this.running.delete(key);
    if (this.running.size === 0) this.stop();
  }

  /** The line's text now, or '' when nothing runs. */
  text(): string {
    let newest: Running | undefined;
    for (const r of this.running.values()) newest = r;
    if (newest === undefined) return '';
    const spinner = SPINNER[this.frame % SPINNER.length] ?? '*';
    const more = this.running.size > 1 ? ` (+${this.running.size - 1} more running)` : '';
    const elapsed = formatDuration(this.o.now() - newest.startedAt);
    const label = escapeControls(newest.label);
    const tail = ` · ${elapsed}${more}`;
    return `${spinner} running ${truncateDisplay(label, Math.max(8, this.o.width - 12 - tail.length))}${tail}`;
  }

  /** Draws or redraws the line in place (timer tick). */
  draw(): void {
    if (this.running.size === 0 || !this.o.atLineStart()) return;
    this.frame++;
    this.o.write(`${ERASE_LINE}${this.o.style(this.text())}`);
    this.shown = true;
  }

  /** Sequence that erases the line when shown (to put before normal output). */
  takeErase(): string {
    if (!this.shown) return '';
    this.shown = false;
    return ERASE_LINE;
  }

  /** Stops the timer (the line itself is erased by the next output or {@link takeErase}). */
  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Forgets every running tool and stops. */
  clear(): void {
    this.running.clear();
    this.stop();
  }
}
