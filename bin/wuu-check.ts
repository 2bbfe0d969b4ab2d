#!/usr/bin/env node
import { createCheck, isRule, RULES } from '../lib/check/index.js';
import { runIfMain, UsageError, type ToolSpec } from '../lib/cli/index.js';

/** Wraps a rule's description under a 23-column hanging indent, within 80 columns. */
function ruleLine(id: string, text: string): string {
  const lines: string[] = [];
  let current = `  ${id.padEnd(21)}`;
  for (const word of text.split(' ')) {
    if (current.length + word.length + 1 > 80 && current.trim() !== id) {
      lines.push(current.trimEnd());
      current = ' '.repeat(23);
    }
    current += (current.endsWith(' ') ? '' : ' ') + word;
  }
  lines.push(current);
  return lines.join('\n');
}

const ruleList = RULES.map((r) => ruleLine(r.id, `${r.severity === 'warning' ? '(warning) ' : ''}${r.description}`)).join('\n');

export const spec: ToolSpec = {
  name: 'wuu-check',
  summary: 'validate a stream against the wire protocol; report every problem',
  usage: `Usage: wuu-check [OPTION]... [FILE]...
Validate each FILE (or stdin) as one 'wuu exec --json' stream against the wire
protocol. Every problem is printed on stdout, one per line, in input order:
  FILE:LINE: RULE: MESSAGE
and a summary line goes to stderr at the end:
  wuu-check: checked N files: E errors, W warnings
Every line is checked in full. A bad line is a problem (bad-line, cut-line)
like any other, not a stderr warning. End-of-stream problems (missing-result)
carry the number of the last line (0 for an empty input).

Options:
      --json             print problems as JSONL objects
                         {"file","line","rule","severity","message"}
      --ignore RULE      do not apply RULE (repeatable, or comma-separated)
      --max-warnings N   exit 1 when there are more than N warnings (as
                         eslint does): 0 makes any warning fail, such as a
                         killed stream in CI (default: no limit)
  -q, --quiet            no summary line on stderr

Rules:
${ruleList}

Exit status: 0 no errors (warnings allowed, up to --max-warnings), 1 errors
found or more warnings than --max-warnings, 2 usage error or unreadable input.
--strict stops at the first bad line.

Examples:
  wuu-check run.jsonl
  wuu-check --max-warnings 0 run.jsonl    # a strict CI gate
  wuu exec --json "fix the tests" | tee run.jsonl | wuu-check --json`,
  flags: {
    string: ['ignore', 'max-warnings'],
    values: { ignore: RULES.map((rule) => rule.id) },
    boolean: ['json', 'quiet'],
    alias: { q: 'quiet' },
    repeatable: ['ignore'],
  },
  create({ flags, positionals, warn, interrupted }) {
    const ignore = flags.list('ignore', true);
    for (const id of ignore) {
      if (!isRule(id)) throw new UsageError(`--ignore: unknown rule '${id}' (see --help for the list)`);
    }
    // eslint's "no limit" spelling, --max-warnings=-1, is accepted too.
    const maxWarnings = flags.string('max-warnings')?.trim() === '-1' ? -1 : (flags.int('max-warnings', { min: 0 }) ?? -1);
    const core = createCheck({
      json: flags.bool('json'),
      ignore,
      summary: flags.bool('quiet') ? undefined : warn,
      maxWarnings: maxWarnings < 0 ? undefined : maxWarnings,
      interrupted,
    });
    return { core, inputs: positionals };
  },
};

runIfMain(spec, import.meta.url);
