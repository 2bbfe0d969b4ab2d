/**
 * wuu-accumulate: replace streamed pieces with whole events.
 *
 * `agent_message_delta`/`agent_message_final` become one `agent_message`;
 * `tool_started`, `tool_output_delta`, `tool_completed` (and their bash
 * `command_*` twins) become one `tool_call`. Every other event passes through
 * as the same record, in order.
 *
 * The accumulation itself lives in {@link createAccumulator}, which wuu-turns
 * reuses, so both tools agree on what a turn's message and tool calls are.
 */
import type { Transform } from 'node:stream';
import { coreStream, type Core, type Emit } from '../core.js';
import { escapeControls } from '../text.js';
import { FAMILIES, isWireType, TURN_END_TYPES, type WuuEvent } from '../events.js';
import { LineRecord, makeRecord, type EventRecord } from '../jsonl.js';
import { stringLiteral, stringLiteralBytes, tailStrings } from '../scan.js';
import { turnKey } from '../threads.js';
import { deltaLine, eventOf, literalEnd, type DeltaLine } from './read.js';
import { exitCodeOf, isShellTool, OutputTrailer } from '../exit-code.js';
import { CappedText, OldestFirst } from './units.js';

/** Default cap on the output kept per tool call: 1 MiB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** Default cap on the text kept per agent message: 4 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** Default cap on units held open at once (turns plus tool items): 10,000. */
export const DEFAULT_MAX_OPEN = 10_000;
/** Bytes of a located (not decoded) output piece read for its trailer. */
const TRAILER_BYTES = 2048;

/** The event types the accumulator consumes: message pieces, tool_* and command_*. */
export const PIECE_TYPES: ReadonlySet<string> = new Set(
  // Wire types only: the derived agent_message and tool_call are whole units, passed through.
  [...FAMILIES.message!, ...FAMILIES.tool!].filter(isWireType),
);

/** A whole agent message, as emitted by wuu-accumulate. */
export interface AgentMessage {
  type: 'agent_message';
  thread_id: string;
  turn_id: string;
  message: string;
  /** `final` when agent_message_final supplied the text, `deltas` when only deltas did. */
  source: 'final' | 'deltas';
  /** Present only when the text exceeded the cap: bytes left out between head and tail. */
  message_truncated_bytes?: number;
}

/** A whole tool call, as emitted by wuu-accumulate. */
export interface ToolCall {
  type: 'tool_call';
  thread_id: string;
  turn_id: string;
  item_id: string;
  name: string | null;
  /** `arguments` parsed from its JSON string; null when absent or not valid JSON. */
  arguments: unknown;
  /** The JSON string as it came; null when absent. */
  arguments_raw: string | null;
  /** bash items: the command and process id from the command_* twins, when given. */
  command?: string;
  process_id?: string | number;
  /** tool_completed's status, or `incomplete` when the item never completed. */
  status: string;
  error: string | null;
  /**
   * bash calls only: the exit code read from the output's trailer (a last
   * line `Exit code N`; 0 for a completed call without one), null when the
   * output does not say (none, a background start, a timeout). See lib/exit-code.ts.
   */
  exit_code?: number | null;
  output: string;
  /** Output bytes seen in all (UTF-8). */
  output_bytes: number;
  /** Bytes left out of `output` (0 unless it exceeded the cap). */
  output_truncated_bytes: number;
}

/** A tool item withdrawn by tool_removed (or command_removed for a command-only item). */
export interface RemovedItem {
  thread_id: string;
  turn_id: string;
  item_id: string;
  name: string | null;
}

/** Where an emitted unit comes from, for records and messages. */
export type Origin = { file: string; line: number } | undefined;

/** What an accumulator reports; called synchronously from its methods. */
export interface AccumulatorSink {
  message(message: AgentMessage, at: Origin): void;
  tool(call: ToolCall, at: Origin): void;
  /** An item was withdrawn; `rec` is the tool_removed or command_removed record. */
  removed(item: RemovedItem, rec: EventRecord): void;
  /** agent_message_final disagrees with the deltas before it (only with `check`). */
  mismatch?(detail: string, at: EventRecord): void;
  /** More than `maxOpen` units were open: the oldest are being flushed (called once). */
  overflow?(maxOpen: number, at: Origin): void;
}

/** Options of {@link createAccumulator}. */
export interface AccumulatorOptions {
  /** Output bytes kept per tool call (head and tail). Default {@link DEFAULT_MAX_OUTPUT_BYTES}. */
  maxOutputBytes?: number;
  /** Message bytes kept per agent message (head and tail). Default {@link DEFAULT_MAX_MESSAGE_BYTES}. */
  maxMessageBytes?: number;
  /** Compare each agent_message_final with its deltas and report disagreements. */
  check?: boolean;
  /**
   * Most units (open turns plus open tool items) held at once. Past it, the
   * oldest turn is flushed as incomplete and `overflow` is told (once).
   * Default {@link DEFAULT_MAX_OPEN}; Infinity for no cap.
   */
  maxOpen?: number;
}

/** The shared message/tool accumulator. State exists only for open messages and items. */
export interface Accumulator {
  /** Feeds one event of {@link PIECE_TYPES} (`event`: its content, when already read; `delta`: a located delta line). */
  piece(rec: EventRecord, event?: WuuEvent, delta?: DeltaLine): void;
  /** Flushes the open units of the turn `rec` ends (call before passing the turn-end event on). */
  endTurn(rec: EventRecord): void;
  /** Flushes every open unit (end of input, or `result`). */
  flushAll(at?: Origin): void;
  /** Flushes the open units of one turn, as incomplete. */
  flushTurn(threadId: string, turnId: string, at: Origin): void;
  /** Open turns and items, for tests of bounded memory. */
  readonly openTurns: number;
  readonly openItems: number;
}

/** A field the event itself owns (never one inherited from a prototype). */
export function ownField(event: WuuEvent, field: string): unknown {
  return Object.hasOwn(event, field) ? (event as Record<string, unknown>)[field] : undefined;
}

/** An id field as a string: missing or non-string ids read as ''. */
export function idOf(event: WuuEvent, field: string): string {
  const value = ownField(event, field);
  return typeof value === 'string' ? value : '';
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Parses tool arguments: a JSON string becomes its value (null when not valid JSON). */
export function parseArguments(value: unknown): { arguments: unknown; arguments_raw: string | null } {
  if (typeof value === 'string') {
    try {
      return { arguments: JSON.parse(value) as unknown, arguments_raw: value };
    } catch {
      return { arguments: null, arguments_raw: value };
    }
  }
  if (value === undefined || value === null) return { arguments: null, arguments_raw: null };
  // Not the wire format (an object already): keep it, and its JSON as the raw form.
  return { arguments: value, arguments_raw: JSON.stringify(value) };
}

/**
 * A record for a built event, serialized now. A payload parsed from input
 * (`arguments`, `todo`) can be nested deeper than JSON.stringify's recursion
 * allows; it is then replaced by null and `<field>_error` says why, because
 * a unit flushed at end of input must never crash the tool.
 */
export function builtRecord(event: { type: string }, deepField: string, at: Origin): EventRecord {
  let built = event;
  let text: string;
  try {
    text = JSON.stringify(built);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    built = { ...event, [deepField]: null, [`${deepField}_error`]: 'nested too deeply to serialize' };
    text = JSON.stringify(built);
  }
  return { type: built.type, event: built as WuuEvent, raw: Buffer.from(text), file: at?.file ?? '-', line: at?.line ?? 0 };
}

interface ItemState {
  itemId: string;
  name: string | null;
  args: { arguments: unknown; arguments_raw: string | null } | undefined;
  command: string | undefined;
  processId: string | number | undefined;
  /** The tool_* copy of the output. */
  output: CappedText;
  /** The command_* copy, kept only while no tool_output_delta has been seen. */
  commandOutput: CappedText | undefined;
  /** The end of each copy, for a bash call's exit code (whatever the cap). */
  trailer: OutputTrailer;
  commandTrailer: OutputTrailer | undefined;
  sawToolEvent: boolean;
  sawToolDelta: boolean;
}

interface TurnState {
  threadId: string;
  turnId: string;
  /** The message being accumulated from deltas; undefined when none is open. */
  message: CappedText | undefined;
  items: Map<string, ItemState>;
}

/** Where a difference between two texts begins, in UTF-8 bytes. */
function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return Buffer.byteLength(a.slice(0, i));
}

/**
 * The message and tool-call accumulator shared by wuu-accumulate and
 * wuu-turns. Units are keyed by thread + turn (+ item), since item ids repeat
 * across turns and threads; a turn's state is dropped as soon as it holds no
 * open unit.
 */
export function createAccumulator(options: AccumulatorOptions, sink: AccumulatorSink): Accumulator {
  const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const maxMessage = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const maxOpen = options.maxOpen ?? DEFAULT_MAX_OPEN;
  const turns = new Map<string, TurnState>();
  let openItems = 0;
  let overflowed = false;

  const order = new OldestFirst();

  /** Keeps turns + items within maxOpen: the oldest turns go first, never `keep`. */
  const bound = (keep: TurnState, at: Origin) => {
    if (turns.size + openItems <= maxOpen) return;
    if (!overflowed) {
      overflowed = true;
      sink.overflow?.(maxOpen, at);
    }
    const keepKey = turnKey(keep.threadId, keep.turnId);
    let kept = false;
    while (turns.size + openItems > maxOpen) {
      const key = order.shift((k) => turns.has(k));
      if (key === undefined) break;
      if (key === keepKey) kept = true;
      else flushTurn(turns.get(key)!, at);
    }
    if (kept) order.push(keepKey);
  };

  const turnOf = (event: WuuEvent, create: boolean, at?: Origin): TurnState | undefined => {
    const threadId = idOf(event, 'thread_id');
    const turnId = idOf(event, 'turn_id');
    const key = turnKey(threadId, turnId);
    let turn = turns.get(key);
    if (turn === undefined && create) {
      turn = { threadId, turnId, message: undefined, items: new Map() };
      turns.set(key, turn);
      order.push(key);
      bound(turn, at);
    }
    return turn;
  };

  const release = (turn: TurnState) => {
    if (turn.message === undefined && turn.items.size === 0) turns.delete(turnKey(turn.threadId, turn.turnId));
  };

  const itemOf = (turn: TurnState, event: WuuEvent, create: boolean, at?: Origin): ItemState | undefined => {
    const itemId = idOf(event, 'item_id');
    let item = turn.items.get(itemId);
    if (item === undefined && create) {
      item = {
        itemId,
        name: null,
        args: undefined,
        command: undefined,
        processId: undefined,
        output: new CappedText(maxOutput),
        commandOutput: undefined,
        trailer: new OutputTrailer(),
        commandTrailer: undefined,
        sawToolEvent: false,
        sawToolDelta: false,
      };
      turn.items.set(itemId, item);
      openItems++;
      bound(turn, at);
    }
    return item;
  };

  const emitMessage = (turn: TurnState, text: CappedText, source: AgentMessage['source'], at: Origin) => {
    const { text: message, truncatedBytes } = text.result();
    const event: AgentMessage = { type: 'agent_message', thread_id: turn.threadId, turn_id: turn.turnId, message, source };
    if (truncatedBytes > 0) event.message_truncated_bytes = truncatedBytes;
    sink.message(event, at);
  };

  const completeItem = (turn: TurnState, item: ItemState, status: string, error: string | null, at: Origin) => {
    turn.items.delete(item.itemId);
    openItems--;
    // The tool_* copy is the output; the command_* copy only when no tool delta came.
    const twin = !item.sawToolDelta && item.commandOutput !== undefined;
    const text = twin ? item.commandOutput! : item.output;
    const trailer = twin ? item.commandTrailer! : item.trailer;
    const { text: output, truncatedBytes } = text.result();
    const args = item.args ?? { arguments: null, arguments_raw: null };
    const call: ToolCall = {
      type: 'tool_call',
      thread_id: turn.threadId,
      turn_id: turn.turnId,
      item_id: item.itemId,
      name: item.name,
      arguments: args.arguments,
      arguments_raw: args.arguments_raw,
      ...(item.command !== undefined && { command: item.command }),
      ...(item.processId !== undefined && { process_id: item.processId }),
      status,
      error,
      ...(isShellTool(item.name) && { exit_code: exitCodeOf(trailer, status) }),
      output,
      output_bytes: text.bytes,
      output_truncated_bytes: truncatedBytes,
    };
    sink.tool(call, at);
  };

  const flushTurn = (turn: TurnState, at: Origin) => {
    for (const item of [...turn.items.values()]) completeItem(turn, item, 'incomplete', null, at);
    if (turn.message !== undefined) {
      const text = turn.message;
      turn.message = undefined;
      emitMessage(turn, text, 'deltas', at);
    }
    turns.delete(turnKey(turn.threadId, turn.turnId));
  };

  /** Folds what a command_* twin adds: the command, the process id, the name and arguments. */
  const foldCommand = (item: ItemState, event: WuuEvent) => {
    const command = ownField(event, 'command');
    if (typeof command === 'string') item.command = command;
    const processId = ownField(event, 'process_id');
    if (typeof processId === 'string' || typeof processId === 'number') item.processId = processId;
    if (!item.sawToolEvent) {
      const name = ownField(event, 'name');
      if (typeof name === 'string') item.name = name;
      if (item.args === undefined && Object.hasOwn(event, 'arguments')) item.args = parseArguments(ownField(event, 'arguments'));
    }
  };

  /** A command_output_delta twin of an item whose tool_* output is already taken: nothing to read. */
  const takenTwin = (rec: EventRecord): boolean => {
    if (!(rec instanceof LineRecord)) return false;
    const ids = tailStrings(rec.source, 'item_id', rec.start, rec.end);
    if (ids === undefined || ids.type !== 'command_output_delta') return false;
    const turn = turns.get(turnKey(ids.thread_id ?? '', ids.turn_id ?? ''));
    return turn?.items.get(ids.item_id ?? '')?.sawToolDelta === true;
  };

  /** A delta line in the producer's shape, folded without a parse; false when it is not one. */
  const fastDelta = (rec: EventRecord, located: DeltaLine | undefined): boolean => {
    const line = located ?? deltaLine(rec);
    if (line === undefined) return false;
    const ids = line.ids as unknown as WuuEvent;
    const at = { file: rec.file, line: rec.line };
    if (rec.type === 'agent_message_delta') {
      const text = stringLiteral(line.source, line.open, line.close);
      if (text === undefined) return false;
      const turn = turnOf(ids, true, at)!;
      turn.message ??= new CappedText(maxMessage);
      turn.message.append(text);
      return true;
    }
    // Tool output: with nothing kept (wuu-turns) only its size counts, and its end for an exit code.
    let text: string | undefined;
    let bytes: number | undefined;
    let end: { text: string; partial: boolean } | undefined;
    const known = turns.get(turnKey(line.ids.thread_id ?? '', line.ids.turn_id ?? ''))?.items.get(line.ids.item_id ?? '');
    const shell = known === undefined || known.name === null || isShellTool(known.name);
    if (maxOutput === 0) {
      bytes = stringLiteralBytes(line.source, line.open, line.close);
      if (shell) end = literalEnd(line.source, line.open, line.close, TRAILER_BYTES);
      if (bytes === undefined || (shell && end === undefined)) return false;
    } else {
      text = stringLiteral(line.source, line.open, line.close);
      if (text === undefined) return false;
    }
    const turn = turnOf(ids, true, at)!;
    const item = itemOf(turn, ids, true, at)!;
    item.sawToolEvent = true;
    item.sawToolDelta = true;
    item.commandOutput = undefined;
    item.commandTrailer = undefined;
    if (text !== undefined) {
      item.output.append(text);
      if (shell) item.trailer.append(text);
    } else {
      item.output.count(bytes!);
      if (end !== undefined) item.trailer.appendEnd(end.text, end.partial);
    }
    return true;
  };

  const piece = (rec: EventRecord, read?: WuuEvent, located?: DeltaLine) => {
    // bash output arrives twice; the twin's copy is skipped unread when the tool_* copy came.
    if (read === undefined && rec.type === 'command_output_delta' && takenTwin(rec)) return;
    if (read === undefined && (rec.type === 'agent_message_delta' || rec.type === 'tool_output_delta') && fastDelta(rec, located)) return;
    const event = read ?? eventOf(rec);
    const at = { file: rec.file, line: rec.line };
    switch (rec.type) {
      case 'agent_message_delta': {
        const turn = turnOf(event, true, at)!;
        turn.message ??= new CappedText(maxMessage);
        const delta = ownField(event, 'delta');
        if (typeof delta === 'string') turn.message.append(delta);
        return;
      }
      case 'agent_message_final': {
        const turn = turnOf(event, true, at)!;
        const message = ownField(event, 'message');
        const final = new CappedText(maxMessage);
        if (typeof message === 'string') final.append(message);
        const deltas = turn.message;
        turn.message = undefined;
        if (options.check && deltas !== undefined) {
          const a = deltas.result();
          const b = final.result();
          // A cut text cannot be compared honestly; only whole texts are.
          if (a.truncatedBytes === 0 && b.truncatedBytes === 0 && a.text !== b.text) {
            const aBytes = Buffer.byteLength(a.text);
            const bBytes = Buffer.byteLength(b.text);
            const how = b.text.startsWith(a.text)
              ? `the deltas (${aBytes} bytes) are only a prefix of agent_message_final (${bBytes} bytes)`
              : `agent_message_final (${bBytes} bytes) differs from the deltas (${aBytes} bytes) at byte ${firstDifference(a.text, b.text)}`;
            sink.mismatch?.(`turn ${JSON.stringify(turn.turnId)} of thread ${JSON.stringify(turn.threadId)}: ${how}`, rec);
          }
        }
        emitMessage(turn, final, 'final', at);
        release(turn);
        return;
      }
      case 'tool_started': {
        const turn = turnOf(event, true, at)!;
        const item = itemOf(turn, event, true, at)!;
        item.sawToolEvent = true;
        const name = ownField(event, 'name');
        if (typeof name === 'string') item.name = name;
        item.args = parseArguments(ownField(event, 'arguments'));
        return;
      }
      case 'tool_output_delta': {
        const turn = turnOf(event, true, at)!;
        const item = itemOf(turn, event, true, at)!;
        item.sawToolEvent = true;
        item.sawToolDelta = true;
        item.commandOutput = undefined; // the twin copy is not needed any more
        item.commandTrailer = undefined;
        const delta = ownField(event, 'delta');
        if (typeof delta === 'string') {
          item.output.append(delta);
          item.trailer.append(delta);
        }
        return;
      }
      case 'tool_completed': {
        const turn = turnOf(event, true, at)!;
        const item = itemOf(turn, event, true, at)!;
        const name = ownField(event, 'name');
        if (typeof name === 'string') item.name = name;
        const status = ownField(event, 'status');
        completeItem(turn, item, typeof status === 'string' ? status : 'completed', stringOrNull(ownField(event, 'error')), at);
        release(turn);
        return;
      }
      case 'tool_removed': {
        const turn = turnOf(event, false);
        const item = turn && itemOf(turn, event, false);
        if (turn && item) {
          turn.items.delete(item.itemId);
          openItems--;
          release(turn);
        }
        sink.removed(
          { thread_id: idOf(event, 'thread_id'), turn_id: idOf(event, 'turn_id'), item_id: idOf(event, 'item_id'), name: item?.name ?? stringOrNull(ownField(event, 'name')) },
          rec,
        );
        return;
      }
      case 'command_started':
      case 'command_output_delta': {
        // A twin normally follows its tool_* event; alone it describes a command-only item.
        const turn = turnOf(event, true, at)!;
        const item = itemOf(turn, event, true, at)!;
        foldCommand(item, event);
        if (rec.type === 'command_output_delta' && !item.sawToolDelta) {
          const delta = ownField(event, 'delta');
          item.commandOutput ??= new CappedText(maxOutput);
          item.commandTrailer ??= new OutputTrailer();
          if (typeof delta === 'string') {
            item.commandOutput.append(delta);
            item.commandTrailer.append(delta);
          }
        }
        return;
      }
      case 'command_completed':
      case 'command_removed': {
        // The twin of a tool_completed/tool_removed already handled: consumed, never a second unit.
        const turn = turnOf(event, false);
        const item = turn && itemOf(turn, event, false);
        if (!turn || !item || item.sawToolEvent) return;
        foldCommand(item, event);
        if (rec.type === 'command_completed') {
          const status = ownField(event, 'status');
          completeItem(turn, item, typeof status === 'string' ? status : 'completed', stringOrNull(ownField(event, 'error')), at);
        } else {
          turn.items.delete(item.itemId);
          openItems--;
          sink.removed({ thread_id: turn.threadId, turn_id: turn.turnId, item_id: item.itemId, name: item.name }, rec);
        }
        release(turn);
        return;
      }
      default:
        return;
    }
  };

  return {
    piece,
    endTurn(rec) {
      const turn = turnOf(eventOf(rec), false);
      if (turn) flushTurn(turn, { file: rec.file, line: rec.line });
    },
    flushAll(at) {
      for (const turn of [...turns.values()]) flushTurn(turn, at);
    },
    flushTurn(threadId, turnId, at) {
      const turn = turns.get(turnKey(threadId, turnId));
      if (turn) flushTurn(turn, at);
    },
    get openTurns() {
      return turns.size;
    },
    get openItems() {
      return openItems;
    },
  };
}

/** Options of {@link createAccumulate}. */
export interface AccumulateOptions extends AccumulatorOptions {
  /** Also pass the original pieces (deltas, finals, tool_*, command_*) through. */
  keepDeltas?: boolean;
  /** Pass tool_removed on for withdrawn items instead of dropping them. */
  keepRemoved?: boolean;
  /** Receives `FILE:LINE: message` reports (with `check`). */
  warn?: (message: string) => void;
}

/**
 * The core of wuu-accumulate. Whole events are emitted as soon as they are
 * complete: an agent_message at agent_message_final (or just before the turn
 * ends), a tool_call at tool_completed; what is still open is flushed as
 * incomplete at a turn end, at `result`, and at the end of each input file.
 */
export function createAccumulate(options: AccumulateOptions = {}): Core {
  let out: Emit = () => {};
  let mismatches = 0;
  const acc = createAccumulator(options, {
    message: (event, at) => out(makeRecord(event as unknown as WuuEvent, at)),
    tool: (event, at) => out(builtRecord(event, 'arguments', at)),
    removed(item, rec) {
      // With --keep-deltas the original tool_removed/command_removed already passed.
      if (!options.keepRemoved || options.keepDeltas) return;
      if (rec.type === 'tool_removed') out(rec);
      else out(makeRecord({ type: 'tool_removed', thread_id: item.thread_id, turn_id: item.turn_id, item_id: item.item_id }, rec));
    },
    mismatch(detail, rec) {
      mismatches++;
      options.warn?.(`${escapeControls(rec.file)}:${rec.line}: ${escapeControls(detail)}`);
    },
    overflow(max, at) {
      options.warn?.(`${at ? `${escapeControls(at.file)}:${at.line}: ` : ''}more than ${max} units open at once (--max-open): the oldest turns are written as incomplete`);
    },
  });

  return {
    // Pieces are read by eventOf (no parse for the producer's flat lines); turn ends need a parse.
    needsParse: (type) => TURN_END_TYPES.has(type),
    passesThrough: true,
    push(rec, emit) {
      out = emit;
      const type = rec.type;
      if (PIECE_TYPES.has(type)) {
        if (options.keepDeltas) emit(rec);
        acc.piece(rec);
        return;
      }
      // Open units go out before the event that closes them, so `result` stays last.
      if (TURN_END_TYPES.has(type)) acc.endTurn(rec);
      else if (type === 'result') acc.flushAll({ file: rec.file, line: rec.line });
      emit(rec);
    },
    endFile(_file, emit) {
      out = emit;
      acc.flushAll();
    },
    status: () => (mismatches > 0 ? 1 : 0),
  };
}

/** Object-mode stream version of {@link createAccumulate}. */
export function accumulate(options: AccumulateOptions = {}): Transform {
  return coreStream(createAccumulate(options));
}
