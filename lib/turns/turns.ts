/**
 * wuu-turns: one record per turn, emitted when the turn ends.
 *
 * The message and tool calls of a turn come from the same accumulator as
 * wuu-accumulate's (../accumulate/accumulator.ts). Events that belong to no
 * turn (session_configured, thread_*, subagent_*, error, result) pass through
 * as their original bytes, so the output stays a valid event stream.
 *
 * A line is read from its bytes where it has the producer's shape: most of a
 * turn's lines only for their ids, from the line's end (../accumulate/wire.ts).
 */
import type { Transform } from 'node:stream';
import { coreStream, type Core, type Emit } from '../core.js';
import { FAMILIES, isWireType, TURN_END_TYPES } from '../events.js';
import type { EventRecord, LineRecord } from '../jsonl.js';
import { escapeControls } from '../text.js';
import { RootThreads, ROOT_THREAD_TYPES } from '../threads.js';
import { builtRecord } from '../accumulate/accumulate.js';
import { createAccumulator, DEFAULT_MAX_OPEN, PIECE_TYPES, type Accumulator, type AccumulatorOptions, type AgentMessage, type Origin } from '../accumulate/accumulator.js';
import { FieldReader } from '../accumulate/read.js';
import { OldestFirst, TurnKeys } from '../accumulate/units.js';
import { key, type EventFields } from '../accumulate/wire.js';
import { countsObject, eventsHeader, splicedRecord, turnEnd, turnHeader, usageOf, type TurnEnd, type TurnRecord, type TurnToolCall, type TurnUsage } from './record.js';

export type { TurnHeader, TurnRecord, TurnStatus, TurnToolCall, TurnUsage } from './record.js';

/** Default cap on the event bytes held per turn with `events`: 16 MiB. */
export const DEFAULT_MAX_TURN_BYTES = 16 * 1024 * 1024;

/** Event types that never belong to a turn: passed through (or dropped with `onlyTurns`). */
export const OUTSIDE_TURN_TYPES: ReadonlySet<string> = new Set([...(FAMILIES.session ?? []), ...(FAMILIES.subagent ?? []), 'error', 'result']);

/** Outside-turn types whose content is read: they say which thread is the root. */
function observesThreads(type: string): boolean {
  return ROOT_THREAD_TYPES.has(type) || type.startsWith('subagent_');
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
  /** Most turns held open at once; past it the oldest is written as incomplete. Default {@link DEFAULT_MAX_OPEN}. */
  maxOpen?: number;
  /** Receives the one warning when `maxOpen` is passed. */
  warn?: (message: string) => void;
}

const F = {
  thread: key('thread_id', true),
  turn: key('turn_id', true),
  agent: key('agent_id'),
  todo: key('todo'),
  path: key('path'),
  movePath: key('move_path'),
};
const TURN_IDS = [F.thread, F.turn];
/** Turn events whose content a summary reads (the rest only count, by their ids). */
const READ_TYPES: ReadonlySet<string> = new Set(['usage_updated', 'todo_updated', 'file_changed', ...TURN_END_TYPES]);

/** What push does with a type, as bits: asked once per type, not five set lookups per line. */
const OUTSIDE = 1;
const READ = 2;
const WIRE = 4;
const END = 8;
const PIECE = 16;
/** Types whose kind is remembered: past it (a stream of made-up types) the kind is worked out each time. */
const MAX_KINDS = 4096;

function kindOf(type: string): number {
  if (OUTSIDE_TURN_TYPES.has(type)) return OUTSIDE;
  return (READ_TYPES.has(type) ? READ : 0) | (isWireType(type) ? WIRE : 0) | (TURN_END_TYPES.has(type) ? END : 0) | (PIECE_TYPES.has(type) ? PIECE : 0);
}

/** One open turn. */
class OpenTurn {
  readonly counts = new Map<string, number>();
  message: AgentMessage | undefined;
  readonly toolCalls: TurnToolCall[] = [];
  readonly files = new Set<string>();
  todo: unknown;
  usage: TurnUsage | undefined;
  /** With `events`: copies of the event lines, their bytes, and what did not fit. */
  readonly held: Buffer[] = [];
  heldBytes = 0;
  dropped = 0;
  /** Still in the core's open turns (finish clears it): the last turn pushed to is taken again without a lookup. */
  isOpen = true;

  constructor(
    readonly threadId: string,
    readonly turnId: string,
    readonly key: string,
  ) {}

  count(type: string): void {
    this.counts.set(type, (this.counts.get(type) ?? 0) + 1);
  }

  /** Keeps a copy of the event's line within `maxBytes` (`always` for the turn end); counts what does not fit. */
  hold(rec: EventRecord, maxBytes: number, always: boolean): void {
    // Copy: rec.raw may be a view into a shared input chunk.
    const bytes = rec.raw !== undefined ? Buffer.from(rec.raw) : Buffer.from(JSON.stringify(rec.event));
    if (!always && this.heldBytes + bytes.length > maxBytes) {
      this.dropped++;
      return;
    }
    this.held.push(bytes);
    this.heldBytes += bytes.length;
  }

  /** What a summary takes from a turn event other than a piece. */
  absorb(type: string, fields: EventFields): void {
    if (type === 'usage_updated') this.usage = usageOf(fields);
    else if (type === 'todo_updated') this.todo = fields.value(F.todo);
    else if (type === 'file_changed') {
      for (const field of [F.path, F.movePath]) {
        const path = fields.string(field);
        if (path !== undefined && path !== '') this.files.add(path);
      }
    }
  }

  summary(end: TurnEnd | undefined, subagent: boolean): TurnRecord {
    const h = turnHeader(this.threadId, this.turnId, end, subagent);
    // The header's keys first, in its order (the output's key order), one by
    // one: V8 builds an object with a spread (`...h`) here some hundred times slower.
    const record: TurnRecord = {
      type: h.type,
      thread_id: h.thread_id,
      turn_id: h.turn_id,
      status: h.status,
      error: h.error,
      reason: h.reason,
      awaiting_auto_continuation: h.awaiting_auto_continuation,
      trace_path: h.trace_path,
      subagent: h.subagent,
      message: this.message?.message ?? null,
      message_source: this.message?.source ?? null,
      tool_calls: this.toolCalls,
      files_changed: [...this.files],
      todo: this.todo ?? null,
      usage: this.usage ?? null,
      completed_tokens: end?.tokens ?? null,
      event_counts: countsObject(this.counts),
    };
    if (this.message?.message_truncated_bytes !== undefined) record.message_truncated_bytes = this.message.message_truncated_bytes;
    return record;
  }
}

/**
 * The core of wuu-turns. A turn's record is emitted at its turn_completed,
 * turn_failed or turn_interrupted; turns still open at `result` or at the end
 * of an input file are emitted with status `incomplete`. State is held only
 * for open turns (at most `maxOpen`), plus the keys of recently finished ones,
 * so a late end for a turn already written (exec's own turn_interrupted after
 * a result, or after the turn completed) passes through as an event instead
 * of making a second record. Events with an empty turn_id (exec-side ends
 * before any turn, setup failures) belong to no turn.
 */
class TurnsCore implements Core {
  private readonly maxTurnBytes: number;
  private readonly maxOpen: number;
  private readonly open = new Map<string, OpenTurn>();
  private readonly openOrder = new OldestFirst();
  private readonly finished = new Set<string>();
  private readonly finishedOrder = new OldestFirst();
  private readonly threads = new RootThreads();
  private readonly reader = new FieldReader();
  private readonly keys = new TurnKeys();
  private readonly kinds = new Map<string, number>();
  /** The turn the last line went to: a turn's lines mostly come one after another. */
  private last: OpenTurn | undefined;
  /** Summaries only: the turn's message and tool calls. */
  private readonly acc: Accumulator | undefined;
  private overflowed = false;

  // Every line is read from its bytes where it has the producer's shape, or parsed on demand.
  readonly needsParse = (): boolean => false;
  readonly passesThrough = true;
  // Nothing of a line outlives its push (Core.keepsNoBytes): held event lines
  // are copies (OpenTurn.hold), and every value read is a string, number or
  // parsed object; the accumulator copies what it keeps of a piece.
  readonly keepsNoBytes = true;

  /** Proves a line in the read that serves its `push` (Core.proves): one reader for this core and its accumulator. */
  proves(rec: LineRecord): boolean {
    return this.acc !== undefined ? this.acc.prove(rec) : this.reader.prove(rec);
  }

  constructor(private readonly options: TurnsOptions) {
    this.maxTurnBytes = options.maxTurnBytes ?? DEFAULT_MAX_TURN_BYTES;
    this.maxOpen = options.maxOpen ?? DEFAULT_MAX_OPEN;
    if (!options.events) this.acc = this.accumulator();
  }

  /**
   * Summaries need only byte counts of tool output, never the output itself.
   * The accumulator holds only units of open turns, so this core's cap bounds it.
   */
  private accumulator(): Accumulator {
    const keys = new TurnKeys();
    const turnOf = (threadId: string, turnId: string) => this.open.get(keys.of(threadId, turnId));
    return createAccumulator(
      { maxOutputBytes: 0, maxMessageBytes: this.options.maxMessageBytes, maxOpen: Infinity, outline: true },
      {
        message(message) {
          const turn = turnOf(message.thread_id, message.turn_id);
          if (turn) turn.message = message;
        },
        tool(call) {
          const { item_id, name, status, exit_code, output_bytes } = call;
          const entry: TurnToolCall = exit_code === undefined ? { item_id, name, status, output_bytes } : { item_id, name, status, exit_code, output_bytes };
          turnOf(call.thread_id, call.turn_id)?.toolCalls.push(entry);
        },
        removed: (item) => {
          if (!this.options.keepRemoved) return;
          turnOf(item.thread_id, item.turn_id)?.toolCalls.push({ item_id: item.item_id, name: item.name, status: 'removed', output_bytes: 0 });
        },
      },
      this.reader,
    );
  }

  push(rec: EventRecord, emit: Emit): void {
    const type = rec.type;
    const kind = this.kind(type);
    if ((kind & OUTSIDE) !== 0) return this.outside(rec, emit);
    const fields = (kind & READ) !== 0 ? this.reader.all(rec) : this.reader.some(rec, TURN_IDS);
    const threadId = fields.string(F.thread) ?? '';
    const turnId = fields.string(F.turn) ?? '';
    if (type === 'turn_started') this.threads.observe(type, threadId);
    const key = this.keys.of(threadId, turnId);
    const last = this.last;
    let turn = last !== undefined && last.isOpen && last.key === key ? last : this.open.get(key);
    // An unknown type belongs to a turn only when it names one (turn_id) that is open.
    if ((kind & WIRE) === 0 && (turn === undefined || fields.string(F.turn) === undefined)) return this.pass(rec, emit);
    // No turn id (exec-side ends before any turn), or a turn already written: not a turn's event.
    if (turn === undefined && (turnId === '' || this.finished.has(key))) return this.pass(rec, emit);
    turn ??= this.start(threadId, turnId, key, rec, emit);
    this.last = turn;
    turn.count(type);
    const end = (kind & END) !== 0;
    if (this.acc === undefined) turn.hold(rec, this.maxTurnBytes, end);
    else if ((kind & PIECE) !== 0) this.acc.piece(rec);
    else turn.absorb(type, fields);
    if (!end) return;
    this.acc?.endTurn(rec);
    this.finish(turn, turnEnd(type, fields), originOf(rec), emit);
  }

  /** The kind of a type (see {@link kindOf}), remembered for the first {@link MAX_KINDS} types. */
  private kind(type: string): number {
    let kind = this.kinds.get(type);
    if (kind === undefined) {
      kind = kindOf(type);
      if (this.kinds.size < MAX_KINDS) this.kinds.set(type, kind);
    }
    return kind;
  }

  endFile(_file: string, emit: Emit): void {
    this.flushAll(undefined, emit);
    // A new input file is a new run.
    this.finished.clear();
    this.finishedOrder.clear();
    this.openOrder.clear();
    this.threads.reset();
  }

  /** An event that belongs to no turn. */
  private outside(rec: EventRecord, emit: Emit): void {
    const type = rec.type;
    if (observesThreads(type)) {
      const fields = this.reader.all(rec);
      this.threads.observe(type, fields.value(F.thread), fields.value(F.agent));
    }
    // Turns still open when the run ends are over: their records go before `result`.
    if (type === 'result') this.flushAll(originOf(rec), emit);
    this.pass(rec, emit);
  }

  private pass(rec: EventRecord, emit: Emit): void {
    if (!this.options.onlyTurns) emit(rec);
  }

  private start(threadId: string, turnId: string, key: string, rec: EventRecord, emit: Emit): OpenTurn {
    const turn = new OpenTurn(threadId, turnId, key);
    this.open.set(key, turn);
    this.openOrder.push(key);
    this.bound(originOf(rec), emit);
    return turn;
  }

  /** Keeps at most maxOpen turns: the oldest are written as incomplete, with one warning. */
  private bound(at: Origin, emit: Emit): void {
    if (this.open.size <= this.maxOpen) return;
    if (!this.overflowed) {
      this.overflowed = true;
      const where = at ? `${escapeControls(at.file)}:${at.line}: ` : '';
      this.options.warn?.(`${where}more than ${this.maxOpen} turns open at once (--max-open): the oldest are written as incomplete`);
    }
    this.openOrder.evictWhile(
      () => this.open.size > this.maxOpen,
      (k) => this.open.has(k),
      (k) => {
        const turn = this.open.get(k);
        if (turn === undefined) return;
        this.acc?.flushTurn(turn.threadId, turn.turnId, at);
        this.finish(turn, undefined, at, emit);
      },
    );
  }

  private finish(turn: OpenTurn, end: TurnEnd | undefined, at: Origin, emit: Emit): void {
    this.open.delete(turn.key);
    turn.isOpen = false;
    if (!this.finished.has(turn.key)) {
      this.finished.add(turn.key);
      this.finishedOrder.push(turn.key);
    }
    // Remember recent ends only: the oldest keys go first.
    this.finishedOrder.evictWhile(
      () => this.finished.size > this.maxOpen,
      (k) => this.finished.has(k),
      (k) => this.finished.delete(k),
    );
    const subagent = !this.threads.isRoot(turn.threadId);
    if (this.options.events) {
      emit(splicedRecord(eventsHeader(turnHeader(turn.threadId, turn.turnId, end, subagent), turn.dropped), turn.held, at));
    } else {
      emit(builtRecord(turn.summary(end, subagent), 'todo', at));
    }
  }

  private flushAll(at: Origin, emit: Emit): void {
    this.acc?.flushAll(at);
    for (const turn of [...this.open.values()]) this.finish(turn, undefined, at, emit);
  }
}

function originOf(rec: EventRecord): Origin {
  return { file: rec.file, line: rec.line };
}

/** The core of wuu-turns (see {@link TurnsCore}). */
export function createTurns(options: TurnsOptions = {}): Core {
  return new TurnsCore(options);
}

/** Object-mode stream version of {@link createTurns}. */
export function turns(options: TurnsOptions = {}): Transform {
  return coreStream(createTurns(options));
}
