/**
 * Text that reaches a human: the ONE place where data from a log is made
 * safe for a terminal, and where its width on screen is measured.
 *
 * A log is untrusted. Control characters in it (ESC/CSI/OSC sequences that
 * set the window title, clear the screen, write the clipboard with OSC 52 or
 * forge links with OSC 8; C1 controls such as U+009B, a one-byte CSI; bidi
 * overrides such as U+202E that reorder what the reader sees) must never reach
 * a terminal raw. They are shown visibly instead, so a reader can still tell
 * that something was there: `\e`, `\x07`, `\u202e`.
 *
 * Every human-readable output (wuu-pretty, tables, checker and result
 * messages, every `PROG: FILE:LINE: message` on stderr, file names) goes
 * through {@link escapeControls} (or {@link escapeControlsKeepNewlines} for
 * multi-line blocks).
 */
import { eastAsianWidth } from 'get-east-asian-width';

// C0 except \n and \t handled by callers, DEL, C1, bidi embeddings/overrides/
// isolates, zero-width joiners used for spoofing, line/paragraph separators,
// and the BOM/ZWNBSP.
// eslint-disable-next-line no-control-regex
const UNSAFE_RE = /[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;
// eslint-disable-next-line no-control-regex
const UNSAFE_ALL_RE = /[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
// eslint-disable-next-line no-control-regex
const UNSAFE_KEEP_NL_RE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** The visible form of one unsafe character. */
function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  switch (code) {
    case 0x1b:
      return '\\e';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 0x09:
      return '\\t';
    default:
      return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  }
}

/** Whether `text` holds anything {@link escapeControls} would change. */
export function hasControls(text: string): boolean {
  return UNSAFE_RE.test(text);
}

/**
 * Makes one line of log data safe for a terminal: every control character
 * (C0 including newline and tab, DEL, C1), bidi control and invisible
 * formatting character is replaced by a visible escape (`\e`, `\n`, `\x07`,
 * `\u202e`). Plain text is returned as is (no copy).
 */
export function escapeControls(text: string): string {
  if (!UNSAFE_RE.test(text)) return text;
  return text.replace(UNSAFE_ALL_RE, visible);
}

/**
 * Like {@link escapeControls}, for multi-line blocks: newlines and tabs are
 * kept (they are layout, not commands); everything else unsafe is escaped.
 * A carriage return is escaped, so a line cannot overwrite the one before.
 */
export function escapeControlsKeepNewlines(text: string): string {
  if (!UNSAFE_RE.test(text)) return text;
  return text.replace(UNSAFE_KEEP_NL_RE, visible);
}

/** Width in terminal columns of one code point (0 for combining marks, 2 for wide and fullwidth). */
export function codePointWidth(codePoint: number): number {
  // Combining marks, variation selectors and zero-width joiners take no column.
  if (
    (codePoint >= 0x0300 && codePoint <= 0x036f) ||
    (codePoint >= 0x1ab0 && codePoint <= 0x1aff) ||
    (codePoint >= 0x1dc0 && codePoint <= 0x1dff) ||
    (codePoint >= 0x20d0 && codePoint <= 0x20ff) ||
    (codePoint >= 0xfe00 && codePoint <= 0xfe0f) ||
    (codePoint >= 0xfe20 && codePoint <= 0xfe2f) ||
    codePoint === 0x200d ||
    (codePoint >= 0xe0100 && codePoint <= 0xe01ef)
  ) {
    return 0;
  }
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) return 0;
  return eastAsianWidth(codePoint, { ambiguousAsWide: false });
}

/**
 * Display width of text in terminal columns: CJK, fullwidth forms and emoji
 * count 2, combining marks 0 (East Asian Width, via get-east-asian-width).
 * Meant for text already passed through {@link escapeControls}.
 */
export function displayWidth(text: string): number {
  let width = 0;
  // Fast path: printable ASCII is one column per character.
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) {
      ascii = false;
      break;
    }
  }
  if (ascii) return text.length;
  for (const ch of text) width += codePointWidth(ch.codePointAt(0)!);
  return width;
}

/** Pads `text` with spaces to `width` columns, on the right (`end`) or the left (`start`). */
export function padDisplay(text: string, width: number, side: 'start' | 'end' = 'end'): string {
  const gap = width - displayWidth(text);
  if (gap <= 0) return text;
  return side === 'end' ? text + ' '.repeat(gap) : ' '.repeat(gap) + text;
}

/** Cuts `text` to at most `width` columns, marking a cut with `…` (which takes one column). */
export function truncateDisplay(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = codePointWidth(ch.codePointAt(0)!);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return `${out}…`;
}
