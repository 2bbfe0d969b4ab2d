#!/usr/bin/env node
import { createFilter, FAMILY_NAMES, isInputArgument, unknownSelectors } from '../lib/filter.js';
import { JsonPathError } from '../lib/jsonpath.js';
import { runIfMain, UsageError, type ToolSpec } from '../lib/runner.js';

export const spec: ToolSpec = {
  name: 'wuu-filter',
  summary: 'keep the events that match types, families, ids or JSONPath',
  usage: `Usage: wuu-filter [OPTION]... [SELECTOR]... [FILE]...
Pass through the events whose type matches any SELECTOR (all events when none
is given) and that meet every other condition. Matching events are written
byte for byte as they came.

A SELECTOR is an exact type (tool_started), a glob (tool_*), or a family:
  ${FAMILY_NAMES.join(', ')}
  (tool = tool_* and command_*; usage = usage_updated and turn_completed;
   diag = provider_state, request_context; session = session_configured, thread_*)
An argument with a '/' or a '.', or '-', is an input FILE; use ./name for a
file whose name has neither.

Options:
  -v, --invert           keep the events that do NOT match
      --thread ID        thread_id is ID (repeatable; any of them)
      --turn ID          turn_id is ID (repeatable)
      --item ID          item_id is ID (repeatable)
      --agent ID         agent_id is ID (repeatable)
      --run ID           run_id is ID (repeatable)
      --where PATH       the JSONPath PATH selects something (repeatable; all
                         must hold); PATH==VALUE: a selected value equals VALUE.
                         Filter/script expressions such as ?() are disabled.
      --keep-result      always pass the final result event
      --count            print "TYPE<TAB>COUNT" per matching type and a total
                         instead of the events

Examples:
  wuu exec --json "fix the tests" | wuu-filter tool
  wuu-filter -v diag message run.jsonl
  wuu-filter --where '$.name==bash' tool_started run.jsonl
  wuu-filter --count run.jsonl`,
  flags: {
    string: ['thread', 'turn', 'item', 'agent', 'run', 'where'],
    boolean: ['invert', 'keep-result', 'count'],
    alias: { v: 'invert' },
    repeatable: ['thread', 'turn', 'item', 'agent', 'run', 'where'],
  },
  create({ flags, positionals, warn }) {
    const selectors = positionals.filter((arg) => !isInputArgument(arg));
    for (const name of unknownSelectors(selectors)) {
      warn(`warning: '${name}' is not a known event type or family; it matches only that exact type`);
    }
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
      return { core, inputs: positionals.filter(isInputArgument) };
    } catch (err) {
      if (err instanceof JsonPathError) throw new UsageError(err.message);
      throw err;
    }
  },
};

runIfMain(spec, import.meta.url);
