/**
 * wuu-check's cross-event rules over one input file: the state of its run
 * (turns, tool items, threads, the result) and what each event does to it.
 * A fresh {@link StreamRules} serves each file, so nothing outlives its file.
 *
 * What the producer legitimately writes is never an error: a sub-agent
 * thread's turn ends, usage and tool events (its turns never have a
 * turn_started), exec's own turn_interrupted for a turn that never started,
 * already ended, or with empty ids, `command_completed` without `command`,
 * `tool_removed` for an item that never started, a missing `command_*` twin.
 */
import { KNOWN_TYPES, TURN_END_TYPES } from '../events.js';
import { itemKey, RootThreads, ROOT_THREAD_TYPES, turnKey } from '../threads.js';
import type { EventFields } from './fields.js';
import { RESULT_STATUSES, schemaProblemsOf, TOOL_END, TURN_SCOPED, USAGE_FIELDS } from './schema.js';

/** Receives one problem of the current line. */
export type At = (rule: string, message: string) => void;

interface TurnState {
  thread: string;
  turn: string;
  line: number;
  /** Where and how it ended, once it has. */
  ended?: { type: string; line: number };
  /** The latest usage snapshot. */
  usage?: number[];
  /** Its tool items not yet completed or removed (so a turn end costs its own items only). */
  open: Set<ItemState>;
}

interface ItemState {
  id: string;
  thread: string;
  turn: string;
  /** Its turn, when the turn was known as it started (the only turn whose open items it joined). */
  turnState: TurnState | undefined;
  line: number;
  ended?: number;
}

/** Types written for the root thread only (runner.go filters them). */
const ROOT_ONLY: ReadonlySet<string> = new Set(['turn_started', 'agent_message_delta', 'agent_message_final']);

/** What the rules make of a wire type, worked out once per type instead of a set lookup per rule and event. */
interface TypeRole {
  /** thread_* and subagent_*: they name the root thread or an agent. */
  namesThreads: boolean;
  /** Belongs to an open turn (TURN_SCOPED). */
  turnScoped: boolean;
  rootOnly: boolean;
  endsTurn: boolean;
  /** For command_*: its tool_* twin. */
  commandTwin: string | undefined;
  /** tool_started, tool_output_delta, tool_completed, tool_removed, file_changed: the item rules. */
  toolItem: boolean;
}

const ROLES: ReadonlyMap<string, TypeRole> = new Map(
  KNOWN_TYPES.map((type) => [
    type,
    {
      namesThreads: ROOT_THREAD_TYPES.has(type) || type.startsWith('subagent_'),
      turnScoped: TURN_SCOPED.has(type),
      rootOnly: ROOT_ONLY.has(type),
      endsTurn: TURN_END_TYPES.has(type),
      commandTwin: type.startsWith('command_') ? `tool_${type.slice('command_'.length)}` : undefined,
      toolItem: type.startsWith('tool_') || type === 'file_changed',
    },
  ]),
);

/** The role of a wire type; undefined for a type the wire format does not name. */
function roleOf(type: string): TypeRole | undefined {
  return ROLES.get(type);
}

/** The rules' state for one input file. */
export class StreamRules {
  /** The file's name, from its first line (undefined: no line yet). */
  file: string | undefined;
  lastLine = 0;
  result: { line: number } | undefined;
  private afterResultReported = false;
  /** exec's turn_interrupted after a result: fine when a second result follows (the race). */
  private raceEnd: { line: number; resultLine: number } | undefined;
  private readonly threads = new RootThreads();
  private readonly turns = new Map<string, TurnState>();
  private readonly items = new Map<string, ItemState>();
  /** The previous event's type and item, for the command twin check; type undefined after a bad line (unknown). */
  private previousType: string | undefined = '';
  private previousItem: string | undefined;
  private errorRunId: { line: number; runId: string } | undefined;
  /** The turn found last (turns are never removed from the map, so it stays right). */
  private lastTurn: TurnState | undefined;
  /** The item found last, and its ids. */
  private lastItem: ItemState | undefined;

  /** A line that is not an event: what came before the next one is unknown. */
  badLine(file: string, line: number): void {
    this.file ??= file;
    this.lastLine = line;
    this.previousType = undefined;
  }

  /** Applies every rule to one event. */
  event(file: string, line: number, fields: EventFields, at: At): void {
    this.file ??= file;
    this.lastLine = line;
    const { type, thread, turn: turnId, item: itemId } = fields;
    const previousType = this.previousType;
    const previousItem = this.previousItem;
    this.previousType = type;
    this.previousItem = itemId;

    if (this.result !== undefined) this.afterResult(type, line, this.result.line, at);
    const role = roleOf(type);
    if (role === undefined) {
      at('unknown-type', `unknown event type "${type}"`);
      return;
    }
    if (!fields.schemaHolds(type)) schemaProblemsOf(type, (name) => fields.kindOf(name), at);

    if (role.namesThreads) {
      this.threads.observe(type, thread, fields.agent);
      return;
    }
    if (type === 'turn_started') {
      if (turnId !== undefined && thread !== undefined) this.turnStarted(thread, turnId, line, at);
      return;
    }
    if (type === 'result' || type === 'error') {
      this.resultOrError(fields, line, at);
      return;
    }
    if (!role.turnScoped || turnId === undefined || thread === undefined) return;
    const turn = this.turnEvent(fields, role, thread, turnId, line, at);
    if (itemId === undefined) return;
    if (role.commandTwin !== undefined) {
      // Right after a bad line, what came before is unknown: the twin cannot be judged.
      if (previousType !== undefined && (previousType !== role.commandTwin || previousItem !== itemId)) {
        at('command-without-tool', `${type} for item ${itemId} does not come right after its ${role.commandTwin}`);
      }
    } else if (role.toolItem) this.itemEvent(type, thread, turnId, itemId, turn, line, at);
  }

  /** End-of-stream: a timeout race's lone turn_interrupted; whether the result is missing. */
  end(report: (line: number, rule: string, message: string) => void): void {
    if (this.raceEnd !== undefined && !this.afterResultReported) {
      report(this.raceEnd.line, 'result-not-last', `turn_interrupted after the result at line ${this.raceEnd.resultLine} (only the result ends a run)`);
    }
  }

  /** Events after the result: exec's own turn_interrupted + result of a timeout race are fine. */
  private afterResult(type: string, line: number, first: number, at: At): void {
    if (type === 'result') {
      this.raceEnd = undefined;
      at('duplicate-result', `a second result event (the first is at line ${first}; settlement and exec's own deadline can race)`);
      return;
    }
    if (type === 'turn_interrupted' && this.raceEnd === undefined && !this.afterResultReported) {
      this.raceEnd = { line, resultLine: first };
      return;
    }
    if (!this.afterResultReported) {
      this.afterResultReported = true;
      at('result-not-last', `${type} after the result at line ${first} (only the result ends a run)`);
    }
  }

  private resultOrError(fields: EventFields, line: number, at: At): void {
    const { runId, status, thread, turn: turnId } = fields;
    if (fields.type === 'result') {
      this.result ??= { line };
      if (status !== undefined && !RESULT_STATUSES.has(status)) {
        at('unknown-status', `result status "${status}" is not one the wire format names`);
      }
      const errorRun = this.errorRunId;
      if (errorRun !== undefined && runId !== undefined && runId !== errorRun.runId) {
        at('id-mismatch', `result run_id ${runId} differs from the error event's run_id ${errorRun.runId} (line ${errorRun.line})`);
      }
      // result.turn_id may be the Run's final turn, which need not have started in the stream.
      return;
    }
    if (runId !== undefined && runId !== '') this.errorRunId ??= { line, runId };
    if (turnId === undefined || turnId === '' || thread === undefined) return;
    if (!this.turns.has(turnKey(thread, turnId))) at('unknown-turn', `error names turn ${turnId} of thread ${thread}, which never started`);
  }

  private turnStarted(thread: string, turnId: string, line: number, at: At): void {
    const key = turnKey(thread, turnId);
    const known = this.turns.get(key);
    if (known !== undefined) {
      at('duplicate-turn', `turn ${turnId} already started at line ${known.line}`);
      return;
    }
    if (this.threads.known && this.threads.role(thread) !== 'root') {
      at('id-mismatch', `turn_started for turn ${turnId} on thread ${thread}, which is not the root thread ${this.threads.rootIds().join(', ')} (turn_started is written for the root thread only)`);
    }
    this.threads.observe('turn_started', thread);
    this.turns.set(key, { thread, turn: turnId, line, open: new Set() });
  }

  /** The turn a turn-scoped event belongs to; undefined when it has none to check against. */
  private turnFor(type: string, thread: string, turnId: string, line: number, at: At): TurnState | undefined {
    // Most events belong to the turn of the event before: no key to build.
    const last = this.lastTurn;
    if (last !== undefined && last.turn === turnId && last.thread === thread) return last;
    const key = turnKey(thread, turnId);
    const turn = this.turns.get(key);
    if (turn !== undefined) {
      this.lastTurn = turn;
      return turn;
    }
    if (this.threads.role(thread) === 'child') {
      // A sub-agent thread: its turns never have turn_started, its events are its own.
      const implicit: TurnState = { thread, turn: turnId, line, open: new Set() };
      this.turns.set(key, implicit);
      return implicit;
    }
    // exec's own end (deadline or signal) names the last root turn, which may never have started, or "".
    if (type === 'turn_interrupted') return undefined;
    at('unknown-turn', `${type} for turn ${turnId}${thread === '' ? '' : ` of thread ${thread}`}, which never started`);
    return undefined;
  }

  /** The turn rules of a turn-scoped event; returns its turn as the turns map holds it (undefined: none). */
  private turnEvent(fields: EventFields, role: TypeRole, thread: string, turnId: string, line: number, at: At): TurnState | undefined {
    const type = fields.type;
    if (role.rootOnly && this.threads.known && this.threads.role(thread) === 'child') {
      at('id-mismatch', `${type} on thread ${thread}, which is not the root thread (agent messages are written for the root thread only)`);
    }
    const turn = this.turnFor(type, thread, turnId, line, at);
    if (turn === undefined) return undefined;
    if (turn.ended !== undefined) {
      // exec's own turn_interrupted names the last root turn even when it already ended.
      if (type !== 'turn_interrupted') at('ended-turn', `${type} for turn ${turnId}, which ended at line ${turn.ended.line} (${turn.ended.type})`);
      return turn;
    }
    if (type === 'usage_updated' && fields.usage !== undefined) this.usage(turn, fields.usage, at);
    if (role.endsTurn) {
      turn.ended = { type, line };
      if (type === 'turn_completed') {
        for (const item of turn.open) {
          at('tool-not-ended', `tool item ${item.id} (started at line ${item.line}) never ended before its turn ${turnId} completed`);
          item.ended = line; // reported once
        }
      }
      turn.open.clear();
    }
    return turn;
  }

  private usage(turn: TurnState, now: number[], at: At): void {
    const before = turn.usage;
    if (before !== undefined) {
      USAGE_FIELDS.forEach((name, i) => {
        const was = before[i] ?? 0;
        const is = now[i] ?? 0;
        if (is < was) at('usage-decreased', `${name} went down from ${was} to ${is} in turn ${turn.turn} (snapshots are cumulative)`);
      });
    }
    turn.usage = now;
  }

  /**
   * Tool item rules (tool_started, tool_output_delta, tool_completed,
   * tool_removed, file_changed). `turn` is the event's turn as the turns map
   * holds it after the turn rules (turnEvent), so no key is built to find it.
   */
  private itemEvent(type: string, thread: string, turnId: string, itemId: string, turn: TurnState | undefined, line: number, at: At): void {
    // Most events belong to the item of the event before: no key to build.
    const last = this.lastItem;
    const hit = last !== undefined && last.id === itemId && last.turn === turnId && last.thread === thread;
    const key = hit ? '' : itemKey(thread, turnId, itemId);
    const item = hit ? last : this.items.get(key);
    if (type === 'tool_started') {
      if (item !== undefined) {
        this.lastItem = item;
        at('tool-started-twice', `tool item ${itemId} already started at line ${item.line}`);
        return;
      }
      const started: ItemState = { id: itemId, thread, turn: turnId, turnState: turn, line };
      this.items.set(key, started);
      this.lastItem = started;
      turn?.open.add(started);
      return;
    }
    if (item !== undefined) this.lastItem = item;
    const ends = TOOL_END.has(type);
    if (item === undefined) {
      // item/removed is written for any removed item, a transient reconnect row included.
      if (type !== 'tool_removed') at('tool-not-started', `${type} for tool item ${itemId}, which never started`);
      return;
    }
    if (type === 'file_changed') return; // derived after tool_completed: the item has ended
    if (item.ended !== undefined) at('tool-after-end', `${type} for tool item ${itemId}, which ended at line ${item.ended}`);
    else if (ends) {
      item.ended = line;
      item.turnState?.open.delete(item);
    }
  }
}
