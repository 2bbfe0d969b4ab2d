/**
 * The shapes wuu-usage works with: exact token counts (BigInt, so totals
 * beyond 2^53 stay exact end to end), one small record ("unit") per turn of
 * the main agent and per subagent, and the options of the report.
 */

/** Exact token counts in the producer's convention (lib/events.ts): `input_tokens` EXCLUDES cached tokens. */
export type Tokens = EventTokens<bigint>;

/** The token fields, in output order. */
export { TOKEN_FIELDS } from '../events.js';

import { promptTokens, type Tokens as EventTokens } from '../events.js';
import type { DateSource } from './dates.js';

/** What identifies and locates a unit; shared by turns and subagents. */
export interface UnitBase extends Tokens {
  /** Input the unit was read from, and the line of its first event there. */
  file: string;
  line: number;
  thread_id: string;
  /** `run_id` of the run's `result`; null when the run has no result (killed or interrupted). */
  run_id: string | null;
  /** `status` of the run's `result`; null when there is none. */
  run_status: string | null;
  /** Provider of the thread (thread_* event, else session_configured); `` when unknown. */
  provider: string;
  /** Model of the thread (thread_* event, else session_configured), or `unknown`. */
  model: string;
  /**
   * When: an instant (ISO 8601 UTC, `...Z`) or a wall-clock time without
   * offset (`YYYY-MM-DDTHH:MM:SS`, a session id's time, read in the report's zone).
   */
  time: string | null;
  /** Where `time` comes from: an event's timestamp, the session id, the file's mtime, now (stdin); null: none. */
  date_source: DateSource | null;
}

/** The usage of one turn of the main agent (the root thread). */
export interface TurnUnit extends UnitBase {
  kind: 'turn';
  turn_id: string;
  /** How the turn ended: completed, failed, interrupted; null when it never ended. */
  end: string | null;
  /** Where the counts come from: the last usage_updated, turn_completed, or none. */
  source: 'usage_updated' | 'turn_completed' | 'none';
}

/** The usage of one subagent: its last `subagent_*` report (cumulative). */
export interface AgentUnit extends UnitBase {
  kind: 'agent';
  agent_id: string;
  agent_type: string;
  /** `status` of its last report (running, completed, failed, ...). */
  agent_status: string;
  /** `report`: its last subagent_* report; `child_thread`: no report, the last snapshots of its own thread's turns. */
  source: 'report' | 'child_thread';
}

/**
 * A run with no usage at all (a setup failure, a busy thread: a `result`
 * and no turn): zero tokens, so that it shows as a zero row instead of
 * vanishing. A run with any turn or subagent has no such unit.
 */
export interface RunUnit extends UnitBase {
  kind: 'run';
}

export type UsageUnit = TurnUnit | AgentUnit | RunUnit;

/** One grouping dimension of the report. */
export type UsageDim = 'turn' | 'run' | 'thread' | 'model' | 'file' | 'day' | 'week' | 'month';
export const USAGE_DIMS: readonly UsageDim[] = ['turn', 'run', 'thread', 'model', 'file', 'day', 'week', 'month'];

/** Output format of the report. */
export type UsageFormat = 'table' | 'json' | 'csv' | 'tsv' | 'markdown';

/** Receives warnings, without the program name (`FILE:LINE: warning: ...`). */
export type Warn = (message: string) => void;

/** The event types whose content wuu-usage reads; every other line is skipped as bytes. */
export const USAGE_TYPES: ReadonlySet<string> = new Set([
  'session_configured',
  'thread_started',
  'thread_resumed',
  'thread_forked',
  'turn_started',
  'usage_updated',
  'turn_completed',
  'turn_failed',
  'turn_interrupted',
  'subagent_started',
  'subagent_updated',
  'subagent_completed',
  'result',
]);

/** Zero tokens. */
export function zeroTokens(): Tokens {
  return { input_tokens: 0n, cache_creation_tokens: 0n, cache_read_tokens: 0n, output_tokens: 0n };
}

/** Adds `t` into `into`; spelled out field by field, not a loop over names: the report runs it three times per unit. */
export function addTokens(into: Tokens, t: Tokens): void {
  into.input_tokens += t.input_tokens;
  into.cache_creation_tokens += t.cache_creation_tokens;
  into.cache_read_tokens += t.cache_read_tokens;
  into.output_tokens += t.output_tokens;
}

/** The prompt a turn sent: uncached input + cache write + cache read. */
export function promptOf(t: Tokens): bigint {
  return promptTokens(t);
}
