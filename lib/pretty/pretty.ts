/**
 * wuu-pretty: the event stream rendered for people, as a terminal view
 * (optionally colored, optionally live), a Markdown transcript or one
 * self-contained HTML page.
 *
 * Parts: state.ts (events to views, keyed by thread), terminal.ts,
 * live.ts (status line), markdown.ts, html.ts + html-css.ts (renderers),
 * escape.ts (document escaping), fold.ts (bounded outputs), token-usage.ts (the
 * producer's token convention), arguments.ts (call summaries), format.ts.
 */
import type { Transform } from 'node:stream';
import { coreStream, type Core } from '../core.js';
import { HtmlRenderer } from './html.js';
import { MarkdownRenderer } from './markdown.js';
import type { Renderer } from './renderer.js';
import { PrettyState } from './state.js';
import { TerminalRenderer } from './terminal.js';
import { TextWriter } from './writer.js';


/** Options of {@link createPretty}. */
export interface PrettyOptions {
  /** Write a Markdown transcript instead of terminal text (never colored). */
  markdown?: boolean;
  /** Write one self-contained HTML page (never colored). */
  html?: boolean;
  /** Use ANSI colors (see {@link colorEnabled}). Terminal text only. */
  color?: boolean;
  /** Columns available; long lines are clipped to it with `…`. Default 100. */
  width?: number;
  /** Show every line of every output, unclipped. */
  full?: boolean;
  /** Also show the diagnostics (provider_state, request_context) and session details. */
  verbose?: boolean;
  /** Print a heading per input file (for several inputs). */
  showFileNames?: boolean;
  /** Whether the viewer itself was stopped (a signal during `-f`): an open run is then not called cut. */
  interrupted?: () => boolean;
  /** Lines shown from the start of a folded output (terminal). Default 3. */
  headLines?: number;
  /** Lines shown from the end of a folded output (terminal). Default 3. */
  tailLines?: number;
  /**
   * Live terminal view: a status line for running tools (written with
   * `write`, outside the per-chunk output), output lines as they arrive,
   * elapsed times by arrival (`now`, default Date.now). Terminal text only.
   */
  live?: { write: (text: string) => void; now?: () => number; intervalMs?: number };
  /**
   * Where a Markdown or HTML view sends what is not part of the document
   * (follow mode waiting for a file); the terminal view shows it in place.
   */
  notice?: (message: string) => void;
}

/** `--color` values. */
export type ColorMode = 'always' | 'never' | 'auto';

/**
 * Whether to color: `always` and `never` are obeyed as given (an explicit
 * command-line choice beats the environment, as no-color.org asks); `auto`
 * colors only a terminal, and not when NO_COLOR is set to a non-empty value
 * or TERM is `dumb`.
 */
export function colorEnabled(mode: ColorMode, isTTY: boolean, env: Record<string, string | undefined>): boolean {
  if (mode === 'always') return true;
  if (mode === 'never') return false;
  if (!isTTY) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return env.TERM !== 'dumb';
}

/** Lines of a document output shown open (longer ones are folded in `<details>`). */
const DOC_FOLD_LINES = 10;

/**
 * The pretty-printer's core: events in, text out. It never changes an exit
 * status (a failed run is shown, not judged); bad input is the runner's.
 */
export function createPretty(options: PrettyOptions = {}): Core {
  const html = options.html === true;
  const md = options.markdown === true && !html;
  const width = Math.max(20, Math.trunc(options.width ?? 100));
  const full = options.full === true;
  const doc = md || html;
  const live = doc ? undefined : options.live;
  const now = live?.now ?? Date.now;
  const writer = new TextWriter();
  let renderer: Renderer;
  let terminal: TerminalRenderer | undefined;
  if (html) renderer = new HtmlRenderer(writer, { full, foldLines: DOC_FOLD_LINES });
  else if (md) renderer = new MarkdownRenderer(writer, { width, full, foldLines: DOC_FOLD_LINES });
  else {
    const liveOptions = live === undefined ? undefined : { write: live.write, now, intervalMs: live.intervalMs };
    renderer = terminal = new TerminalRenderer(writer, { color: options.color === true, width, full, live: liveOptions });
  }
  const state = new PrettyState(renderer, {
    headLines: full ? Number.POSITIVE_INFINITY : doc ? 40 : Math.max(0, options.headLines ?? 3),
    tailLines: full ? 0 : doc ? 20 : Math.max(0, options.tailLines ?? 3),
    // Lines are held a little wider than shown, so a clip is always visible.
    lineCap: full ? Number.POSITIVE_INFINITY : doc ? 4096 : width + 16,
    verbose: options.verbose === true,
    showFileNames: options.showFileNames === true,
    now,
    timing: live !== undefined,
  });
  return {
    needsParse: (type) => state.needsParse(type),
    push(rec, emit) {
      writer.emit = emit;
      state.push(rec);
    },
    invalid(raw, emit) {
      writer.emit = emit;
      state.invalid(raw);
    },
    waiting(file, emit) {
      writer.emit = emit;
      if (terminal) terminal.waiting(file);
      else options.notice?.(`waiting for ${file} to appear`);
    },
    endFile(_file, emit) {
      writer.emit = emit;
      state.endFile(options.interrupted?.() === true);
    },
    end(emit) {
      writer.emit = emit;
      state.end();
    },
    status: () => 0,
  };
}

/** Object-mode stream version of {@link createPretty}: events in, text chunks out. */
export function pretty(options: PrettyOptions = {}): Transform {
  return coreStream(createPretty(options));
}
