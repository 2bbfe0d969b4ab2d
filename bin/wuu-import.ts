#!/usr/bin/env node
import { createImport, FROM_VALUES, isFrom, KNOWN_PRODUCERS } from '../lib/import/index.js';
import { runIfMain, UsageError, type ToolSpec } from '../lib/cli/index.js';

export const spec: ToolSpec = {
  name: 'wuu-import',
  summary: "turn Codex, Claude Code and Gemini CLI streams into 'wuu exec --json' events",
  usage: `Usage: wuu-import [OPTION]... [FILE]...
Read the JSONL stream of another coding-agent CLI and write it as wuu events,
one per line in the wuu producer's own encoding, so every wuu-stream tool can
read it. Each line's events are written as soon as the line is read. A
'wuu exec --json' stream passes through byte for byte. Each FILE is its own
stream.

Producers (recognised from the first lines, or named with --from):
  ${KNOWN_PRODUCERS.join('\n  ')}

Options:
      --from PRODUCER    auto (default), claude, codex or gemini

Exit status: 0 converted, 1 bad lines, 2 usage error or an input that is not
a stream of a known producer (the message names the producers known).

Examples:
  codex exec --json "fix the tests" | wuu-import | tee run.jsonl | wuu-result
  claude -p --output-format stream-json --verbose "fix the tests" | wuu-import | wuu-pretty
  wuu-import --from gemini session.jsonl | wuu-redact > share.jsonl`,
  flags: {
    string: ['from'],
    values: { from: FROM_VALUES },
  },
  create({ flags, warn }) {
    const from = flags.string('from') ?? 'auto';
    if (!isFrom(from)) {
      throw new UsageError(`--from must be one of ${FROM_VALUES.join(', ')} (got '${from}')`);
    }
    return { core: createImport({ from, warn }) };
  },
};

runIfMain(spec, import.meta.url);
