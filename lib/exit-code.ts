/**
 * A bash call's exit code, read from the trailer of its output.
 *
 * The producer marks a tool item `completed` as soon as a result arrives, so
 * a failed command is a `completed` call: its exit status lives only in the
 * plain-text view of the output (wuu's command_model_view.go; see the wire
 * reference on tool_output_delta). That view is the output lines, then the
 * status lines, each written only when it applies:
 *
 *     <output lines>                  (or `(no output)` for a silent success)
 *     (ran as: ...) / [full log: ...]
 *     Exit code N                     (written for every non-zero exit)
 *     The sandbox blocked a write ... (a denied write, after the exit line)
 *
 * A timed-out command ends in `Timed out after ...` instead of an exit line,
 * a background start is only `Running in background as process ...`.
 *
 * So the rule, on the output's LAST line (trailing blank space ignored):
 * - `Exit code N` is N (also when the sandbox line follows it);
 * - a completed call whose output ends any other way exited 0 (the producer
 *   writes no exit line for 0; `(no output)` is the silent success);
 * - null when the output does not say: no output at all, a background start,
 *   a timeout, or a call that never completed with an exit line.
 * Only the trailer counts: `Exit code 2` followed by more lines is output
 * text (a command that printed it), not the status.
 */

/** Characters of the output's end kept to read the trailer (the status lines are short). */
export const WINDOW = 1024;
const EXIT_LINE = /^Exit code (-?\d{1,12})$/;
const SANDBOX_LINE = 'The sandbox blocked a write outside the workspace boundary';
const NO_EXIT_LINES = ['Running in background as process ', 'Timed out after '];

/**
 * Where the run of blank space (` \t\r\n`) ending `text` begins: what
 * `/[ \t\r\n]+$/` finds, by a loop back from the end (the regex tries every
 * start in the text, and whole tool outputs are fed here).
 */
export function blankEnd(text: string): number {
  let at = text.length;
  for (;;) {
    const code = text.charCodeAt(at - 1);
    if (code !== 0x20 && code !== 0x0a && code !== 0x09 && code !== 0x0d) return at;
    at--;
  }
}

/** Whether `text[from..]` holds a newline (blank space is short). */
function hasNewline(text: string, from: number): boolean {
  return text.indexOf('\n', from) >= 0;
}

/**
 * The end of a growing output, bounded: the last {@link WINDOW} characters
 * before its trailing blank space. Feed it every piece, in order.
 */
export class OutputTrailer {
  private tail = '';
  /** Blank space after `tail` (reduced to one newline or one space). */
  private space = '';
  /** Whether text before `tail` was dropped. */
  private cut = false;

  /** Appends a piece of the output. */
  append(text: string): void {
    if (text === '') return;
    const bodyEnd = blankEnd(text);
    if (bodyEnd > 0) {
      this.tail += this.space + (bodyEnd === text.length ? text : text.slice(0, bodyEnd));
      this.space = '';
      if (this.tail.length > 2 * WINDOW) {
        this.tail = this.tail.slice(this.tail.length - WINDOW);
        this.cut = true;
      }
    }
    if (bodyEnd < text.length) this.space = this.space.includes('\n') || hasNewline(text, bodyEnd) ? '\n' : ' ';
  }

  /**
   * Replaces what is known of the end with `tail`, the decoded end of a
   * piece whose beginning was not read (`partial`): used when a long piece is
   * only located, not decoded.
   */
  appendEnd(tail: string, partial: boolean): void {
    if (partial) {
      this.tail = '';
      this.space = '';
      this.cut = true;
    }
    this.append(tail);
  }

  /** The last lines of the output (at most `count`), whole ones only. */
  lastLines(count: number): string[] {
    // What `tail.split('\n').slice(-count)` gives, found back from the end:
    // the tail holds some 2,000 characters of many lines, and two are read.
    const tail = this.tail;
    const lines: string[] = [];
    let end = tail.length;
    while (lines.length < count) {
      const newline = end > 0 ? tail.lastIndexOf('\n', end - 1) : -1;
      // The first line of a cut window may be the end of a longer line: not a whole line.
      if (newline < 0 && this.cut) break;
      const line = tail.slice(newline + 1, end);
      lines.push(line.slice(0, blankEnd(line)));
      if (newline < 0) break;
      end = newline;
    }
    return lines.reverse();
  }

  /** Whether any non-blank output was seen. */
  get seen(): boolean {
    return this.tail !== '';
  }
}

/**
 * The exit code of a bash call whose output ended as `trailer` says, and
 * whose item status is `status` (`completed`, `failed`, `incomplete`...);
 * see the module comment for the rule.
 */
export function exitCodeOf(trailer: OutputTrailer, status: string): number | null {
  if (!trailer.seen) return null;
  const lines = trailer.lastLines(2);
  let last = lines[lines.length - 1] ?? '';
  if (last.startsWith(SANDBOX_LINE) && lines.length > 1) last = lines[0] ?? '';
  const exit = EXIT_LINE.exec(last);
  if (exit !== null) {
    const code = Number(exit[1]);
    return Number.isSafeInteger(code) ? code : null;
  }
  if (status !== 'completed') return null;
  if (NO_EXIT_LINES.some((prefix) => last.startsWith(prefix))) return null;
  return 0;
}

/** Whether a tool name is the producer's shell tool (`bash`, as its command_* twins are written for). */
export function isShellTool(name: string | null | undefined): boolean {
  return typeof name === 'string' && name.trim() === 'bash';
}
