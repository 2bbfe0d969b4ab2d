#!/usr/bin/env node
import { DEFAULT_MAX_MESSAGE_BYTES } from '../lib/accumulate.js';
import { createTurns, DEFAULT_MAX_TURN_BYTES } from '../lib/turns.js';
import { runIfMain, UsageError, type ToolSpec } from '../lib/runner.js';

export const spec: ToolSpec = {
  name: 'wuu-turns',
  summary: 'one record per turn: status, message, tool calls, files, usage',
  usage: `Usage: wuu-turns [OPTION]... [FILE]...
Write one {"type":"turn",...} record per turn as soon as the turn ends
(turn_completed, turn_failed, turn_interrupted); turns still open at result or
at the end of an input file are written with status "incomplete".

A record holds: thread_id, turn_id, status (completed, failed, interrupted,
incomplete), error, reason, awaiting_auto_continuation, trace_path, message and
message_source (as wuu-accumulate builds them), tool_calls [{item_id, name,
status, output_bytes}], files_changed, todo (the last payload), usage (the last
usage_updated snapshot, plus completed_input_tokens/completed_output_tokens
from turn_completed) and event_counts {type: n}.

Events that belong to no turn (session_configured, thread_*, subagent_*,
error, result) pass through unchanged, so the output is still a stream.

Options:
      --events               embed the turn's events (an "events" array, original
                             bytes) instead of the summary
      --max-turn-bytes N     with --events: event bytes kept per turn; later
                             events are counted in events_dropped (default 16M;
                             K, M, G suffixes); the turn-end event is always kept
      --only-turns           drop the events that belong to no turn
      --keep-removed         list withdrawn tool calls with status "removed"
      --max-message-bytes N  text kept of the message, head and tail (default 4M)

Examples:
  wuu exec --json "fix the tests" | wuu-turns --only-turns
  wuu-turns --only-turns examples/run.jsonl`,
  flags: {
    string: ['max-turn-bytes', 'max-message-bytes'],
    boolean: ['events', 'only-turns', 'keep-removed'],
  },
  create({ flags }) {
    const events = flags.bool('events');
    if (flags.has('max-turn-bytes') && !events) throw new UsageError('--max-turn-bytes needs --events');
    const core = createTurns({
      events,
      maxTurnBytes: flags.int('max-turn-bytes', { min: 0, size: true }) ?? DEFAULT_MAX_TURN_BYTES,
      onlyTurns: flags.bool('only-turns'),
      keepRemoved: flags.bool('keep-removed'),
      maxMessageBytes: flags.int('max-message-bytes', { min: 0, size: true }) ?? DEFAULT_MAX_MESSAGE_BYTES,
    });
    return { core };
  },
};

runIfMain(spec, import.meta.url);
