/**
 * wuu-check: validate a stream against the wire protocol
 * (WIRE-FORMAT-REFERENCE.md) and report every problem as
 * `FILE:LINE: rule: message`.
 *
 * Each input file is checked as its own stream. Every line is parsed; a line
 * that is not an event is a problem of its own (the core defines `badLine`, so
 * the runner hands it every bad line instead of reporting it). State is kept
 * per turn and per tool item of the current file only, and dropped at its end.
 *
 * What the producer legitimately writes is never an error: a sub-agent
 * thread's turn ends, usage and tool events (its turns never have a
 * turn_started), exec's own turn_interrupted for a turn that never started,
 * already ended, or with empty ids, empty or partial `arguments`, a
 * `command_completed` without `command`, `command_removed` with only `name`,
 * `tool_removed` for an item that never started, a missing `command_*` twin,
 * `todo: null`, setup failures with empty ids. Where a user still wants to
 * know (a cut last line, no result, two racing results) it is a warning.
 */
import type { Transform } from 'node:stream';
import { coreStream, type BadLine, type Core, type Emit } from '../core.js';
import { isWireType, TURN_END_TYPES } from '../events.js';
import type { EventRecord } from '../jsonl.js';
import { escapeControls } from '../text.js';
import { itemKey, RootThreads, ROOT_THREAD_TYPES, turnKey } from '../threads.js';
import { RESULT_STATUSES, RULE_SEVERITY, schemaProblems, TOOL_END, TURN_SCOPED, USAGE_FIELDS } from './schema.js';


/** Options of {@link createCheck}. */
export interface CheckOptions {
  /** Print problems as JSONL objects {file, line, rule, severity, message}. */
  json?: boolean;
  /** Rule ids not to apply. */
  ignore?: readonly string[];
  /** Receives the summary line at the end (the binary sends it to stderr). Default: dropped. */
  summary?: (line: string) => void;
  /**
   * Whether this checker itself was stopped (a signal during `-f`): a stream
   * read only in part is then not judged for its missing result.
   */
  interrupted?: () => boolean;
  /**
   * Most warnings allowed (eslint's `--max-warnings`): more than this many
   * make the status 1, as an error would. Default: no limit (warnings never fail).
   */
  maxWarnings?: number;
}

interface TurnState {
  thread: string;
  turn: string;
  line: number;
  /** Where and how it ended, once it has. */
  ended?: { type: string; line: number };
  /** The latest usage snapshot. */
  usage?: number[];
  /** Its tool items (itemKey) not yet completed or removed (so a turn end costs its own items only). */
  open: Set<string>;
}

interface ItemState {
  id: string;
  turnKey: string;
  line: number;
  ended?: number;
}

/** Types written for the root thread only (runner.go filters them). */
const ROOT_ONLY: ReadonlySet<string> = new Set(['turn_started', 'agent_message_delta', 'agent_message_final']);

/** Per-file state; a fresh one for each input. */
class StreamState {
  file: string | undefined;
  lastLine = 0;
  result: { line: number; runId: unknown } | undefined;
  afterResultReported = false;
  /** exec's turn_interrupted after a result: fine when a second result follows (the race). */
  raceEnd: { line: number } | undefined;
  threads = new RootThreads();
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

type At = (rule: string, message: string) => void;

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
  /** A stream was left unread at its end because the checker was stopped. */
  let stoppedEarly = false;
  const tooManyWarnings = () => options.maxWarnings !== undefined && warnings > options.maxWarnings;

  const report = (emit: Emit, file: string, line: number, rule: string, message: string) => {
    if (ignored.has(rule)) return;
    const severity = RULE_SEVERITY.get(rule) ?? 'error';
    if (severity === 'error') errors++;
    else warnings++;
    if (options.json) emit(`${JSON.stringify({ file, line, rule, severity, message })}\n`);
    // Messages quote the data (ids, types, names): made safe for a terminal here, once.
    else emit(`${escapeControls(file)}:${line}: ${rule}: ${escapeControls(message)}\n`);
  };

  /** Events after the result: exec's own turn_interrupted + result of a timeout race are fine. */
  const afterResult = (type: string, line: number, at: At): void => {
    const first = state.result!;
    if (type === 'result') {
      state.raceEnd = undefined;
      at('duplicate-result', `a second result event (the first is at line ${first.line}; settlement and exec's own deadline can race)`);
      return;
    }
    if (type === 'turn_interrupted' && state.raceEnd === undefined && !state.afterResultReported) {
      state.raceEnd = { line };
      return;
    }
    if (!state.afterResultReported) {
      state.afterResultReported = true;
      at('result-not-last', `${type} after the result at line ${first.line} (only the result ends a run)`);
    }
  };

  const checkResult = (type: string, event: Record<string, unknown>, thread: string | undefined, turnId: string | undefined, line: number, at: At) => {
    if (type === 'result') {
      state.result ??= { line, runId: event.run_id };
      if (typeof event.status === 'string' && !RESULT_STATUSES.has(event.status)) {
        at('unknown-status', `result status "${event.status}" is not one the wire format names`);
      }
      const errorRun = state.errorRunId;
      if (errorRun !== undefined && typeof event.run_id === 'string' && event.run_id !== errorRun.runId) {
        at('id-mismatch', `result run_id ${event.run_id} differs from the error event's run_id ${errorRun.runId} (line ${errorRun.line})`);
      }
      // result.turn_id may be the Run's final turn, which need not have started in the stream.
      return;
    }
    if (typeof event.run_id === 'string' && event.run_id !== '') state.errorRunId ??= { line, runId: event.run_id };
    if (turnId === undefined || turnId === '' || thread === undefined) return;
    if (!state.turns.has(turnKey(thread, turnId))) at('unknown-turn', `error names turn ${turnId} of thread ${thread}, which never started`);
  };

  const checkTurnStarted = (thread: string, turnId: string, line: number, at: At) => {
    const key = turnKey(thread, turnId);
    const known = state.turns.get(key);
    if (known !== undefined) {
      at('duplicate-turn', `turn ${turnId} already started at line ${known.line}`);
      return;
    }
    if (state.threads.known && state.threads.role(thread) !== 'root') {
      at('id-mismatch', `turn_started for turn ${turnId} on thread ${thread}, which is not the root thread ${state.threads.rootIds().join(', ')} (turn_started is written for the root thread only)`);
    }
    state.threads.observe('turn_started', thread);
    state.turns.set(key, { thread, turn: turnId, line, open: new Set() });
  };

  /** The turn a turn-scoped event belongs to; undefined when it has none to check against. */
  const turnFor = (type: string, thread: string, turnId: string, line: number, at: At): TurnState | undefined => {
    const key = turnKey(thread, turnId);
    const turn = state.turns.get(key);
    if (turn !== undefined) return turn;
    const role = state.threads.role(thread);
    if (role === 'child') {
      // A sub-agent thread: its turns never have turn_started, its events are its own.
      const implicit: TurnState = { thread, turn: turnId, line, open: new Set() };
      state.turns.set(key, implicit);
      return implicit;
    }
    // exec's own end (deadline or signal) names the last root turn, which may never have started, or "".
    if (type === 'turn_interrupted') return undefined;
    at('unknown-turn', `${type} for turn ${turnId}${thread === '' ? '' : ` of thread ${thread}`}, which never started`);
    return undefined;
  };

  const checkTurnEvent = (rec: EventRecord, event: Record<string, unknown>, thread: string, turnId: string, at: At) => {
    const type = rec.type;
    if (ROOT_ONLY.has(type) && state.threads.known && state.threads.role(thread) === 'child') {
      at('id-mismatch', `${type} on thread ${thread}, which is not the root thread (agent messages are written for the root thread only)`);
    }
    const turn = turnFor(type, thread, turnId, rec.line, at);
    if (turn === undefined) return;
    if (turn.ended !== undefined) {
      // exec's own turn_interrupted names the last root turn even when it already ended.
      if (type !== 'turn_interrupted') at('ended-turn', `${type} for turn ${turnId}, which ended at line ${turn.ended.line} (${turn.ended.type})`);
      return;
    }
    if (type === 'usage_updated') checkUsage(turn, event, at);
    if (TURN_END_TYPES.has(type)) {
      turn.ended = { type, line: rec.line };
      if (type === 'turn_completed') {
        for (const key of turn.open) {
          const item = state.items.get(key)!;
          at('tool-not-ended', `tool item ${item.id} (started at line ${item.line}) never ended before its turn ${turnId} completed`);
          item.ended = rec.line; // reported once
        }
      }
      turn.open.clear();
    }
  };

  const checkItem = (rec: EventRecord, thread: string, turnId: string, itemId: string, previous: StreamState['previous'], previousKnown: boolean, at: At) => {
    const type = rec.type;
    const key = itemKey(thread, turnId, itemId);
    const item = state.items.get(key);
    if (type.startsWith('command_')) {
      const twin = `tool_${type.slice('command_'.length)}`;
      if (previousKnown && (previous === undefined || previous.type !== twin || previous.item !== itemId)) {
        at('command-without-tool', `${type} for item ${itemId} does not come right after its ${twin}`);
      }
      return;
    }
    if (type === 'tool_started') {
      if (item !== undefined) {
        at('tool-started-twice', `tool item ${itemId} already started at line ${item.line}`);
        return;
      }
      const tk = turnKey(thread, turnId);
      state.items.set(key, { id: itemId, turnKey: tk, line: rec.line });
      state.turns.get(tk)?.open.add(key);
      return;
    }
    if (type === 'tool_output_delta' || TOOL_END.has(type) || type === 'file_changed') {
      if (item === undefined) {
        // item/removed is written for any removed item, a transient reconnect row included.
        if (type !== 'tool_removed') at('tool-not-started', `${type} for tool item ${itemId}, which never started`);
        return;
      }
      if (type === 'file_changed') return; // derived after tool_completed: the item has ended
      if (item.ended !== undefined) at('tool-after-end', `${type} for tool item ${itemId}, which ended at line ${item.ended}`);
      else if (TOOL_END.has(type)) {
        item.ended = rec.line;
        state.turns.get(item.turnKey)?.open.delete(key);
      }
    }
  };

  const checkEvent = (rec: EventRecord, emit: Emit) => {
    const event = rec.event as unknown as Record<string, unknown>;
    const type = rec.type;
    const at: At = (rule, message) => report(emit, rec.file, rec.line, rule, message);
    const previous = state.previous;
    const previousKnown = state.previousKnown;
    state.previous = { type, item: event.item_id };
    state.previousKnown = true;

    if (state.result !== undefined) afterResult(type, rec.line, at);
    if (!isWireType(type)) {
      at('unknown-type', `unknown event type "${type}"`);
      return;
    }
    for (const [rule, message] of schemaProblems(event)) at(rule, message);

    const thread = str(event.thread_id);
    const turnId = str(event.turn_id);
    const itemId = str(event.item_id);

    if (ROOT_THREAD_TYPES.has(type) || type.startsWith('subagent_')) {
      state.threads.observe(type, thread, event.agent_id);
      return;
    }
    if (type === 'turn_started') {
      if (turnId !== undefined && thread !== undefined) checkTurnStarted(thread, turnId, rec.line, at);
      return;
    }
    if (type === 'result' || type === 'error') {
      checkResult(type, event, thread, turnId, rec.line, at);
      return;
    }
    if (!TURN_SCOPED.has(type) || turnId === undefined || thread === undefined) return;
    checkTurnEvent(rec, event, thread, turnId, at);
    if (itemId !== undefined) checkItem(rec, thread, turnId, itemId, previous, previousKnown, at);
  };

  const checkUsage = (turn: TurnState, event: Record<string, unknown>, at: At) => {
    const now = USAGE_FIELDS.map((name) => event[name]);
    if (!now.every((n): n is number => typeof n === 'number')) return;
    const before = turn.usage;
    if (before !== undefined) {
      USAGE_FIELDS.forEach((name, i) => {
        if (now[i]! < before[i]!) {
          at('usage-decreased', `${name} went down from ${before[i]} to ${now[i]} in turn ${turn.turn} (snapshots are cumulative)`);
        }
      });
    }
    turn.usage = now;
  };

  const endStream = (file: string, emit: Emit) => {
    const name = state.file ?? file;
    files++;
    if (state.file === undefined) {
      report(emit, name, 0, 'no-events', 'the input is empty: nothing to check');
    } else {
      if (state.raceEnd !== undefined && !state.afterResultReported) {
        report(emit, name, state.raceEnd.line, 'result-not-last', `turn_interrupted after the result at line ${state.result!.line} (only the result ends a run)`);
      }
      if (state.result === undefined && options.interrupted?.() === true) {
        stoppedEarly = true;
      } else if (state.result === undefined) {
        report(emit, name, state.lastLine, 'missing-result', 'the stream ended without a result event (the producer was killed or the stream was cut)');
      }
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
      const partly = stoppedEarly ? ' (stopped before the end of the input: its result was not read)' : '';
      const over = tooManyWarnings() ? ` (more than --max-warnings ${options.maxWarnings})` : '';
      options.summary?.(`checked ${plural(files, 'file')}${partly}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}${over}`);
    },
    status: () => (errors > 0 || tooManyWarnings() ? 1 : 0),
  };
}

/**
 * Object-mode stream version of {@link createCheck}: event records in (from
 * `parse()`), problem lines out. `parse()` skips bad lines, so they are not
 * seen here; `wuu-check` (the runner) hands them to the core's `badLine`.
 */
export function check(options: CheckOptions = {}): Transform {
  return coreStream(createCheck(options));
}
