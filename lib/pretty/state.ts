/**
 * The pretty-printer's state: events in, calls on a {@link Renderer} out.
 *
 * Everything is keyed by thread too (turnKey/itemKey of lib/threads.ts): two
 * threads sharing a turn or item id never merge. A sub-agent (child) thread's
 * turn ends, usage, tools, files and todos belong to that sub-agent: they are
 * marked as such, never counted as the main agent's. bash output, which the
 * stream carries twice (tool_* and command_* twins, a twin may be missing),
 * is taken from the first family seen for the item.
 *
 * Memory is bounded: open turns, open items, remembered ids and agents are
 * capped, a message is held up to 1 MiB, an output as a fold.
 */
import { eventFields, tokensOf, type Tokens } from '../events.js';
import type { EventRecord } from '../jsonl.js';
import { RootThreads, itemKey as makeItemKey, turnKey as makeTurnKey } from '../threads.js';
import { dropOldest, first, num, str } from './format.js';
import { deltaWindows, locateLongDelta, scanProducerDelta } from './delta-scan.js';
import { OutputFold } from './fold.js';
import { exitCodeOf, isShellTool, OutputTrailer } from '../exit-code.js';
import { FILE_RESULT_CAP, fileResultView, isFileTool } from './file-result.js';
import { Agents, OK_STATUSES } from './agents.js';
import type { ItemView, Renderer, RunTotals, TurnHow, TurnView } from './renderer.js';
import { addUsage, zeroUsage } from './token-usage.js';
import { keyValuesOf, sessionView, todoView } from './views.js';

/** Options of the state. */
export interface StateOptions {
  /** Fold caps: lines from the start, lines from the end, columns per line held. */
  headLines: number;
  tailLines: number;
  lineCap: number;
  verbose: boolean;
  showFileNames: boolean;
  /** Arrival clock (ms); elapsed times are given to renderers only when `timing`. */
  now: () => number;
  timing: boolean;
}

const MESSAGE_CAP = 1 << 20;
const MAX_OPEN_ITEMS = 256;
const MAX_CLOSED_IDS = 1024;
const MAX_OPEN_TURNS = 64;
/** Event types whose content is never shown without --verbose. */
export const DIAGNOSTIC_TYPES: ReadonlySet<string> = new Set(['provider_state', 'request_context']);
/** Output deltas: read from the line's bytes when long (see locateLongDelta). */
const OUTPUT_DELTA_TYPES: ReadonlySet<string> = new Set(['tool_output_delta', 'command_output_delta']);

interface Turn extends TurnView {
  message: string;
  messageOverflow: boolean;
  messageLength: number;
  usage: Tokens | undefined;
}

interface Item extends ItemView {
  source: 'tool' | 'command' | undefined;
  /** The end of the output, for a bash call's exit code. */
  trailer: OutputTrailer;
  /** A file tool's whole result while it fits FILE_RESULT_CAP (read as JSON at the end). */
  raw: string | undefined;
}

type Fields = Record<string, unknown>;

/**
 * An output delta's fields and its text as pieces. A long line in the plain
 * shape is read from its bytes: the delta decoded a window at a time
 * as the item takes it, so no string the size of the line is made (an 8 MiB
 * output line used to cost three). Any other line is parsed whole, which
 * throws for a bad one.
 */
function outputFields(rec: EventRecord): { fields: Fields; pieces: Iterable<string> } {
  const raw = rec.raw;
  const long = raw === undefined ? undefined : locateLongDelta(raw);
  if (raw !== undefined && long !== undefined) return { fields: long.fields, pieces: deltaWindows(raw, long) };
  const fields = eventFields(rec.event);
  return { fields, pieces: [str(fields.delta)] };
}

/** The state machine; see the module comment. */
export class PrettyState {
  private readonly threads = new RootThreads();
  private lastRoot = '';
  private runActive = false;
  private turnCount = 0;
  private turnsEnded = 0;
  private totals: Tokens = zeroUsage();
  private lastMessage = '';
  private readonly turns = new Map<string, Turn>();
  private currentTurn: Turn | undefined;
  private readonly items = new Map<string, Item>();
  private readonly closed = new Set<string>();
  private readonly agents = new Agents();
  private currentFile: string | undefined;
  private workspace = '';

  constructor(
    private readonly r: Renderer,
    private readonly o: StateOptions,
  ) {}

  /** Whether an event type's content is read (the others are skipped unparsed). */
  needsParse(type: string): boolean {
    if (type === 'agent_message_delta') return false; // read from the line's bytes, see onDeltaRecord
    if (OUTPUT_DELTA_TYPES.has(type)) return false; // a long one is read from its bytes, see push
    return this.o.verbose || !DIAGNOSTIC_TYPES.has(type);
  }

  /** Handles one event. */
  push(rec: EventRecord): void {
    // An output delta is read first (a bad line throws here, before anything is shown).
    const output = OUTPUT_DELTA_TYPES.has(rec.type) ? outputFields(rec) : undefined;
    if (rec.file !== this.currentFile) {
      this.currentFile = rec.file;
      this.r.input?.(rec.file);
      if (this.o.showFileNames) this.r.fileHeading(rec.file);
    }
    const type = rec.type;
    if (!this.o.verbose && DIAGNOSTIC_TYPES.has(type)) return;
    // A new session while a run is still open: the earlier run (killed, no result) was cut.
    if (type === 'session_configured' && this.runActive && this.turnCount > 0) this.cutRun();
    if (type !== 'result') this.runActive = true;
    if (type === 'agent_message_delta') {
      this.onDeltaRecord(rec);
      return;
    }
    const e = output?.fields ?? eventFields(rec.event);
    this.threads.observe(type, e.thread_id, e.agent_id);
    if ((type === 'turn_started' || type.startsWith('thread_')) && str(e.thread_id) !== '') this.lastRoot = str(e.thread_id);
    if (output !== undefined) this.onOutput(e, type === 'tool_output_delta' ? 'tool' : 'command', output.pieces);
    else this.dispatch(type, e);
  }

  private dispatch(type: string, e: Fields): void {
    switch (type) {
      case 'session_configured':
        return this.onSession(e);
      case 'thread_started':
      case 'thread_resumed':
      case 'thread_forked':
        return this.r.thread(type.slice('thread_'.length), str(e.thread_id), str(e.cwd));
      case 'turn_started':
        this.ensureTurn(e);
        return;
      case 'agent_message_final':
        return this.onFinal(this.ensureTurn(e), str(e.message));
      case 'usage_updated':
        this.ensureTurn(e).usage = tokensOf(e);
        return;
      case 'turn_completed': {
        const turn = this.ensureTurn(e);
        turn.usage ??= num(e.input_tokens) + num(e.output_tokens) > 0 ? tokensOf(e) : undefined;
        return this.endTurn(turn, 'completed', '', e.awaiting_auto_continuation === true);
      }
      case 'turn_failed':
        return this.endTurn(this.ensureTurn(e), 'failed', str(e.error));
      case 'turn_interrupted':
        return this.endTurn(this.ensureTurn(e), 'interrupted', str(e.reason));
      case 'tool_started':
      case 'command_started': {
        const key = this.itemKeyOf(e);
        if (type === 'command_started' && (this.items.has(key) || this.closed.has(key))) return;
        this.openItem(e, type === 'tool_started' ? 'tool' : 'command', true);
        return;
      }
      // tool_output_delta and command_output_delta never get here: push reads them (outputFields).
      case 'tool_completed':
      case 'command_completed':
        return this.onCompleted(e, type === 'tool_completed' ? 'tool' : 'command', false);
      case 'tool_removed':
      case 'command_removed':
        return this.onCompleted(e, type === 'tool_removed' ? 'tool' : 'command', true);
      case 'file_changed':
        return this.onFileChanged(e);
      case 'subagent_started':
      case 'subagent_updated':
      case 'subagent_completed':
        return this.onSubagent(e, type);
      case 'todo_updated':
        return this.onTodo(e);
      case 'error':
        return this.r.error(str(e.error) || 'error', e.retrying === true);
      case 'result':
        return this.onResult(e);
      default:
        return this.onOther(e, type);
    }
  }

  /**
   * agent_message_delta is most of a stream: read its three strings from the
   * line's bytes (delta-scan.ts) and parse the whole event only when the line
   * does not have the producer's shape.
   */
  private onDeltaRecord(rec: EventRecord): void {
    const fields = rec.raw === undefined ? undefined : scanProducerDelta(rec.raw);
    if (fields === undefined) {
      const e = eventFields(rec.event);
      this.onDelta(this.ensureTurn(e), str(e.delta));
      return;
    }
    this.onDelta(this.ensureTurn({ thread_id: fields.threadId, turn_id: fields.turnId }), fields.delta);
  }

  // ---- threads and keys

  private threadOf(e: Fields): string {
    const thread = str(e.thread_id);
    // exec-side ends and setup failures may carry "" for the root's ids.
    return thread === '' ? this.lastRoot : thread;
  }

  private isChild(thread: string): boolean {
    return !this.threads.isRoot(thread);
  }

  private agentLabel(thread: string): string {
    return this.agents.label(thread);
  }

  private itemKeyOf(e: Fields): string {
    return makeItemKey(this.threadOf(e), str(e.turn_id), str(e.item_id));
  }

  // ---- turns

  private ensureTurn(e: Fields): Turn {
    const thread = this.threadOf(e);
    const id = typeof e.turn_id === 'string' ? e.turn_id : undefined;
    const child = this.isChild(thread);
    if (id === undefined || (id === '' && !child)) {
      if (this.currentTurn && !child) return this.currentTurn;
    }
    const key = makeTurnKey(thread, id ?? '');
    const known = this.turns.get(key);
    if (known) return known;
    const oldest = this.turns.size >= MAX_OPEN_TURNS ? first(this.turns.values()) : undefined;
    if (oldest !== undefined) this.endTurn(oldest, 'cut', '');
    const turn: Turn = {
      key,
      id: id ?? '',
      threadId: thread,
      n: child ? 0 : ++this.turnCount,
      child,
      agent: child ? this.agentLabel(thread) : '',
      startedAt: this.o.now(),
      message: '',
      messageOverflow: false,
      messageLength: 0,
      usage: undefined,
    };
    this.turns.set(key, turn);
    if (!child) {
      this.currentTurn = turn;
      this.r.turnStart(turn);
    }
    return turn;
  }

  /** Closes a turn: flushes its open items and shows its status with the last usage snapshot. */
  private endTurn(turn: Turn, how: TurnHow, detail: string, autoContinues = false): void {
    for (const item of Array.from(this.items.values())) {
      if (item.threadId === turn.threadId && item.turnId === turn.id) this.finishItem(item, 'open', '');
    }
    this.turns.delete(turn.key);
    if (this.currentTurn === turn) this.currentTurn = undefined;
    if (!turn.child) {
      if (turn.usage) addUsage(this.totals, turn.usage);
      this.turnsEnded++;
      if (!turn.messageOverflow && turn.messageLength > 0) this.lastMessage = turn.message;
    }
    const elapsedMs = this.o.timing ? this.o.now() - turn.startedAt : undefined;
    this.r.turnEnd(turn, { how, detail, usage: turn.usage, autoContinues, elapsedMs });
  }

  // ---- messages

  private onDelta(turn: Turn, delta: string): void {
    if (delta === '') return;
    turn.messageLength += delta.length;
    if (!turn.messageOverflow) {
      if (turn.message.length + delta.length > MESSAGE_CAP) {
        turn.messageOverflow = true;
        turn.message = '';
      } else turn.message += delta;
    }
    this.r.messageText(turn, delta);
  }

  private onFinal(turn: Turn, message: string): void {
    const shown = turn.message;
    const known = !turn.messageOverflow;
    turn.messageLength = message.length;
    turn.messageOverflow = message.length > MESSAGE_CAP;
    turn.message = turn.messageOverflow ? '' : message;
    if (known && message.trimEnd() === shown.trimEnd()) return;
    if (known && shown === '') this.r.messageText(turn, message);
    else if (known && message.startsWith(shown)) this.r.messageRest(turn, message.slice(shown.length));
    else this.r.messageReplaced(turn, message);
  }

  // ---- tools

  private openItem(e: Fields, from: 'tool' | 'command', announce: boolean): Item {
    const key = this.itemKeyOf(e);
    let item = this.items.get(key);
    if (item) {
      if (item.name === '' && str(e.name) !== '') item.name = str(e.name);
      if (item.argumentsText === undefined && e.arguments !== undefined) item.argumentsText = e.arguments;
      return item;
    }
    const oldest = this.items.size >= MAX_OPEN_ITEMS ? first(this.items.values()) : undefined;
    if (oldest !== undefined) this.finishItem(oldest, 'open', '');
    const turn = this.ensureTurn(e);
    const thread = this.threadOf(e);
    item = {
      key,
      id: str(e.item_id),
      threadId: thread,
      turnId: turn.id,
      name: str(e.name) || (from === 'command' ? 'bash' : ''),
      argumentsText: e.arguments ?? (typeof e.command === 'string' ? JSON.stringify({ command: e.command }) : undefined),
      child: turn.child,
      agent: turn.agent,
      startedAt: this.o.now(),
      fold: this.newFold(),
      source: undefined,
      trailer: new OutputTrailer(),
      raw: undefined,
    };
    if (isFileTool(item.name)) item.raw = '';
    this.items.set(key, item);
    this.closed.delete(key);
    if (announce) this.r.toolStart(item);
    return item;
  }

  /** An output delta, given as its pieces in order (one, or the windows of a long one). */
  private onOutput(e: Fields, from: 'tool' | 'command', pieces: Iterable<string>): void {
    const key = this.itemKeyOf(e);
    if (this.closed.has(key) && !this.items.has(key)) return; // the twin of a finished item
    const item = this.openItem(e, from, false);
    // bash output arrives twice (tool_* and command_* twins): the first source seen wins.
    item.source ??= from;
    if (item.source !== from) return;
    let wrote = false;
    for (const delta of pieces) {
      if (delta === '') continue;
      item.fold.write(delta);
      item.trailer.append(delta);
      if (item.raw !== undefined) item.raw = item.raw.length + delta.length > FILE_RESULT_CAP ? undefined : item.raw + delta;
      wrote = true;
    }
    if (wrote) this.r.toolOutput(item);
  }

  private onCompleted(e: Fields, from: 'tool' | 'command', removed: boolean): void {
    const key = this.itemKeyOf(e);
    let item = this.items.get(key);
    if (!item) {
      if (this.closed.has(key)) return; // the twin already closed it
      if (removed) {
        // A removal can name an item that never started (a reconnect row): nothing to show.
        this.closed.add(key);
        return;
      }
      item = this.openItem(e, from, false);
    }
    if (removed) this.finishItem(item, 'removed', '');
    else this.finishItem(item, str(e.status) || 'completed', str(e.error));
  }

  /** Shows a finished item. `status` 'removed' for a withdrawn call, 'open' when it never completed. */
  private finishItem(item: Item, status: string, error: string): void {
    this.items.delete(item.key);
    this.closed.add(item.key);
    dropOldest(this.closed, MAX_CLOSED_IDS + 1);
    const reason = status === 'open' ? (this.runActive ? 'no completion (turn ended)' : 'no completion (the run was cut)') : '';
    const elapsedMs = this.o.timing ? this.o.now() - item.startedAt : undefined;
    // A failed command is a `completed` item: its exit code is in the output's trailer.
    const exitCode = isShellTool(item.name) && status !== 'removed' ? exitCodeOf(item.trailer, status === 'open' ? 'incomplete' : status) : null;
    const ok = OK_STATUSES.has(status) && (exitCode === null || exitCode === 0);
    const file = item.raw === undefined || item.raw === '' ? undefined : fileResultView(item.name, item.raw, () => this.newFold(), (p) => this.showPath(p));
    this.r.toolEnd(item, { status, ok, exitCode, error, view: file ?? item.fold.finish(), reason, elapsedMs });
  }

  private newFold(): OutputFold {
    return new OutputFold(this.o.headLines, this.o.tailLines, this.o.lineCap);
  }

  private showPath(path: string): string {
    return this.workspace !== '' && path.startsWith(`${this.workspace}/`) ? path.slice(this.workspace.length + 1) : path;
  }

  // ---- files, subagents, todo

  private onFileChanged(e: Fields): void {
    const thread = this.threadOf(e);
    const child = this.isChild(thread);
    this.r.fileChanged({ action: str(e.action) || 'changed', path: str(e.path) || '?', move: str(e.move_path), child, agent: child ? this.agentLabel(thread) : '' });
  }

  private onSubagent(e: Fields, type: string): void {
    const view = this.agents.report(e, type);
    if (view) this.r.subagent(view);
  }

  private onTodo(e: Fields): void {
    const thread = this.threadOf(e);
    const child = this.isChild(thread);
    if (!child) this.ensureTurn(e);
    this.r.todo(todoView(e.todo), child, child ? this.agentLabel(thread) : '');
  }

  // ---- session, result, others

  private onSession(e: Fields): void {
    const view = sessionView(e, this.o.verbose);
    this.workspace = view.workspace;
    this.r.session(view);
  }

  private totalsView(): RunTotals {
    const agents = this.agents.totals();
    return { turns: this.turnsEnded, usage: { ...this.totals }, subagentUsage: agents.usage, subagents: agents.count };
  }

  private closeAll(how: TurnHow): void {
    for (const turn of Array.from(this.turns.values())) this.endTurn(turn, turn.child ? 'silent' : how, '');
    for (const item of Array.from(this.items.values())) this.finishItem(item, 'open', '');
  }

  private onResult(e: Fields): void {
    // A turn still open when the result arrives ended without its own event.
    this.closeAll('silent');
    const status = str(e.status) || 'unknown';
    const finalMessage = str(e.final_message);
    const showFinal = finalMessage.trim() !== '' && finalMessage.trimEnd() !== this.lastMessage.trimEnd();
    this.r.result({
      ...this.totalsView(),
      status,
      ok: status === 'completed',
      error: str(e.error),
      runId: str(e.run_id),
      trace: str(e.trace_path),
      finalMessage: showFinal ? finalMessage : '',
      structured: Object.hasOwn(e, 'structured_result') ? { value: e.structured_result } : undefined,
    });
    this.resetRun();
  }

  private onOther(e: Fields, type: string): void {
    // step_index 0 is a fact on a diagnostic, not an empty value.
    const step = typeof e.step_index === 'number' ? ` step ${e.step_index}` : '';
    const kv = keyValuesOf(e, step !== '');
    this.r.other(`${type}${step}${kv === '' ? '' : ` ${kv}`}`);
  }

  private resetRun(): void {
    this.runActive = false;
    this.turnCount = 0;
    this.turnsEnded = 0;
    this.totals = zeroUsage();
    this.lastMessage = '';
    this.turns.clear();
    this.items.clear();
    this.closed.clear();
    this.agents.reset();
    this.currentTurn = undefined;
  }

  /** A line that is not an event (under --pass-invalid). */
  invalid(raw: Buffer): void {
    this.r.invalid(raw.toString('utf8', 0, Math.min(raw.length, 4096)).replace(/\s+/g, ' ').trim());
  }

  /** Ends a run that had no result: open turns and calls are shown as cut. */
  private cutRun(stopped = false): void {
    this.runActive = false; // so open items say the run was cut
    this.closeAll('cut');
    this.r.cut(this.totalsView(), stopped);
    this.resetRun();
    this.threads.reset();
    this.lastRoot = '';
  }

  /** End of one input: a run without result was cut. */
  endFile(stopped = false): void {
    if (this.runActive) this.cutRun(stopped);
    this.threads.reset();
    this.lastRoot = '';
    this.r.endFile();
  }

  end(): void {
    this.r.end();
  }
}
