/**
 * What wuu-check knows about the wire format: its rules and the schema of
 * every event type (required fields and JSON types), after
 * WIRE-FORMAT-REFERENCE.md section 4.
 */
import { FAMILIES, KNOWN_TYPES, WIRE_TOKEN_FIELDS } from '../events.js';

/** How serious a problem is: errors fail the check, warnings do not. */
export type Severity = 'error' | 'warning';

/** One finding. */
export interface Problem {
  file: string;
  /** 1-based line; end-of-stream problems carry the last line's number (0 for an empty input). */
  line: number;
  rule: string;
  severity: Severity;
  message: string;
}

/** A rule: its stable id, severity and what it checks. */
export interface Rule {
  id: string;
  severity: Severity;
  description: string;
}

/** Every rule wuu-check applies, in the order the man page lists them. */
export const RULES: readonly Rule[] = Object.freeze([
  { id: 'bad-line', severity: 'error', description: 'a line that is blank, not JSON, not a JSON object, has no string "type", or is over --max-line-bytes' },
  { id: 'cut-line', severity: 'warning', description: 'the last line ends without a newline and is not a whole event (a killed producer writes that)' },
  { id: 'unknown-type', severity: 'warning', description: 'an event type the wire format does not name' },
  { id: 'missing-field', severity: 'error', description: 'a required field of the event type is absent' },
  { id: 'wrong-type', severity: 'error', description: 'a field has the wrong JSON type (ids must be strings, even empty)' },
  { id: 'unknown-status', severity: 'warning', description: 'result.status is not completed, failed, permission_denied, timeout or interrupted' },
  { id: 'no-events', severity: 'error', description: 'the input holds no line at all (nothing was checked)' },
  { id: 'missing-result', severity: 'warning', description: 'the stream ended without a result event (a killed or crashed producer)' },
  { id: 'result-not-last', severity: 'error', description: "an event follows the result (other than exec's own turn_interrupted and result of a timeout race)" },
  { id: 'duplicate-result', severity: 'warning', description: 'a second result event (settlement and timeout can race)' },
  { id: 'duplicate-turn', severity: 'error', description: 'turn_started for a turn that already started' },
  { id: 'unknown-turn', severity: 'error', description: "an event for a root-thread turn that never started (a sub-agent thread's turns never have turn_started; exec's own turn_interrupted may name any turn)" },
  { id: 'ended-turn', severity: 'error', description: "a turn event after turn_completed, turn_failed or turn_interrupted of that turn (exec's own turn_interrupted excepted)" },
  { id: 'usage-decreased', severity: 'error', description: 'a usage_updated counter is lower than the previous snapshot of the same turn' },
  { id: 'tool-not-started', severity: 'error', description: 'tool_output_delta, tool_completed or file_changed for an item never started (tool_removed may name any item)' },
  { id: 'tool-started-twice', severity: 'error', description: 'tool_started for an item that already started' },
  { id: 'tool-after-end', severity: 'error', description: 'tool_output_delta, tool_completed or tool_removed after the item was completed or removed' },
  { id: 'tool-not-ended', severity: 'error', description: 'a tool item still open when its turn completed' },
  { id: 'command-without-tool', severity: 'error', description: 'a command_* event that does not come right after its tool_* twin for the same item' },
  { id: 'id-mismatch', severity: 'error', description: "ids that disagree: turn_started or an agent message on a thread other than the root thread, an error event's run_id unlike the result's" },
]);

export const RULE_SEVERITY: ReadonlyMap<string, Severity> = new Map(RULES.map((r) => [r.id, r.severity]));

/** Whether `id` names a rule. */
export function isRule(id: string): boolean {
  return RULE_SEVERITY.has(id);
}

/**
 * JSON types a field may have; `any` accepts every value, null included.
 * (`arguments` is JSON text in a string, but the producer may write it empty
 * or cut off, so only its type is checked.)
 */
export type FieldType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'any';

/** One field of an event type: its accepted JSON types, and whether it must be present. */
export interface FieldSpec {
  types: readonly FieldType[];
  required: boolean;
}

/**
 * Field specs written compactly: `string`, `number|string`, a trailing `?`
 * for an optional field (type-checked when present).
 */
function fields(spec: Record<string, string>): ReadonlyMap<string, FieldSpec> {
  return new Map(
    Object.entries(spec).map(([name, text]) => {
      const required = !text.endsWith('?');
      const types = (required ? text : text.slice(0, -1)).split('|') as FieldType[];
      return [name, { types, required }];
    }),
  );
}

const TURN = { thread_id: 'string', turn_id: 'string' };
const ITEM = { ...TURN, item_id: 'string' };
const COMMAND = { ...ITEM, name: 'string', arguments: 'string', command: 'string?', process_id: 'string|number?' };
const TOKENS = Object.fromEntries(WIRE_TOKEN_FIELDS.map((name) => [name, 'number']));
const SUBAGENT = {
  thread_id: 'string',
  agent_id: 'string',
  agent_type: 'string',
  status: 'string',
  task_name: 'string?',
  agent_profile: 'string?',
  agent_path: 'string?',
  parent_id: 'string?',
  description: 'string?',
  result: 'string?',
  result_path: 'string?',
  result_bytes: 'number?',
  result_truncated: 'boolean?',
  error: 'string?',
  ...Object.fromEntries(WIRE_TOKEN_FIELDS.map((name) => [name, 'number?'])),
};
const THREAD = { thread_id: 'string', model: 'string', provider: 'string', cwd: 'string' };

/**
 * The schema of every event type WIRE-FORMAT.md names: the fields wuu-check
 * requires, and their JSON types. Fields the format calls conditional ("when
 * present", "when known", "when failed") are optional; diagnostics events
 * require only their ids. Unlisted fields are allowed (consumers must tolerate them).
 */
export const SCHEMA: ReadonlyMap<string, ReadonlyMap<string, FieldSpec>> = new Map([
  [
    'session_configured',
    fields({
      protocol_version: 'string',
      provider: 'string',
      model: 'string',
      effort: 'string',
      variant: 'string',
      max_parallel: 'number',
      workspace_root: 'string',
      permissions: 'object',
    }),
  ],
  ['thread_started', fields(THREAD)],
  ['thread_resumed', fields(THREAD)],
  ['thread_forked', fields(THREAD)],
  ['turn_started', fields(TURN)],
  ['agent_message_delta', fields({ ...TURN, delta: 'string' })],
  ['agent_message_final', fields({ ...TURN, message: 'string' })],
  ['usage_updated', fields({ ...TURN, ...TOKENS })],
  [
    'turn_completed',
    fields({ ...TURN, input_tokens: 'number', output_tokens: 'number', trace_path: 'string', awaiting_auto_continuation: 'boolean' }),
  ],
  ['turn_failed', fields({ ...TURN, error: 'string' })],
  ['turn_interrupted', fields({ ...TURN, reason: 'string' })],
  ['tool_started', fields({ ...ITEM, name: 'string', arguments: 'string' })],
  ['tool_output_delta', fields({ ...ITEM, delta: 'string' })],
  ['tool_completed', fields({ ...ITEM, name: 'string', status: 'string', error: 'string' })],
  ['tool_removed', fields(ITEM)],
  ['command_started', fields(COMMAND)],
  ['command_output_delta', fields({ ...COMMAND, delta: 'string' })],
  ['command_completed', fields({ ...COMMAND, status: 'string', error: 'string' })],
  ['command_removed', fields({ ...ITEM, name: 'string' })],
  [
    'file_changed',
    fields({
      ...ITEM,
      tool_name: 'string',
      path: 'string',
      action: 'string?',
      move_path: 'string?',
      old_file_sha: 'string?',
      new_file_sha: 'string?',
      workspace_revision: 'number|string?',
      patch_journal_path: 'string?',
      manifest_path: 'string?',
    }),
  ],
  ['subagent_started', fields(SUBAGENT)],
  ['subagent_updated', fields(SUBAGENT)],
  ['subagent_completed', fields(SUBAGENT)],
  ['todo_updated', fields({ ...TURN, todo: 'any' })],
  ['provider_state', fields({ ...TURN, step_index: 'number?' })],
  ['request_context', fields({ ...TURN, step_index: 'number?' })],
  ['error', fields({ ...TURN, run_id: 'string', error: 'string', retrying: 'boolean' })],
  [
    'result',
    fields({
      status: 'string',
      thread_id: 'string',
      turn_id: 'string',
      run_id: 'string',
      final_message: 'string',
      trace_path: 'string',
      error: 'string?',
      structured_result: 'any?',
    }),
  ],
]);

export const RESULT_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'permission_denied', 'timeout', 'interrupted']);

/**
 * Events that belong to an open turn: every wire type with a turn_id, except
 * the turn's own start, and `error` and `result` (which may name an ended turn).
 */
export const TURN_SCOPED: ReadonlySet<string> = new Set(
  KNOWN_TYPES.filter(
    (type) => !(FAMILIES.session ?? []).includes(type) && !(FAMILIES.subagent ?? []).includes(type) && !['turn_started', 'error', 'result'].includes(type),
  ),
);

export const TOOL_END: ReadonlySet<string> = new Set(['tool_completed', 'tool_removed']);
export const USAGE_FIELDS = WIRE_TOKEN_FIELDS;

/** The JSON type of a parsed value, as named in messages. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function article(type: string): string {
  if (type === 'null') return type;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/**
 * Checks one event of type `type` against {@link SCHEMA}, given the JSON type
 * name ({@link jsonType}) of each top-level field (undefined when absent), and
 * hands each problem to `found` as a rule and a message. Unknown types have
 * no problems (another rule warns).
 */
export function schemaProblemsOf(type: string, kindOf: (name: string) => string | undefined, found: (rule: string, message: string) => void): void {
  const spec = SCHEMA.get(type);
  if (spec === undefined) return;
  for (const [name, field] of spec) {
    const kind = kindOf(name);
    if (kind === undefined) {
      if (field.required) found('missing-field', `${type}: missing required field "${name}"`);
    } else if (!field.types.some((wanted) => wanted === 'any' || wanted === kind)) {
      found('wrong-type', `${type}: "${name}" is ${article(kind)}, expected ${field.types.map((wanted) => article(wanted)).join(' or ')}`);
    }
  }
}

/**
 * Checks one event against {@link SCHEMA}. Pure: returns the problems as
 * `[rule, message]` pairs. Unknown types return nothing (another rule warns).
 */
export function schemaProblems(event: Record<string, unknown>): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  schemaProblemsOf(
    String(event.type),
    (name) => (Object.hasOwn(event, name) ? jsonType(event[name]) : undefined),
    (rule, message) => found.push([rule, message]),
  );
  return found;
}
