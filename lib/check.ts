/**
 * wuu-check: validate a stream against the wire protocol (WIRE-FORMAT.md) and
 * report every problem as `FILE:LINE: rule: message`.
 *
 * Each input file is checked as its own stream. Every line is parsed; a line
 * that is not an event is a problem of its own (the core defines `badLine`, so
 * the runner hands it every bad line instead of reporting it). State is kept
 * per turn and per tool item of the current file only, and dropped at its end.
 */
import type { Transform } from 'node:stream';
import through2 from 'through2';
import { coreStream, type BadLine, type Core, type Emit } from './core.js';
import { FAMILIES, isWireType, KNOWN_TYPES, TURN_END_TYPES } from './events.js';
import { DEFAULT_MAX_LINE_BYTES, LineRecord, LineSplitter, lineBytes, type EventRecord, type Line } from './jsonl.js';

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
  { id: 'cut-line', severity: 'error', description: 'the last line ends without a newline and is not a whole event (a killed producer)' },
  { id: 'unknown-type', severity: 'warning', description: 'an event type the wire format does not name' },
  { id: 'missing-field', severity: 'error', description: 'a required field of the event type is absent' },
  { id: 'wrong-type', severity: 'error', description: 'a field has the wrong JSON type (ids must be strings, even empty)' },
  { id: 'bad-arguments', severity: 'error', description: '"arguments" is a string but does not hold valid JSON' },
  { id: 'unknown-status', severity: 'warning', description: 'result.status is not completed, failed, permission_denied, timeout or interrupted' },
  { id: 'missing-result', severity: 'error', description: 'the stream ended without a result event' },
  { id: 'result-not-last', severity: 'error', description: 'an event follows the result' },
  { id: 'duplicate-result', severity: 'error', description: 'a second result event' },
  { id: 'duplicate-turn', severity: 'error', description: 'turn_started for a turn that already started' },
  { id: 'unknown-turn', severity: 'error', description: 'an event for a turn that never started' },
  { id: 'ended-turn', severity: 'error', description: 'a turn event after turn_completed, turn_failed or turn_interrupted of that turn' },
  { id: 'usage-decreased', severity: 'error', description: 'a usage_updated counter is lower than the previous snapshot of the same turn' },
  { id: 'tool-not-started', severity: 'error', description: 'tool_output_delta, tool_completed, tool_removed or file_changed for an item never started' },
  { id: 'tool-started-twice', severity: 'error', description: 'tool_started for an item that already started' },
  { id: 'tool-after-end', severity: 'error', description: 'tool_output_delta, tool_completed or tool_removed after the item was completed or removed' },
  { id: 'tool-not-ended', severity: 'error', description: 'a tool item still open when its turn completed' },
  { id: 'command-without-tool', severity: 'error', description: 'a command_* event that does not come right after its tool_* twin for the same item' },
  { id: 'id-mismatch', severity: 'error', description: "ids that disagree: an item's events in different turns, a turn's events on another thread, a turn on a thread the stream did not announce, an error event's run_id unlike the result's" },
]);

const RULE_SEVERITY: ReadonlyMap<string, Severity> = new Map(RULES.map((r) => [r.id, r.severity]));

/** Whether `id` names a rule. */
export function isRule(id: string): boolean {
  return RULE_SEVERITY.has(id);
}

/**
 * JSON types a field may have. `json` is a string that must hold valid JSON;
 * `any` accepts every value, null included.
 */
export type FieldType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'json' | 'any';

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
const COMMAND = { ...ITEM, name: 'string', arguments: 'json', command: 'string?', process_id: 'string|number?' };
const TOKENS = { input_tokens: 'number', output_tokens: 'number', cache_creation_tokens: 'number', cache_read_tokens: 'number' };
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
  input_tokens: 'number?',
  output_tokens: 'number?',
  cache_creation_tokens: 'number?',
  cache_read_tokens: 'number?',
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
  ['tool_started', fields({ ...ITEM, name: 'string', arguments: 'json' })],
  ['tool_output_delta', fields({ ...ITEM, delta: 'string' })],
  ['tool_completed', fields({ ...ITEM, name: 'string', status: 'string', error: 'string' })],
  ['tool_removed', fields(ITEM)],
  ['command_started', fields(COMMAND)],
  ['command_output_delta', fields({ ...COMMAND, delta: 'string' })],
  ['command_completed', fields({ ...COMMAND, status: 'string', error: 'string' })],
  ['command_removed', fields(COMMAND)],
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

const RESULT_STATUSES = new Set(['completed', 'failed', 'permission_denied', 'timeout', 'interrupted']);

/**
 * Events that belong to an open turn: every wire type with a turn_id, except
 * the turn's own start, and `error` and `result` (which may name an ended turn).
 */
const TURN_SCOPED = new Set(
  KNOWN_TYPES.filter(
    (type) => !FAMILIES.session!.includes(type) && !FAMILIES.subagent!.includes(type) && !['turn_started', 'error', 'result'].includes(type),
  ),
);

const TOOL_END = new Set(['tool_completed', 'tool_removed']);
const USAGE_FIELDS = ['input_tokens', 'output_tokens', 'cache_creation_tokens', 'cache_read_tokens'] as const;

/** The JSON type of a parsed value, as named in messages. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function typeMatches(value: unknown, type: FieldType): boolean {
  switch (type) {
    case 'any':
      return true;
    case 'json':
      return typeof value === 'string';
    default:
      return jsonType(value) === type;
  }
}

function article(type: string): string {
  if (type === 'null') return type;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/**
 * Checks one event against {@link SCHEMA}. Pure: returns the problems as
 * `[rule, message]` pairs. Unknown types return nothing (another rule warns).
 */
export function schemaProblems(event: Record<string, unknown>): Array<[string, string]> {
  const spec = SCHEMA.get(String(event.type));
  if (spec === undefined) return [];
  const found: Array<[string, string]> = [];
  for (const [name, field] of spec) {
    if (!Object.hasOwn(event, name)) {
      if (field.required) found.push(['missing-field', `${event.type}: missing required field "${name}"`]);
      continue;
    }
    const value = event[name];
    if (!field.types.some((type) => typeMatches(value, type))) {
      const wanted = field.types.map((type) => article(type === 'json' ? 'string' : type)).join(' or ');
      found.push(['wrong-type', `${event.type}: "${name}" is ${article(jsonType(value))}, expected ${wanted}${field.types.includes('json') ? ' holding JSON' : ''}`]);
      continue;
    }
    if (field.types.includes('json') && typeof value === 'string') {
      try {
        JSON.parse(value);
      } catch (err) {
        found.push(['bad-arguments', `${event.type}: "${name}" does not hold valid JSON (${(err as Error).message})`]);
      }
    }
  }
  return found;
}

/** Options of {@link createCheck}. */
export interface CheckOptions {
  /** Print problems as JSONL objects {file, line, rule, severity, message}. */
  json?: boolean;
  /** Rule ids not to apply. */
  ignore?: readonly string[];
  /** Receives the summary line at the end (the binary sends it to stderr). Default: dropped. */
  summary?: (line: string) => void;
}

interface TurnState {
  thread: string;
  line: number;
  /** Where and how it ended, once it has. */
  ended?: { type: string; line: number };
  /** The latest usage snapshot. */
  usage?: number[];
  /** Its tool items not yet completed or removed (so a turn end costs its own items only). */
  open: Set<string>;
}

interface ItemState {
  turn: string;
  line: number;
  ended?: number;
}

/** Per-file state; a fresh one for each input. */
class StreamState {
  file: string | undefined;
  lastLine = 0;
  result: { line: number; runId: unknown } | undefined;
  afterResultReported = false;
  threads = new Set<string>();
  turns = new Map<string, TurnState>();
  items = new Map<string, ItemState>();
  /** The previous event, for the command twin check; undefined after a bad line (unknown). */
  previous: { type: string; item: unknown } | undefined;
  previousKnown = true;
  errorRunId: { line: number; runId: string } | undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * The checker's core: validates every event, emits one line per problem as
 * it is found (text `FILE:LINE: rule: message`, or JSONL), and ends each file
 * with its end-of-stream problems. Exit status 1 when an error was found.
 */
export function createCheck(options: CheckOptions = {}): Core & { badLine(bad: BadLine, emit: Emit): void } {
  const ignored = new Set(options.ignore ?? []);
  let state = new StreamState();
  let errors = 0;
  let warnings = 0;
  let files = 0;

  const report = (emit: Emit, file: string, line: number, rule: string, message: string) => {
    if (ignored.has(rule)) return;
    const severity = RULE_SEVERITY.get(rule) ?? 'error';
    if (severity === 'error') errors++;
    else warnings++;
    if (options.json) emit(`${JSON.stringify({ file, line, rule, severity, message })}\n`);
    else emit(`${file}:${line}: ${rule}: ${message}\n`);
  };

  const checkEvent = (rec: EventRecord, emit: Emit) => {
    const event = rec.event as unknown as Record<string, unknown>;
    const type = rec.type;
    const at = (rule: string, message: string) => report(emit, rec.file, rec.line, rule, message);
    const previous = state.previous;
    const previousKnown = state.previousKnown;
    state.previous = { type, item: event.item_id };
    state.previousKnown = true;

    if (state.result !== undefined) {
      if (type === 'result') at('duplicate-result', `a second result event (the first is at line ${state.result.line})`);
      else if (!state.afterResultReported) {
        state.afterResultReported = true;
        at('result-not-last', `${type} after the result at line ${state.result.line} (only the result ends a run)`);
      }
    }
    if (!isWireType(type)) {
      at('unknown-type', `unknown event type "${type}"`);
      return;
    }
    for (const [rule, message] of schemaProblems(event)) at(rule, message);

    const thread = str(event.thread_id);
    const turnId = str(event.turn_id);
    const itemId = str(event.item_id);

    if (type === 'thread_started' || type === 'thread_resumed' || type === 'thread_forked') {
      if (thread !== undefined) state.threads.add(thread);
      return;
    }

    if (type === 'turn_started') {
      if (turnId === undefined || thread === undefined) return;
      const known = state.turns.get(turnId);
      if (known !== undefined) {
        at('duplicate-turn', `turn ${turnId} already started at line ${known.line}`);
        return;
      }
      if (state.threads.size > 0 && !state.threads.has(thread)) {
        at('id-mismatch', `turn ${turnId} is on thread ${thread}, which no thread_* event announced`);
      }
      state.turns.set(turnId, { thread, line: rec.line, open: new Set() });
      return;
    }

    if (type === 'result' || type === 'error') {
      if (type === 'result') {
        if (state.result === undefined) state.result = { line: rec.line, runId: event.run_id };
        if (typeof event.status === 'string' && !RESULT_STATUSES.has(event.status)) {
          at('unknown-status', `result status "${event.status}" is not one the wire format names`);
        }
        const errorRun = state.errorRunId;
        if (errorRun !== undefined && typeof event.run_id === 'string' && event.run_id !== errorRun.runId) {
          at('id-mismatch', `result run_id ${event.run_id} differs from the error event's run_id ${errorRun.runId} (line ${errorRun.line})`);
        }
      } else if (typeof event.run_id === 'string' && event.run_id !== '') {
        state.errorRunId ??= { line: rec.line, runId: event.run_id };
      }
      // Ids may be empty when setup failed early; a non-empty turn must be one the stream started.
      if (turnId === undefined || turnId === '') return;
      const turn = state.turns.get(turnId);
      if (turn === undefined) at('unknown-turn', `${type} names turn ${turnId}, which never started`);
      else if (thread !== undefined && thread !== turn.thread) {
        at('id-mismatch', `${type} names turn ${turnId} on thread ${thread}, but the turn is on thread ${turn.thread} (line ${turn.line})`);
      }
      return;
    }

    if (TURN_SCOPED.has(type) && turnId !== undefined) {
      const turn = state.turns.get(turnId);
      if (turn === undefined) {
        at('unknown-turn', `${type} for turn ${turnId}, which never started`);
      } else {
        if (turn.ended !== undefined) {
          at('ended-turn', `${type} for turn ${turnId}, which ended at line ${turn.ended.line} (${turn.ended.type})`);
        }
        if (thread !== undefined && thread !== turn.thread) {
          at('id-mismatch', `${type} for turn ${turnId} on thread ${thread}, but the turn is on thread ${turn.thread} (line ${turn.line})`);
        }
        if (type === 'usage_updated') checkUsage(turn, turnId, event, at);
        if (TURN_END_TYPES.has(type) && turn.ended === undefined) {
          turn.ended = { type, line: rec.line };
          if (type === 'turn_completed') {
            for (const id of turn.open) {
              const item = state.items.get(id)!;
              at('tool-not-ended', `tool item ${id} (started at line ${item.line}) never ended before its turn ${turnId} completed`);
              item.ended = rec.line; // reported once
            }
          }
          turn.open.clear();
        }
      }
    }

    if (itemId === undefined) return;
    const item = state.items.get(itemId);
    const sameTurn = () => {
      if (item !== undefined && turnId !== undefined && turnId !== item.turn) {
        at('id-mismatch', `${type} for item ${itemId} in turn ${turnId}, but the item started in turn ${item.turn} (line ${item.line})`);
      }
    };

    if (type.startsWith('command_')) {
      const twin = `tool_${type.slice('command_'.length)}`;
      if (previousKnown && (previous === undefined || previous.type !== twin || previous.item !== itemId)) {
        at('command-without-tool', `${type} for item ${itemId} does not come right after its ${twin}`);
      }
      sameTurn();
      return;
    }
    if (type === 'tool_started') {
      if (item !== undefined) {
        at('tool-started-twice', `tool item ${itemId} already started at line ${item.line}`);
        return;
      }
      if (turnId !== undefined) {
        state.items.set(itemId, { turn: turnId, line: rec.line });
        state.turns.get(turnId)?.open.add(itemId);
      }
      return;
    }
    if (type === 'tool_output_delta' || TOOL_END.has(type) || type === 'file_changed') {
      if (item === undefined) {
        at('tool-not-started', `${type} for tool item ${itemId}, which never started`);
        return;
      }
      sameTurn();
      if (type === 'file_changed') return; // derived after tool_completed: the item has ended
      if (item.ended !== undefined) at('tool-after-end', `${type} for tool item ${itemId}, which ended at line ${item.ended}`);
      else if (TOOL_END.has(type)) {
        item.ended = rec.line;
        state.turns.get(item.turn)?.open.delete(itemId);
      }
    }
  };

  const checkUsage = (turn: TurnState, turnId: string, event: Record<string, unknown>, at: (rule: string, message: string) => void) => {
    const now = USAGE_FIELDS.map((name) => event[name]);
    if (!now.every((n): n is number => typeof n === 'number')) return;
    const before = turn.usage;
    if (before !== undefined) {
      USAGE_FIELDS.forEach((name, i) => {
        if (now[i]! < before[i]!) {
          at('usage-decreased', `${name} went down from ${before[i]} to ${now[i]} in turn ${turnId} (snapshots are cumulative)`);
        }
      });
    }
    turn.usage = now;
  };

  const endStream = (file: string, emit: Emit) => {
    const name = state.file ?? file;
    files++;
    if (state.result === undefined) {
      report(emit, name, state.lastLine, 'missing-result', 'the stream ended without a result event (the producer was killed or the stream was cut)');
    }
    state = new StreamState();
  };

  return {
    push(rec, emit) {
      state.file ??= rec.file;
      state.lastLine = rec.line;
      checkEvent(rec, emit);
    },
    badLine(bad, emit) {
      state.file ??= bad.file;
      state.lastLine = bad.line;
      // What came before a bad line is unknown: do not blame the next command_* event for it.
      state.previous = undefined;
      state.previousKnown = false;
      if (bad.terminated) report(emit, bad.file, bad.line, 'bad-line', bad.message);
      else report(emit, bad.file, bad.line, 'cut-line', `last line cut off (no newline at end of input): ${bad.message}`);
    },
    endFile(file, emit) {
      endStream(file, emit);
    },
    end() {
      const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
      options.summary?.(`checked ${plural(files, 'file')}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`);
    },
    status: () => (errors > 0 ? 1 : 0),
  };
}

/**
 * Object-mode stream version of {@link createCheck}: event records in (from
 * `parse()`), problem lines out. `parse()` skips bad lines, so they are not
 * seen here: use {@link checkBytes} to check raw bytes, bad lines included.
 */
export function check(options: CheckOptions = {}): Transform {
  return coreStream(createCheck(options));
}

/** Options of {@link checkBytes}. */
export interface CheckBytesOptions extends CheckOptions {
  /** Name used in problems. Default `-`. */
  file?: string;
  /** Longest accepted line. Default 32 MiB. */
  maxLineBytes?: number;
}

/**
 * Bytes in, problem lines (strings) out: the whole check, bad lines included,
 * as `wuu-check` does it for one input file.
 */
export function checkBytes(options: CheckBytesOptions = {}): Transform {
  const file = options.file ?? '-';
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const core = createCheck(options);
  const splitter = new LineSplitter(maxLineBytes);
  let stream: Transform;
  const emit: Emit = (out) => {
    stream.push(out);
  };
  const onLine = (line: Line) => {
    const bad = (message: string, raw: Buffer) =>
      core.badLine({ file, line: line.line, message, terminated: line.terminated, raw }, emit);
    if (line.oversizeBytes !== undefined) {
      bad(`line of ${line.oversizeBytes} bytes exceeds the maximum line size ${maxLineBytes}; dropped`, Buffer.alloc(0));
      return;
    }
    const bytes = lineBytes(line);
    const rec = new LineRecord(bytes, file, line.line);
    try {
      rec.validate();
    } catch (err) {
      bad((err as Error).message, bytes);
      return;
    }
    core.push(rec, emit);
  };
  stream = through2(
    { writableObjectMode: false, readableObjectMode: true },
    function transform(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void) {
      try {
        splitter.push(chunk, onLine);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
    function flush(done: (err?: Error | null) => void) {
      try {
        splitter.end(onLine);
        core.endFile?.(file, emit);
        core.end?.(emit);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  );
  return stream;
}
