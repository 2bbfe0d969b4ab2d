/**
 * Claude Code's stream (`claude -p --output-format stream-json --verbose`,
 * with or without `--include-partial-messages`) as wuu events.
 *
 * Source types: the `SDKMessage` union of the Claude Agent SDK
 * (`@anthropic-ai/claude-agent-sdk@0.3.332` sdk.d.ts: SDKSystemMessage,
 * SDKAssistantMessage, SDKUserMessage, SDKPartialAssistantMessage,
 * SDKResultSuccess / SDKResultError, SDKAPIRetryMessage,
 * SDKTaskStartedMessage, SDKTaskProgressMessage, SDKTaskUpdatedMessage,
 * SDKTaskNotificationMessage, ModelUsage, TerminalReason) and its tool
 * types (sdk-tools.d.ts: BashInput, FileWriteOutput, TodoWriteInput,
 * AgentOutput), checked against streams of the released CLI 2.1.332 and 2.1.334
 * (test/fixtures/import/claude/VERSION/). Keys the wire carries beyond the types and
 * that this mapping reads: `model_usage_since_last_result` on result lines.
 *
 * The facts the mapping rests on:
 * - `system/init` starts every turn; one `result` ends each, in the order
 *   the turns started, and a result can be held back until background
 *   sub-agents finish (so it may follow the next turn's init). Turns are
 *   therefore ended oldest first.
 * - A streamed `assistant` message holds one completed content block; its
 *   usage is provisional and repeated for every block of one API call. The
 *   only exact per-turn count of the main loop is `result.usage`;
 *   `result.modelUsage` is the process's running total over every model call
 *   (sub-agents and auxiliary calls included; a resumed session starts from
 *   the saved total), and `model_usage_since_last_result` its increase.
 * - With partial messages, text arrives first as `stream_event` text deltas,
 *   then again as the block's `assistant` message: one source is used per
 *   API message (by `message.id`).
 * - Sub-agent messages carry `parent_tool_use_id` (the spawning Agent/Task
 *   call) and `agent_id` (= the task_id of its `system/task_*` events).
 *
 * Synthesized (the stream does not say it): turn ids
 * `<session_id>-turn-NNNN` counted per init, sub-agent turn ids
 * `<agent_id>-turn-0001`, `tool_removed` for a call still open when its
 * turn or task ends, the text of the retry `error` (from api_retry's
 * fields), and the split of the process total between sub-agents (see
 * attributeRest). The run's `result` is written at the end of the stream,
 * after the last Claude result, because background work can start another
 * turn after a result. Left empty because the stream does not carry them:
 * protocol_version, variant, max_parallel (0), run_id, trace_path. Left
 * out: reasoning, sub-agent text, cost, permission denial records, tool
 * output other than text, Bash options other than `command`, TodoWrite's
 * activeForm, the TaskCreate/TaskUpdate task list, command_* twins.
 */
import { isObject, TOKEN_FIELDS as FIELDS, type Tokens } from '../events.js';
import type { ImportedEvent, Mapper } from './mapper.js';
import { fileChanged, toolEnded, toolStarted, type ItemIds } from './tool-events.js';

type Obj = Record<string, unknown>;

const zero = (): Tokens => ({ input_tokens: 0, output_tokens: 0, cache_creation_tokens: 0, cache_read_tokens: 0 });

function obj(value: unknown): Obj | undefined {
  return isObject(value) ? value : undefined;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0;
}

function add(into: Tokens, t: Tokens): void {
  for (const f of FIELDS) into[f] += t[f];
}

function isZero(t: Tokens): boolean {
  return FIELDS.every((f) => t[f] === 0);
}

/** Anthropic `Usage` (snake_case; input excludes cache, as wuu's). */
function fromUsage(usage: unknown): Tokens {
  const u = obj(usage) ?? {};
  return {
    input_tokens: count(u.input_tokens),
    output_tokens: count(u.output_tokens),
    cache_creation_tokens: count(u.cache_creation_input_tokens),
    cache_read_tokens: count(u.cache_read_input_tokens),
  };
}

/** The sum over models of a `Record<string, ModelUsage>` (camelCase; thinkingTokens is inside outputTokens). */
function fromModelUsage(models: unknown): Tokens | undefined {
  const m = obj(models);
  if (m === undefined) return undefined;
  const sum = zero();
  for (const entry of Object.values(m)) {
    const u = obj(entry) ?? {};
    add(sum, {
      input_tokens: count(u.inputTokens),
      output_tokens: count(u.outputTokens),
      cache_creation_tokens: count(u.cacheCreationInputTokens),
      cache_read_tokens: count(u.cacheReadInputTokens),
    });
  }
  return sum;
}

/** Text of a tool_result `content`: a string or content blocks (text kept; images and documents left out). */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    const b = obj(block);
    if (b?.type === 'text' && typeof b.text === 'string') parts.push(b.text);
  }
  return parts.join('\n');
}

/** An api_retry line in words: `API error 529: overloaded (attempt 1 of 10, retrying in 521 ms)`. */
function retryText(o: Obj): string {
  let text = typeof o.error_status === 'number' ? `API error ${o.error_status}` : 'API connection error';
  if (typeof o.error === 'string' && o.error !== '') text += `: ${o.error}`;
  const about: string[] = [];
  if (typeof o.attempt === 'number') about.push(typeof o.max_retries === 'number' ? `attempt ${o.attempt} of ${o.max_retries}` : `attempt ${o.attempt}`);
  if (typeof o.retry_delay_ms === 'number') about.push(`retrying in ${o.retry_delay_ms} ms`);
  return about.length > 0 ? `${text} (${about.join(', ')})` : text;
}

/** Tools whose successful call changed a file (sdk-tools.d.ts FileWriteInput, FileEditInput, NotebookEditInput). */
const FILE_TOOLS: ReadonlySet<string> = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** Task types that are sub-agents (SDKTaskStartedMessage.task_type); shells, workflows and MCP tasks are not. */
const AGENT_TASKS: ReadonlySet<string> = new Set(['local_agent', 'remote_agent']);

/** wuu's sub-agent statuses for Claude's task statuses (SDKTaskUpdatedMessage.patch.status, SDKTaskNotificationMessage.status). */
const TASK_STATUS: ReadonlyMap<string, string> = new Map([
  ['killed', 'cancelled'],
  ['stopped', 'cancelled'],
]);
const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** wuu's action for a Write call by its `FileWriteOutput.type` (any other: no action). */
const WRITE_ACTIONS: ReadonlyMap<string, string> = new Map([
  ['create', 'create'],
  ['update', 'overwrite'],
]);

/** TerminalReason values that mean the user stopped the turn. */
const ABORTED: ReadonlySet<string> = new Set(['aborted_streaming', 'aborted_tools']);

interface OpenTool {
  thread: string;
  turn: string;
  /** wuu's name (`bash` for Bash). */
  name: string;
  /** Claude's tool name. */
  claudeName: string;
  input: Obj;
}

/**
 * Usage of the API calls of one agent or one root turn as the stream shows
 * them, each call once: Claude Code repeats a call's usage on every content
 * block (SDKAssistantMessage), so repeats of one `message.id` keep the
 * largest count of each field instead of adding up.
 */
class Meter {
  seen = zero();
  private lastMessage = '';
  private lastUsage = zero();

  /** Counts a call's usage; whether the total grew. */
  count(messageId: string, usage: Tokens): boolean {
    let grew = false;
    if (messageId === '' || messageId !== this.lastMessage) {
      this.lastMessage = messageId;
      this.lastUsage = zero();
    }
    for (const f of FIELDS) {
      if (usage[f] > this.lastUsage[f]) {
        this.seen[f] += usage[f] - this.lastUsage[f];
        this.lastUsage[f] = usage[f];
        grew = true;
      }
    }
    return grew;
  }
}

interface Agent {
  id: string;
  type: string;
  description: string;
  status: string;
  /** Its API calls seen in the stream. */
  meter: Meter;
  /** The tokens its last subagent_* event carried. */
  reported: Tokens | undefined;
}

interface Pending {
  status: string;
  thread: string;
  turn: string;
  finalMessage: string;
  error: string;
  structured: { value: unknown } | undefined;
}

class ClaudeMapper implements Mapper {
  readonly producer = 'claude' as const;
  private thread: string | undefined;
  private turns = 0;
  /** Root turns started and not yet ended, oldest first (results end them in this order). */
  private open: string[] = [];
  private tools = new Map<string, OpenTool>();
  /** API message ids whose text came as stream_event deltas (this turn). */
  private streamed = new Set<string>();
  /** The main loop's API message being streamed (stream_event message_start). */
  private streaming = '';
  /** Running usage of the open root turns. */
  private turnMeters = new Map<string, Meter>();
  private agents = new Map<string, Agent>();
  /** Spawning tool_use id -> task id, for sub-agent messages without agent_id. */
  private agentByTool = new Map<string, string>();
  private agentsSeen = false;
  private total = zero();
  private mainTotal = zero();
  private lastModelUsage: Tokens | undefined;
  private pending: Pending | undefined;

  line(o: Obj): ImportedEvent[] {
    const out: ImportedEvent[] = [];
    switch (o.type) {
      case 'system':
        this.system(o, out);
        break;
      case 'stream_event':
        this.streamEvent(o, out);
        break;
      case 'assistant':
        this.assistant(o, out);
        break;
      case 'user':
        this.user(o, out);
        break;
      case 'result':
        this.result(o, out);
        break;
      default:
        break;
    }
    return out;
  }

  end(): ImportedEvent[] {
    const out: ImportedEvent[] = [];
    // A turn begun after the last result never got its own: the stream was cut, as a killed run.
    if (this.pending === undefined || this.open.length > 0) return out;
    this.attributeRest(out);
    const p = this.pending;
    const result: ImportedEvent = { type: 'result', status: p.status, thread_id: p.thread, turn_id: p.turn, run_id: '', final_message: p.finalMessage, trace_path: '' };
    if (p.error !== '') result.error = p.error;
    if (p.structured !== undefined) result.structured_result = p.structured.value;
    out.push(result);
    this.pending = undefined;
    return out;
  }

  private get turn(): string {
    return this.open.at(-1) ?? '';
  }

  private system(o: Obj, out: ImportedEvent[]): void {
    switch (o.subtype) {
      case 'init':
        this.init(o, out);
        return;
      case 'api_retry':
        // SDKAPIRetryMessage: a retry, not the end of the turn (wuu's error event with retrying true).
        if (this.thread === undefined) return;
        out.push({ type: 'error', thread_id: this.thread, turn_id: this.turn, run_id: '', error: retryText(o), retrying: true });
        return;
      case 'task_started':
      case 'task_progress':
      case 'task_updated':
      case 'task_notification':
        this.task(o, out);
        return;
      default:
        return;
    }
  }

  /** SDKSystemMessage: the session on the first one, a new root turn on every one. */
  private init(o: Obj, out: ImportedEvent[]): void {
    if (this.thread === undefined) {
      this.thread = str(o.session_id);
      const model = str(o.model);
      const cwd = str(o.cwd);
      out.push({
        type: 'session_configured',
        protocol_version: '',
        provider: 'anthropic',
        model,
        effort: str(o.effort),
        variant: '',
        max_parallel: 0,
        workspace_root: cwd,
        permissions: { mode: str(o.permissionMode) },
        source: { producer: 'claude', version: str(o.claude_code_version) },
      });
      out.push({ type: 'thread_started', thread_id: this.thread, model, provider: 'anthropic', cwd });
    }
    this.turns++;
    const turn = `${this.thread}-turn-${String(this.turns).padStart(4, '0')}`;
    this.open.push(turn);
    out.push({ type: 'turn_started', thread_id: this.thread, turn_id: turn });
  }

  /** SDKPartialAssistantMessage: main-thread text deltas (sub-agents' are not forwarded by wuu). */
  private streamEvent(o: Obj, out: ImportedEvent[]): void {
    if (this.thread === undefined || this.open.length === 0 || (o.parent_tool_use_id !== null && o.parent_tool_use_id !== undefined)) return;
    const event = obj(o.event);
    if (event === undefined) return;
    if (event.type === 'message_start') {
      const message = obj(event.message);
      this.streaming = str(message?.id);
      if (this.streaming !== '') this.streamed.add(this.streaming);
      this.countMainCall(this.turn, this.streaming, fromUsage(message?.usage), out);
      return;
    }
    if (event.type === 'message_delta') {
      // The call's final usage (output included), which its assistant messages only estimate.
      this.countMainCall(this.turn, this.streaming, fromUsage(event.usage), out);
      return;
    }
    const delta = obj(event.delta);
    if (event.type === 'content_block_delta' && delta?.type === 'text_delta' && typeof delta.text === 'string' && delta.text !== '') {
      out.push({ type: 'agent_message_delta', thread_id: this.thread, turn_id: this.turn, delta: delta.text });
    }
  }

  /** The sub-agent (task id) a message with parent_tool_use_id belongs to. */
  private agentOf(o: Obj): string {
    const agent = str(o.agent_id);
    if (agent !== '') return agent;
    const parent = str(o.parent_tool_use_id);
    return this.agentByTool.get(parent) ?? parent;
  }

  /** SDKAssistantMessage: one completed content block (text, tool_use, thinking) of an API call. */
  private assistant(o: Obj, out: ImportedEvent[]): void {
    const sub = o.parent_tool_use_id !== null && o.parent_tool_use_id !== undefined;
    // A sub-agent's thread needs no root turn (a background agent can outlive the turn that spawned it).
    if (this.thread === undefined || (!sub && this.open.length === 0)) return;
    const message = obj(o.message) ?? {};
    const content = Array.isArray(message.content) ? message.content : [];
    const thread = sub ? this.agentOf(o) : this.thread;
    const turn = sub ? `${thread}-turn-0001` : this.turn;
    if (sub) this.countAgentCall(thread, str(message.id), fromUsage(message.usage));
    else this.countMainCall(turn, str(message.id), fromUsage(message.usage), out);
    // A synthetic API-error message (`error` set) is the turn's failure, which its result reports.
    const textOwed = !sub && o.error === undefined && !this.streamed.has(str(message.id));
    for (const block of content) {
      const b = obj(block);
      if (b?.type === 'text' && textOwed && typeof b.text === 'string' && b.text !== '') {
        out.push({ type: 'agent_message_delta', thread_id: thread, turn_id: turn, delta: b.text });
      } else if (b?.type === 'tool_use') {
        this.toolStarted(b, thread, turn, out);
      }
    }
  }

  /** A tool_use block: Bash becomes wuu's `bash` with `{"command": ...}` (BashInput.command). */
  private toolStarted(b: Obj, thread: string, turn: string, out: ImportedEvent[]): void {
    const id = str(b.id);
    if (id === '' || this.tools.has(id)) return;
    const claudeName = str(b.name);
    const input = obj(b.input) ?? {};
    const bash = claudeName === 'Bash';
    const name = bash ? 'bash' : claudeName;
    const args = bash ? JSON.stringify({ command: str(input.command) }) : JSON.stringify(input);
    this.tools.set(id, { thread, turn, name, claudeName, input });
    out.push(toolStarted({ thread_id: thread, turn_id: turn, item_id: id }, name, args));
  }

  /** SDKUserMessage: tool_result blocks end the calls they name (text prompts and notices carry nothing wuu has). */
  private user(o: Obj, out: ImportedEvent[]): void {
    const content = obj(o.message)?.content;
    if (!Array.isArray(content)) return;
    for (const block of content) {
      const b = obj(block);
      if (b?.type !== 'tool_result') continue;
      const id = str(b.tool_use_id);
      const tool = this.tools.get(id);
      if (tool === undefined) continue;
      this.tools.delete(id);
      const text = resultText(b.content);
      const failed = b.is_error === true;
      const at = { thread_id: tool.thread, turn_id: tool.turn, item_id: id };
      out.push(...toolEnded(at, tool.name, text, failed ? 'failed' : 'completed', failed ? text : ''));
      if (!failed) this.afterTool(tool, at, obj(o.tool_use_result), out);
    }
  }

  /** file_changed for a file tool, todo_updated for TodoWrite, after a successful call. */
  private afterTool(tool: OpenTool, at: ItemIds, structured: Obj | undefined, out: ImportedEvent[]): void {
    const claudeName = tool.claudeName;
    if (FILE_TOOLS.has(claudeName)) {
      const path = str(structured?.filePath) || str(tool.input.file_path) || str(tool.input.notebook_path);
      if (path === '') return;
      // FileWriteOutput.type: create | update; wuu's write actions are create | overwrite, edits are edit.
      const action = claudeName !== 'Write' ? 'edit' : WRITE_ACTIONS.get(str(structured?.type));
      out.push(fileChanged(at, claudeName, path, action));
    } else if (claudeName === 'TodoWrite' && Array.isArray(tool.input.todos)) {
      // TodoWriteInput.todos: {content, status, activeForm}; wuu's todo has content and status.
      const todos = tool.input.todos.map((t) => ({ content: str(obj(t)?.content), status: str(obj(t)?.status) }));
      out.push({ type: 'todo_updated', thread_id: at.thread_id, turn_id: at.turn_id, todo: { todos } });
    }
  }

  /** Counts one API call of a sub-agent (its usage goes out with its next subagent_* event). */
  private countAgentCall(id: string, messageId: string, usage: Tokens): void {
    this.agentFor(id).meter.count(messageId, usage);
    this.agentsSeen = true;
  }

  /**
   * Counts one API call of the main loop in a root turn: a running snapshot
   * as the calls arrive (provisional output counts without partial
   * messages, message_delta's final ones with them); the result's count
   * replaces it at the end of the turn.
   */
  private countMainCall(turn: string, messageId: string, usage: Tokens, out: ImportedEvent[]): void {
    let meter = this.turnMeters.get(turn);
    if (meter === undefined) {
      meter = new Meter();
      this.turnMeters.set(turn, meter);
    }
    if (meter.count(messageId, usage)) out.push({ type: 'usage_updated', thread_id: this.thread ?? '', turn_id: turn, ...meter.seen });
  }

  private agentFor(id: string): Agent {
    let agent = this.agents.get(id);
    if (agent === undefined) {
      agent = { id, type: '', description: '', status: 'running', meter: new Meter(), reported: undefined };
      this.agents.set(id, agent);
    }
    return agent;
  }

  /** system/task_*: sub-agents as subagent_* events (other task kinds are not sub-agents). */
  private task(o: Obj, out: ImportedEvent[]): void {
    if (this.thread === undefined) return;
    const id = str(o.task_id);
    if (id === '') return;
    if (o.subtype === 'task_started') {
      const kind = str(o.task_type);
      if (kind !== '' ? !AGENT_TASKS.has(kind) : o.subagent_type === undefined) return;
      const agent = this.agentFor(id);
      this.agentsSeen = true;
      agent.type = str(o.subagent_type);
      agent.description = str(o.description);
      if (typeof o.tool_use_id === 'string') this.agentByTool.set(o.tool_use_id, id);
      out.push(this.subagent('subagent_started', agent, typeof o.parent_task_id === 'string' ? { parent_id: o.parent_task_id } : {}));
      return;
    }
    const agent = this.agents.get(id);
    if (agent === undefined) return;
    if (o.subtype === 'task_progress') {
      out.push(this.subagent('subagent_updated', agent, {}));
      return;
    }
    const extra: Obj = {};
    let status: string;
    if (o.subtype === 'task_updated') {
      const patch = obj(o.patch) ?? {};
      if (typeof patch.status !== 'string') return;
      status = patch.status;
      if (typeof patch.error === 'string' && patch.error !== '') extra.error = patch.error;
    } else {
      status = str(o.status);
      if (typeof o.summary === 'string') extra.result = o.summary;
      if (typeof o.output_file === 'string' && o.output_file !== '') extra.result_path = o.output_file;
    }
    agent.status = TASK_STATUS.get(status) ?? status;
    if (TERMINAL.has(agent.status)) this.closeTools(agent.id, out);
    out.push(this.subagent(TERMINAL.has(agent.status) ? 'subagent_completed' : 'subagent_updated', agent, extra));
  }

  private subagent(type: string, agent: Agent, extra: Obj): ImportedEvent {
    agent.reported = { ...agent.meter.seen };
    return {
      type,
      thread_id: this.thread ?? '',
      agent_id: agent.id,
      agent_type: agent.type,
      status: agent.status,
      description: agent.description,
      ...extra,
      ...agent.meter.seen,
    };
  }

  /** tool_removed for calls of a thread (or a root turn) still open when it ends. */
  private closeTools(thread: string, out: ImportedEvent[], turn?: string): void {
    for (const [id, tool] of this.tools) {
      if (tool.thread !== thread || (turn !== undefined && tool.turn !== turn)) continue;
      this.tools.delete(id);
      out.push({ type: 'tool_removed', thread_id: tool.thread, turn_id: tool.turn, item_id: id });
    }
  }

  /** What this result adds to the process total: model_usage_since_last_result, else the growth of modelUsage. */
  private increase(o: Obj): Tokens | undefined {
    const since = fromModelUsage(o.model_usage_since_last_result);
    const now = fromModelUsage(o.modelUsage);
    const before = this.lastModelUsage;
    if (now !== undefined) this.lastModelUsage = now;
    if (since !== undefined) return since;
    if (now === undefined) return undefined;
    const grown = zero();
    for (const f of FIELDS) grown[f] = Math.max(0, now[f] - (before?.[f] ?? 0));
    return grown;
  }

  /** SDKResultMessage: ends the oldest open turn; the run's result waits for the end of the stream. */
  private result(o: Obj, out: ImportedEvent[]): void {
    const increase = this.increase(o);
    const own = fromUsage(o.usage);
    // Without sub-agents everything the process used is the main loop's (an aborted call too,
    // which result.usage leaves out); with them, result.usage is the main loop's share.
    const main = increase !== undefined && !this.agentsSeen ? increase : own;
    add(this.total, increase ?? own);
    const turn = this.open.shift();
    const thread = this.thread ?? '';
    const reason = str(o.terminal_reason);
    const ok = o.subtype === 'success' && o.is_error !== true;
    const status = ABORTED.has(reason) ? 'interrupted' : ok ? 'completed' : 'failed';
    // An interrupt's errors[] holds only an internal diagnostic: its terminal reason says what happened.
    const error = status === 'completed' ? '' : status === 'interrupted' ? reason : this.errorOf(o, reason);
    const text = ok && typeof o.result === 'string' ? o.result : '';
    if (turn !== undefined) {
      // The running snapshot never goes down (a call the result leaves out, like an aborted one, stays counted).
      const meter = this.turnMeters.get(turn);
      this.turnMeters.delete(turn);
      const final = { ...main };
      for (const f of FIELDS) final[f] = Math.max(final[f], meter?.seen[f] ?? 0);
      add(this.mainTotal, final);
      const changed = meter === undefined || FIELDS.some((f) => final[f] !== meter.seen[f]);
      this.endTurn(thread, turn, status, final, changed, text, error, out);
    }
    // Another turn may still be open (a held-back result): its streamed messages must stay known.
    if (this.open.length === 0) this.streamed.clear();
    this.pending = {
      status,
      thread,
      turn: turn ?? '',
      finalMessage: text,
      error,
      structured: ok && Object.hasOwn(o, 'structured_output') ? { value: o.structured_output } : undefined,
    };
  }

  private errorOf(o: Obj, reason: string): string {
    const errors = Array.isArray(o.errors) ? o.errors.filter((e): e is string => typeof e === 'string' && e !== '') : [];
    if (o.subtype === 'success' && typeof o.result === 'string' && o.result !== '') return o.result;
    if (errors.length > 0) return errors.join('\n');
    return reason || str(o.subtype) || 'error';
  }

  private endTurn(thread: string, turn: string, status: string, usage: Tokens, changed: boolean, text: string, error: string, out: ImportedEvent[]): void {
    this.closeTools(thread, out, turn);
    if (changed) out.push({ type: 'usage_updated', thread_id: thread, turn_id: turn, ...usage });
    if (status === 'completed') {
      out.push({ type: 'agent_message_final', thread_id: thread, turn_id: turn, message: text });
      out.push({ type: 'turn_completed', thread_id: thread, turn_id: turn, input_tokens: usage.input_tokens, output_tokens: usage.output_tokens, trace_path: '', awaiting_auto_continuation: false });
    } else if (status === 'interrupted') {
      out.push({ type: 'turn_interrupted', thread_id: thread, turn_id: turn, reason: 'interrupted' });
    } else {
      out.push({ type: 'turn_failed', thread_id: thread, turn_id: turn, error });
    }
  }

  /**
   * The part of the process total that is neither a main-loop turn nor a
   * sub-agent call seen in the stream (a sub-agent's calls whose messages are
   * not forwarded, exact output counts, auxiliary calls). With one sub-agent
   * it is that agent's; otherwise it is reported under an agent with no id,
   * so totals stay exact without guessing whose it was. Every agent whose
   * count changed since its last subagent_* event (or that never had one: a
   * CLI without task events) gets a last one.
   */
  private attributeRest(out: ImportedEvent[]): void {
    const rest = { ...this.total };
    for (const f of FIELDS) rest[f] -= this.mainTotal[f];
    for (const agent of this.agents.values()) for (const f of FIELDS) rest[f] -= agent.meter.seen[f];
    for (const f of FIELDS) rest[f] = Math.max(0, rest[f]);
    const [single] = this.agents.size === 1 ? this.agents.values() : [];
    if (single !== undefined) add(single.meter.seen, rest);
    for (const agent of this.agents.values()) {
      const last = agent.reported;
      if (last !== undefined && FIELDS.every((f) => last[f] === agent.meter.seen[f])) continue;
      out.push(this.subagent(TERMINAL.has(agent.status) ? 'subagent_completed' : 'subagent_updated', agent, {}));
    }
    if (single !== undefined || isZero(rest)) return;
    out.push({ type: 'subagent_updated', thread_id: this.thread ?? '', agent_id: '', agent_type: '', status: '', description: 'model calls not attributed to the main loop or one sub-agent', ...rest });
  }
}

/** A fresh mapping for one Claude Code stream-json stream. */
export function createClaudeMapper(): Mapper {
  return new ClaudeMapper();
}
