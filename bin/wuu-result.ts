#!/usr/bin/env node
import { createResult, type ResultMode } from '../lib/result/index.js';
import { runIfMain, SideOutput, UsageError, type ToolSpec } from '../lib/cli/index.js';

export const spec: ToolSpec = {
  name: 'wuu-result',
  summary: "print the run's answer and exit with a status that mirrors it",
  usage: `Usage: wuu-result [OPTION]... [FILE]...
Print the final_message of the run's result event, followed by a newline, and
exit with a status that mirrors result.status. Meant as the CI step that fails
the build:  wuu exec --json "..." | tee run.jsonl | wuu-result

Each FILE is its own run: its output is printed in order, and the first run
that did not complete decides the exit status. A run that did not complete is
reported on stderr as 'wuu-result: FILE: status STATUS: ERROR'; an error event
(the final schema validation disagreed) as 'wuu-result: FILE:LINE: error
event: ERROR', without changing the exit status.

Options:
      --structured       print structured_result as JSON instead (exit 9 when a
                         completed run has none)
      --json             print the whole result event, as its original bytes
      --tee              copy the stream to stdout unchanged, each event as it
                         arrives; the output goes to --output FILE (required)
  -o, --output FILE      write the output to FILE instead of stdout (FILE is
                         truncated at start; empty when there is no result)

Exit status (beyond 1 bad data, 2 usage):
  0 completed   3 failed   4 permission_denied   5 timeout   6 interrupted
  7 no result event (the producer was killed or the stream was cut, or the
    input was empty)
  8 unknown or missing status   9 --structured: no structured_result

Examples:
  wuu exec --json "fix the tests" | tee run.jsonl | wuu-result
  wuu-result --structured structured.jsonl
  wuu exec --json "..." | wuu-result --tee -o msg.txt | wuu-filter tool`,
  flags: {
    string: ['output'],
    boolean: ['structured', 'json', 'tee'],
    alias: { o: 'output' },
  },
  create({ flags, positionals, warn, interrupted }) {
    if (flags.bool('structured') && flags.bool('json')) throw new UsageError('--structured and --json exclude each other');
    const tee = flags.bool('tee');
    const output = flags.string('output');
    if (tee && output === undefined) throw new UsageError('--tee needs --output FILE for the message (stdout carries the stream)');
    let side: SideOutput | undefined;
    if (output !== undefined) {
      try {
        side = new SideOutput(output, warn);
      } catch (err) {
        throw new UsageError(`cannot write ${output}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const write = side && ((data: string | Buffer) => side.write(data));
    const mode: ResultMode = flags.bool('structured') ? 'structured' : flags.bool('json') ? 'json' : 'message';
    // Our own SIGINT/SIGTERM (the runner exits 130/143) must not read as a killed producer.
    const writeFailed = side && (() => side.failed);
    const core = createResult({ mode, tee, write, writeFailed, warn, interrupted });
    return { core, inputs: positionals };
  },
};

runIfMain(spec, import.meta.url);
