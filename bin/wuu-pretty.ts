#!/usr/bin/env node
import { colorEnabled, createPretty, type ColorMode } from '../lib/pretty.js';
import { runIfMain, UsageError, type ToolSpec } from '../lib/runner.js';

/** Width used off a terminal, and on one whose size is unknown. */
const DEFAULT_WIDTH = 100;
const DEFAULT_TTY_WIDTH = 80;

export const spec: ToolSpec = {
  name: 'wuu-pretty',
  summary: 'render the event stream for people: live terminal text or a Markdown transcript',
  usage: `Usage: wuu-pretty [OPTION]... [FILE]...
Render the event stream for a person to read, as it arrives: turns as
headings, the assistant message as it streams, tool calls with a one-line
argument summary and a folded output preview, file changes, subagents, todo
lists, usage per turn and the final status (or a notice that the run was cut).

Options:
      --markdown         write a Markdown transcript (no colors) to share:
                         wuu-redact < run.jsonl | wuu-pretty --markdown > run.md
      --color WHEN       always, never or auto (default): auto colors only a
                         terminal, and not when NO_COLOR is set (--no-color: never)
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
  wuu-pretty --markdown run.jsonl > transcript.md`,
  flags: {
    string: ['color', 'width'],
    values: { color: ['always', 'never', 'auto'] },
    boolean: ['markdown', 'full', 'verbose'],
    negatable: ['color'],
  },
  create({ flags, positionals, stdoutIsTTY, env }) {
    let mode = flags.string('color') ?? 'auto';
    if (mode === 'false') mode = 'never'; // --no-color
    if (mode !== 'always' && mode !== 'never' && mode !== 'auto') {
      throw new UsageError(`--color takes always, never or auto, not '${mode}'`);
    }
    const columns = stdoutIsTTY ? process.stdout.columns : undefined;
    const width =
      flags.int('width', { min: 20, max: 100000 }) ??
      (stdoutIsTTY ? (columns !== undefined && columns > 0 ? columns : DEFAULT_TTY_WIDTH) : DEFAULT_WIDTH);
    const core = createPretty({
      markdown: flags.bool('markdown'),
      color: colorEnabled(mode as ColorMode, stdoutIsTTY, env),
      width,
      full: flags.bool('full'),
      verbose: flags.bool('verbose'),
      showFileNames: positionals.length > 1,
    });
    return { core };
  },
};

runIfMain(spec, import.meta.url);
