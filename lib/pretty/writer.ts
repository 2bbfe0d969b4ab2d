/**
 * Text output with memory of how it ended (open line, blank line), so
 * renderers can start a new line or a new block without doubling newlines.
 */
import type { Emit } from '../core.js';

/** Where text goes; `emit` is replaced for each event the core handles. */
export class TextWriter {
  emit: Emit = () => {};
  wroteAny = false;
  /** Newlines at the end of what was written (0: the cursor is mid-line). */
  trailingNewlines = 0;
  /** Called before any text is written (the live view erases its status line). */
  beforeWrite: (() => void) | undefined;

  write(text: string): void {
    if (text === '') return;
    this.beforeWrite?.();
    this.emit(text);
    this.wroteAny = true;
    let end = text.length;
    while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
    const trailing = text.length - end;
    this.trailingNewlines = end === 0 ? this.trailingNewlines + trailing : trailing;
  }

  /** Ends an open line. */
  lineStart(): void {
    if (this.wroteAny && this.trailingNewlines === 0) this.write('\n');
  }

  /** Leaves one blank line (not at the very start). */
  blankLine(): void {
    this.lineStart();
    if (this.wroteAny && this.trailingNewlines < 2) this.write('\n');
  }

  /** Writes whole lines, after ending any open line; no spread on data-sized arrays. */
  lines(lines: readonly string[]): void {
    this.lineStart();
    let chunk = '';
    for (const line of lines) {
      chunk += `${line}\n`;
      if (chunk.length > 1 << 16) {
        this.write(chunk);
        chunk = '';
      }
    }
    this.write(chunk);
  }
}
