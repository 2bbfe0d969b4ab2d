/**
 * The message and tool-call accumulator shared by wuu-accumulate and
 * wuu-turns, so both tools agree on what a turn's message and tool calls are.
 *
 * Units are keyed by thread + turn (+ item), since item ids repeat across
 * turns and threads; a turn's state is dropped as soon as it holds no open
 * unit. Each piece is read from its line's bytes where it has the producer's
 * shape (./read.ts): a delta's text is decoded alone, a bash twin whose
 * output was already taken is skipped on its ids, never decoded.
 */
import { FAMILIES, isWireType } from '../events.js';
import { blankEnd, exitCodeOf, isShellTool, OutputTrailer, WINDOW } from '../exit-code.js';
import type { EventRecord, LineRecord } from '../jsonl.js';
import { turnKey } from '../threads.js';
import { ArgumentsWriter } from './raw-arguments.js';
import { AsciiText } from './ascii.js';
import { decodeJson, JsonText } from './canonical.js';
import { FieldReader, literalEnd } from './read.js';
import { CappedText, OldestFirst, TurnKeys } from './units.js';
import { key, literalBytes, WireFields, type EventFields, type Key } from './wire.js';

/** Default cap on the output kept per tool call: 1 MiB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** Default cap on the text kept per agent message: 4 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** Default cap on units held open at once (turns plus tool items): 10,000. */
export const DEFAULT_MAX_OPEN = 10_000;
/** Bytes of a located (not decoded) output piece read for its trailer. */
const TRAILER_BYTES = 2048;
/** Output pieces longer than this are kept from their bytes when they are plain ASCII (no string of a huge piece). */
const LONG_PIECE = 64 * 1024;

/** The event types the accumulator consumes: message pieces, tool_* and command_*. */
export const PIECE_TYPES: ReadonlySet<string> = new Set(
  // Wire types only: the derived agent_message and tool_call are whole units, passed through.
  [...(FAMILIES.message ?? []), ...(FAMILIES.tool ?? [])].filter(isWireType),
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

/**
 * A call's members kept as JSON from their bytes (./raw-arguments.ts), written as
 * they are: `args` is `"arguments":...,"arguments_raw":...`, `command` the
 * command's literal (when it was kept so; else `head.command` holds it).
 */
export interface CallJson {
  args: Buffer;
  command: Buffer | undefined;
}

/** A tool call up to its output (the fields before `output`, in order). */
export type ToolCallHead = Omit<ToolCall, 'output' | 'output_bytes' | 'output_truncated_bytes'>;

/** An agent message up to its text. */
export type MessageHead = Pick<AgentMessage, 'type' | 'thread_id' | 'turn_id'>;

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
  /**
   * When given, a call whose whole output is kept as JSON (./canonical.ts)
   * comes here instead of `tool`, never decoded: `output` is its string
   * literal as JSON.stringify writes it, nothing left out. `json`, when
   * given, holds members kept as JSON from their bytes (./raw-arguments.ts):
   * `head`'s arguments are then left null and its command absent, not decoded.
   */
  toolJson?(head: ToolCallHead, output: Buffer, outputBytes: number, at: Origin, json?: CallJson): void;
  /** The same for a message (`message` its literal): instead of `message`. */
  messageJson?(head: MessageHead, message: Buffer, source: AgentMessage['source'], at: Origin): void;
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
  /**
   * Only what a turn summary shows of a call (wuu-turns): name, status,
   * output size and exit code. Arguments, command and process id are then
   * never read (null and absent in the calls reported).
   */
  outline?: boolean;
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

const F = {
  thread: key('thread_id', true),
  turn: key('turn_id', true),
  item: key('item_id', true),
  delta: key('delta'),
  message: key('message'),
  name: key('name', true),
  arguments: key('arguments'),
  status: key('status', true),
  error: key('error', true),
  command: key('command'),
  processId: key('process_id'),
};
/** How a piece's output is proven (WireFields.prove): a tool output remembered, a twin's compared with it. */
const KEEP = { keep: true };
const SAME = { keep: false, same: F.delta };
/** The ids of a piece, read from the line's end. */
const ITEM_IDS = [F.thread, F.turn, F.item];
const TURN_IDS = [F.thread, F.turn];

/** Characters of a long piece's end that settle the trailer: more than its two windows (see lib/exit-code.ts). */
const TRAILER_CHARS = 2 * 1024 + 1;

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;
}

/**
 * Feeds a piece to a trailer. A long piece settles the trailer by its end
 * alone (its blank end and more than two windows of text before it replace
 * whatever came before), so only that end is handed over, as a copy: the
 * trailer's slice of the whole piece would keep all of it alive.
 */
export function feedTrailer(trailer: OutputTrailer, text: string): void {
  // feedTrailerEnd's rule written out for a string: no closures made per piece (every tool output piece of a bash call comes here).
  let body = text.length;
  while (body > 0 && isBlank(text.charCodeAt(body - 1))) body--;
  if (body <= TRAILER_CHARS) trailer.append(text);
  else trailer.appendEnd(Buffer.from(text.slice(body - TRAILER_CHARS), 'utf16le').toString('utf16le'), true);
}

/** Bytes of a kept output's end decoded to settle its trailer (see {@link feedTrailerJson}): its last two lines, as a rule. */
const TRAILER_END_BYTES = 512;

/**
 * {@link feedTrailer} of a FRESH trailer with the text of `literal` (a JSON
 * string literal as ./canonical.ts makes it: the output's one piece), for
 * the trailer's last read (exitCodeOf, which reads only its last two lines
 * and whether it saw text). Fed whole, the trailer would hold the text's
 * body (trailing blank space left out) from at most {@link WINDOW}
 * characters before its end; when the decoded end of the literal holds the
 * body's last two newlines within that window, those two lines are all the
 * read sees, so only that end is fed (issue 20: no decoding of a whole bash
 * output for its exit code). Otherwise the whole text is decoded and fed.
 */
export function feedTrailerJson(trailer: OutputTrailer, literal: Buffer): void {
  const end = literal.length > TRAILER_END_BYTES ? literalEnd(literal, 0, literal.length - 1, TRAILER_END_BYTES) : undefined;
  if (end !== undefined && end.partial) {
    const text = end.text;
    const body = blankEnd(text);
    const last = body > 0 ? text.lastIndexOf('\n', body - 1) : -1;
    const before = last > 0 ? text.lastIndexOf('\n', last - 1) : -1;
    if (before >= 0 && before >= body - WINDOW) {
      trailer.appendEnd(text.slice(before), true);
      return;
    }
  }
  feedTrailer(trailer, decodeJson(literal, literal.length));
}

/** {@link feedTrailer} for ASCII text given as its bytes. */
export function feedTrailerAscii(trailer: OutputTrailer, bytes: Buffer): void {
  feedTrailerEnd(trailer, bytes.length, (at) => bytes[at] ?? 0, (from) => bytes.toString('latin1', from), () => bytes.toString('latin1'));
}

/** The trailer rule of {@link feedTrailer} over a text of `length` characters, read through `charAt`, `endFrom` (a copy) and `whole`. */
function feedTrailerEnd(trailer: OutputTrailer, length: number, charAt: (at: number) => number, endFrom: (from: number) => string, whole: () => string): void {
  let body = length;
  while (body > 0 && isBlank(charAt(body - 1))) body--;
  if (body <= TRAILER_CHARS) trailer.append(whole());
  else trailer.appendEnd(endFrom(body - TRAILER_CHARS), true);
}

const NO_ARGS = { arguments: null, arguments_raw: null };

/** One open tool item. */
class ItemState {
  name: string | null = null;
  /** The arguments parsed, or (never both) as their JSON members, made from the line's bytes (./raw-arguments.ts). */
  private args: { arguments: unknown; arguments_raw: string | null } | undefined;
  argsJson: Buffer | undefined;
  /** The command, or (never both) its literal as JSON.stringify writes it, made from the line's bytes. */
  private command: string | undefined;
  private commandJson: Buffer | undefined;
  processId: string | number | undefined;
  /** The tool_* copy of the output, and its end for a bash call's exit code (whatever the cap). */
  readonly output: JsonText;
  readonly trailer = new OutputTrailer();
  /** The command_* copy, kept only while no tool_output_delta has been seen. */
  twin: { output: CappedText; trailer: OutputTrailer } | undefined;
  sawToolEvent = false;
  sawToolDelta = false;
  /** The trailer is owed the output's first piece, which the output holds alone as JSON: fed when read, mostly from its end alone ({@link settleTrailer}). */
  trailerOwed = false;

  constructor(
    readonly turn: TurnState,
    readonly itemId: string,
    private readonly maxOutput: number,
  ) {
    this.output = new JsonText(maxOutput);
  }

  /** Whether output pieces feed the trailer: not for a tool known not to be bash. */
  get shell(): boolean {
    return this.name === null || isShellTool(this.name);
  }

  /** A tool_output_delta came: its copy is the output, the twin's is not needed any more. */
  takeToolDelta(): void {
    this.sawToolEvent = true;
    this.sawToolDelta = true;
    this.twin = undefined;
  }

  /**
   * Feeds the trailer what it is owed: for its last read (`last`) from the
   * output's end where that settles it, else the whole piece decoded (more
   * pieces follow, whose windows depend on all of it).
   */
  settleTrailer(last: boolean): void {
    if (!this.trailerOwed) return;
    this.trailerOwed = false;
    const literal = this.output.literal();
    if (literal === undefined) return;
    if (last) feedTrailerJson(this.trailer, literal);
    else feedTrailer(this.trailer, decodeJson(literal, literal.length));
  }

  /** A command_output_delta's text, kept while no tool delta came. */
  twinDelta(text: string | undefined): void {
    this.twin ??= { output: new CappedText(this.maxOutput), trailer: new OutputTrailer() };
    if (text === undefined) return;
    this.twin.output.append(text);
    feedTrailer(this.twin.trailer, text);
  }

  /** Folds what a command_* twin adds: the command, the process id, the name and arguments. */
  foldCommand(fields: EventFields, outline: boolean, writer?: ArgumentsWriter): void {
    if (!outline) {
      // Kept as JSON from its bytes for a sink that takes calls so (`writer`): never decoded.
      const at = writer && fields instanceof WireFields ? fields.literal(F.command) : undefined;
      const json = at && writer?.literal(at.source, at.open, at.close);
      const command = json ? undefined : fields.value(F.command);
      if (json) {
        this.commandJson = json;
        this.command = undefined;
      } else if (typeof command === 'string') {
        this.command = command;
        this.commandJson = undefined;
      }
      const processId = fields.value(F.processId);
      if (typeof processId === 'string' || typeof processId === 'number') this.processId = processId;
    }
    if (this.sawToolEvent) return;
    const name = fields.string(F.name);
    if (name !== undefined) this.name = name;
    const args = outline ? undefined : fields.value(F.arguments);
    if (this.args === undefined && this.argsJson === undefined && args !== undefined) this.args = parseArguments(args);
  }

  /** The arguments as tool_started gives them: parsed, or as their JSON members (`json`). */
  takeArgs(args: { arguments: unknown; arguments_raw: string | null } | undefined, json?: Buffer): void {
    this.args = args;
    this.argsJson = json;
  }

  /** The arguments parsed (decoded from their JSON members when kept so). */
  private parsedArgs(): { arguments: unknown; arguments_raw: string | null } {
    if (this.args === undefined && this.argsJson !== undefined) {
      this.args = JSON.parse(`{${this.argsJson.toString('utf8')}}`) as { arguments: unknown; arguments_raw: string | null };
      this.argsJson = undefined;
    }
    return this.args ?? NO_ARGS;
  }

  /** Which copy of the output the call reports: the tool_* one, the command_* one only when no tool delta came. */
  private get chosen(): { output: CappedText | JsonText; trailer: OutputTrailer } {
    return !this.sawToolDelta && this.twin !== undefined ? this.twin : this;
  }

  /** The output as JSON when it is kept so (see {@link JsonText.literal}). */
  outputJson(): Buffer | undefined {
    const { output } = this.chosen;
    return output instanceof JsonText ? output.literal() : undefined;
  }

  /** The whole call. */
  call(status: string, error: string | null): ToolCall {
    const call = this.head(status, error) as ToolCall;
    const { text: output, truncatedBytes } = this.chosen.output.result();
    call.output = output;
    call.output_bytes = this.chosen.output.bytes;
    call.output_truncated_bytes = truncatedBytes;
    return call;
  }

  /** The members kept as JSON, when the arguments are (see {@link CallJson}). */
  json(): CallJson | undefined {
    return this.argsJson === undefined ? undefined : { args: this.argsJson, command: this.commandJson };
  }

  /** The call up to its output; with `json` (see {@link CallJson}) its arguments are left null and its command absent when kept so. */
  head(status: string, error: string | null, json = false): ToolCallHead {
    const turn = this.turn;
    const args = json ? NO_ARGS : this.parsedArgs();
    if (!json && this.commandJson !== undefined) {
      this.command = JSON.parse(this.commandJson.toString('utf8')) as string;
      this.commandJson = undefined;
    }
    // Built in the JSON's field order, one property at a time: V8 builds an
    // object with conditional spreads several times slower, once per call.
    const call = {
      type: 'tool_call',
      thread_id: turn.threadId,
      turn_id: turn.turnId,
      item_id: this.itemId,
      name: this.name,
      arguments: args.arguments,
      arguments_raw: args.arguments_raw,
    } as ToolCallHead;
    if (this.command !== undefined) call.command = this.command;
    if (this.processId !== undefined) call.process_id = this.processId;
    call.status = status;
    call.error = error;
    if (isShellTool(this.name)) {
      this.settleTrailer(true);
      call.exit_code = exitCodeOf(this.chosen.trailer, status);
    }
    return call;
  }
}

/** One turn with open units. */
class TurnState {
  /** The message being accumulated from deltas; undefined when none is open. */
  message: JsonText | undefined;
  readonly items = new Map<string, ItemState>();

  constructor(
    readonly threadId: string,
    readonly turnId: string,
    readonly key: string,
  ) {}

  get empty(): boolean {
    return this.message === undefined && this.items.size === 0;
  }
}

/** Where a difference between two texts begins, in UTF-8 bytes. */
function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return Buffer.byteLength(a.slice(0, i));
}

/** How agent_message_final disagrees with the deltas before it; undefined when it does not (or either was cut). */
function disagreement(deltas: JsonText, final: JsonText): string | undefined {
  const a = deltas.result();
  const b = final.result();
  // A cut text cannot be compared honestly; only whole texts are.
  if (a.truncatedBytes !== 0 || b.truncatedBytes !== 0 || a.text === b.text) return undefined;
  const aBytes = Buffer.byteLength(a.text);
  const bBytes = Buffer.byteLength(b.text);
  return b.text.startsWith(a.text)
    ? `the deltas (${aBytes} bytes) are only a prefix of agent_message_final (${bBytes} bytes)`
    : `agent_message_final (${bBytes} bytes) differs from the deltas (${aBytes} bytes) at byte ${firstDifference(a.text, b.text)}`;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function originOf(rec: EventRecord): Origin {
  return { file: rec.file, line: rec.line };
}

/** The shared message/tool accumulator. State exists only for open messages and items. */
export class Accumulator {
  private readonly maxOutput: number;
  private readonly maxMessage: number;
  private readonly maxOpen: number;
  private readonly turns = new Map<string, TurnState>();
  private readonly order = new OldestFirst();
  private items = 0;
  private overflowed = false;
  private readonly keys = new TurnKeys();
  /** Where a long ASCII output piece is decoded (reused: its bytes are copied where kept). */
  private readonly ascii = new AsciiText();
  /** Where tool arguments are written as JSON from their bytes, for a sink that takes calls so. */
  private readonly argsWriter = new ArgumentsWriter();

  /** @param reader where fields are read: one per core, so a line proven by its core is not read again */
  constructor(
    private readonly options: AccumulatorOptions,
    private readonly sink: AccumulatorSink,
    private readonly reader = new FieldReader(),
  ) {
    this.maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    this.maxMessage = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.maxOpen = options.maxOpen ?? DEFAULT_MAX_OPEN;
  }

  /** Open turns and items, for tests of bounded memory. */
  get openTurns(): number {
    return this.turns.size;
  }

  get openItems(): number {
    return this.items;
  }

  /**
   * Proves a line while reading it, for the core's Core.proves; the read
   * serves the piece that follows. The text a piece is sure to be read for
   * (a message delta or final, a tool output kept) is decoded in the proof.
   */
  prove(rec: LineRecord): boolean {
    const type = rec.type;
    // Message text and kept tool output are written as JSON again: kept so, never decoded.
    // Output counted, not kept (wuu-turns): its size is counted in the proof.
    // A tool output's text is remembered, and a bash twin's compared with it: judged by one native compare.
    const remember = type === 'tool_output_delta' ? KEEP : type === 'command_output_delta' ? SAME : undefined;
    return this.reader.prove(rec, this.decodes(type), type !== 'tool_output_delta' || this.maxOutput > 0 ? 'json' : 'size', remember);
  }

  /** The member of a line of `type` the accumulator decodes whatever else it holds, if any. */
  private decodes(type: string): Key | undefined {
    if (type === 'agent_message_delta') return F.delta;
    if (type === 'agent_message_final') return F.message;
    // wuu-turns keeps no output: its size is counted in the proof (FieldReader.prove as size). A bash twin's is read only when no tool delta came.
    if (type === 'tool_output_delta') return F.delta;
    return undefined;
  }

  /** Feeds one event of {@link PIECE_TYPES}. */
  piece(rec: EventRecord): void {
    switch (rec.type) {
      case 'agent_message_delta':
        return this.messageDelta(rec);
      case 'agent_message_final':
        return this.messageFinal(rec);
      case 'tool_started':
        return this.toolStarted(rec);
      case 'tool_output_delta':
        return this.toolOutput(rec);
      case 'tool_completed':
        return this.toolCompleted(rec);
      case 'tool_removed':
        return this.toolRemoved(rec);
      case 'command_started':
      case 'command_output_delta':
        return this.commandPiece(rec);
      case 'command_completed':
      case 'command_removed':
        return this.commandEnd(rec);
      default:
        return;
    }
  }

  /** Flushes the open units of the turn `rec` ends (call before passing the turn-end event on). */
  endTurn(rec: EventRecord): void {
    const turn = this.knownTurn(this.reader.some(rec, TURN_IDS));
    if (turn) this.flush(turn, originOf(rec));
  }

  /** Flushes every open unit (end of input, or `result`). */
  flushAll(at?: Origin): void {
    for (const turn of [...this.turns.values()]) this.flush(turn, at);
  }

  /** Flushes the open units of one turn, as incomplete. */
  flushTurn(threadId: string, turnId: string, at: Origin): void {
    const turn = this.turns.get(turnKey(threadId, turnId));
    if (turn) this.flush(turn, at);
  }

  private messageDelta(rec: EventRecord): void {
    const fields = this.reader.all(rec);
    const turn = this.openTurn(fields, rec);
    turn.message ??= new JsonText(this.maxMessage);
    const json = fields instanceof WireFields ? fields.json(F.delta) : undefined;
    if (json !== undefined) return turn.message.appendJson(json);
    const delta = fields.string(F.delta);
    if (delta !== undefined) turn.message.append(delta);
  }

  private messageFinal(rec: EventRecord): void {
    const fields = this.reader.all(rec);
    const turn = this.openTurn(fields, rec);
    const final = new JsonText(this.maxMessage);
    const json = fields instanceof WireFields ? fields.json(F.message) : undefined;
    const message = json === undefined ? fields.string(F.message) : undefined;
    if (json !== undefined) final.appendJson(json);
    else if (message !== undefined) final.append(message);
    const deltas = turn.message;
    turn.message = undefined;
    const detail = this.options.check && deltas !== undefined ? disagreement(deltas, final) : undefined;
    if (detail !== undefined) this.sink.mismatch?.(`turn ${JSON.stringify(turn.turnId)} of thread ${JSON.stringify(turn.threadId)}: ${detail}`, rec);
    this.emitMessage(turn, final, 'final', originOf(rec));
    this.release(turn);
  }

  private toolStarted(rec: EventRecord): void {
    const fields = this.reader.all(rec);
    const item = this.openItem(fields, rec);
    item.sawToolEvent = true;
    const name = fields.string(F.name);
    if (name !== undefined) item.name = name;
    if (this.options.outline) return;
    // A sink that takes calls as JSON gets the arguments as JSON from their bytes: never decoded nor parsed.
    const at = this.sink.toolJson !== undefined && fields instanceof WireFields ? fields.literal(F.arguments) : undefined;
    const json = at && this.argsWriter.json(at.source, at.open, at.close);
    if (json) item.takeArgs(undefined, json);
    else item.takeArgs(parseArguments(fields.value(F.arguments)));
  }

  private toolOutput(rec: EventRecord): void {
    const fields = this.reader.all(rec);
    const item = this.openItem(fields, rec);
    item.takeToolDelta();
    const shell = item.shell;
    // A piece after the first: the trailer takes the first one whole before this one.
    item.settleTrailer(false);
    // With nothing kept (wuu-turns) only the size counts, and the end for an exit code: not decoded.
    if (this.maxOutput === 0 && fields instanceof WireFields) {
      const at = fields.literal(F.delta);
      const bytes = fields.measured(F.delta) ?? (at && literalBytes(at.source, at.open, at.close));
      const end = at && shell ? literalEnd(at.source, at.open, at.close, TRAILER_BYTES) : undefined;
      if (bytes !== undefined && (end !== undefined || !shell)) {
        item.output.count(bytes);
        if (end !== undefined) item.trailer.appendEnd(end.text, end.partial);
        return;
      }
    }
    // Kept as JSON (./canonical.ts): decoded only for a bash call's trailer.
    const json = fields instanceof WireFields ? fields.json(F.delta) : undefined;
    if (json !== undefined) {
      // The first piece kept as JSON is owed to the trailer, not decoded now (mostly only its end is, when read).
      const first = item.output.bytes === 0;
      item.output.appendJson(json);
      if (shell && first && item.output.isJson) item.trailerOwed = true;
      else if (shell) feedTrailer(item.trailer, json.text());
      return;
    }
    // A long piece of ASCII text (escapes of ASCII decoded into a reused buffer) is kept from its bytes: no string of all of it.
    const at = fields instanceof WireFields && fields.literal(F.delta);
    const bytes = at && at.close - at.open > LONG_PIECE ? this.ascii.decode(at.source, at.open, at.close) : undefined;
    if (bytes !== undefined) {
      item.output.appendAscii(bytes);
      if (shell) feedTrailerAscii(item.trailer, bytes);
      return;
    }
    const text = fields.string(F.delta);
    if (text === undefined) return;
    item.output.append(text);
    if (shell) feedTrailer(item.trailer, text);
  }

  private toolCompleted(rec: EventRecord): void {
    const fields = this.reader.all(rec);
    const item = this.openItem(fields, rec);
    const name = fields.string(F.name);
    if (name !== undefined) item.name = name;
    this.complete(item, fields.string(F.status) ?? 'completed', stringOrNull(fields.value(F.error)), originOf(rec));
  }

  private toolRemoved(rec: EventRecord): void {
    const fields = this.reader.all(rec);
    const item = this.knownTurn(fields)?.items.get(fields.string(F.item) ?? '');
    if (item) this.drop(item);
    const removed = { thread_id: fields.string(F.thread) ?? '', turn_id: fields.string(F.turn) ?? '', item_id: fields.string(F.item) ?? '' };
    this.sink.removed({ ...removed, name: item?.name ?? stringOrNull(fields.value(F.name)) }, rec);
  }

  /** command_started and command_output_delta: a twin normally follows its tool_* event; alone it describes a command-only item. */
  private commandPiece(rec: EventRecord): void {
    // bash output arrives twice; the twin's copy is skipped on its ids when the tool_* copy came.
    // An outline takes nothing from the twin of a tool_* item (command and process id are not shown).
    const known = rec.type === 'command_output_delta' || this.options.outline ? this.knownItem(rec) : undefined;
    if (known?.sawToolDelta === true || (this.options.outline && known?.sawToolEvent === true)) return;
    const fields = this.reader.all(rec);
    const item = this.openItem(fields, rec);
    item.foldCommand(fields, this.options.outline === true, this.sink.toolJson && this.argsWriter);
    if (rec.type === 'command_output_delta' && !item.sawToolDelta) item.twinDelta(fields.string(F.delta));
  }

  /** command_completed and command_removed: the twin of a tool_completed/tool_removed already handled is consumed, never a second unit. */
  private commandEnd(rec: EventRecord): void {
    const known = this.knownItem(rec);
    if (known === undefined || known.sawToolEvent) return;
    const fields = this.reader.all(rec);
    const item = this.knownTurn(fields)?.items.get(fields.string(F.item) ?? '');
    if (!item) return;
    item.foldCommand(fields, this.options.outline === true, this.sink.toolJson && this.argsWriter);
    if (rec.type === 'command_completed') {
      this.complete(item, fields.string(F.status) ?? 'completed', stringOrNull(fields.value(F.error)), originOf(rec));
      return;
    }
    this.drop(item);
    this.sink.removed({ thread_id: item.turn.threadId, turn_id: item.turn.turnId, item_id: item.itemId, name: item.name }, rec);
  }

  /** The open item a piece names, read from its ids alone. */
  private knownItem(rec: EventRecord): ItemState | undefined {
    const ids = this.reader.some(rec, ITEM_IDS);
    return this.knownTurn(ids)?.items.get(ids.string(F.item) ?? '');
  }

  /** The open turn the fields name, if any. */
  private knownTurn(fields: EventFields): TurnState | undefined {
    return this.turns.get(this.keys.of(fields.string(F.thread) ?? '', fields.string(F.turn) ?? ''));
  }

  private openTurn(fields: EventFields, rec: EventRecord): TurnState {
    const threadId = fields.string(F.thread) ?? '';
    const turnId = fields.string(F.turn) ?? '';
    const key = this.keys.of(threadId, turnId);
    let turn = this.turns.get(key);
    if (turn === undefined) {
      turn = new TurnState(threadId, turnId, key);
      this.turns.set(key, turn);
      this.order.push(key);
      this.bound(turn, originOf(rec));
    }
    return turn;
  }

  private openItem(fields: EventFields, rec: EventRecord): ItemState {
    const turn = this.openTurn(fields, rec);
    const itemId = fields.string(F.item) ?? '';
    let item = turn.items.get(itemId);
    if (item === undefined) {
      item = new ItemState(turn, itemId, this.maxOutput);
      turn.items.set(itemId, item);
      this.items++;
      this.bound(turn, originOf(rec));
    }
    return item;
  }

  /** Keeps turns + items within maxOpen: the oldest turns go first, never `keep`. */
  private bound(keep: TurnState, at: Origin): void {
    if (this.turns.size + this.items <= this.maxOpen) return;
    if (!this.overflowed) {
      this.overflowed = true;
      this.sink.overflow?.(this.maxOpen, at);
    }
    let kept = false;
    this.order.evictWhile(
      () => this.turns.size + this.items > this.maxOpen,
      (k) => this.turns.has(k),
      (k) => {
        const turn = this.turns.get(k);
        if (k === keep.key) kept = true;
        else if (turn) this.flush(turn, at);
      },
    );
    if (kept) this.order.push(keep.key);
  }

  private release(turn: TurnState): void {
    if (turn.empty) this.turns.delete(turn.key);
  }

  private drop(item: ItemState): void {
    item.turn.items.delete(item.itemId);
    this.items--;
    this.release(item.turn);
  }

  private emitMessage(turn: TurnState, text: JsonText, source: AgentMessage['source'], at: Origin): void {
    const json = this.sink.messageJson && text.literal();
    if (json) return this.sink.messageJson?.({ type: 'agent_message', thread_id: turn.threadId, turn_id: turn.turnId }, json, source, at);
    const { text: message, truncatedBytes } = text.result();
    const event: AgentMessage = { type: 'agent_message', thread_id: turn.threadId, turn_id: turn.turnId, message, source };
    if (truncatedBytes > 0) event.message_truncated_bytes = truncatedBytes;
    this.sink.message(event, at);
  }

  private complete(item: ItemState, status: string, error: string | null, at: Origin): void {
    item.turn.items.delete(item.itemId);
    this.items--;
    this.emitTool(item, status, error, at);
    this.release(item.turn);
  }

  /** Hands a finished call to the sink, its output as JSON when the sink takes it so and it is kept so. */
  private emitTool(item: ItemState, status: string, error: string | null, at: Origin): void {
    const json = this.sink.toolJson && item.outputJson();
    const members = json && item.json();
    if (json) this.sink.toolJson?.(item.head(status, error, members !== undefined), json, item.output.bytes, at, members || undefined);
    else this.sink.tool(item.call(status, error), at);
  }

  private flush(turn: TurnState, at: Origin): void {
    for (const item of [...turn.items.values()]) {
      turn.items.delete(item.itemId);
      this.items--;
      this.emitTool(item, 'incomplete', null, at);
    }
    if (turn.message !== undefined) {
      const text = turn.message;
      turn.message = undefined;
      this.emitMessage(turn, text, 'deltas', at);
    }
    this.turns.delete(turn.key);
  }
}

/** The accumulator shared by wuu-accumulate and wuu-turns (see {@link Accumulator}). */
export function createAccumulator(options: AccumulatorOptions, sink: AccumulatorSink, reader?: FieldReader): Accumulator {
  return new Accumulator(options, sink, reader);
}
