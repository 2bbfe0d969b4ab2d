/**
 * A bounded view of a growing tool output: the first lines, a ring of the
 * last ones, the line and byte counts. Memory stays bounded whatever the
 * output's size (unless the caps are lifted for --full).
 */

/** What a fold shows: the first lines, how many are hidden, the last lines. */
export interface Folded {
  head: string[];
  hidden: number;
  tail: string[];
  /** Every line of the output, shown or not. */
  lines: number;
  /** UTF-16 length of all output written (a size for people, not exact bytes). */
  chars: number;
}

/**
 * Holds a bounded view of a growing output: the first `headMax` lines, a ring
 * of the last ones and the line count. Each line is clipped to `lineCap`
 * characters (a clipped line ends in `…`). A carriage return inside a line
 * keeps what follows it, as a terminal would show a progress bar.
 */
export class OutputFold {
  private head: string[] = [];
  private ring: string[] = [];
  private ringAt = 0;
  private lines = 0;
  private chars = 0;
  private partial = '';
  private capped = false;
  private pendingCR = false;
  private readonly ringMax: number;

  constructor(
    private readonly headMax = 3,
    tailMax = 3,
    private readonly lineCap = Number.POSITIVE_INFINITY,
  ) {
    // One spare line in the ring: a fold that would hide a single line shows it instead.
    this.ringMax = tailMax + 1;
  }

  /** True when nothing was written. */
  get empty(): boolean {
    return this.lines === 0 && this.partial === '';
  }

  /** Lines completed so far. */
  get lineCount(): number {
    return this.lines;
  }

  /** The head lines completed so far (live display). */
  peekHead(): readonly string[] {
    return this.head;
  }

  write(text: string): void {
    this.chars += text.length;
    if (this.pendingCR) {
      this.pendingCR = false;
      if (!text.startsWith('\n')) this.resetPartial();
    }
    let from = 0;
    for (;;) {
      const newline = text.indexOf('\n', from);
      this.append(newline < 0 ? text.slice(from) : text.slice(from, newline), newline >= 0);
      if (newline < 0) break;
      this.commit();
      from = newline + 1;
    }
  }

  private resetPartial(): void {
    this.partial = '';
    this.capped = false;
  }

  private append(piece: string, lineEnds: boolean): void {
    if (piece.endsWith('\r')) {
      piece = piece.slice(0, -1);
      if (!lineEnds) this.pendingCR = true;
    }
    const cr = piece.lastIndexOf('\r');
    if (cr >= 0) {
      this.resetPartial();
      piece = piece.slice(cr + 1);
    }
    if (this.capped || piece === '') return;
    const room = this.lineCap - this.partial.length;
    if (piece.length > room) {
      this.partial += `${piece.slice(0, room)}…`;
      this.capped = true;
    } else {
      this.partial += piece;
    }
  }

  private commit(): void {
    const line = this.partial;
    this.resetPartial();
    this.lines++;
    if (this.head.length < this.headMax) {
      this.head.push(line);
    } else if (this.ring.length < this.ringMax) {
      this.ring.push(line);
    } else {
      this.ring[this.ringAt] = line;
      this.ringAt = (this.ringAt + 1) % this.ringMax;
    }
  }

  /** Ends the output (a last line without newline counts) and returns the view. */
  finish(): Folded {
    if (this.partial !== '') this.commit();
    const ordered = this.ring.slice(this.ringAt).concat(this.ring.slice(0, this.ringAt));
    const hidden = this.lines - this.head.length - ordered.length;
    if (hidden === 0) return { head: this.head, hidden: 0, tail: ordered, lines: this.lines, chars: this.chars };
    return { head: this.head, hidden: hidden + 1, tail: ordered.slice(1), lines: this.lines, chars: this.chars };
  }
}
