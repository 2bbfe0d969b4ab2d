/**
 * Typed definitions of the `wuu exec --json` events (see WIRE-FORMAT.md in the
 * steering repo; summarised in man/wuu-stream.7).
 *
 * Every field except `type` is optional here on purpose: producers that failed
 * early emit empty or missing ids, and consumers must tolerate that. Unknown
 * event types are represented by {@link UnknownEvent}, so code that switches on
 * `type` stays total.
 */

/** Fields shared by every event tied to a turn. */
export interface TurnScoped {
  thread_id?: string;
  turn_id?: string;
}

/** Token counts as they appear on usage_updated and subagent events. */
export interface TokenCounts {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_tokens?: number;
  cache_read_tokens?: number;
}

/*
 * The token convention, the one place every tool takes it from
 * (WIRE-FORMAT.md, trap 1): `input_tokens` EXCLUDES cached tokens, so the
 * prompt a turn sent is input + cache write + cache read, and the cache hit
 * ratio is cache read / prompt. Reading the counters of one event as if
 * `input_tokens` were the whole prompt undercounts every cached turn.
 */

/** The four token counters of usage_updated and subagent_* events, in the order reports write them. */
export const TOKEN_FIELDS = Object.freeze(['input_tokens', 'cache_creation_tokens', 'cache_read_tokens', 'output_tokens'] as const);

/** The same counters in the order WIRE-FORMAT.md's table lists them (wuu-check reports in this order). */
export const WIRE_TOKEN_FIELDS = Object.freeze(['input_tokens', 'output_tokens', 'cache_creation_tokens', 'cache_read_tokens'] as const);

/** The name of one token counter. */
export type TokenField = (typeof TOKEN_FIELDS)[number];

/**
 * All four counters present: numbers as the wire carries them, or exact
 * bigints (sums that may pass 2^53).
 */
export type Tokens<N extends number | bigint = number> = { [F in TokenField]: N };

/**
 * The four counters of a usage_updated, turn_completed or subagent_* event's
 * fields, each an own finite number, else 0 (turn_completed carries input and
 * output only; the producer always writes integers).
 */
export function tokensOf(fields: Readonly<Record<string, unknown>>): Tokens {
  return {
    input_tokens: counter(fields, 'input_tokens'),
    cache_creation_tokens: counter(fields, 'cache_creation_tokens'),
    cache_read_tokens: counter(fields, 'cache_read_tokens'),
    output_tokens: counter(fields, 'output_tokens'),
  };
}

function counter(fields: Readonly<Record<string, unknown>>, name: TokenField): number {
  const value = Object.hasOwn(fields, name) ? fields[name] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function isExact(t: Tokens | Tokens<bigint>): t is Tokens<bigint> {
  return typeof t.input_tokens === 'bigint';
}

/** The prompt a turn sent: uncached input + cache write + cache read. */
export function promptTokens(t: Tokens): number;
export function promptTokens(t: Tokens<bigint>): bigint;
export function promptTokens(t: Tokens | Tokens<bigint>): number | bigint {
  // Each branch adds one kind: a number plus a bigint would throw.
  if (isExact(t)) return t.input_tokens + t.cache_creation_tokens + t.cache_read_tokens;
  return t.input_tokens + t.cache_creation_tokens + t.cache_read_tokens;
}

/** The cache hit ratio, cache read / prompt; null for an empty prompt. */
export function cacheHitRatio(t: Tokens): number | null {
  const prompt = promptTokens(t);
  return prompt > 0 ? t.cache_read_tokens / prompt : null;
}

const MAX_EXACT_PROMPT = BigInt(Math.floor(Number.MAX_SAFE_INTEGER / 1e9));

/**
 * The cache hit ratio of exact counts, truncated to 1e-9 so that it is the
 * same whatever the magnitudes (computed in BigInt only when a double could
 * not hold read * 1e9); null for an empty prompt.
 */
export function exactCacheHitRatio(t: Tokens<bigint>): number | null {
  return exactHitOf(t.cache_read_tokens, promptTokens(t));
}

/** {@link exactCacheHitRatio} of a cache read and its prompt, for a caller that has the prompt already. */
export function exactHitOf(cacheRead: bigint, prompt: bigint): number | null {
  if (prompt === 0n) return null;
  if (prompt <= MAX_EXACT_PROMPT) return Math.floor((Number(cacheRead) * 1e9) / Number(prompt)) / 1e9;
  return Number((cacheRead * 1_000_000_000n) / prompt) / 1e9;
}

export interface SessionConfigured {
  type: 'session_configured';
  protocol_version?: string;
  provider?: string;
  model?: string;
  effort?: string;
  variant?: string;
  max_parallel?: number;
  workspace_root?: string;
  permissions?: Record<string, unknown>;
}

export interface ThreadEvent {
  type: 'thread_started' | 'thread_resumed' | 'thread_forked';
  thread_id?: string;
  model?: string;
  provider?: string;
  cwd?: string;
}

export interface TurnStarted extends TurnScoped {
  type: 'turn_started';
}

export interface AgentMessageDelta extends TurnScoped {
  type: 'agent_message_delta';
  delta?: string;
}

/** Replaces the text accumulated from deltas; it does not end the turn. */
export interface AgentMessageFinal extends TurnScoped {
  type: 'agent_message_final';
  message?: string;
}

/** A cumulative snapshot for the turn: keep the latest, never sum. */
export interface UsageUpdated extends TurnScoped, TokenCounts {
  type: 'usage_updated';
}

export interface TurnCompleted extends TurnScoped {
  type: 'turn_completed';
  input_tokens?: number;
  output_tokens?: number;
  trace_path?: string;
  awaiting_auto_continuation?: boolean;
}

export interface TurnFailed extends TurnScoped {
  type: 'turn_failed';
  error?: string;
}

export interface TurnInterrupted extends TurnScoped {
  type: 'turn_interrupted';
  reason?: string;
}

interface ItemScoped extends TurnScoped {
  item_id?: string;
}

export interface ToolStarted extends ItemScoped {
  type: 'tool_started';
  name?: string;
  /** A JSON-encoded string, not an object. */
  arguments?: string;
}

export interface ToolOutputDelta extends ItemScoped {
  type: 'tool_output_delta';
  delta?: string;
}

/** The full output is not repeated here: accumulate the deltas. */
export interface ToolCompleted extends ItemScoped {
  type: 'tool_completed';
  name?: string;
  status?: string;
  error?: string;
}

export interface ToolRemoved extends ItemScoped {
  type: 'tool_removed';
}

/** The bash twin of a tool_* event, describing the same item. */
export interface CommandEvent extends ItemScoped {
  type: 'command_started' | 'command_output_delta' | 'command_completed' | 'command_removed';
  name?: string;
  arguments?: string;
  command?: string;
  process_id?: string | number;
  delta?: string;
  status?: string;
  error?: string;
}

export interface FileChanged extends ItemScoped {
  type: 'file_changed';
  tool_name?: string;
  path?: string;
  action?: string;
  move_path?: string;
  old_file_sha?: string;
  new_file_sha?: string;
  workspace_revision?: string | number;
  patch_journal_path?: string;
  manifest_path?: string;
}

export interface SubagentEvent extends TokenCounts {
  type: 'subagent_started' | 'subagent_updated' | 'subagent_completed';
  thread_id?: string;
  agent_id?: string;
  agent_type?: string;
  status?: string;
  task_name?: string;
  agent_profile?: string;
  agent_path?: string;
  parent_id?: string;
  description?: string;
  result?: string;
  result_path?: string;
  result_bytes?: number;
  result_truncated?: boolean;
  error?: string;
}

export interface TodoUpdated extends TurnScoped {
  type: 'todo_updated';
  todo?: unknown;
}

/** Diagnostics only. */
export interface ProviderState extends TurnScoped {
  type: 'provider_state';
  step_index?: number;
  [field: string]: unknown;
}

/** Diagnostics only. */
export interface RequestContext extends TurnScoped {
  type: 'request_context';
  step_index?: number;
  [field: string]: unknown;
}

/** Final schema validation disagreed with the server; `result` still follows. */
export interface ErrorEvent extends TurnScoped {
  type: 'error';
  run_id?: string;
  error?: string;
  retrying?: boolean;
}

/** The statuses a run can end with. */
export type ResultStatus = 'completed' | 'failed' | 'permission_denied' | 'timeout' | 'interrupted';

/** The last event of a run; absent when the producer was killed. */
export interface ResultEvent extends TurnScoped {
  type: 'result';
  status?: ResultStatus | string;
  run_id?: string;
  final_message?: string;
  trace_path?: string;
  error?: string;
  structured_result?: unknown;
}

/** Every event type named by the wire format. */
export type KnownEvent =
  | SessionConfigured
  | ThreadEvent
  | TurnStarted
  | AgentMessageDelta
  | AgentMessageFinal
  | UsageUpdated
  | TurnCompleted
  | TurnFailed
  | TurnInterrupted
  | ToolStarted
  | ToolOutputDelta
  | ToolCompleted
  | ToolRemoved
  | CommandEvent
  | FileChanged
  | SubagentEvent
  | TodoUpdated
  | ProviderState
  | RequestContext
  | ErrorEvent
  | ResultEvent;

/** The open fallback: a future or foreign event type, passed through untouched. */
export interface UnknownEvent {
  type: string;
  [field: string]: unknown;
}

/** Any event on the wire. */
export type WuuEvent = KnownEvent | UnknownEvent;

/** The event types WIRE-FORMAT.md names, in its table order. */
export const KNOWN_TYPES: readonly string[] = Object.freeze([
  'session_configured',
  'thread_started',
  'thread_resumed',
  'thread_forked',
  'turn_started',
  'agent_message_delta',
  'agent_message_final',
  'usage_updated',
  'turn_completed',
  'turn_failed',
  'turn_interrupted',
  'tool_started',
  'tool_output_delta',
  'tool_completed',
  'tool_removed',
  'command_started',
  'command_output_delta',
  'command_completed',
  'command_removed',
  'file_changed',
  'subagent_started',
  'subagent_updated',
  'subagent_completed',
  'todo_updated',
  'provider_state',
  'request_context',
  'error',
  'result',
]);

/**
 * Event types this toolkit itself writes: whole units built by wuu-accumulate
 * (`agent_message`, `tool_call`) and wuu-turns (`turn`). Filters accept them
 * like wire types, so `wuu-accumulate | wuu-filter tool_call` just works.
 */
export const DERIVED_TYPES: readonly string[] = Object.freeze(['agent_message', 'tool_call', 'turn']);

const KNOWN_SET = new Set([...KNOWN_TYPES, ...DERIVED_TYPES]);

const WIRE_SET = new Set(KNOWN_TYPES);

/** True when `type` is one the wire format names (what a producer may write). */
export function isWireType(type: string): boolean {
  return WIRE_SET.has(type);
}

/** True when `type` is one the wire format names, or one this toolkit derives. */
export function isKnownType(type: string): boolean {
  return KNOWN_SET.has(type);
}

/** The events that end a turn. `agent_message_final` is not one of them. */
export const TURN_END_TYPES: ReadonlySet<string> = new Set([
  'turn_completed',
  'turn_failed',
  'turn_interrupted',
]);

/**
 * Named groups of event types, used by `wuu-filter` selectors.
 * `tool` includes the command_* twins because they describe the same items;
 * families also cover the derived types (tool_call, agent_message, turn).
 */
export const FAMILIES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  tool: ['tool_call', ...KNOWN_TYPES.filter((type) => type.startsWith('tool_') || type.startsWith('command_'))],
  command: KNOWN_TYPES.filter((type) => type.startsWith('command_')),
  message: ['agent_message', 'agent_message_delta', 'agent_message_final'],
  usage: ['usage_updated', 'turn_completed'],
  turn: ['turn', 'turn_started', 'turn_completed', 'turn_failed', 'turn_interrupted'],
  subagent: ['subagent_started', 'subagent_updated', 'subagent_completed'],
  file: ['file_changed'],
  todo: ['todo_updated'],
  diag: ['provider_state', 'request_context'],
  session: ['session_configured', 'thread_started', 'thread_resumed', 'thread_forked'],
  error: ['error'],
  result: ['result'],
});

/**
 * True for a non-null, non-array object: what a JSON object parses to, its
 * fields readable by name (each `unknown` until checked).
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a non-null, non-array object whose `type` is a string. */
export function isEvent(value: unknown): value is WuuEvent {
  return isObject(value) && typeof value.type === 'string';
}

/** The interface of the known event whose `type` is T (CommandEvent for 'command_started', ...). */
export type EventOfType<T extends KnownEvent['type']> = KnownEvent extends infer E
  ? E extends { type: infer U }
    ? T extends U
      ? E & { type: T }
      : never
    : never
  : never;

/**
 * Narrows an event to the interface of one type, so a tool reads its fields
 * typed instead of through `Record<string, unknown>`:
 * `if (isEventType(e, 'tool_started')) e.arguments` is `string | undefined`.
 * Field values are still the producer's: check them before trusting a type
 * (see {@link stringField}, {@link numberField}).
 */
export function isEventType<T extends KnownEvent['type']>(event: WuuEvent, type: T): event is EventOfType<T> {
  return event.type === type;
}

/**
 * An event's fields by name, for code that reads any event as untyped JSON
 * (a foreign producer's line, a view of unknown fields). The one cast of an
 * event: every event is a parsed JSON object, and the interfaces above lack
 * the index signature only so that typed code cannot misspell a field.
 */
export function eventFields(event: WuuEvent): Readonly<Record<string, unknown>> {
  return event as unknown as Readonly<Record<string, unknown>>;
}

/** An own field of an event, or undefined (never an inherited member such as `constructor`). */
export function field(event: WuuEvent, key: string): unknown {
  return Object.hasOwn(event, key) ? eventFields(event)[key] : undefined;
}

/** An own string field of an event; undefined when absent or not a string. */
export function stringField(event: WuuEvent, key: string): string | undefined {
  const value = field(event, key);
  return typeof value === 'string' ? value : undefined;
}

/** An own finite number field of an event; undefined when absent or not a number. */
export function numberField(event: WuuEvent, key: string): number | undefined {
  const value = field(event, key);
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
