/**
 * wuu-accumulate: replace streamed pieces with whole events.
 *
 * `agent_message_delta`/`agent_message_final` become one `agent_message`;
 * `tool_started`, `tool_output_delta`, `tool_completed` (and their bash
 * `command_*` twins) become one `tool_call`. Every other event passes through
 * as the same record, in order.
 *
 * The accumulation itself lives in ./accumulator.ts, which wuu-turns reuses,
 * so both tools agree on what a turn's message and tool calls are.
 */
import type { Transform } from 'node:stream';
import { coreStream, type Core, type Emit } from '../core.js';
import { escapeControls } from '../text.js';
import { TURN_END_TYPES, type WuuEvent } from '../events.js';
import { makeRecord, type EventRecord } from '../jsonl.js';
import { copyBytes } from './raw-arguments.js';
import { createAccumulator, PIECE_TYPES, type AccumulatorOptions, type Origin, type AgentMessage, type CallJson, type MessageHead, type ToolCall, type ToolCallHead } from './accumulator.js';

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

/**
 * A record for a built event one of whose strings is already JSON (a kept
 * output or message, ./canonical.ts): its bytes made without decoding the
 * text, its event only if asked for. A class, not an object literal with a
 * getter: V8 makes such a literal several times slower, once per record.
 */
class JsonRecord implements EventRecord {
  private parsed: WuuEvent | undefined;

  constructor(
    private readonly head: { type: string },
    private readonly field: string,
    private readonly literal: Buffer,
    private readonly tail: object,
    readonly raw: Buffer,
    readonly file: string,
    readonly line: number,
  ) {}

  get type(): string {
    return this.head.type;
  }

  get event(): WuuEvent {
    this.parsed ??= { ...this.head, [this.field]: JSON.parse(this.literal.toString('utf8')) as unknown, ...this.tail } as WuuEvent;
    return this.parsed;
  }
}

/**
 * The record of `head`'s fields, then `field` with `literal` (a JSON string
 * literal) as its value, then `tail`'s. Throws what JSON.stringify throws on
 * `head` (a payload nested too deeply).
 */
export function splicedJsonRecord(head: { type: string }, field: string, literal: Buffer, tail: object, at: Origin): EventRecord {
  const before = `${JSON.stringify(head).slice(0, -1)},${JSON.stringify(field)}:`;
  const after = `,${JSON.stringify(tail).slice(1)}`;
  const beforeBytes = Buffer.byteLength(before);
  const raw = Buffer.allocUnsafe(beforeBytes + literal.length + Buffer.byteLength(after));
  raw.write(before, 0);
  literal.copy(raw, beforeBytes);
  raw.write(after, beforeBytes + literal.length);
  // The event is read from the record's own bytes: the holder of the text is not kept alive.
  return new JsonRecord(head, field, raw.subarray(beforeBytes, beforeBytes + literal.length), tail, raw, at?.file ?? '-', at?.line ?? 0);
}

/** A record made as its bytes (JSON.stringify's spelling): its event parsed from them only if asked for. */
class BytesRecord implements EventRecord {
  private parsed: WuuEvent | undefined;

  constructor(
    readonly type: string,
    readonly raw: Buffer,
    readonly file: string,
    readonly line: number,
  ) {}

  get event(): WuuEvent {
    this.parsed ??= JSON.parse(this.raw.toString('utf8')) as WuuEvent;
    return this.parsed;
  }
}

/** The JSON of a tool call's start, the same for every call of a turn: made once per turn while calls of one turn come in a row. */
let lastIds = { threadId: '', turnId: '', prefix: '' };

function callPrefix(threadId: string, turnId: string): string {
  if (threadId !== lastIds.threadId || turnId !== lastIds.turnId) {
    lastIds = { threadId, turnId, prefix: `{"type":"tool_call","thread_id":${JSON.stringify(threadId)},"turn_id":${JSON.stringify(turnId)},"item_id":` };
  }
  return lastIds.prefix;
}

const COMMAND = Buffer.from(',"command":');
const OUTPUT = Buffer.from(',"output":');

/** Writes `text` into `target` at `at` as UTF-8 (`target` has room for 3 bytes a unit); past it. */
function putString(target: Buffer, at: number, text: string): number {
  return at + target.write(text, at);
}

/** Where a call's record is put together before its size is known (grown as needed, kept). */
let scratch = Buffer.allocUnsafe(4096);

/**
 * The record of a tool call whose arguments (`args`, their two members) and
 * output (`output`, its literal) are JSON already: the bytes JSON.stringify
 * writes for the whole call, with only the short fields serialized here.
 */
export function toolCallRecord(head: ToolCallHead, json: CallJson, output: Buffer, outputBytes: number, at: Origin): EventRecord {
  let after = `,"status":${JSON.stringify(head.status)},"error":${JSON.stringify(head.error)}`;
  if (head.process_id !== undefined) after = `,"process_id":${JSON.stringify(head.process_id)}${after}`;
  if (head.command !== undefined) after = `,"command":${JSON.stringify(head.command)}${after}`;
  if (head.exit_code !== undefined) after += `,"exit_code":${JSON.stringify(head.exit_code)}`;
  const before = `${callPrefix(head.thread_id, head.turn_id)}${JSON.stringify(head.item_id)},"name":${JSON.stringify(head.name)},`;
  const { args, command } = json;
  // UTF-8 takes at most 3 bytes per UTF-16 unit: room for the strings before they are measured.
  const room = 3 * (before.length + after.length) + args.length + COMMAND.length + (command?.length ?? 0);
  if (scratch.length < room) scratch = Buffer.allocUnsafe(Math.max(room, 2 * scratch.length));
  let p = putString(scratch, 0, before);
  p = copyBytes(args, 0, args.length, scratch, p);
  // A command kept as JSON comes right after the arguments (head.command is then absent).
  if (command !== undefined) {
    p = copyBytes(COMMAND, 0, COMMAND.length, scratch, p);
    p = copyBytes(command, 0, command.length, scratch, p);
  }
  p = putString(scratch, p, after);
  const tail = `,"output_bytes":${outputBytes},"output_truncated_bytes":0}`;
  const raw = Buffer.allocUnsafe(p + OUTPUT.length + output.length + tail.length);
  p = copyBytes(scratch, 0, p, raw, 0);
  p = copyBytes(OUTPUT, 0, OUTPUT.length, raw, p);
  p = copyBytes(output, 0, output.length, raw, p);
  putString(raw, p, tail);
  return new BytesRecord('tool_call', raw, at?.file ?? '-', at?.line ?? 0);
}

/**
 * The record of an agent message whose text is JSON already (`message`, its
 * literal): the bytes JSON.stringify writes for it, the ids serialized here.
 */
export function messageRecord(head: MessageHead, message: Buffer, source: AgentMessage['source'], at: Origin): EventRecord {
  const before = `{"type":"agent_message","thread_id":${JSON.stringify(head.thread_id)},"turn_id":${JSON.stringify(head.turn_id)},"message":`;
  const after = source === 'final' ? FROM_FINAL : FROM_DELTAS;
  if (scratch.length < 3 * before.length) scratch = Buffer.allocUnsafe(Math.max(3 * before.length, 2 * scratch.length));
  let p = putString(scratch, 0, before);
  const raw = Buffer.allocUnsafe(p + message.length + after.length);
  p = copyBytes(scratch, 0, p, raw, 0);
  p = copyBytes(message, 0, message.length, raw, p);
  copyBytes(after, 0, after.length, raw, p);
  return new BytesRecord('agent_message', raw, at?.file ?? '-', at?.line ?? 0);
}

const FROM_FINAL = Buffer.from(',"source":"final"}');
const FROM_DELTAS = Buffer.from(',"source":"deltas"}');

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
    toolJson(head, output, outputBytes, at, json) {
      if (json !== undefined) {
        out(toolCallRecord(head, json, output, outputBytes, at));
        return;
      }
      const tail = { output_bytes: outputBytes, output_truncated_bytes: 0 };
      let record: EventRecord;
      try {
        record = splicedJsonRecord(head, 'output', output, tail, at);
      } catch (err) {
        // Arguments nested too deeply: built as ever, which says so in the record.
        if (!(err instanceof RangeError)) throw err;
        const call: ToolCall = { ...head, output: JSON.parse(output.toString('utf8')) as string, ...tail };
        record = builtRecord(call, 'arguments', at);
      }
      out(record);
    },
    messageJson: (head, message, source, at) => out(messageRecord(head, message, source, at)),
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
    // Every line is read from its bytes where it has the producer's shape (./wire.ts), or parsed on demand.
    needsParse: () => false,
    passesThrough: true,
    // ...and proven valid in that same read: the runner does not validate them first.
    proves: (rec) => acc.prove(rec),
    // Lines of every other type go out as they came: the runner proves and writes them itself.
    copies: (type) => !PIECE_TYPES.has(type) && !TURN_END_TYPES.has(type) && type !== 'result',
    // Nothing of a line outlives its push: what is kept of a piece is copied
    // (text as strings or into owned buffers, ids as strings, the trailer's
    // end as a string), and records emitted as they came are written before
    // the next read. The runner may then reuse its read and join buffers.
    keepsNoBytes: true,
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
