/**
 * wuu-turns: one record per turn, emitted when the turn ends.
 *
 * The message and tool calls of a turn come from the same accumulator as
 * wuu-accumulate's ({@link createAccumulator}). Events that belong to no turn
 * (session_configured, thread_*, subagent_*, error, result) pass through as
 * their original bytes, so the output stays a valid event stream.
 */
import type { Transform } from 'node:stream';
import { coreStream, type Core, type Emit } from './core.js';
import { FAMILIES, isWireType, TURN_END_TYPES, type WuuEvent } from './events.js';
import type { EventRecord } from './jsonl.js';
import {
  builtRecord,
  createAccumulator,
  idOf,
  ownField,
  PIECE_TYPES,
  turnKey,
  type AccumulatorOptions,
  type AgentMessage,
  type Origin,
} from './accumulate.js';

/** Default cap on the event bytes held per turn with `events`: 16 MiB. */
export const DEFAULT_MAX_TURN_BYTES = 16 * 1024 * 1024;

/** Event types that never belong to a turn: passed through (or dropped with `onlyTurns`). */
export const OUTSIDE_TURN_TYPES: ReadonlySet<string> = new Set([
  ...FAMILIES.session!,
  ...FAMILIES.subagent!,
  'error',
  'result',
]);

/** How a turn ended. */
export type TurnStatus = 'completed' | 'failed' | 'interrupted' | 'incomplete';

const END_STATUS: ReadonlyMap<string, TurnStatus> = new Map([
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
  output_bytes: number;
}

/** Token counts of a turn: the last usage_updated snapshot and turn_completed's own counts. */
export interface TurnUsage {
  input_tokens: number | null;
  output_tokens: number | null;
  cache_creation_tokens: number | null;
  cache_read_tokens: number | null;
  completed_input_tokens: number | null;
  completed_output_tokens: number | null;
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
}

/** A summary turn record (the default). */
export interface TurnRecord extends TurnHeader {
  message: string | null;
  message_source: AgentMessage['source'] | null;
  message_truncated_bytes?: number;
  tool_calls: TurnToolCall[];
  files_changed: string[];
  todo: unknown;
  usage: TurnUsage;
  event_counts: Record<string, number>;
}

/** Options of {@link createTurns}. */
export interface TurnsOptions extends Pick<AccumulatorOptions, 'maxMessageBytes'> {
  /** Embed the turn's events (`events` array) instead of the summary. */
  events?: boolean;
  /** With `events`: event bytes held per turn; later events are counted, not kept. */
  maxTurnBytes?: number;
  /** Drop the events that belong to no turn instead of passing them through. */
  onlyTurns?: boolean;
  /** List withdrawn tool calls with status `removed`. */
  keepRemoved?: boolean;
}

interface OpenTurn {
  threadId: string;
  turnId: string;
  counts: Map<string, number>;
  message: AgentMessage | undefined;
  toolCalls: TurnToolCall[];
  files: Set<string>;
  todo: unknown;
  usage: WuuEvent | undefined;
  /** With `events`: copies of the event lines, their bytes, and what did not fit. */
  held: Buffer[];
  heldBytes: number;
  dropped: number;
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' ? value : null;
}

/**
 * A record whose bytes are spliced from held event lines, so embedded events
 * keep their original bytes; `event` is parsed from them when asked for.
 */
function splicedRecord(header: Record<string, unknown>, lines: Buffer[], at: Origin): EventRecord {
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

const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']}');

/**
 * The core of wuu-turns. A turn's record is emitted at its turn_completed,
 * turn_failed or turn_interrupted; turns still open at `result` or at the end
 * of an input file are emitted with status `incomplete`. State is held only
 * for open turns.
 */
export function createTurns(options: TurnsOptions = {}): Core {
  const maxTurnBytes = options.maxTurnBytes ?? DEFAULT_MAX_TURN_BYTES;
  const open = new Map<string, OpenTurn>();

  // Summaries need only byte counts of tool output, never the output itself.
  const acc = createAccumulator(
    { maxOutputBytes: 0, maxMessageBytes: options.maxMessageBytes },
    {
      message(message) {
        const turn = open.get(turnKey(message.thread_id, message.turn_id));
        if (turn) turn.message = message;
      },
      tool(call) {
        const turn = open.get(turnKey(call.thread_id, call.turn_id));
        turn?.toolCalls.push({ item_id: call.item_id, name: call.name, status: call.status, output_bytes: call.output_bytes });
      },
      removed(item) {
        if (!options.keepRemoved) return;
        const turn = open.get(turnKey(item.thread_id, item.turn_id));
        turn?.toolCalls.push({ item_id: item.item_id, name: item.name, status: 'removed', output_bytes: 0 });
      },
    },
  );

  const header = (turn: OpenTurn, end: WuuEvent | undefined): TurnHeader => {
    const awaiting = end && ownField(end, 'awaiting_auto_continuation');
    const trace = end && ownField(end, 'trace_path');
    const error = end?.type === 'turn_failed' ? ownField(end, 'error') : undefined;
    const reason = end?.type === 'turn_interrupted' ? ownField(end, 'reason') : undefined;
    return {
      type: 'turn',
      thread_id: turn.threadId,
      turn_id: turn.turnId,
      status: (end && END_STATUS.get(end.type)) ?? 'incomplete',
      error: typeof error === 'string' ? error : null,
      reason: typeof reason === 'string' ? reason : null,
      awaiting_auto_continuation: typeof awaiting === 'boolean' ? awaiting : null,
      trace_path: typeof trace === 'string' ? trace : null,
    };
  };

  const summary = (turn: OpenTurn, end: WuuEvent | undefined): TurnRecord => {
    const usage = turn.usage;
    const completed = end?.type === 'turn_completed' ? end : undefined;
    const record: TurnRecord = {
      ...header(turn, end),
      message: turn.message?.message ?? null,
      message_source: turn.message?.source ?? null,
      tool_calls: turn.toolCalls,
      files_changed: [...turn.files],
      todo: turn.todo ?? null,
      usage: {
        input_tokens: usage ? numberOrNull(ownField(usage, 'input_tokens')) : null,
        output_tokens: usage ? numberOrNull(ownField(usage, 'output_tokens')) : null,
        cache_creation_tokens: usage ? numberOrNull(ownField(usage, 'cache_creation_tokens')) : null,
        cache_read_tokens: usage ? numberOrNull(ownField(usage, 'cache_read_tokens')) : null,
        completed_input_tokens: completed ? numberOrNull(ownField(completed, 'input_tokens')) : null,
        completed_output_tokens: completed ? numberOrNull(ownField(completed, 'output_tokens')) : null,
      },
      // fromEntries defines own properties, so a type named __proto__ is just a key.
      event_counts: Object.fromEntries(turn.counts),
    };
    if (turn.message?.message_truncated_bytes !== undefined) record.message_truncated_bytes = turn.message.message_truncated_bytes;
    return record;
  };

  const finish = (turn: OpenTurn, end: WuuEvent | undefined, at: Origin, emit: Emit) => {
    open.delete(turnKey(turn.threadId, turn.turnId));
    if (options.events) {
      emit(splicedRecord({ ...header(turn, end), events_dropped: turn.dropped }, turn.held, at));
    } else {
      emit(builtRecord(summary(turn, end), 'todo', at));
    }
  };

  const flushAll = (at: Origin, emit: Emit) => {
    if (!options.events) acc.flushAll(at);
    for (const turn of [...open.values()]) finish(turn, undefined, at, emit);
  };

  const hold = (turn: OpenTurn, rec: EventRecord, always: boolean) => {
    // Copy: rec.raw may be a view into a shared input chunk.
    const bytes = rec.raw !== undefined ? Buffer.from(rec.raw) : Buffer.from(JSON.stringify(rec.event));
    if (!always && turn.heldBytes + bytes.length > maxTurnBytes) {
      turn.dropped++;
      return;
    }
    turn.held.push(bytes);
    turn.heldBytes += bytes.length;
  };

  const absorb = (turn: OpenTurn, rec: EventRecord) => {
    const type = rec.type;
    turn.counts.set(type, (turn.counts.get(type) ?? 0) + 1);
    if (options.events) {
      hold(turn, rec, TURN_END_TYPES.has(type));
      return;
    }
    const event = rec.event;
    if (PIECE_TYPES.has(type)) acc.piece(rec);
    else if (type === 'usage_updated') turn.usage = event;
    else if (type === 'todo_updated') turn.todo = ownField(event, 'todo');
    else if (type === 'file_changed') {
      for (const field of ['path', 'move_path']) {
        const path = ownField(event, field);
        if (typeof path === 'string' && path !== '') turn.files.add(path);
      }
    }
  };

  return {
    needsParse: (type) => !OUTSIDE_TURN_TYPES.has(type),
    push(rec, emit) {
      const type = rec.type;
      if (OUTSIDE_TURN_TYPES.has(type)) {
        // Turns still open when the run ends are over: their records go before `result`.
        if (type === 'result') flushAll({ file: rec.file, line: rec.line }, emit);
        if (!options.onlyTurns) emit(rec);
        return;
      }
      const event = rec.event;
      const threadId = idOf(event, 'thread_id');
      const turnId = idOf(event, 'turn_id');
      const key = turnKey(threadId, turnId);
      let turn = open.get(key);
      // An unknown type belongs to a turn only when it names one (turn_id) that is open.
      if (!isWireType(type) && (turn === undefined || typeof ownField(event, 'turn_id') !== 'string')) {
        if (!options.onlyTurns) emit(rec);
        return;
      }
      if (turn === undefined) {
        turn = {
          threadId,
          turnId,
          counts: new Map(),
          message: undefined,
          toolCalls: [],
          files: new Set(),
          todo: undefined,
          usage: undefined,
          held: [],
          heldBytes: 0,
          dropped: 0,
        };
        open.set(key, turn);
      }
      absorb(turn, rec);
      if (TURN_END_TYPES.has(type)) {
        if (!options.events) acc.endTurn(rec);
        finish(turn, event, { file: rec.file, line: rec.line }, emit);
      }
    },
    endFile(_file, emit) {
      flushAll(undefined, emit);
    },
  };
}

/** Object-mode stream version of {@link createTurns}. */
export function turns(options: TurnsOptions = {}): Transform {
  return coreStream(createTurns(options));
}
