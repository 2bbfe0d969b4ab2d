#!/usr/bin/env node
import fs from 'node:fs';
import { createFilter, FAMILY_NAMES, splitPositionals } from '../lib/filter/index.js';
import { JsonPathError } from '../lib/jsonpath.js';
import { runIfMain, UsageError, type ToolSpec } from '../lib/cli/index.js';

export const spec: ToolSpec = {
  name: 'wuu-filter',
  summary: 'keep the events that match types, families, ids or JSONPath',
  usage: `Usage: wuu-filter [OPTION]... [SELECTOR]... [FILE]...
Pass through the events whose type matches any SELECTOR (all events when none
is given) and that meet every other condition. Matching events are written
byte for byte as they came.

A SELECTOR is an exact type (tool_started), a glob (tool_*), or a family:
  ${FAMILY_NAMES.slice(0, 8).join(', ')},
  ${FAMILY_NAMES.slice(8).join(', ')}
  (tool = tool_* and command_*; usage = usage_updated and turn_completed;
   diag = provider_state, request_context;
   session = session_configured, thread_*)
An argument with a '/' or a '.', '-', or the name of an existing file or
directory is an input FILE.

Options:
  -v, --invert           keep the events that do NOT match
      --thread ID        thread_id is ID (repeatable; any of them)
      --turn ID          turn_id is ID (repeatable)
      --item ID          item_id is ID (repeatable)
      --agent ID         agent_id is ID (repeatable)
      --run ID           run_id is ID (repeatable)
      --where COND       a JSONPath condition (repeatable; all must hold):
                         PATH             PATH selects something
                         PATH OP VALUE    a selected value compares so, with
                                          OP one of == != < <= > >= and ~=
                                          (regex, RE2 syntax); VALUE is JSON
                                          ("bash", 3, null) or a bare word;
                                          != holds when no value equals VALUE
                         $.arguments.KEY reads a tool's decoded arguments.
                         Filter/script expressions such as ?() and more than
                         one recursive descent (..) are refused.
      --keep-result      always pass the final result event
      --count            print "TYPE<TAB>COUNT" per matching type and a total
                         instead of the events

Examples:
  wuu exec --json "fix the tests" | wuu-filter tool
  wuu-filter -v diag message run.jsonl
  wuu-filter --where '$.name==bash' tool_started run.jsonl
  wuu-filter --where '$.arguments.command~=^git' tool_started run.jsonl
  wuu-filter --count run.jsonl`,
  flags: {
    string: ['thread', 'turn', 'item', 'agent', 'run', 'where'],
    boolean: ['invert', 'keep-result', 'count'],
    alias: { v: 'invert' },
    repeatable: ['thread', 'turn', 'item', 'agent', 'run', 'where'],
  },
  create({ flags, positionals, warn }) {
    const { selectors, inputs, warnings } = splitPositionals(positionals, fs.existsSync);
    for (const warning of warnings) warn(warning);
    try {
      const core = createFilter({
        selectors,
        invert: flags.bool('invert'),
        threads: flags.list('thread'),
        turns: flags.list('turn'),
        items: flags.list('item'),
        agents: flags.list('agent'),
        runs: flags.list('run'),
        where: flags.list('where'),
        keepResult: flags.bool('keep-result'),
        count: flags.bool('count'),
      });
      return { core, inputs };
    } catch (err) {
      if (err instanceof JsonPathError) throw new UsageError(err.message);
      throw err;
    }
  },
};

runIfMain(spec, import.meta.url);
