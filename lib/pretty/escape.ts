/**
 * Making log data inert in documents: HTML text and attributes, Markdown
 * inline text, Markdown paragraphs streamed piece by piece, inline code and
 * fenced blocks. A log is untrusted: whatever it holds (`<script>`, `<!--`,
 * `</details>`, unclosed fences, a forged `## Result` heading), the
 * document's own structure cannot be broken by it. Control characters are
 * shown visibly (lib/text.ts) in every mode.
 */
import { escapeControls, escapeControlsKeepNewlines } from '../text.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and quoted attributes (`& < > " '`), controls shown visibly. */
export function htmlEscape(text: string): string {
  return escapeControlsKeepNewlines(text).replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/** Like {@link htmlEscape} for one line: newlines and tabs are shown as `\n`, `\t`. */
export function htmlEscapeLine(text: string): string {
  return escapeControls(text).replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/** The longest run of `ch` in `text` (a loop, never a spread over matches). */
function longestRun(text: string, ch: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === ch) {
      run++;
      if (run > longest) longest = run;
    } else run = 0;
  }
  return longest;
}

/** A fence of backticks longer than any run of backticks in `text` (at least 3). */
export function chooseFence(text: string): string {
  return '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
}

/** A fenced block whose fence outlasts every backtick run of its text (controls shown visibly). */
export function mdFenced(text: string, info: string): string {
  const body = escapeControlsKeepNewlines(text);
  const fence = chooseFence(body);
  return `${fence}${info}\n${body}\n${fence}`;
}

/** Inline code that survives backticks inside; newlines become spaces. */
export function mdCode(text: string): string {
  const one = escapeControls(text.replace(/\r?\n/g, ' '));
  const ticks = '`'.repeat(longestRun(one, '`') + 1);
  const pad = one.startsWith('`') || one.endsWith('`') || one === '' ? ' ' : '';
  return `${ticks}${pad}${one}${pad}${ticks}`;
}

/**
 * Escapes Markdown syntax in inline text (one line): everything that can
 * open emphasis, code, links, HTML, entities, strikethrough or tables. An
 * underscore inside a word needs no escape (it cannot open emphasis).
 */
export function mdEscape(text: string): string {
  return escapeControls(
    text
      .replace(/\r?\n/g, ' ')
      .replace(/[\\`*[\]<>&~|]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])|^[#+=-]/gu, '\\$&')
      .replace(/^(\d+)([.)])/, '$1\\$2'),
  );
}

const INLINE = new Set(['\\', '`', '*', '[', ']', '<', '>', '&', '~', '|', '_']);
const LINE_START = new Set(['#', '+', '-', '=']);

/**
 * Turns streamed text into inert Markdown paragraphs, piece by piece: inline
 * syntax is backslash-escaped, and what could open a block at the start of a
 * line (headings, lists, quotes, fences, setext underlines, indented code)
 * is neutralized; line breaks are kept as hard breaks.
 */
export class MdTextEscaper {
  private atLineStart = true;
  private lineEmpty = true;
  private inLeadingDigits = false;

  /** Starts a new paragraph block. */
  reset(): void {
    this.atLineStart = true;
    this.lineEmpty = true;
    this.inLeadingDigits = false;
  }

  /** Whether the text written so far ends at the start of a line. */
  get lineStart(): boolean {
    return this.lineEmpty;
  }

  /** Escapes the next piece of text. */
  push(text: string): string {
    let out = '';
    const clean = text.replace(/\r\n/g, '\n');
    for (const ch of clean) {
      if (ch === '\n') {
        out += this.lineEmpty ? '\n' : '  \n';
        this.atLineStart = true;
        this.lineEmpty = true;
        this.inLeadingDigits = false;
        continue;
      }
      if (this.atLineStart && (ch === ' ' || ch === '\t')) {
        // No indentation may start a code block or a nested list: non-breaking spaces instead.
        out += ch === ' ' ? '\u00a0' : '\u00a0\u00a0\u00a0\u00a0';
        continue;
      }
      this.lineEmpty = false;
      if (this.atLineStart) {
        this.atLineStart = false;
        if (LINE_START.has(ch)) {
          out += `\\${ch}`;
          continue;
        }
        if (ch >= '0' && ch <= '9') {
          this.inLeadingDigits = true;
          out += ch;
          continue;
        }
      }
      if (this.inLeadingDigits) {
        if (ch >= '0' && ch <= '9') {
          out += ch;
          continue;
        }
        this.inLeadingDigits = false;
        if (ch === '.' || ch === ')') {
          out += `\\${ch}`;
          continue;
        }
      }
      out += INLINE.has(ch) ? `\\${ch}` : ch;
    }
    return escapeControlsKeepNewlines(out);
  }
}

/** Escapes a whole text as inert Markdown paragraphs. */
export function mdParagraphs(text: string): string {
  return new MdTextEscaper().push(text);
}
