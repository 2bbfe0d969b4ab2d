#!/usr/bin/env node
import { createAccumulate, DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_OPEN, DEFAULT_MAX_OUTPUT_BYTES } from '../lib/accumulate/index.js';
import { runIfMain, type ToolSpec } from '../lib/cli/index.js';

export const spec: ToolSpec = {
  name: 'wuu-accumulate',
  summary: 'fold streamed deltas into whole messages and tool calls',
  usage: `Usage: wuu-accumulate [OPTION]... [FILE]...
Replace the streamed pieces of the event stream with whole events; every other
event passes through unchanged (byte for byte), in order.

  agent_message_delta* + agent_message_final   ->  agent_message
      {type, thread_id, turn_id, message, source: "final"|"deltas"}
      emitted at agent_message_final (whose text replaces the deltas), or just
      before the turn ends when no final came
  tool_started + tool_output_delta* + tool_completed (+ command_* twins)
                                               ->  tool_call
      {type, thread_id, turn_id, item_id, name, arguments (parsed),
       arguments_raw, command, process_id (bash), status, error, exit_code
       (bash), output, output_bytes, output_truncated_bytes}
      emitted at tool_completed; bash output is taken once, never twice

A bash call's exit_code is read from its output's last line: 'Exit code N' is
N; a completed call whose output ends otherwise exited 0; null when the output
does not say (none, a background start, a timeout). A failing command is still
a "completed" tool: its exit code is the only sign.

Items and messages still open when their turn ends, at result, or at the end
of an input file are emitted then (tool_call status "incomplete").
A withdrawn item (tool_removed) produces nothing.

Units are keyed by thread_id + turn_id (+ item_id): sub-agent threads write
their own tool events and turn ends, which end only that thread's units.

Options:
      --check                report turns whose deltas disagree with their
                             agent_message_final (FILE:LINE: on stderr), exit 1
      --max-output-bytes N   output kept per tool call, head and tail
                             (default 1M; K, M, G suffixes; 0 keeps none)
      --max-message-bytes N  text kept per agent message, head and tail
                             (default 4M)
      --keep-deltas          also pass the original pieces and command twins
      --keep-removed         pass tool_removed on for withdrawn items
      --max-open N           units (turns + tool items) held open at once; past
                             it a warning, and the oldest turns are written as
                             incomplete (default 10000)

Examples:
  wuu exec --json "fix the tests" | wuu-accumulate | wuu-filter tool_call
  wuu-accumulate --check examples/run.jsonl > /dev/null
  wuu-accumulate run.jsonl | wuu-filter tool_call --where '$.exit_code>0'`,
  flags: {
    string: ['max-output-bytes', 'max-message-bytes', 'max-open'],
    boolean: ['check', 'keep-deltas', 'keep-removed'],
  },
  create({ flags, warn }) {
    const core = createAccumulate({
      check: flags.bool('check'),
      maxOutputBytes: flags.int('max-output-bytes', { min: 0, size: true }) ?? DEFAULT_MAX_OUTPUT_BYTES,
      maxMessageBytes: flags.int('max-message-bytes', { min: 0, size: true }) ?? DEFAULT_MAX_MESSAGE_BYTES,
      keepDeltas: flags.bool('keep-deltas'),
      keepRemoved: flags.bool('keep-removed'),
      maxOpen: flags.int('max-open', { min: 1 }) ?? DEFAULT_MAX_OPEN,
      warn,
    });
    return { core };
  },
};

runIfMain(spec, import.meta.url);
