/**
 * The Codex mapping: `codex exec --json` lines to wuu events.
 *
 * Source of the Codex side (openai/codex): `codex-rs/exec/src/exec_events.rs`
 * (`ThreadEvent`, `ThreadItem`, `ThreadItemDetails`, `Usage`,
 * `CommandExecutionItem`, `FileChangeItem`, `McpToolCallItem`,
 * `CollabToolCallItem`, `WebSearchItem`, `TodoListItem`, `ErrorItem`),
 * `codex-rs/exec/src/event_processor_with_jsonl_output.rs`
 * (`EventProcessorWithJsonOutput`: `usage_from_last_total` reports the
 * thread's running `ThreadTokenUsage.total`; `map_started_item` drops agent
 * messages and reasoning; an interrupted turn writes no line; the final
 * message is the turn's last agent message, else its last plan), and the
 * SDK's `sdk/typescript/src/{events,items}.ts`. Checked against streams of
 * codex-cli 0.171.0 (test/fixtures/import/codex/).
 *
 * What Codex does not say is left out or left empty, never made up: the
 * model, provider, working directory and permissions are not in the stream;
 * reasoning is dropped (wuu never forwards it); non-fatal warning items
 * (`item.type` `error`) have no wuu counterpart.
 */
import { isObject, type Tokens } from '../events.js';
import { goJson, struct } from './encode.js';
import type { ImportedEvent, Mapper } from './mapper.js';
import { fileChanged, toolEnded, toolStarted } from './tool-events.js';

type Obj = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const obj = (v: unknown): Obj => (isObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Codex's running token totals (`Usage`): input includes cached, output includes reasoning. */
interface Totals {
  input: number;
  cached: number;
  cacheWrite: number;
  output: number;
}

const ZERO: Totals = { input: 0, cached: 0, cacheWrite: 0, output: 0 };

function totalsOf(usage: Obj): Totals {
  return { input: num(usage.input_tokens), cached: num(usage.cached_input_tokens), cacheWrite: num(usage.cache_write_input_tokens), output: num(usage.output_tokens) };
}

/**
 * One turn's usage in wuu's convention, from two running totals: the
 * difference, with cached reads (and cache writes, while they fit inside the
 * input as OpenAI counts them) taken out of the input.
 */
export function turnUsage(before: Totals, after: Totals): Tokens {
  // A total lower than the last one is a new count (another process's thread): take it whole.
  const base = after.input < before.input || after.output < before.output || after.cached < before.cached || after.cacheWrite < before.cacheWrite ? ZERO : before;
  const input = after.input - base.input;
  const cached = after.cached - base.cached;
  const write = after.cacheWrite - base.cacheWrite;
  const fresh = input - cached - write >= 0 ? input - cached - write : Math.max(0, input - cached);
  return { input_tokens: fresh, cache_read_tokens: cached, cache_creation_tokens: write, output_tokens: after.output - base.output };
}

/** wuu's file_changed action for a Codex `PatchChangeKind`. */
const ACTIONS: ReadonlyMap<string, string> = new Map([
  ['add', 'create'],
  ['update', 'edit'],
  ['delete', 'delete'],
]);

/** wuu sub-agent statuses for Codex's `CollabAgentStatus` (not_found carries nothing: skipped). */
const AGENT_STATUS: ReadonlyMap<string, string> = new Map([
  ['pending_init', 'pending'],
  ['running', 'running'],
  ['completed', 'completed'],
  ['errored', 'failed'],
  ['interrupted', 'cancelled'],
  ['shutdown', 'cancelled'],
]);
const AGENT_TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/**
 * How Codex words a retry notice, as observed (not read in its source):
 * `Reconnecting... 1/1 (...)` in the api-error capture of codex-cli 0.171.0,
 * `Reconnecting... waiting for network (...)` in PRODUCERS.md's 0.163.0 runs.
 */
const RETRY = /^Reconnecting\.\.\./;

/** The tool name and JSON arguments wuu gets for a Codex tool item. */
function toolCall(item: Obj): { name: string; args: string } | undefined {
  switch (item.type) {
    case 'command_execution':
      // The command as Codex reports it, already wrapped in its shell (`/bin/bash -lc '...'`).
      return { name: 'bash', args: goJson({ command: str(item.command) }) };
    case 'file_change':
      return { name: 'apply_patch', args: goJson({ changes: list(item.changes).map((c) => ({ kind: str(obj(c).kind), path: str(obj(c).path) })) }) };
    case 'mcp_tool_call':
      return { name: `${str(item.server)}.${str(item.tool)}`, args: goJson(item.arguments ?? null) };
    case 'web_search':
      return { name: 'web_search', args: goJson({ query: str(item.query) }) };
    case 'collab_tool_call': {
      const args: Obj = { receiver_thread_ids: list(item.receiver_thread_ids).map(str) };
      if (typeof item.prompt === 'string') args.prompt = item.prompt;
      return { name: str(item.tool), args: goJson(args) };
    }
    default:
      return undefined;
  }
}

/** A tool item's output text, as Codex reports it at completion. */
function toolOutput(item: Obj): string {
  switch (item.type) {
    case 'command_execution':
      return str(item.aggregated_output);
    case 'mcp_tool_call': {
      const result = obj(item.result);
      const parts = list(result.content).map((c) => (obj(c).type === 'text' ? str(obj(c).text) : goJson(c)));
      if (parts.length === 0 && result.structured_content !== undefined && result.structured_content !== null) parts.push(goJson(result.structured_content));
      return parts.join('\n');
    }
    case 'collab_tool_call':
      return Object.entries(obj(item.agents_states))
        .map(([id, state]) => `${id}: ${str(obj(state).status)}${typeof obj(state).message === 'string' ? `: ${str(obj(state).message)}` : ''}`)
        .join('\n');
    default:
      return '';
  }
}

/** A completed tool item's wuu status and error. */
function toolEnd(item: Obj): { status: string; error: string } {
  const status = str(item.status);
  if (status === 'completed' || status === '') return { status: 'completed', error: '' };
  if (status === 'in_progress') return { status: 'in_progress', error: '' };
  if (status === 'declined') return { status: 'failed', error: 'declined' };
  const exit = item.exit_code;
  const error = str(obj(item.error).message) || (typeof exit === 'number' ? `exit code ${exit}` : status);
  return { status: 'failed', error };
}

interface Turn {
  id: string;
  /** Tool items started and not completed: Codex id -> wuu item id. Bounded by the turn. */
  open: Map<string, string>;
  lastMessage: string | undefined;
  lastPlan: string | undefined;
}

/**
 * Where the stream is: its thread and open turn. The parts of the mapping
 * below share one, so every event they write names the same ids.
 */
class Position {
  thread = '';
  turn: Turn | undefined;

  ids(): { thread_id: string; turn_id: string } {
    return { thread_id: this.thread, turn_id: this.turn?.id ?? '' };
  }
}

/**
 * `thread.started` and `turn.*`: the session, the turns with their usage
 * (from the thread's running totals), and the run's end, which Codex only
 * implies by its last turn.
 */
class CodexTurns {
  private configured = false;
  /** Running totals per thread seen in this stream (a resumed thread continues its count). */
  private readonly totals = new Map<string, Totals>();
  private readonly turnCounts = new Map<string, number>();
  /** The last turn's end, for the synthesized result. */
  private ended: { turnId: string; status: 'completed' | 'failed'; message: string; error: string } | undefined;

  constructor(private readonly at: Position) {}

  threadStarted(line: Obj, out: ImportedEvent[]): void {
    const id = str(line.thread_id);
    if (!this.configured) {
      this.configured = true;
      // Codex's stream names no model, provider, directory or permissions (they are only in its rollout file).
      out.push({ type: 'session_configured', protocol_version: '', provider: '', model: '', effort: '', variant: '', max_parallel: 0, workspace_root: '', permissions: struct({}), source: { producer: 'codex' } });
    }
    if (this.at.turn !== undefined) {
      // The previous process ended inside a turn (Codex writes nothing on an interrupt).
      out.push({ type: 'turn_interrupted', ...this.at.ids(), reason: 'interrupted' });
      this.at.turn = undefined;
    }
    // `codex exec resume` prints thread.started again with the same id.
    const resumed = this.totals.has(id);
    this.at.thread = id;
    if (!resumed) this.totals.set(id, ZERO);
    this.ended = undefined;
    out.push({ type: resumed ? 'thread_resumed' : 'thread_started', thread_id: id, model: '', provider: '', cwd: '' });
  }

  turnStarted(out: ImportedEvent[]): void {
    const at = this.at;
    if (at.turn !== undefined) out.push({ type: 'turn_interrupted', ...at.ids(), reason: 'interrupted' });
    const n = (this.turnCounts.get(at.thread) ?? 0) + 1;
    this.turnCounts.set(at.thread, n);
    at.turn = { id: `${at.thread}-turn-${String(n).padStart(4, '0')}`, open: new Map(), lastMessage: undefined, lastPlan: undefined };
    this.ended = undefined;
    out.push({ type: 'turn_started', ...at.ids() });
  }

  turnCompleted(line: Obj, out: ImportedEvent[]): void {
    const at = this.at;
    const current = at.turn;
    const after = totalsOf(obj(line.usage));
    const usage = turnUsage(this.totals.get(at.thread) ?? ZERO, after);
    this.totals.set(at.thread, after);
    const message = current?.lastMessage ?? current?.lastPlan;
    if (current !== undefined) {
      if (message !== undefined) out.push({ type: 'agent_message_final', ...at.ids(), message });
      out.push({ type: 'usage_updated', ...at.ids(), ...usage });
      out.push({ type: 'turn_completed', ...at.ids(), input_tokens: usage.input_tokens, output_tokens: usage.output_tokens, trace_path: '', awaiting_auto_continuation: false });
    }
    this.ended = { turnId: current?.id ?? '', status: 'completed', message: message ?? '', error: '' };
    at.turn = undefined;
  }

  turnFailed(line: Obj, out: ImportedEvent[]): void {
    const at = this.at;
    const error = str(obj(line.error).message);
    if (at.turn !== undefined) out.push({ type: 'turn_failed', ...at.ids(), error });
    this.ended = { turnId: at.turn?.id ?? '', status: 'failed', message: '', error };
    at.turn = undefined;
  }

  /** The run's result at the end of the stream: none after a turn that never ended (as a killed run). */
  result(out: ImportedEvent[]): void {
    const ended = this.ended;
    if (ended === undefined || this.at.turn !== undefined) return;
    const result: ImportedEvent = { type: 'result', status: ended.status, thread_id: this.at.thread, turn_id: ended.turnId, run_id: '', final_message: ended.message, trace_path: '' };
    if (ended.error !== '') result.error = ended.error;
    out.push(result);
  }
}

/**
 * `item.*` inside a turn: tool calls (with the file changes and sub-agents
 * they report), agent messages, plans and todo lists.
 */
class CodexItems {
  /** Sub-agents already reported, and whether they ended (for started/updated/completed). */
  private readonly agents = new Map<string, boolean>();

  constructor(private readonly at: Position) {}

  started(item: Obj, out: ImportedEvent[]): void {
    const call = toolCall(item);
    const turn = this.at.turn;
    if (call === undefined || turn === undefined) return;
    const codexId = str(item.id);
    if (turn.open.has(codexId)) return;
    const itemId = `${turn.id}-${codexId}`;
    turn.open.set(codexId, itemId);
    out.push(toolStarted({ ...this.at.ids(), item_id: itemId }, call.name, call.args));
  }

  updated(item: Obj, out: ImportedEvent[]): void {
    if (item.type === 'todo_list') this.todo(item, out);
    else this.started(item, out);
  }

  completed(item: Obj, out: ImportedEvent[]): void {
    const turn = this.at.turn;
    switch (item.type) {
      case 'agent_message':
        if (turn === undefined) return;
        // Codex streams no text in --json: the whole message is the one delta.
        turn.lastMessage = str(item.text);
        out.push({ type: 'agent_message_delta', ...this.at.ids(), delta: turn.lastMessage });
        return;
      case 'plan':
        if (turn !== undefined) turn.lastPlan = str(item.text);
        return;
      case 'todo_list':
        this.todo(item, out);
        return;
      default: {
        const call = toolCall(item);
        if (call !== undefined && turn !== undefined) this.toolCompleted(item, call, turn, out);
      }
    }
  }

  private toolCompleted(item: Obj, call: { name: string; args: string }, turn: Turn, out: ImportedEvent[]): void {
    const codexId = str(item.id);
    let itemId = turn.open.get(codexId);
    if (itemId === undefined) {
      // Completed without a start (Codex reconciles unfinished items at turn end): start it now.
      itemId = `${turn.id}-${codexId}`;
      out.push(toolStarted({ ...this.at.ids(), item_id: itemId }, call.name, call.args));
    }
    turn.open.delete(codexId);
    const at = { ...this.at.ids(), item_id: itemId };
    const end = toolEnd(item);
    out.push(...toolEnded(at, call.name, toolOutput(item), end.status, end.error));
    if (item.type === 'file_change' && end.status === 'completed') {
      for (const change of list(item.changes).map(obj)) out.push(fileChanged(at, 'apply_patch', str(change.path), ACTIONS.get(str(change.kind))));
    }
    if (item.type === 'collab_tool_call') this.subagents(item, out);
  }

  private todo(item: Obj, out: ImportedEvent[]): void {
    if (this.at.turn === undefined) return;
    const todos = list(item.items).map((t) => struct({ content: str(obj(t).text), status: obj(t).completed === true ? 'completed' : 'pending' }));
    out.push({ type: 'todo_updated', ...this.at.ids(), todo: struct({ todos }) });
  }

  /** subagent_* events for the agents a collab tool call reports on. */
  private subagents(item: Obj, out: ImportedEvent[]): void {
    const states = obj(item.agents_states);
    const tool = str(item.tool);
    for (const id of list(item.receiver_thread_ids).map(str)) {
      if (id === '') continue;
      const state = obj(states[id]);
      const status = AGENT_STATUS.get(str(state.status));
      if (status === undefined) continue;
      const done = this.agents.get(id);
      // A close after the agent finished says nothing new.
      if (done === true && tool === 'close_agent') continue;
      const terminal = AGENT_TERMINAL.has(status);
      const type = terminal ? 'subagent_completed' : done === undefined ? 'subagent_started' : 'subagent_updated';
      this.agents.set(id, terminal || done === true);
      const event: ImportedEvent = { type, thread_id: this.at.thread, agent_id: id, agent_type: '', status };
      if (tool === 'spawn_agent' && typeof item.prompt === 'string') event.description = item.prompt;
      const message = state.message;
      if (typeof message === 'string') event[status === 'failed' ? 'error' : 'result'] = message;
      out.push(event);
    }
  }
}

/**
 * Top-level `error` lines. Retry notices and the fatal error share this
 * type. Codex words a retry "Reconnecting... n/m (...)": written at once.
 * Any other error waits for the next line, which tells (turn.failed follows
 * the fatal one; nothing after it at all is fatal too).
 */
class CodexErrors {
  private held: string | undefined;

  constructor(private readonly at: Position) {}

  error(line: Obj, out: ImportedEvent[]): void {
    this.flush(out, false);
    const message = str(line.message);
    if (RETRY.test(message)) out.push({ type: 'error', ...this.at.ids(), run_id: '', error: message, retrying: true });
    else this.held = message;
  }

  flush(out: ImportedEvent[], fatal: boolean): void {
    if (this.held === undefined) return;
    out.push({ type: 'error', ...this.at.ids(), run_id: '', error: this.held, retrying: !fatal });
    this.held = undefined;
  }
}

/** Creates the Codex mapper for one stream. */
export function createCodexMapper(): Mapper {
  const at = new Position();
  const turns = new CodexTurns(at);
  const items = new CodexItems(at);
  const errors = new CodexErrors(at);
  return {
    producer: 'codex',
    line(line) {
      const out: ImportedEvent[] = [];
      if (line.type === 'error') {
        errors.error(line, out);
        return out;
      }
      errors.flush(out, line.type === 'turn.failed');
      const item = obj(line.item);
      switch (line.type) {
        case 'thread.started':
          turns.threadStarted(line, out);
          break;
        case 'turn.started':
          turns.turnStarted(out);
          break;
        case 'turn.completed':
          turns.turnCompleted(line, out);
          break;
        case 'turn.failed':
          turns.turnFailed(line, out);
          break;
        case 'item.started':
          items.started(item, out);
          break;
        case 'item.updated':
          items.updated(item, out);
          break;
        case 'item.completed':
          items.completed(item, out);
          break;
        default:
          break;
      }
      return out;
    },
    end() {
      const out: ImportedEvent[] = [];
      // An error with nothing after it: the last word of the stream, fatal.
      errors.flush(out, true);
      turns.result(out);
      return out;
    },
  };
}
