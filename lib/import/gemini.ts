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
 * against streams of the released CLI 0.61.0 (test/fixtures/import/gemini/).
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
 * - Empty values for the wuu fields the stream never carries
 *   (`protocol_version`, `workspace_root`, `cwd`, `trace_path`, `run_id`...).
 * Each event carries the producer's `timestamp` (an extra field wuu-usage
 * reads for dates) and nothing else that is not in the stream.
 */
import type { ImportedEvent, Mapper } from './mapper.js';

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
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined);

/** A tool call between its `tool_use` and its `tool_result`. */
interface OpenTool {
  name: string;
  parameters: Obj;
}

/** Creates the mapping for one Gemini stream. */
export function createGeminiMapper(): Mapper {
  let thread = '';
  let model = '';
  let configured = false;
  let turn = '';
  let turnOpen = false;
  let turns = 0;
  let text = '';
  let lastError = '';
  let stamp: string | undefined;
  const open = new Map<string, OpenTool>();

  /** An event with the line's timestamp (when it has one). */
  const ev = (type: string, fields: Obj): ImportedEvent => ({ type, ...fields, ...(stamp !== undefined ? { timestamp: stamp } : {}) });
  const ids = (): Obj => ({ thread_id: thread, turn_id: turn });

  function configure(out: ImportedEvent[], sessionId: string, modelName: string): void {
    thread = sessionId;
    model = modelName;
    configured = true;
    out.push(
      ev('session_configured', {
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
      ev('thread_started', { thread_id: thread, model, provider: 'google', cwd: '' }),
    );
  }

  /** Opens the turn the line belongs to, if none is open. */
  function ensureTurn(out: ImportedEvent[]): void {
    if (turnOpen) return;
    if (!configured) configure(out, '', '');
    turns++;
    const digits = stamp?.replace(/[^0-9]/g, '') ?? '';
    turn = `${thread}-turn-${digits !== '' ? digits : String(turns).padStart(4, '0')}`;
    turnOpen = true;
    text = '';
    lastError = '';
    open.clear();
    out.push(ev('turn_started', ids()));
  }

  function toolUse(out: ImportedEvent[], line: Obj): void {
    ensureTurn(out);
    const id = str(line.tool_id);
    const name = str(line.tool_name);
    const parameters = obj(line.parameters) ?? {};
    if (open.has(id)) return; // the same call twice: wuu-check would reject a second start
    open.set(id, { name, parameters });
    out.push(ev('tool_started', { ...ids(), item_id: id, ...toolNameArgs(name, parameters) }));
    if (name === AGENT_TOOL) {
      out.push(
        ev('subagent_started', {
          thread_id: thread,
          agent_id: id,
          agent_type: str(parameters.agent_name),
          status: 'running',
          description: str(parameters.prompt),
        }),
      );
    }
  }

  function toolResult(out: ImportedEvent[], line: Obj): void {
    ensureTurn(out);
    const id = str(line.tool_id);
    let call = open.get(id);
    if (call === undefined) {
      // A result whose tool_use is not in this stream (a stream cut at the front): start it bare.
      call = { name: '', parameters: {} };
      out.push(ev('tool_started', { ...ids(), item_id: id, name: '', arguments: '' }));
    }
    open.delete(id);
    const ok = line.status === OK;
    const error = ok ? '' : str(obj(line.error)?.message) || str(line.output);
    const output = str(line.output);
    if (output !== '') out.push(ev('tool_output_delta', { ...ids(), item_id: id, delta: output }));
    const { name } = toolNameArgs(call.name, call.parameters);
    out.push(ev('tool_completed', { ...ids(), item_id: id, name, status: ok ? 'completed' : 'failed', error }));
    if (ok) afterSuccess(out, id, call);
    if (call.name === AGENT_TOOL) {
      out.push(
        ev('subagent_completed', {
          thread_id: thread,
          agent_id: id,
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
  function afterSuccess(out: ImportedEvent[], id: string, call: OpenTool): void {
    const path = str(call.parameters.file_path);
    if (FILE_TOOLS.has(call.name) && path !== '') {
      const action = FILE_TOOLS.get(call.name);
      out.push(ev('file_changed', { ...ids(), item_id: id, tool_name: call.name, path, ...(action !== undefined ? { action } : {}) }));
    } else if (call.name === TODO_TOOL && Array.isArray(call.parameters.todos)) {
      const todos = call.parameters.todos.map((t: unknown) => ({ content: str(obj(t)?.description), status: str(obj(t)?.status) }));
      out.push(ev('todo_updated', { ...ids(), todo: { todos } }));
    }
  }

  /** `ErrorEvent`: severity `warning` (the run goes on) or `error`; the `result` decides the run. */
  function error(out: ImportedEvent[], line: Obj): void {
    // wuu's `error` may name any turn (wuu-check does not scope it): no turn is opened for it.
    if (!configured) configure(out, '', '');
    const message = str(line.message);
    const severity = str(line.severity);
    if (severity === 'error') lastError = message;
    out.push(ev('error', { ...ids(), run_id: '', error: message, retrying: false, severity }));
  }

  function result(out: ImportedEvent[], line: Obj): void {
    const usage = usageOf(obj(line.stats));
    const ok = line.status === OK;
    const errObj = obj(line.error);
    const cancelled = !ok && errObj?.type === CANCELLED;
    const message = ok ? '' : str(errObj?.message) || lastError;
    // A failure before the prompt was read (no turn) with no tokens spent: a bare result, as wuu's setup failures.
    if (turnOpen || (usage !== undefined && Object.values(usage).some((n) => n > 0))) {
      ensureTurn(out);
      if (ok && text !== '') out.push(ev('agent_message_final', { ...ids(), message: text }));
      if (usage !== undefined) out.push(ev('usage_updated', { ...ids(), ...usage }));
      if (ok) {
        out.push(
          ev('turn_completed', {
            ...ids(),
            input_tokens: usage?.input_tokens ?? 0,
            output_tokens: usage?.output_tokens ?? 0,
            trace_path: '',
            awaiting_auto_continuation: false,
          }),
        );
      } else if (cancelled) out.push(ev('turn_interrupted', { ...ids(), reason: 'interrupted' }));
      else out.push(ev('turn_failed', { ...ids(), error: message }));
    }
    const status = ok ? 'completed' : cancelled ? 'interrupted' : 'failed';
    out.push(
      ev('result', {
        status,
        thread_id: thread,
        turn_id: turn,
        run_id: '',
        final_message: text,
        trace_path: '',
        ...(message !== '' ? { error: message } : {}),
      }),
    );
    turnOpen = false;
    open.clear();
  }

  return {
    producer: 'gemini',
    line(line: Obj): ImportedEvent[] {
      const out: ImportedEvent[] = [];
      stamp = typeof line.timestamp === 'string' ? line.timestamp : undefined;
      switch (line.type) {
        case 'init':
          // A second init (streams of two runs concatenated) starts a new run.
          turnOpen = false;
          configure(out, str(line.session_id), str(line.model));
          break;
        case 'message':
          if (line.role === 'user') {
            turnOpen = false;
            ensureTurn(out);
          } else if (line.role === 'assistant') {
            ensureTurn(out);
            const delta = str(line.content);
            text += delta;
            if (delta !== '') out.push(ev('agent_message_delta', { ...ids(), delta }));
          }
          break;
        case 'tool_use':
          toolUse(out, line);
          break;
        case 'tool_result':
          toolResult(out, line);
          break;
        case 'error':
          error(out, line);
          break;
        case 'result':
          result(out, line);
          break;
        default:
          break; // a type this version does not know: nothing wuu has a field for
      }
      return out;
    },
    end(): ImportedEvent[] {
      // No `result`: the CLI was killed or the stream was cut. Like a killed wuu run, nothing more.
      return [];
    },
  };
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
function usageOf(stats: Obj | undefined): Record<'input_tokens' | 'output_tokens' | 'cache_creation_tokens' | 'cache_read_tokens', number> | undefined {
  if (stats === undefined) return undefined;
  const prompt = count(stats.input_tokens);
  const cached = count(stats.cached) ?? 0;
  const output = count(stats.output_tokens);
  if (prompt === undefined && output === undefined) return undefined;
  const input = count(stats.input) ?? Math.max(0, (prompt ?? 0) - cached);
  return { input_tokens: input, output_tokens: output ?? 0, cache_creation_tokens: 0, cache_read_tokens: cached };
}
