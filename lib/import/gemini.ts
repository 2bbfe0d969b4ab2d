/**
 * Gemini CLI `gemini -p ... --output-format stream-json` to wuu events.
 *
 * The source of truth is the CLI's own code (google-gemini/gemini-cli):
 * `packages/core/src/output/types.ts` (`JsonStreamEvent`: `InitEvent`,
 * `MessageEvent`, `ToolUseEvent`, `ToolResultEvent`, `ErrorEvent`,
 * `ResultEvent`, `StreamStats`), `packages/core/src/output/
 * stream-json-formatter.ts` (`convertToStreamStats`),
 * `packages/cli/src/nonInteractiveCli.ts` (what is emitted when) and
 * `packages/cli/src/utils/errors.ts` (`handleError`,
 * `handleCancellationError`, `handleMaxTurnsExceededError`), checked
 * against the bundle and streams of the released CLI 0.61.0
 * (test/fixtures/import/gemini/). In 0.61.0 the same six types come from the
 * `LegacyAgentSession` event loop of `runNonInteractive`: a non-fatal `error`
 * is `severity` `error` for RESOURCE_EXHAUSTED and `warning` otherwise, and a
 * `result` with status `error` may carry no `error` object (invalid stream).
 *
 * One Gemini process answers one prompt and marks no turns, so this mapper
 * synthesizes them. Everything synthesized, and everything lost, is listed in
 * docs/import-gemini.md:
 * - `turn_started` at the user `message` (or at the first turn event when a
 *   stream has none); `turn_completed` / `turn_failed` / `turn_interrupted`
 *   at `result`. The turn id is `<session_id>-turn-<digits of the prompt's
 *   timestamp>`: `--resume` keeps the session id and a wuu turn id must not
 *   repeat across runs of one thread (wuu-usage counts a turn once).
 * - `agent_message_final` (and `result.final_message`): the assistant deltas
 *   of the turn, concatenated (Gemini sends no final text).
 * - `usage_updated` once, at `result`, from `result.stats` (process totals):
 *   Gemini's `input_tokens` includes cached tokens, wuu's does not, so
 *   input = `stats.input` (= input_tokens - cached), cache_read = `cached`.
 * - `tool_removed` for a call with no `tool_result` when the run ends; an
 *   item id `<tool_id>#<n>` should a turn see one `tool_id` twice.
 * - Empty values for the wuu fields the stream never carries
 *   (`protocol_version`, `workspace_root`, `cwd`, `trace_path`, `run_id`...).
 * Each event carries the producer's `timestamp` (an extra field wuu-usage
 * reads for dates) and nothing else that is not in the stream.
 */
import { isObject, type Tokens } from '../events.js';
import type { ImportedEvent, Mapper } from './mapper.js';
import { fileChanged, toolEnded, toolStarted } from './tool-events.js';

type Obj = Record<string, unknown>;

/** Gemini's `ToolResultEvent.status` and `ResultEvent.status` are `success` | `error`. */
const OK = 'success';
/** `run_shell_command` is Gemini's shell tool (`ShellTool`); wuu calls its shell tool `bash`. */
const SHELL_TOOL = 'run_shell_command';
/** Tools that write a file named by `parameters.file_path` (`WriteFileTool`, `EditTool`). */
const FILE_TOOLS: ReadonlyMap<string, string | undefined> = new Map([
  ['write_file', undefined], // create or overwrite: the stream does not say which
  ['replace', 'edit'],
]);
/** `WriteTodosTool`: `parameters.todos` is `[{description, status}]`. */
const TODO_TOOL = 'write_todos';
/** `AgentTool` (`invoke_agent`): `parameters.agent_name`, `parameters.prompt`. */
const AGENT_TOOL = 'invoke_agent';
/** `FatalCancellationError` (exit 130): Ctrl+C on a terminal stdin. */
const CANCELLED = 'FatalCancellationError';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const obj = (v: unknown): Obj | undefined => (isObject(v) ? v : undefined);
const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined);


/** A tool call between its `tool_use` and its `tool_result`. */
interface OpenTool {
  /** Its wuu item id: the `tool_id`, made unique within the turn should the stream repeat one. */
  item: string;
  name: string;
  parameters: Obj;
}

/** Creates the mapping for one Gemini stream. */
export function createGeminiMapper(): Mapper {
  return new GeminiMapping();
}

/**
 * The state of one stream: the session, the open turn (its id, its text so
 * far, its last error-severity message) and its open tool calls. All of it
 * is reset when a turn starts, so it is bounded by one turn.
 */
class GeminiMapping implements Mapper {
  readonly producer = 'gemini' as const;
  private thread = '';
  private configured = false;
  private turn = '';
  private turnOpen = false;
  private turns = 0;
  private text = '';
  private lastError = '';
  /** The `timestamp` of the line being mapped, copied onto its events. */
  private stamp: string | undefined;
  /** Open calls by Gemini `tool_id`. */
  private readonly open = new Map<string, OpenTool>();
  /** Item ids given in the open turn (wuu-check rejects a second start of one). */
  private readonly items = new Set<string>();

  line(line: Obj): ImportedEvent[] {
    const out: ImportedEvent[] = [];
    this.stamp = typeof line.timestamp === 'string' ? line.timestamp : undefined;
    switch (line.type) {
      case 'init':
        // A second init (streams of two runs concatenated) starts a new run.
        this.turnOpen = false;
        this.configure(out, str(line.session_id), str(line.model));
        break;
      case 'message':
        this.message(out, line);
        break;
      case 'tool_use':
        this.toolUse(out, line);
        break;
      case 'tool_result':
        this.toolResult(out, line);
        break;
      case 'error':
        this.error(out, line);
        break;
      case 'result':
        this.result(out, line);
        break;
      default:
        break; // a type this version does not know: nothing wuu has a field for
    }
    return out;
  }

  end(): ImportedEvent[] {
    // No `result`: the CLI was killed or the stream was cut. Like a killed wuu run, nothing more.
    return [];
  }

  /** An event with the line's timestamp (when it has one). */
  private ev(type: string, fields: Obj): ImportedEvent {
    return this.stamped({ type, ...fields });
  }

  /** The event with the line's timestamp added (when it has one). */
  private stamped(event: ImportedEvent): ImportedEvent {
    if (this.stamp !== undefined) event.timestamp = this.stamp;
    return event;
  }

  private ids(): { thread_id: string; turn_id: string } {
    return { thread_id: this.thread, turn_id: this.turn };
  }

  /** `InitEvent`: the session and its model; nothing else about the setup is in the stream. */
  private configure(out: ImportedEvent[], sessionId: string, model: string): void {
    this.thread = sessionId;
    this.configured = true;
    out.push(
      this.ev('session_configured', {
        protocol_version: '',
        provider: 'google',
        model,
        effort: '',
        variant: '',
        max_parallel: 0,
        workspace_root: '',
        permissions: {},
        source: { producer: 'gemini' },
      }),
      this.ev('thread_started', { thread_id: this.thread, model, provider: 'google', cwd: '' }),
    );
  }

  /** Opens the turn the line belongs to, if none is open. */
  private ensureTurn(out: ImportedEvent[]): void {
    if (this.turnOpen) return;
    if (!this.configured) this.configure(out, '', '');
    this.turns++;
    const digits = this.stamp?.replace(/[^0-9]/g, '') ?? '';
    this.turn = `${this.thread}-turn-${digits !== '' ? digits : String(this.turns).padStart(4, '0')}`;
    this.turnOpen = true;
    this.text = '';
    this.lastError = '';
    this.open.clear();
    this.items.clear();
    out.push(this.ev('turn_started', this.ids()));
  }

  /** `MessageEvent`: the user prompt opens the turn; assistant chunks are deltas of its text. */
  private message(out: ImportedEvent[], line: Obj): void {
    if (line.role === 'user') {
      this.turnOpen = false;
      this.ensureTurn(out);
    } else if (line.role === 'assistant') {
      this.ensureTurn(out);
      const delta = str(line.content);
      this.text += delta;
      if (delta !== '') out.push(this.ev('agent_message_delta', { ...this.ids(), delta }));
    }
  }

  /** `ToolUseEvent`: the call starts (and an `invoke_agent` call starts a sub-agent). */
  private toolUse(out: ImportedEvent[], line: Obj): void {
    this.ensureTurn(out);
    const id = str(line.tool_id);
    const name = str(line.tool_name);
    const parameters = obj(line.parameters) ?? {};
    if (this.open.has(id)) return; // the same call announced twice: one start
    const item = this.itemId(id);
    this.open.set(id, { item, name, parameters });
    const tool = toolNameArgs(name, parameters);
    out.push(this.stamped(toolStarted({ ...this.ids(), item_id: item }, tool.name, tool.arguments)));
    if (name === AGENT_TOOL) {
      const agent = { thread_id: this.thread, agent_id: item, agent_type: str(parameters.agent_name) };
      out.push(this.ev('subagent_started', { ...agent, status: 'running', description: str(parameters.prompt) }));
    }
  }

  /** The item id for a call: its `tool_id`, or `<tool_id>#<n>` when the turn already used that. */
  private itemId(toolId: string): string {
    let item = toolId;
    for (let n = 2; this.items.has(item); n++) item = `${toolId}#${n}`;
    this.items.add(item);
    return item;
  }

  /** `ToolResultEvent`: the display output, the end of the call, and what a success implies. */
  private toolResult(out: ImportedEvent[], line: Obj): void {
    this.ensureTurn(out);
    const id = str(line.tool_id);
    let call = this.open.get(id);
    if (call === undefined) {
      // A result whose tool_use is not in this stream (a stream cut at the front), or a second
      // result of one call: start it bare.
      call = { item: this.itemId(id), name: '', parameters: {} };
      out.push(this.stamped(toolStarted({ ...this.ids(), item_id: call.item }, '', '')));
    }
    this.open.delete(id);
    const item = call.item;
    const ok = line.status === OK;
    const output = str(line.output);
    const error = ok ? '' : str(obj(line.error)?.message) || output;
    const { name } = toolNameArgs(call.name, call.parameters);
    for (const event of toolEnded({ ...this.ids(), item_id: item }, name, output, ok ? 'completed' : 'failed', error)) out.push(this.stamped(event));
    if (ok) this.afterSuccess(out, item, call);
    if (call.name === AGENT_TOOL) {
      out.push(
        this.ev('subagent_completed', {
          thread_id: this.thread,
          agent_id: item,
          agent_type: str(call.parameters.agent_name),
          status: ok ? 'completed' : 'failed',
          description: str(call.parameters.prompt),
          ...(output !== '' ? { result: output } : {}),
          ...(error !== '' ? { error } : {}),
        }),
      );
    }
  }

  /** What a successful call also means: a file written, a todo list replaced. */
  private afterSuccess(out: ImportedEvent[], id: string, call: OpenTool): void {
    const path = str(call.parameters.file_path);
    if (FILE_TOOLS.has(call.name) && path !== '') {
      out.push(this.stamped(fileChanged({ ...this.ids(), item_id: id }, call.name, path, FILE_TOOLS.get(call.name))));
    } else if (call.name === TODO_TOOL && Array.isArray(call.parameters.todos)) {
      const todos = call.parameters.todos.map((t: unknown) => ({ content: str(obj(t)?.description), status: str(obj(t)?.status) }));
      out.push(this.ev('todo_updated', { ...this.ids(), todo: { todos } }));
    }
  }

  /** `ErrorEvent`: severity `warning` (the run goes on) or `error`; the `result` decides the run. */
  private error(out: ImportedEvent[], line: Obj): void {
    // wuu's `error` may name any turn (wuu-check does not scope it): no turn is opened for it.
    if (!this.configured) this.configure(out, '', '');
    const message = str(line.message);
    const severity = str(line.severity);
    if (severity === 'error') this.lastError = message;
    out.push(this.ev('error', { ...this.ids(), run_id: '', error: message, retrying: false, severity }));
  }

  /** `ResultEvent`: the final text, the usage, the end of the turn and of the run. */
  private result(out: ImportedEvent[], line: Obj): void {
    const usage = usageOf(obj(line.stats));
    const ok = line.status === OK;
    const errObj = obj(line.error);
    const cancelled = !ok && errObj?.type === CANCELLED;
    const message = ok ? '' : str(errObj?.message) || this.lastError;
    // A failure before the prompt was read (no turn) with no tokens spent: a bare result, as wuu's setup failures.
    if (this.turnOpen || (usage !== undefined && Object.values(usage).some((n) => n > 0))) {
      this.endTurn(out, ok, cancelled, message, usage);
    }
    const status = ok ? 'completed' : cancelled ? 'interrupted' : 'failed';
    const fields = { status, thread_id: this.thread, turn_id: this.turn, run_id: '', final_message: this.text, trace_path: '' };
    out.push(this.ev('result', { ...fields, ...(message !== '' ? { error: message } : {}) }));
    this.turnOpen = false;
    this.open.clear();
  }

  private endTurn(out: ImportedEvent[], ok: boolean, cancelled: boolean, message: string, usage: Tokens | undefined): void {
    this.ensureTurn(out);
    const ids = this.ids();
    // A call the stream never finished (cancelled mid-tool): its result will not come.
    for (const call of this.open.values()) out.push(this.ev('tool_removed', { ...ids, item_id: call.item }));
    this.open.clear();
    if (ok && this.text !== '') out.push(this.ev('agent_message_final', { ...ids, message: this.text }));
    if (usage !== undefined) out.push(this.ev('usage_updated', { ...ids, ...usage }));
    if (ok) {
      const tokens = { input_tokens: usage?.input_tokens ?? 0, output_tokens: usage?.output_tokens ?? 0 };
      out.push(this.ev('turn_completed', { ...ids, ...tokens, trace_path: '', awaiting_auto_continuation: false }));
    } else if (cancelled) out.push(this.ev('turn_interrupted', { ...ids, reason: 'interrupted' }));
    else out.push(this.ev('turn_failed', { ...ids, error: message }));
  }
}

/** wuu's name and JSON-text arguments for a Gemini tool call. */
function toolNameArgs(name: string, parameters: Obj): { name: string; arguments: string } {
  if (name === SHELL_TOOL) return { name: 'bash', arguments: JSON.stringify({ command: str(parameters.command) }) };
  return { name, arguments: JSON.stringify(parameters) };
}

/**
 * wuu's usage snapshot from `ResultEvent.stats` (`StreamStats`, summed over
 * every model and API call of the process by `convertToStreamStats`):
 * `input_tokens` there is the prompt including cached tokens, `input` the
 * part that was not cached. Undefined when the result has no usable stats.
 */
function usageOf(stats: Obj | undefined): Tokens | undefined {
  if (stats === undefined) return undefined;
  const prompt = count(stats.input_tokens);
  const cached = count(stats.cached) ?? 0;
  const output = count(stats.output_tokens);
  if (prompt === undefined && output === undefined) return undefined;
  const input = count(stats.input) ?? Math.max(0, (prompt ?? 0) - cached);
  return { input_tokens: input, output_tokens: output ?? 0, cache_creation_tokens: 0, cache_read_tokens: cached };
}
