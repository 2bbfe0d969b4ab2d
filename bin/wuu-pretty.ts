#!/usr/bin/env node
import fs from 'node:fs';
import { colorEnabled, createPretty } from '../lib/pretty/index.js';
import { runIfMain, UsageError, type ToolSpec } from '../lib/cli/index.js';

/** Whether a path names a directory (its files each get a heading). */
function isDirectory(name: string): boolean {
  try {
    return name !== '-' && fs.statSync(name).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Whether the input arrives as it is written (followed files, a pipe or a
 * terminal on stdin) rather than being a saved file read at once: only then
 * do arrival times say how long something took.
 */
function liveInput(positionals: string[], follow: boolean): boolean {
  if (follow) return true;
  if (positionals.length > 0 && !positionals.includes('-')) return false;
  try {
    return !fs.fstatSync(0).isFile();
  } catch {
    return false;
  }
}

/** Width used off a terminal, and on one whose size is unknown. */
const DEFAULT_WIDTH = 100;
const DEFAULT_TTY_WIDTH = 80;

export const spec: ToolSpec = {
  name: 'wuu-pretty',
  summary: 'render the stream for people: live view, Markdown or HTML',
  usage: `Usage: wuu-pretty [OPTION]... [FILE]...
Render the event stream for a person to read, as it arrives: turns as
headings, the assistant message as it streams, tool calls with a one-line
argument summary and a folded output preview, file changes, subagents, todo
lists, usage per turn and the final status (or a notice that the run was cut).

Usage is shown in the producer's convention: input_tokens EXCLUDE cached
tokens, so prompt = uncached input + cache write + cache read, and cache hit
= cache read / prompt. A turn's usage is its last snapshot; a sub-agent's
thread (its turn ends, tools, tokens) is shown as the sub-agent's own.

On a terminal, for a stream that arrives as it is written (a pipe from
'wuu exec', or -f), the view is live: a status line names each running tool
with its elapsed time, output lines appear as they arrive, and each tool call
and turn shows its elapsed time. The stream has no timestamps: these times are
measured from ARRIVAL, shown only in this live mode and only from 0.1s up; a
saved file is shown without them. With -f, a file that does not exist yet is
announced ("waiting for FILE to appear") until it does.

A bash call whose output ends in 'Exit code N' (N not 0) is shown as failed,
with its code, although the producer marks it completed. File tools show the
action and path, then the content or files, instead of their JSON result.
Several inputs, or a directory, get a heading naming each file.

Options:
      --markdown         write a Markdown transcript (no colors) to share:
                         wuu-redact < run.jsonl | wuu-pretty --markdown > run.md
      --html             write one self-contained HTML page (no script, no
                         external asset; light and dark) to share:
                         wuu-redact run.jsonl | wuu-pretty --html > run.html
      --color WHEN       always, never or auto (default): auto colors only a
                         terminal, and not when NO_COLOR is set
                         (--no-color: never)
      --width N          columns for clipping long lines (default: the
                         terminal's width, else ${DEFAULT_WIDTH})
      --full             show whole outputs and lines instead of folding them
      --verbose          also show diagnostics (provider_state, request_context)
                         and more session details

Exit status is that of the reading (0, or 1 for bad lines): a failed run is
shown, not reported as an error.

Examples:
  wuu exec --json "fix the tests" | wuu-pretty
  wuu-pretty --full run.jsonl | less -R
  wuu-pretty --markdown run.jsonl > transcript.md
  wuu-redact run.jsonl | wuu-pretty --html > run.html`,
  flags: {
    string: ['color', 'width'],
    values: { color: ['always', 'never', 'auto'] },
    boolean: ['markdown', 'html', 'full', 'verbose'],
    negatable: ['color'],
  },
  create({ flags, positionals, stdoutIsTTY, env, warn, interrupted }) {
    let mode = flags.string('color') ?? 'auto';
    if (mode === 'false') mode = 'never'; // --no-color
    if (mode !== 'always' && mode !== 'never' && mode !== 'auto') {
      throw new UsageError(`--color takes always, never or auto, not '${mode}'`);
    }
    if (flags.bool('markdown') && flags.bool('html')) throw new UsageError('--markdown and --html exclude each other');
    const columns = stdoutIsTTY ? process.stdout.columns : undefined;
    const width =
      flags.int('width', { min: 20, max: 100000 }) ??
      (stdoutIsTTY ? (columns !== undefined && columns > 0 ? columns : DEFAULT_TTY_WIDTH) : DEFAULT_WIDTH);
    const document = flags.bool('markdown') || flags.bool('html');
    // The live view needs a terminal it can redraw between input chunks: the process's own.
    const live =
      stdoutIsTTY && !document && process.stdout.isTTY && liveInput(positionals, flags.bool('follow'))
        ? {
            write: (text: string) => {
              process.stdout.write(text);
            },
          }
        : undefined;
    const core = createPretty({
      markdown: flags.bool('markdown'),
      html: flags.bool('html'),
      color: !document && colorEnabled(mode, stdoutIsTTY, env),
      width,
      full: flags.bool('full'),
      verbose: flags.bool('verbose'),
      showFileNames: positionals.length > 1 || positionals.some(isDirectory),
      live,
      interrupted,
      notice: warn,
    });
    return { core };
  },
};

runIfMain(spec, import.meta.url);
