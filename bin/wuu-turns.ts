#!/usr/bin/env node
import { DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_OPEN } from '../lib/accumulate/index.js';
import { createTurns, DEFAULT_MAX_TURN_BYTES } from '../lib/turns/index.js';
import { runIfMain, UsageError, type ToolSpec } from '../lib/cli/index.js';

export const spec: ToolSpec = {
  name: 'wuu-turns',
  summary: 'one record per turn: status, message, tool calls, files, usage',
  usage: `Usage: wuu-turns [OPTION]... [FILE]...
Write one {"type":"turn",...} record per turn as soon as the turn ends
(turn_completed, turn_failed, turn_interrupted); turns still open at result or
at the end of an input file are written with status "incomplete".

A record holds: thread_id, turn_id, status (completed, failed, interrupted,
incomplete), error, reason, awaiting_auto_continuation, trace_path, subagent,
message and message_source (as wuu-accumulate builds them), tool_calls
[{item_id, name, status, exit_code (bash), output_bytes}], files_changed,
todo (the last payload), usage, completed_tokens (turn_completed's
input/output) and event_counts {type: n}.

usage is the turn's LAST usage_updated snapshot (they are cumulative), in the
producer's convention: input_tokens EXCLUDES the cache, so prompt_tokens =
input_tokens + cache_creation_tokens + cache_read_tokens, cache_hit =
cache_read_tokens / prompt_tokens; null when the turn had no snapshot.

Turns are keyed by thread_id + turn_id. The root thread is the one of
thread_started/_resumed/_forked (or turn_started); a sub-agent's thread writes
its own turn ends, usage and tools: its turns get "subagent": true and their
usage is that sub-agent's, never the main agent's.

Events that belong to no turn (session_configured, thread_*, subagent_*,
error, result, and turn events with an empty turn_id or for a turn already
written) pass through unchanged, so the output is still a stream.

Options:
      --events               embed the turn's events (an "events" array,
                             original bytes) instead of the summary
      --max-turn-bytes N     with --events: event bytes kept per turn; later
                             events are counted in events_dropped (default
                             16M; K, M, G suffixes); the turn end is always kept
      --only-turns           drop the events that belong to no turn
      --keep-removed         list withdrawn tool calls with status "removed"
      --max-message-bytes N  text kept of the message, head and tail
                             (default 4M)
      --max-open N           turns held open at once; past it a warning, and the
                             oldest are written as incomplete (default 10000)

Examples:
  wuu exec --json "fix the tests" | wuu-turns --only-turns
  wuu-turns --only-turns examples/run.jsonl`,
  flags: {
    string: ['max-turn-bytes', 'max-message-bytes', 'max-open'],
    boolean: ['events', 'only-turns', 'keep-removed'],
  },
  create({ flags, warn }) {
    const events = flags.bool('events');
    if (flags.has('max-turn-bytes') && !events) throw new UsageError('--max-turn-bytes needs --events');
    const core = createTurns({
      events,
      maxTurnBytes: flags.int('max-turn-bytes', { min: 0, size: true }) ?? DEFAULT_MAX_TURN_BYTES,
      onlyTurns: flags.bool('only-turns'),
      keepRemoved: flags.bool('keep-removed'),
      maxMessageBytes: flags.int('max-message-bytes', { min: 0, size: true }) ?? DEFAULT_MAX_MESSAGE_BYTES,
      maxOpen: flags.int('max-open', { min: 1 }) ?? DEFAULT_MAX_OPEN,
      warn,
    });
    return { core };
  },
};

runIfMain(spec, import.meta.url);
