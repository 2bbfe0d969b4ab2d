/**
 * A producer-faithful writer of `wuu exec --json` streams: each method writes
 * the lines runner.go writes for one upstream notification, with every field
 * the reference lists (WIRE-FORMAT-REFERENCE.md sections 2-11), ids shaped
 * like the app-server's (`<thread>-turn-0001`, `<turn>-item-<n>` from one
 * counter shared with message items, so tool item numbers have gaps), and
 * Go's encoding ({@link goLine}).
 *
 * It keeps exec's own state only where exec writes it into a line: the root
 * thread, the current root turn, and the final-message buffer that becomes
 * `result.final_message`. Expected results of a scenario are NOT derived
 * from this state: they are written by hand in scenarios.ts.
 */
import { goLine, struct } from '../../lib/import/encode.js';

/** Token counts in the producer's exclusive convention. */
export interface Tokens {
  input: number;
  cacheWrite?: number;
  cacheRead?: number;
  output: number;
}

/** Ids an event is addressed to; defaults to the current root turn. */
export interface Where {
  thread?: string;
  turn?: string;
}

/** One tool call as the app-server reports it. */
export interface ToolCall extends Where {
  name: string;
  /** The arguments JSON text (already redacted, as tool_started carries it); may be "" or partial. */
  args: string;
  /** command_completed's arguments (bash): the complete, unredacted text; default `args`. */
  completedArgs?: string;
  /** Output deltas (usually one: the whole result). */
  output?: string[];
  status?: string;
  error?: string;
  /** bash only: drop the command_output_delta twins (exec forgot the item). */
  noOutputTwins?: boolean;
  /** Item number step: how many message/reasoning items came before (gaps). */
  gap?: number;
  /** Write file_changed lines after completion (write_file, edit_file, apply_patch). */
  files?: Record<string, unknown>[];
}

const pad4 = (n: number) => String(n).padStart(4, '0');

/** Builds one stream. */
export class Producer {
  private readonly out: string[] = [];
  root = '';
  turn = '';
  private turnNo = 0;
  private itemNo = 0;
  private buffer = '';
  tracePath = '';
  readonly home = '/home/alice';

  /** Writes one event line (keys sorted by the encoder). */
  emit(event: Record<string, unknown>): this {
    this.out.push(goLine(event));
    return this;
  }

  /** Writes raw text (a cut line). */
  raw(text: string): this {
    this.out.push(text);
    return this;
  }

  sessionConfigured(o: { provider: string; model: string; effort?: string; variant?: string; maxParallel?: number; root?: string; mode?: string }): this {
    return this.emit({
      effort: o.effort ?? '',
      max_parallel: o.maxParallel ?? 4,
      model: o.model,
      permissions: o.mode === '' ? struct({}) : struct({ mode: o.mode ?? 'standard' }),
      protocol_version: 'wuu-app-server/v0.1',
      provider: o.provider,
      type: 'session_configured',
      variant: o.variant ?? '',
      workspace_root: o.root ?? `${this.home}/src/shop`,
    });
  }

  thread(type: 'thread_started' | 'thread_resumed' | 'thread_forked', o: { id: string; provider: string; model: string; cwd?: string; turnNo?: number }): this {
    this.root = o.id;
    this.turnNo = o.turnNo ?? 0;
    this.tracePath = `${this.home}/.wuu/sessions/${o.id}/session-trace.jsonl`;
    return this.emit({ cwd: o.cwd ?? `${this.home}/src/shop`, model: o.model, provider: o.provider, thread_id: o.id, type });
  }

  /** turn/started of the root thread: a new current turn, exec's buffer reset. */
  turnStarted(): this {
    this.turnNo++;
    this.turn = `${this.root}-turn-${pad4(this.turnNo)}`;
    this.itemNo = 0;
    this.buffer = '';
    return this.emit({ thread_id: this.root, turn_id: this.turn, type: 'turn_started' });
  }

  /** The id the next turn will get (a turn that never starts, for exec-side ends). */
  nextTurnId(): string {
    return `${this.root}-turn-${pad4(this.turnNo + 1)}`;
  }

  private ids(w: Where = {}): { thread_id: string; turn_id: string } {
    return { thread_id: w.thread ?? this.root, turn_id: w.turn ?? this.turn };
  }

  /** A message item begins: it takes a number from the shared item counter. */
  messageItem(): this {
    this.itemNo++;
    return this;
  }

  deltas(...pieces: string[]): this {
    for (const delta of pieces) {
      this.buffer += delta;
      this.emit({ delta, ...this.ids(), type: 'agent_message_delta' });
    }
    return this;
  }

  final(message: string): this {
    this.buffer = message;
    return this.emit({ message, ...this.ids(), type: 'agent_message_final' });
  }

  usage(t: Tokens, w?: Where): this {
    return this.emit({
      cache_creation_tokens: t.cacheWrite ?? 0,
      cache_read_tokens: t.cacheRead ?? 0,
      input_tokens: t.input,
      output_tokens: t.output,
      ...this.ids(w),
      type: 'usage_updated',
    });
  }

  /** turn/completed; for the current root turn `content` (not in the line) replaces the buffer. */
  turnCompleted(o: { input: number; output: number; auto?: boolean; content?: string; trace?: string } & Where): this {
    const ids = this.ids(o);
    const isRoot = ids.thread_id === this.root && ids.turn_id === this.turn;
    const trace = o.trace ?? (isRoot ? this.tracePath : `${this.home}/.wuu/sessions/${ids.thread_id}/session-trace.jsonl`);
    if (isRoot && o.content) this.buffer = o.content;
    return this.emit({
      awaiting_auto_continuation: o.auto ?? false,
      input_tokens: o.input,
      output_tokens: o.output,
      ...ids,
      trace_path: trace,
      type: 'turn_completed',
    });
  }

  turnFailed(error: string, w?: Where): this {
    return this.emit({ error, ...this.ids(w), type: 'turn_failed' });
  }

  turnInterrupted(reason: string, w?: Where): this {
    return this.emit({ reason, ...this.ids(w), type: 'turn_interrupted' });
  }

  /** Takes the next tool item id (after `gap` other items). */
  itemId(gap = 1, w?: Where): string {
    this.itemNo += gap + 1;
    return `${w?.turn ?? this.turn}-item-${this.itemNo}`;
  }

  /** item/started of a tool call (and its bash twin). Returns the item id. */
  toolStarted(call: ToolCall, item = this.itemId(call.gap ?? 1, call)): string {
    const ids = this.ids(call);
    this.emit({ arguments: call.args, item_id: item, name: call.name, ...ids, type: 'tool_started' });
    if (call.name === 'bash') this.emit({ arguments: call.args, ...commandKeys(call.args), item_id: item, name: call.name, ...ids, type: 'command_started' });
    return item;
  }

  toolOutput(call: ToolCall, item: string, delta: string): this {
    const ids = this.ids(call);
    this.emit({ delta, item_id: item, ...ids, type: 'tool_output_delta' });
    if (call.name === 'bash' && !call.noOutputTwins) {
      this.emit({ arguments: call.args, ...commandKeys(call.args), delta, item_id: item, name: call.name, ...ids, type: 'command_output_delta' });
    }
    return this;
  }

  toolCompleted(call: ToolCall, item: string): this {
    const ids = this.ids(call);
    const status = call.status ?? 'completed';
    const error = call.error ?? '';
    this.emit({ error, item_id: item, name: call.name, status, ...ids, type: 'tool_completed' });
    if (call.name === 'bash') {
      const args = call.completedArgs ?? call.args;
      this.emit({ arguments: args, ...commandKeys(args), error, item_id: item, name: call.name, status, ...ids, type: 'command_completed' });
    }
    for (const f of call.files ?? []) this.emit({ item_id: item, ...ids, tool_name: call.name, ...f, type: 'file_changed' });
    return this;
  }

  /** A whole tool call: started, output deltas, completed (+ twins, + file_changed). */
  tool(call: ToolCall): string {
    const item = this.toolStarted(call);
    for (const delta of call.output ?? []) this.toolOutput(call, item, delta);
    this.toolCompleted(call, item);
    return item;
  }

  /** item/removed: tool_removed for any item; command_removed when exec knew it as bash. */
  removed(item: string, o: { bash?: boolean } & Where = {}): this {
    const ids = this.ids(o);
    this.emit({ item_id: item, ...ids, type: 'tool_removed' });
    if (o.bash) this.emit({ item_id: item, name: 'bash', ...ids, type: 'command_removed' });
    return this;
  }

  /** agent/updated: `first` says whether exec has seen this agent before. */
  subagent(type: 'subagent_started' | 'subagent_updated' | 'subagent_completed', a: Subagent): this {
    return this.emit({
      agent_id: a.id,
      agent_path: a.path ?? `${this.root}/${a.id}`,
      agent_profile: a.profile ?? 'default',
      agent_type: a.agentType ?? 'worker',
      cache_creation_tokens: a.tokens?.cacheWrite ?? 0,
      cache_read_tokens: a.tokens?.cacheRead ?? 0,
      description: a.description ?? '',
      error: a.error ?? '',
      input_tokens: a.tokens?.input ?? 0,
      output_tokens: a.tokens?.output ?? 0,
      parent_id: a.parent ?? this.root,
      result: a.result ?? '',
      result_bytes: a.resultBytes ?? Buffer.byteLength(a.result ?? ''),
      result_path: a.resultPath ?? '',
      result_truncated: a.resultTruncated ?? false,
      status: a.status,
      task_name: a.task ?? '',
      thread_id: a.thread ?? this.root,
      type,
    });
  }

  todo(todo: { explanation?: string; todos: { content: string; status: string }[] | null } | null, w?: Where): this {
    const value = todo === null ? null : struct({
      ...(todo.explanation ? { explanation: todo.explanation } : {}),
      todos: todo.todos === null ? null : todo.todos.map((t) => struct({ content: t.content, status: t.status })),
    });
    return this.emit({ ...this.ids(w), todo: value, type: 'todo_updated' });
  }

  requestContext(step: number, o: { sections?: { key: string; static: boolean; bytes: number; hash?: string }[]; cacheKey?: string } & Where = {}): this {
    const sections = o.sections ?? [];
    return this.emit({
      block_kind_bytes: { text: 5120, tool_result: 2048 },
      block_kind_counts: { text: 3, tool_result: 1 },
      block_kinds: ['text', 'tool_result'],
      content_bytes: 7168,
      dynamic_context_bytes: 612,
      hidden_messages: 0,
      loadable_tool_count: 0,
      loadable_tool_schema_bytes: 0,
      loadable_tool_surface_hash: '',
      message_bytes: 7168,
      message_count: 4 + 2 * step,
      prompt_cache_key: o.cacheKey ?? `${this.root}`,
      segment_cache_policy_counts: null,
      segment_lifecycle_counts: null,
      segment_placement_counts: null,
      stable_prefix: 2,
      stable_prefix_bytes: 10422,
      stable_prefix_hash: 'sha256:591785b7c1d2',
      step_index: step,
      system_bytes: 10422,
      system_hash: 'sha256:b1946ac92492',
      system_messages: 1,
      ...(sections.length > 0
        ? { system_sections: sections.map((s) => struct({ key: s.key, static: s.static, bytes: s.bytes, ...(s.hash ? { hash: s.hash } : {}) })) }
        : {}),
      ...this.ids(o),
      tool_count: 9,
      tool_schema_bytes: 8804,
      tool_surface_hash: 'sha256:77e2aa01f00d',
      transient_messages: 0,
      turn_prefix: 1,
      turn_prefix_bytes: 612,
      turn_prefix_hash: 'sha256:c0ffee12aa01',
      type: 'request_context',
    });
  }

  providerState(step: number, o: { provider?: string; transport?: string; reused?: boolean } & Where = {}): this {
    return this.emit({
      connection_reused: o.reused ?? step > 0,
      delta_input_items: step > 0 ? 2 : 0,
      diagnostic: '',
      events_emitted: true,
      fallback_active: false,
      fallback_pin_status: '',
      fallback_reason: '',
      fallback_retry_after_ms: 0,
      fallback_transport: '',
      fallback_ttl_ms: 0,
      full_input_items: 4 + 2 * step,
      input_items: step > 0 ? 2 : 4,
      previous_response_id_used: step > 0,
      protocol: 'responses',
      provider: o.provider ?? 'openai',
      replay_mode: step > 0 ? 'previous_response_id' : 'full',
      step_index: step,
      ...this.ids(o),
      transport: o.transport ?? 'responses_websocket',
      transport_failure_phase: '',
      type: 'provider_state',
    });
  }

  /** The structured-output `error` line (retrying always false). */
  errorLine(error: string): this {
    return this.emit({ error, retrying: false, run_id: `run-${this.root}`, ...this.ids(), type: 'error' });
  }

  /** The result line. `error` only when non-empty; `structured` only when given (null included). */
  result(status: string, o: { error?: string; structured?: unknown; finalMessage?: string; trace?: string; runId?: string; thread?: string; turn?: string } = {}): this {
    return this.emit({
      ...(o.error ? { error: o.error } : {}),
      final_message: o.finalMessage ?? this.buffer,
      run_id: o.runId ?? (this.root === '' ? '' : `run-${this.root}`),
      status,
      ...(Object.hasOwn(o, 'structured') ? { structured_result: o.structured } : {}),
      thread_id: o.thread ?? this.root,
      trace_path: o.trace ?? this.tracePath,
      turn_id: o.turn ?? this.turn,
      type: 'result',
    });
  }

  /** The whole stream. */
  text(): string {
    return this.out.join('');
  }
}

/** A sub-agent as agent/updated reports it. */
export interface Subagent {
  id: string;
  status: string;
  tokens?: Tokens;
  thread?: string;
  parent?: string;
  agentType?: string;
  profile?: string;
  path?: string;
  task?: string;
  description?: string;
  result?: string;
  resultBytes?: number;
  resultPath?: string;
  resultTruncated?: boolean;
  error?: string;
}

/** `command` and `process_id` copied from the arguments JSON when they are non-empty strings. */
function commandKeys(args: string): Record<string, string> {
  const out: Record<string, string> = {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return out;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return out;
  const obj = parsed as Record<string, unknown>;
  if (typeof obj.command === 'string' && obj.command.trim() !== '') out.command = obj.command.trim();
  if (typeof obj.process_id === 'string' && obj.process_id.trim() !== '') out.process_id = obj.process_id.trim();
  return out;
}

/** Arguments JSON text as the model sent it (parse it a second time to read it). */
export function args(value: Record<string, unknown>): string {
  return JSON.stringify(value);
}
