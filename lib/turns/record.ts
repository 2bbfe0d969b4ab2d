/**
 * What wuu-turns writes: the turn record (a summary, or the header with the
 * turn's events spliced in as their original bytes) and its usage in the
 * producer's token convention.
 */
import { cacheHitRatio, promptTokens, type Tokens, type WuuEvent } from '../events.js';
import type { EventRecord } from '../jsonl.js';
import type { AgentMessage, Origin } from '../accumulate/accumulator.js';
import { key, type EventFields } from '../accumulate/wire.js';

/** How a turn ended. */
export type TurnStatus = 'completed' | 'failed' | 'interrupted' | 'incomplete';

/** The status of each turn end. */
export const END_STATUS: ReadonlyMap<string, TurnStatus> = new Map([
  ['turn_completed', 'completed'],
  ['turn_failed', 'failed'],
  ['turn_interrupted', 'interrupted'],
]);

/** One tool call in a turn record. */
export interface TurnToolCall {
  item_id: string;
  name: string | null;
  /** tool_completed's status, `incomplete`, or `removed` (with `keepRemoved`). */
  status: string;
  /** bash calls only: the exit code from the output's trailer, or null (see lib/exit-code.ts). */
  exit_code?: number | null;
  output_bytes: number;
}

/**
 * Token usage of a turn in the producer's convention: `input_tokens` EXCLUDES
 * the cached parts, so the prompt the turn sent is
 * `input_tokens + cache_creation_tokens + cache_read_tokens` (`prompt_tokens`),
 * and `cache_hit` = `cache_read_tokens / prompt_tokens` (null for an empty
 * prompt). Taken from the turn's LAST usage_updated (snapshots are cumulative
 * per thread and turn; never summed).
 */
export interface TurnUsage {
  input_tokens: number;
  cache_creation_tokens: number;
  cache_read_tokens: number;
  prompt_tokens: number;
  output_tokens: number;
  cache_hit: number | null;
}

/** The fields every turn record has. */
export interface TurnHeader {
  type: 'turn';
  thread_id: string;
  turn_id: string;
  status: TurnStatus;
  /** turn_failed's error, else null. */
  error: string | null;
  /** turn_interrupted's reason (`interrupted`, `timeout`), else null. */
  reason: string | null;
  /** From turn_completed; null otherwise. */
  awaiting_auto_continuation: boolean | null;
  trace_path: string | null;
  /**
   * True for a sub-agent's turn: a thread other than the run's root thread
   * (thread_started/_resumed/_forked or turn_started). Its usage belongs to
   * that sub-agent, never to the main agent.
   */
  subagent: boolean;
}

/** A summary turn record (the default). */
export interface TurnRecord extends TurnHeader {
  message: string | null;
  message_source: AgentMessage['source'] | null;
  message_truncated_bytes?: number;
  tool_calls: TurnToolCall[];
  files_changed: string[];
  todo: unknown;
  /** The last usage_updated snapshot, or null when the turn had none. */
  usage: TurnUsage | null;
  /** turn_completed's own input_tokens/output_tokens, or null without one. */
  completed_tokens: { input_tokens: number | null; output_tokens: number | null } | null;
  event_counts: Record<string, number>;
}

const F = {
  input: key('input_tokens'),
  output: key('output_tokens'),
  cacheWrite: key('cache_creation_tokens'),
  cacheRead: key('cache_read_tokens'),
  awaiting: key('awaiting_auto_continuation'),
  trace: key('trace_path'),
  error: key('error'),
  reason: key('reason'),
};

/** A counter of a snapshot: a finite number, else 0 (the producer always writes integers). */
function counter(fields: EventFields, field: typeof F.input): number {
  const value = fields.value(field);
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' ? value : null;
}

/** A usage_updated snapshot in the producer's convention (see {@link TurnUsage}). */
export function usageOf(fields: EventFields): TurnUsage {
  const t: Tokens = {
    input_tokens: counter(fields, F.input),
    cache_creation_tokens: counter(fields, F.cacheWrite),
    cache_read_tokens: counter(fields, F.cacheRead),
    output_tokens: counter(fields, F.output),
  };
  // Key order is the record's output order; prompt and hit ratio by the one convention of events.ts.
  return {
    input_tokens: t.input_tokens,
    cache_creation_tokens: t.cache_creation_tokens,
    cache_read_tokens: t.cache_read_tokens,
    prompt_tokens: promptTokens(t),
    output_tokens: t.output_tokens,
    cache_hit: cacheHitRatio(t),
  };
}

/** What a turn's end says, read when it comes (nothing for a turn written as incomplete). */
export interface TurnEnd {
  status: TurnStatus;
  error: string | null;
  reason: string | null;
  awaiting: boolean | null;
  trace: string | null;
  /** turn_completed's own counts. */
  tokens: TurnRecord['completed_tokens'];
}

/** The end of a turn as its end event says (`type` one of {@link END_STATUS}). */
export function turnEnd(type: string, fields: EventFields): TurnEnd {
  const error = type === 'turn_failed' ? fields.value(F.error) : undefined;
  const reason = type === 'turn_interrupted' ? fields.value(F.reason) : undefined;
  const awaiting = fields.value(F.awaiting);
  const trace = fields.value(F.trace);
  return {
    status: END_STATUS.get(type) ?? 'incomplete',
    error: typeof error === 'string' ? error : null,
    reason: typeof reason === 'string' ? reason : null,
    awaiting: typeof awaiting === 'boolean' ? awaiting : null,
    trace: typeof trace === 'string' ? trace : null,
    tokens: type === 'turn_completed' ? { input_tokens: numberOrNull(fields.value(F.input)), output_tokens: numberOrNull(fields.value(F.output)) } : null,
  };
}

/**
 * The header of a turn record. Records are spelled out field by field, here
 * and in the summary: V8 builds an object from a spread (`{...header}`) tens
 * of times slower, once per turn.
 */
export function turnHeader(threadId: string, turnId: string, end: TurnEnd | undefined, subagent: boolean): TurnHeader {
  return {
    type: 'turn',
    thread_id: threadId,
    turn_id: turnId,
    status: end?.status ?? 'incomplete',
    error: end?.error ?? null,
    reason: end?.reason ?? null,
    awaiting_auto_continuation: end?.awaiting ?? null,
    trace_path: end?.trace ?? null,
    subagent,
  };
}

/** The header of a record with embedded events, and how many did not fit. */
export function eventsHeader(h: TurnHeader, dropped: number): TurnHeader & { events_dropped: number } {
  // The header's own keys first, in its order: the record's JSON key order is part of the output (spelled out, see summary()).
  return {
    type: h.type,
    thread_id: h.thread_id,
    turn_id: h.turn_id,
    status: h.status,
    error: h.error,
    reason: h.reason,
    awaiting_auto_continuation: h.awaiting_auto_continuation,
    trace_path: h.trace_path,
    subagent: h.subagent,
    events_dropped: dropped,
  };
}

/** Counts by type as an object in first-seen order (a type named __proto__ is just a key). */
export function countsObject(counts: ReadonlyMap<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [type, n] of counts) {
    if (type === '__proto__') Object.defineProperty(out, type, { value: n, enumerable: true, writable: true, configurable: true });
    else out[type] = n;
  }
  return out;
}

const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']}');

/**
 * A record whose bytes are spliced from held event lines, so embedded events
 * keep their original bytes; `event` is parsed from them when asked for.
 */
export function splicedRecord(header: object, lines: Buffer[], at: Origin): EventRecord {
  const head = JSON.stringify(header);
  const parts: Buffer[] = [Buffer.from(`${head.slice(0, -1)},"events":[`)];
  lines.forEach((line, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(line);
  });
  parts.push(CLOSE);
  const raw = Buffer.concat(parts);
  let parsed: WuuEvent | undefined;
  return {
    type: 'turn',
    raw,
    file: at?.file ?? '-',
    line: at?.line ?? 0,
    get event(): WuuEvent {
      parsed ??= JSON.parse(raw.toString('utf8')) as WuuEvent;
      return parsed;
    },
  };
}
