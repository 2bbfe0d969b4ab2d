/**
 * wuu-usage: exact token usage per turn, run, model, file or day.
 *
 * The counting rules (see WIRE-FORMAT.md) and why they matter:
 * - `usage_updated` is a cumulative snapshot for its turn: the last one per
 *   turn counts, never their sum. A snapshot that goes down is a reset: it is
 *   reported and the last snapshot still counts.
 * - `turn_completed` repeats the input/output counts: it is only a fallback
 *   for a turn that has no snapshot (its cache counts are then 0).
 * - subagents report their own cumulative tokens: the last report per
 *   agent_id counts, in rows and totals of their own, never added to the
 *   main agent's.
 * - bash output arrives twice but carries no usage: those lines are never parsed.
 *
 * `input_tokens` INCLUDES the cached tokens (the sample of the wire format has
 * input 1500 with cache_read 800; examples/run.jsonl has input 9800 with
 * cache_creation 4096 + cache_read 4096). Hence:
 *   cache hit ratio = cache_read_tokens / input_tokens
 *   uncached input  = input_tokens - cache_creation_tokens - cache_read_tokens
 * and a price applies to each of uncached input, output, cache writes and
 * cache reads separately.
 *
 * Structure: a {@link UsageScanner} reads ONE input stream and yields one
 * small record ("unit") per turn and per subagent; a {@link UsageLedger}
 * merges the units of many inputs, counting a turn (thread_id + turn_id) or a
 * subagent (thread_id + agent_id) once however often it is seen; the report
 * groups the units. Serial runs, worker threads and `--merge` of `--json`
 * parts all go through the same scanner and ledger, so they agree exactly.
 */
import fs from 'node:fs';
import os from 'node:os';
import zlib from 'node:zlib';
import type { Transform } from 'node:stream';
import { coreStream, type Core } from './core.js';
import { LineSplitter, type EventRecord, type Line } from './jsonl.js';
import { badLineMessage, describeInputError, expandInput, readLine, type ToolIO } from './runner.js';
import { Worker } from 'node:worker_threads';

/** Token counts, in the wire format's names. */
export interface Tokens {
  input_tokens: number;
  output_tokens: number;
  cache_creation_tokens: number;
  cache_read_tokens: number;
}

/** What identifies and locates a unit; shared by turns and subagents. */
interface UnitBase extends Tokens {
  /** Input the unit was read from, and the line of its first event there. */
  file: string;
  line: number;
  thread_id: string;
  /** `run_id` of the run's `result`; null when the run has no result (killed). */
  run_id: string | null;
  /** `status` of the run's `result`; null when there is none. */
  run_status: string | null;
  /** Model of the thread (thread_* event, else session_configured), or `unknown`. */
  model: string;
  /** UTC day (YYYY-MM-DD) from a timestamp field, else the file's mtime; or `unknown`. */
  day: string;
}

/** The usage of one turn of the main agent. */
export interface TurnUnit extends UnitBase {
  kind: 'turn';
  turn_id: string;
  /** How the turn ended: completed, failed, interrupted; null when it never ended. */
  end: string | null;
  /** Where the counts come from: the last usage_updated, turn_completed, or none. */
  source: 'usage_updated' | 'turn_completed' | 'none';
}

/** The usage of one subagent (its last report). */
export interface AgentUnit extends UnitBase {
  kind: 'agent';
  agent_id: string;
  agent_type: string;
  /** `status` of its last report (running, completed, failed, ...). */
  agent_status: string;
}

export type UsageUnit = TurnUnit | AgentUnit;

/** Grouping of the report rows. */
export type UsageBy = 'turn' | 'run' | 'model' | 'file' | 'day';
export const USAGE_BY: readonly UsageBy[] = ['turn', 'run', 'model', 'file', 'day'];

/** Output format of the report. */
export type UsageFormat = 'table' | 'json' | 'csv' | 'tsv' | 'markdown';

/** USD per million tokens of each kind. */
export interface Price {
  input: number;
  output: number;
  cache_write: number;
  cache_read: number;
}

/** Prices by model name. */
export type Pricing = ReadonlyMap<string, Price>;

/** Receives warnings, without the program name (`FILE:LINE: warning: ...`). */
export type Warn = (message: string) => void;

/** The event types whose content wuu-usage reads; every other line stays unparsed. */
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

const TOKEN_FIELDS = ['input_tokens', 'output_tokens', 'cache_creation_tokens', 'cache_read_tokens'] as const;

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function tokensOf(event: Record<string, unknown>): Tokens {
  return {
    input_tokens: count(event.input_tokens),
    output_tokens: count(event.output_tokens),
    cache_creation_tokens: count(event.cache_creation_tokens),
    cache_read_tokens: count(event.cache_read_tokens),
  };
}

const ZERO: Tokens = Object.freeze({ input_tokens: 0, output_tokens: 0, cache_creation_tokens: 0, cache_read_tokens: 0 });

/** The fields that went down from `before` to `after`, as `name a -> b`. */
function decreases(before: Tokens, after: Tokens): string[] {
  return TOKEN_FIELDS.filter((f) => after[f] < before[f]).map((f) => `${f} ${before[f]} -> ${after[f]}`);
}

/** UTC day of a timestamp field (ISO string, or epoch seconds / milliseconds). */
export function dayOfTimestamp(value: unknown): string | undefined {
  let ms: number;
  if (typeof value === 'number' && Number.isFinite(value)) ms = value < 1e11 ? value * 1000 : value;
  else if (typeof value === 'string' && value !== '') ms = Date.parse(value);
  else return undefined;
  if (!Number.isFinite(ms)) return undefined;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().slice(0, 10);
}

function eventDay(event: Record<string, unknown>): string | undefined {
  return dayOfTimestamp(event.timestamp) ?? dayOfTimestamp(event.ts) ?? dayOfTimestamp(event.time);
}

/** UTC day of a file's mtime (stdin: only when it is a regular file); `unknown` otherwise. */
export function fileDay(file: string): string {
  try {
    const stat = file === '-' || file === '<stdin>' ? fs.fstatSync(0) : fs.statSync(file);
    if (!stat.isFile()) return 'unknown';
    return stat.mtime.toISOString().slice(0, 10);
  } catch {
    return 'unknown';
  }
}

interface TurnState {
  thread: string;
  turn: string;
  line: number;
  model: string;
  day: string | undefined;
  snap: Tokens | undefined;
  snapLine: number;
  completed: { input: number; output: number } | undefined;
  end: string | null;
}

interface AgentState {
  thread: string;
  agent: string;
  line: number;
  model: string;
  day: string | undefined;
  type: string;
  status: string;
  tokens: Tokens;
  lastLine: number;
}

const END_OF: Record<string, string> = { turn_completed: 'completed', turn_failed: 'failed', turn_interrupted: 'interrupted' };

function describeTurn(thread: string, turn: string): string {
  return `turn ${turn === '' ? '""' : turn} (thread ${thread === '' ? '""' : thread})`;
}

/**
 * Reads one input stream (one file, or stdin) and turns it into units. It
 * holds the open run's turns and subagents (small counters, never events):
 * a run's units get their run_id when its `result` arrives.
 */
export class UsageScanner {
  private sessionModel = '';
  private threadModels = new Map<string, string>();
  private runDay: string | undefined;
  private turns = new Map<string, TurnState>();
  private agents = new Map<string, AgentState>();
  private runSeen = false;
  private lastLine = 0;
  private readonly units: UsageUnit[] = [];
  private dayCache: string | undefined;
  private cacheWarned = false;

  constructor(
    readonly file: string,
    private readonly warn: Warn,
    private readonly dayOfFile: (file: string) => string = fileDay,
  ) {}

  private modelOf(thread: string): string {
    return this.threadModels.get(thread) || this.sessionModel || 'unknown';
  }

  private fallbackDay(): string {
    this.dayCache ??= this.dayOfFile(this.file);
    return this.dayCache;
  }

  private turnFor(event: Record<string, unknown>, line: number): TurnState {
    const thread = str(event.thread_id);
    const turn = str(event.turn_id);
    const key = `${thread}\u0000${turn}`;
    let state = this.turns.get(key);
    if (state === undefined) {
      state = { thread, turn, line, model: this.modelOf(thread), day: undefined, snap: undefined, snapLine: 0, completed: undefined, end: null };
      this.turns.set(key, state);
    }
    state.day ??= eventDay(event);
    return state;
  }

  /** Handles one event (only the types in {@link USAGE_TYPES} are read). */
  push(rec: EventRecord): void {
    const type = rec.type;
    this.runSeen = true;
    this.lastLine = rec.line;
    if (!USAGE_TYPES.has(type)) return;
    const event = rec.event as unknown as Record<string, unknown>;
    const where = `${this.file}:${rec.line}`;
    switch (type) {
      case 'session_configured': {
        // A new session in the same stream: streams were concatenated.
        if (this.turns.size > 0 || this.agents.size > 0) {
          this.warn(`${where}: warning: a new session starts before the previous run's result (killed run?); its usage is counted under run (no result)`);
          this.closeRun(null, null);
        }
        this.sessionModel = str(event.model);
        this.threadModels = new Map();
        this.runDay = eventDay(event);
        return;
      }
      case 'thread_started':
      case 'thread_resumed':
      case 'thread_forked':
        this.threadModels.set(str(event.thread_id), str(event.model) || this.sessionModel);
        this.runDay ??= eventDay(event);
        return;
      case 'turn_started':
        this.turnFor(event, rec.line);
        return;
      case 'usage_updated': {
        const state = this.turnFor(event, rec.line);
        const snap = tokensOf(event);
        if (state.snap !== undefined) {
          const down = decreases(state.snap, snap);
          if (down.length > 0) {
            this.warn(`${where}: warning: usage_updated of ${describeTurn(state.thread, state.turn)} goes down (${down.join(', ')}): a reset? the last snapshot counts`);
          }
        }
        if (state.end !== null) this.warn(`${where}: warning: usage_updated of ${describeTurn(state.thread, state.turn)} after the turn ended; the last snapshot counts`);
        state.snap = snap;
        state.snapLine = rec.line;
        return;
      }
      case 'turn_completed':
      case 'turn_failed':
      case 'turn_interrupted': {
        const state = this.turnFor(event, rec.line);
        state.end = END_OF[type]!;
        if (type === 'turn_completed') {
          const input = count(event.input_tokens);
          const output = count(event.output_tokens);
          state.completed = { input, output };
          const snap = state.snap;
          if (snap !== undefined && (snap.input_tokens !== input || snap.output_tokens !== output)) {
            this.warn(
              `${where}: warning: turn_completed of ${describeTurn(state.thread, state.turn)} says input ${input} output ${output}, ` +
                `the last usage_updated says input ${snap.input_tokens} output ${snap.output_tokens}; usage_updated counts`,
            );
          }
        }
        return;
      }
      case 'subagent_started':
      case 'subagent_updated':
      case 'subagent_completed': {
        const thread = str(event.thread_id);
        const agent = str(event.agent_id);
        // An agent without id cannot be told apart from others: its own line is its identity.
        const key = agent === '' ? `@${rec.line}` : `${thread}\u0000${agent}`;
        const tokens = tokensOf(event);
        let state = this.agents.get(key);
        if (state === undefined) {
          state = { thread, agent, line: rec.line, model: this.modelOf(thread), day: undefined, type: '', status: '', tokens, lastLine: rec.line };
          this.agents.set(key, state);
        } else {
          const down = decreases(state.tokens, tokens);
          if (down.length > 0) {
            this.warn(`${where}: warning: subagent ${agent} (thread ${thread === '' ? '""' : thread}) reports fewer tokens (${down.join(', ')}): a reset? the last report counts`);
          }
        }
        state.day ??= eventDay(event);
        state.type = str(event.agent_type) || state.type;
        state.status = str(event.status) || state.status;
        state.tokens = tokens;
        state.lastLine = rec.line;
        return;
      }
      case 'result':
        this.closeRun(str(event.run_id), str(event.status));
        return;
      default:
        return;
    }
  }

  /** Turns the open run into units; `runId` null when it has no result. */
  private closeRun(runId: string | null, status: string | null): void {
    const runDay = this.runDay;
    for (const state of this.turns.values()) {
      const where = `${this.file}:${state.snapLine || state.line}`;
      if (state.snap !== undefined && state.end === null) {
        this.warn(`${where}: warning: ${describeTurn(state.thread, state.turn)} has usage but never ended (no turn_completed, turn_failed or turn_interrupted)`);
      }
      let tokens: Tokens = ZERO;
      let source: TurnUnit['source'] = 'none';
      if (state.snap !== undefined) {
        tokens = state.snap;
        source = 'usage_updated';
      } else if (state.completed !== undefined) {
        tokens = { input_tokens: state.completed.input, output_tokens: state.completed.output, cache_creation_tokens: 0, cache_read_tokens: 0 };
        source = 'turn_completed';
      }
      this.checkCacheIncluded(where, describeTurn(state.thread, state.turn), tokens);
      this.units.push({
        kind: 'turn',
        file: this.file,
        line: state.line,
        thread_id: state.thread,
        turn_id: state.turn,
        run_id: runId,
        run_status: status,
        model: state.model,
        day: state.day ?? runDay ?? this.fallbackDay(),
        end: state.end,
        source,
        ...tokens,
      });
    }
    for (const state of this.agents.values()) {
      this.checkCacheIncluded(`${this.file}:${state.lastLine}`, `subagent ${state.agent}`, state.tokens);
      this.units.push({
        kind: 'agent',
        file: this.file,
        line: state.line,
        thread_id: state.thread,
        agent_id: state.agent,
        agent_type: state.type,
        agent_status: state.status,
        run_id: runId,
        run_status: status,
        model: state.model,
        day: state.day ?? runDay ?? this.fallbackDay(),
        ...state.tokens,
      });
    }
    this.turns = new Map();
    this.agents = new Map();
    this.runSeen = false;
    this.runDay = undefined;
  }

  private checkCacheIncluded(where: string, what: string, tokens: Tokens): void {
    const cached = tokens.cache_creation_tokens + tokens.cache_read_tokens;
    // Once per input: a producer with another convention would repeat it on every turn.
    if (tokens.input_tokens < cached && !this.cacheWarned) {
      this.cacheWarned = true;
      this.warn(
        `${where}: warning: ${what}: input_tokens ${tokens.input_tokens} is less than cache_creation_tokens + cache_read_tokens ${cached}; ` +
          'input_tokens should include cached tokens (uncached input is counted as 0; further cases in this input are not reported)',
      );
    }
  }

  /** End of the stream: a run still open had no result. Returns the units, in stream order. */
  finish(): UsageUnit[] {
    if (this.runSeen || this.turns.size > 0 || this.agents.size > 0) {
      this.warn(`${this.file}: warning: no result event after line ${this.lastLine}: the run was cut short (killed?); its usage is counted under run (no result)`);
      this.closeRun(null, null);
    }
    return this.units;
  }
}

/** The identity of a unit: a turn or subagent seen twice is counted once. */
export function unitKey(unit: UsageUnit): string {
  if (unit.kind === 'turn') {
    return unit.thread_id !== '' && unit.turn_id !== '' ? `t\u0000${unit.thread_id}\u0000${unit.turn_id}` : `t@${unit.file}\u0000${unit.line}`;
  }
  return unit.agent_id !== '' ? `a\u0000${unit.thread_id}\u0000${unit.agent_id}` : `a@${unit.file}\u0000${unit.line}`;
}

function total(t: Tokens): number {
  return t.input_tokens + t.output_tokens + t.cache_creation_tokens + t.cache_read_tokens;
}

/** Canonical JSON text of a unit (fixed field order): the last tie-break, and the --json line. */
export function unitJson(unit: UsageUnit): string {
  return unit.kind === 'turn'
    ? JSON.stringify({
        kind: 'turn',
        file: unit.file,
        line: unit.line,
        thread_id: unit.thread_id,
        turn_id: unit.turn_id,
        run_id: unit.run_id,
        run_status: unit.run_status,
        model: unit.model,
        day: unit.day,
        end: unit.end,
        source: unit.source,
        input_tokens: unit.input_tokens,
        output_tokens: unit.output_tokens,
        cache_creation_tokens: unit.cache_creation_tokens,
        cache_read_tokens: unit.cache_read_tokens,
      })
    : JSON.stringify({
        kind: 'agent',
        file: unit.file,
        line: unit.line,
        thread_id: unit.thread_id,
        agent_id: unit.agent_id,
        agent_type: unit.agent_type,
        agent_status: unit.agent_status,
        run_id: unit.run_id,
        run_status: unit.run_status,
        model: unit.model,
        day: unit.day,
        input_tokens: unit.input_tokens,
        output_tokens: unit.output_tokens,
        cache_creation_tokens: unit.cache_creation_tokens,
        cache_read_tokens: unit.cache_read_tokens,
      });
}

/**
 * Which of two records of the same turn or subagent counts, independent of
 * the order they arrive in: one that ended (or whose run has a result), then
 * the larger cumulative count, then the canonical text.
 */
function preferred(a: UsageUnit, b: UsageUnit): UsageUnit {
  const rank = (u: UsageUnit) => [
    u.kind === 'turn' ? (u.end !== null ? 1 : 0) : u.agent_status !== 'running' && u.agent_status !== '' ? 1 : 0,
    u.run_id !== null ? 1 : 0,
    total(u),
    u.input_tokens,
    u.output_tokens,
    u.cache_creation_tokens,
    u.cache_read_tokens,
  ];
  const ra = rank(a);
  const rb = rank(b);
  for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i]! > rb[i]! ? a : b;
  return unitJson(a) >= unitJson(b) ? a : b;
}

function compareUnits(a: UsageUnit, b: UsageUnit): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.line !== b.line) return a.line - b.line;
  if (a.kind !== b.kind) return a.kind === 'turn' ? -1 : 1;
  const ka = unitKey(a);
  const kb = unitKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * The units of many inputs, each turn and subagent once. Adding is
 * order-independent (see {@link preferred}); `units()` is sorted by file and
 * line, so the report does not depend on how the work was split.
 */
export class UsageLedger {
  private readonly byKey = new Map<string, UsageUnit>();

  constructor(private readonly warn: Warn = () => {}) {}

  add(units: Iterable<UsageUnit>): void {
    for (const unit of units) {
      const key = unitKey(unit);
      const seen = this.byKey.get(key);
      if (seen === undefined) {
        this.byKey.set(key, unit);
        continue;
      }
      const what = unit.kind === 'turn' ? describeTurn(unit.thread_id, unit.turn_id) : `subagent ${unit.agent_id} (thread ${unit.thread_id === '' ? '""' : unit.thread_id})`;
      this.warn(`${unit.file}:${unit.line}: warning: ${what} already seen at ${seen.file}:${seen.line}; counted once`);
      this.byKey.set(key, preferred(seen, unit));
    }
  }

  units(): UsageUnit[] {
    return [...this.byKey.values()].sort(compareUnits);
  }
}

// ---------------------------------------------------------------- pricing

const PRICE_FIELDS = ['input', 'output', 'cache_write', 'cache_read'] as const;

/**
 * Reads a pricing file: `{"MODEL": {"input": USD, "output": USD,
 * "cache_write": USD, "cache_read": USD}, ...}`, prices per million tokens.
 * Keys starting with `_` are comments. Throws an Error saying what is wrong.
 */
export function parsePricing(text: string): Map<string, Price> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`not valid JSON (${(err as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected a JSON object of models');
  const pricing = new Map<string, Price>();
  for (const [model, entry] of Object.entries(value as Record<string, unknown>)) {
    if (model.startsWith('_')) continue;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new Error(`model '${model}': expected an object of prices`);
    const price = {} as Price;
    for (const field of PRICE_FIELDS) {
      const v = (entry as Record<string, unknown>)[field];
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
        throw new Error(`model '${model}': '${field}' must be a non-negative number (USD per million tokens)`);
      }
      price[field] = v;
    }
    pricing.set(model, price);
  }
  return pricing;
}

// ----------------------------------------------------------------- report

/** Sums of one row: tokens, plus what pricing needs (per model, uncached input). */
interface Sums extends Tokens {
  turns: number;
  agents: number;
  first: UsageUnit;
  /** model -> [uncached input, output, cache write, cache read] */
  byModel: Map<string, [number, number, number, number]>;
}

function newSums(first: UsageUnit): Sums {
  return { turns: 0, agents: 0, input_tokens: 0, output_tokens: 0, cache_creation_tokens: 0, cache_read_tokens: 0, first, byModel: new Map() };
}

function addUnit(sums: Sums, unit: UsageUnit): void {
  if (unit.kind === 'turn') sums.turns++;
  else sums.agents++;
  for (const f of TOKEN_FIELDS) sums[f] += unit[f];
  let m = sums.byModel.get(unit.model);
  if (m === undefined) sums.byModel.set(unit.model, (m = [0, 0, 0, 0]));
  m[0] += Math.max(0, unit.input_tokens - unit.cache_creation_tokens - unit.cache_read_tokens);
  m[1] += unit.output_tokens;
  m[2] += unit.cache_creation_tokens;
  m[3] += unit.cache_read_tokens;
}

/** Cost in USD, or null when a model of the row has no price. */
function costOf(sums: Sums, pricing: Pricing): number | null {
  let cost = 0;
  for (const model of [...sums.byModel.keys()].sort()) {
    const price = pricing.get(model);
    if (price === undefined) return null;
    const [input, output, write, read] = sums.byModel.get(model)!;
    cost += (input * price.input + output * price.output + write * price.cache_write + read * price.cache_read) / 1e6;
  }
  return cost;
}

function ratio(sums: Tokens): number | null {
  return sums.input_tokens === 0 ? null : sums.cache_read_tokens / sums.input_tokens;
}

/** Rounds for output: 6 decimals is below a millionth of a dollar or percent point. */
function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** One report row (or a total). */
export interface UsageRow {
  kind: 'row' | 'total';
  /** Values of the grouping columns (see {@link keyColumns}). */
  keys: Array<string | null>;
  /** `main`, `subagents`, an agent_id (--by turn) or `all` (total). */
  agent: string;
  sums: Sums;
  cost?: number | null;
}

/** The grouping columns of each --by, as [JSON field, table header]. */
export function keyColumns(by: UsageBy): Array<[string, string]> {
  switch (by) {
    case 'turn':
      return [
        ['thread_id', 'THREAD'],
        ['run_id', 'RUN'],
        ['turn_id', 'TURN'],
        ['model', 'MODEL'],
      ];
    case 'run':
      return [
        ['thread_id', 'THREAD'],
        ['run_id', 'RUN'],
      ];
    case 'model':
      return [['model', 'MODEL']];
    case 'file':
      return [['file', 'FILE']];
    case 'day':
      return [['day', 'DAY']];
  }
}

function keysOf(unit: UsageUnit, by: UsageBy): Array<string | null> {
  switch (by) {
    case 'turn':
      return [unit.thread_id, unit.run_id, unit.kind === 'turn' ? unit.turn_id : null, unit.model];
    case 'run':
      return [unit.thread_id, unit.run_id];
    case 'model':
      return [unit.model];
    case 'file':
      return [unit.file];
    case 'day':
      return [unit.day];
  }
}

/** Options of the report. */
export interface ReportOptions {
  by?: UsageBy;
  pricing?: Pricing;
}

/** The report: rows in a deterministic order, then the totals (main, subagents, all). */
export interface UsageReport {
  by: UsageBy;
  rows: UsageRow[];
  totals: { main: UsageRow; subagents: UsageRow; all: UsageRow };
  /** Models that have usage but no price (with --pricing). */
  unpriced: string[];
}

/** Groups units into rows. Subagents are rows of their own, never added to main. */
export function buildReport(units: readonly UsageUnit[], options: ReportOptions = {}): UsageReport {
  const by = options.by ?? 'run';
  const groups = new Map<string, { keys: Array<string | null>; main?: Sums; subagents?: Sums; agent?: string }>();
  const order: string[] = [];
  const placeholder = units[0];
  for (const unit of units) {
    const keys = keysOf(unit, by);
    // --by turn: every turn and every subagent is a row of its own.
    const groupKey = by === 'turn' ? unitKey(unit) : JSON.stringify(keys);
    let group = groups.get(groupKey);
    if (group === undefined) {
      group = { keys };
      groups.set(groupKey, group);
      order.push(groupKey);
    }
    if (unit.kind === 'turn') addUnit((group.main ??= newSums(unit)), unit);
    else {
      addUnit((group.subagents ??= newSums(unit)), unit);
      if (by === 'turn') group.agent = unit.agent_id;
    }
  }
  // Units come sorted by file and line: turn and run rows keep that (reading)
  // order; model, file and day rows are sorted by their key.
  if (by === 'model' || by === 'file' || by === 'day') order.sort();
  const rows: UsageRow[] = [];
  for (const key of order) {
    const group = groups.get(key)!;
    if (group.main) rows.push({ kind: 'row', keys: group.keys, agent: 'main', sums: group.main });
    if (group.subagents) rows.push({ kind: 'row', keys: group.keys, agent: group.agent ?? 'subagents', sums: group.subagents });
  }
  const empty = (): Sums => newSums(placeholder as UsageUnit);
  const main = empty();
  const subagents = empty();
  const all = empty();
  for (const unit of units) {
    addUnit(unit.kind === 'turn' ? main : subagents, unit);
    addUnit(all, unit);
  }
  const blank = keyColumns(by).map(() => null);
  const totals: UsageReport['totals'] = {
    main: { kind: 'total' as const, keys: blank, agent: 'main', sums: main },
    subagents: { kind: 'total' as const, keys: blank, agent: 'subagents', sums: subagents },
    all: { kind: 'total' as const, keys: blank, agent: 'all', sums: all },
  };
  const unpriced: string[] = [];
  if (options.pricing) {
    for (const row of [...rows, totals.main, totals.subagents, totals.all]) row.cost = costOf(row.sums, options.pricing);
    for (const model of [...all.byModel.keys()].sort()) if (!options.pricing.has(model)) unpriced.push(model);
  }
  return { by, rows, totals, unpriced };
}

function tokensJson(sums: Sums, cost: number | null | undefined): Record<string, unknown> {
  const r = ratio(sums);
  const out: Record<string, unknown> = {
    turns: sums.turns,
    agents: sums.agents,
    input_tokens: sums.input_tokens,
    output_tokens: sums.output_tokens,
    cache_creation_tokens: sums.cache_creation_tokens,
    cache_read_tokens: sums.cache_read_tokens,
    cache_hit_ratio: r === null ? null : round6(r),
  };
  if (cost !== undefined) out.cost_usd = cost === null ? null : round6(cost);
  return out;
}

/**
 * The --json report: first every unit (`kind` turn or agent: the mergeable
 * facts), then one `row` line per row (not with --by turn, whose rows are the
 * units themselves, which then also carry cache_hit_ratio and cost_usd), then
 * one `total` line. `--merge` reads only the unit lines.
 */
function renderJson(units: readonly UsageUnit[], report: UsageReport, pricing: Pricing | undefined): string {
  const lines: string[] = [];
  const cols = keyColumns(report.by);
  for (const unit of units) {
    if (report.by !== 'turn') {
      lines.push(unitJson(unit));
      continue;
    }
    const sums = newSums(unit);
    addUnit(sums, unit);
    const extra = tokensJson(sums, pricing ? costOf(sums, pricing) : undefined);
    const { cache_hit_ratio, cost_usd } = extra;
    const base = JSON.parse(unitJson(unit)) as Record<string, unknown>;
    lines.push(JSON.stringify({ ...base, cache_hit_ratio, ...(pricing ? { cost_usd } : {}) }));
  }
  if (report.by !== 'turn') {
    for (const row of report.rows) {
      const record: Record<string, unknown> = { kind: 'row', by: report.by };
      cols.forEach(([field], i) => (record[field] = row.keys[i]));
      record.agent = row.agent;
      lines.push(JSON.stringify({ ...record, ...tokensJson(row.sums, row.cost) }));
    }
  }
  const t = report.totals;
  const totalLine: Record<string, unknown> = {
    kind: 'total',
    by: report.by,
    ...tokensJson(t.main.sums, t.main.cost),
    subagents: tokensJson(t.subagents.sums, t.subagents.cost),
    all: tokensJson(t.all.sums, t.all.cost),
  };
  if (pricing) totalLine.unpriced_models = report.unpriced;
  lines.push(JSON.stringify(totalLine));
  return lines.join('\n') + '\n';
}

const NUMBER_HEADERS = ['TURNS', 'AGENTS', 'INPUT', 'OUTPUT', 'CACHE_WRITE', 'CACHE_READ', 'CACHE_HIT'];
const NUMBER_FIELDS = ['turns', 'agents', 'input_tokens', 'output_tokens', 'cache_creation_tokens', 'cache_read_tokens', 'cache_hit_ratio'];

/** The cells of one row for text formats; `human` for the table and Markdown. */
function cells(row: UsageRow, by: UsageBy, priced: boolean, human: boolean): string[] {
  const out: string[] = [];
  const none = human ? '-' : '';
  if (row.kind === 'total') {
    // CSV and TSV say `total` in their kind column.
    out.push(human ? 'total' : '', ...keyColumns(by).slice(1).map(() => none));
  } else {
    keyColumns(by).forEach(([field], i) => {
      const v = row.keys[i];
      if (field === 'run_id' && v === null) out.push(human ? '(no result)' : '');
      else if (v === null || v === '') out.push(none);
      else out.push(v);
    });
  }
  out.push(row.agent);
  const s = row.sums;
  const r = ratio(s);
  out.push(
    String(s.turns),
    String(s.agents),
    String(s.input_tokens),
    String(s.output_tokens),
    String(s.cache_creation_tokens),
    String(s.cache_read_tokens),
    r === null ? none : human ? `${(r * 100).toFixed(1)}%` : String(round6(r)),
  );
  if (priced) out.push(row.cost === null || row.cost === undefined ? 'unknown' : row.cost.toFixed(6));
  return out;
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Renders a report in a text format (everything but --json). */
function renderText(report: UsageReport, format: Exclude<UsageFormat, 'json'>, priced: boolean): string {
  const by = report.by;
  const keyCols = keyColumns(by);
  const rows = [...report.rows, report.totals.main, report.totals.subagents, report.totals.all];
  if (format === 'csv' || format === 'tsv') {
    const header = ['kind', ...keyCols.map(([f]) => f), 'agent', ...NUMBER_FIELDS, ...(priced ? ['cost_usd'] : [])];
    const body = rows.map((row) => [row.kind, ...cells(row, by, priced, false)]);
    const join =
      format === 'csv'
        ? (line: string[]) => line.map(csvCell).join(',')
        : (line: string[]) => line.map((v) => v.replace(/[\t\r\n]/g, ' ')).join('\t');
    return [header, ...body].map(join).join('\n') + '\n';
  }
  const header = [...keyCols.map(([, h]) => h), 'AGENT', ...NUMBER_HEADERS, ...(priced ? ['COST_USD'] : [])];
  const body = rows.map((row) => cells(row, by, priced, true));
  const numeric = header.map((_, i) => i > keyCols.length);
  if (format === 'markdown') {
    const esc = (v: string) => v.replace(/\|/g, '\\|').replace(/[\r\n]/g, ' ');
    const line = (vs: string[]) => `| ${vs.map(esc).join(' | ')} |`;
    const rule = `|${numeric.map((n) => (n ? '---:' : '---')).join('|')}|`;
    return [line(header), rule, ...body.map(line)].join('\n') + '\n';
  }
  const clean = (v: string) => v.replace(/[\x00-\x1f\x7f]/g, '?');
  const table = [header, ...body].map((line) => line.map(clean));
  const widths = header.map((_, i) => Math.max(...table.map((line) => line[i]!.length)));
  return (
    table
      .map((line) =>
        line
          .map((v, i) => (numeric[i] ? v.padStart(widths[i]!) : i === line.length - 1 ? v : v.padEnd(widths[i]!)))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

/** Renders the units as the report in `format`. */
export function renderUsage(units: readonly UsageUnit[], options: ReportOptions & { format?: UsageFormat } = {}): string {
  const report = buildReport(units, options);
  const format = options.format ?? 'table';
  if (format === 'json') return renderJson(units, report, options.pricing);
  return renderText(report, format, options.pricing !== undefined);
}

// ------------------------------------------------------------------- core

/** Options of {@link createUsage}. */
export interface UsageOptions extends ReportOptions {
  format?: UsageFormat;
  /** Receives warnings (anomalies), formatted `FILE:LINE: warning: ...`. Default: none. */
  warn?: Warn;
  /** The day of a file without timestamps. Default: its mtime (UTC). */
  dayOfFile?: (file: string) => string;
}

/**
 * The usage core: reads only session/thread, turn_*, usage_updated,
 * subagent_* and result events; writes the report at the end. Anomalies go
 * to `options.warn`; they do not change the exit status.
 */
export function createUsage(options: UsageOptions = {}): Core {
  const warn = options.warn ?? (() => {});
  const ledger = new UsageLedger(warn);
  let scanner: UsageScanner | undefined;
  return {
    needsParse: (type) => USAGE_TYPES.has(type),
    push(rec) {
      // A file the runner gave up on (read error) gets no endFile: drop it.
      if (scanner === undefined || scanner.file !== rec.file) scanner = new UsageScanner(rec.file, warn, options.dayOfFile);
      scanner.push(rec);
    },
    endFile() {
      if (scanner !== undefined) ledger.add(scanner.finish());
      scanner = undefined;
    },
    end(emit) {
      emit(renderUsage(ledger.units(), options));
    },
    // A bad line is reported by the runner; it has nothing to pass on.
    invalid() {},
  };
}

/** Object-mode stream version of {@link createUsage}: events in, the report (text) out. */
export function usage(options: UsageOptions = {}): Transform {
  return coreStream(createUsage(options));
}

// ------------------------------------------------------ merging --json parts

/** Reads one line of a `--json` report: a unit, `null` for a derived line (row, total), or an error message. */
export function parseUnitLine(text: string): UsageUnit | null | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not a wuu-usage --json line (not valid JSON)';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a wuu-usage --json line (not an object)';
  const v = value as Record<string, unknown>;
  if (v.kind === 'row' || v.kind === 'total') return null;
  if (v.kind !== 'turn' && v.kind !== 'agent') return `not a wuu-usage --json line (kind ${JSON.stringify(v.kind ?? null)})`;
  const bad = (field: string) => `wuu-usage --json ${v.kind} line: bad or missing '${field}'`;
  const strings = ['file', 'thread_id', 'model', 'day', ...(v.kind === 'turn' ? ['turn_id', 'source'] : ['agent_id', 'agent_type', 'agent_status'])];
  for (const f of strings) if (typeof v[f] !== 'string') return bad(f);
  for (const f of ['run_id', 'run_status', ...(v.kind === 'turn' ? ['end'] : [])]) if (v[f] !== null && typeof v[f] !== 'string') return bad(f);
  if (!Number.isSafeInteger(v.line) || (v.line as number) < 0) return bad('line');
  for (const f of TOKEN_FIELDS) if (!Number.isSafeInteger(v[f]) || (v[f] as number) < 0) return bad(f);
  const base = {
    file: v.file as string,
    line: v.line as number,
    thread_id: v.thread_id as string,
    run_id: v.run_id as string | null,
    run_status: v.run_status as string | null,
    model: v.model as string,
    day: v.day as string,
    input_tokens: v.input_tokens as number,
    output_tokens: v.output_tokens as number,
    cache_creation_tokens: v.cache_creation_tokens as number,
    cache_read_tokens: v.cache_read_tokens as number,
  };
  if (v.kind === 'turn') {
    const source = v.source as string;
    if (source !== 'usage_updated' && source !== 'turn_completed' && source !== 'none') return bad('source');
    return { kind: 'turn', ...base, turn_id: v.turn_id as string, end: v.end as string | null, source };
  }
  return { kind: 'agent', ...base, agent_id: v.agent_id as string, agent_type: v.agent_type as string, agent_status: v.agent_status as string };
}

// ------------------------------------------------ one file, as a worker does it

/** How a file's lines are handled: the runner's bad-line policy. */
export interface ScanPolicy {
  maxLineBytes: number;
  strict: boolean;
  passInvalid: boolean;
}

/** What scanning one input produced. */
export interface FileScan {
  /** Messages for stderr in order (without the program name). */
  messages: string[];
  units: UsageUnit[];
  badLines: number;
  /** The input could not be read (the runner's exit status 2). */
  unreadable: boolean;
  /** A bad line under --strict stopped it: nothing after it counts. */
  stopped: boolean;
}

/**
 * Scans one input file exactly as the runner would feed it to the core
 * (same splitter, records, lazy parsing and bad-line messages), collecting
 * what would go to stderr instead of writing it. Used by the worker threads.
 */
export async function scanFile(name: string, policy: ScanPolicy, dayOfFile: (file: string) => string = fileDay): Promise<FileScan> {
  const file = name;
  const messages: string[] = [];
  const result: FileScan = { messages, units: [], badLines: 0, unreadable: false, stopped: false };
  const scanner = new UsageScanner(file, (m) => messages.push(m), dayOfFile);
  const splitter = new LineSplitter(policy.maxLineBytes);
  const onLine = (line: Line) => {
    if (result.stopped) return;
    readLine(file, line, {
      maxLineBytes: policy.maxLineBytes,
      // --strict promises every line is checked, as in the runner.
      needsParse: policy.strict ? undefined : (type) => USAGE_TYPES.has(type),
      push: (rec) => scanner.push(rec),
      bad: (reason) => {
        messages.push(`${file}:${line.line}: ${badLineMessage(line, reason)}`);
        if (policy.passInvalid && line.oversizeBytes === undefined) return;
        result.badLines++;
        if (policy.strict) result.stopped = true;
      },
    });
  };
  const source = fs.createReadStream(name, { highWaterMark: 1 << 20 });
  let input: NodeJS.ReadableStream = source;
  if (name.endsWith('.gz')) {
    const gunzip = zlib.createGunzip();
    source.on('error', (err: Error) => gunzip.destroy(err));
    input = source.pipe(gunzip);
  }
  try {
    for await (const chunk of input) {
      splitter.push(chunk as Buffer, onLine);
      if (result.stopped) break;
    }
  } catch (err) {
    messages.push(`${file}: ${describeInputError(err as NodeJS.ErrnoException)}`);
    result.unreadable = true;
    return result;
  } finally {
    source.destroy();
  }
  if (!result.stopped) splitter.end(onLine);
  if (!result.stopped) result.units = scanner.finish();
  return result;
}

/** Default number of worker threads: the usable CPUs. */
export function defaultJobs(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}

// ------------------------------------------------------- parallel and merge

/** Options of {@link usageParallel} and {@link usageMerge}. */
export interface UsageRunOptions extends ReportOptions {
  format?: UsageFormat;
  policy: ScanPolicy;
  /** Worker threads (parallel only); capped by the number of files. */
  jobs?: number;
}

type WorkerReply = { index: number; result: FileScan } | { index: number; error: string };

/** The worker module next to this one (.ts when run from source under a TypeScript loader). */
function workerUrl(): URL {
  return new URL(import.meta.url.endsWith('.ts') ? './usage-worker.ts' : './usage-worker.js', import.meta.url);
}

/**
 * Scans `files` on worker threads and writes the report: the same per-file
 * scan and the same ledger as a serial run, with each file's messages written
 * in file order, so stdout, stderr and the status match a serial run.
 * Returns the exit status (2 an input unreadable, 1 bad lines, else 0).
 */
export async function usageParallel(files: readonly string[], options: UsageRunOptions, io: Pick<ToolIO, 'write' | 'warn'>): Promise<number> {
  const ledger = new UsageLedger((m) => io.warn(m));
  const results: Array<FileScan | undefined> = new Array(files.length);
  const jobs = Math.max(1, Math.min(options.jobs ?? defaultJobs(), files.length));
  let printed = 0;
  let assigned = 0;
  let badLines = 0;
  let unreadable = 0;
  let stopped = false;
  let interrupted = false;
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const onSignal = () => {
        interrupted = true;
        resolve();
      };
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      const done = () => {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        resolve();
      };
      const drain = () => {
        while (printed < files.length && !stopped) {
          const result = results[printed];
          if (result === undefined) return;
          results[printed] = undefined;
          for (const message of result.messages) io.warn(message);
          badLines += result.badLines;
          if (result.unreadable) unreadable++;
          if (result.stopped) stopped = true;
          else ledger.add(result.units);
          printed++;
        }
        done();
      };
      const assign = (worker: Worker) => {
        if (assigned < files.length && !stopped) worker.postMessage({ index: assigned, name: files[assigned++] });
        else void worker.terminate();
      };
      for (let i = 0; i < jobs; i++) {
        const worker = new Worker(workerUrl(), { workerData: options.policy });
        workers.push(worker);
        worker.on('message', (reply: WorkerReply) => {
          if ('error' in reply) {
            reject(new Error(`worker failed on ${files[reply.index]}: ${reply.error}`));
            return;
          }
          results[reply.index] = reply.result;
          drain();
          assign(worker);
        });
        worker.on('error', reject);
        assign(worker);
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  if (interrupted) return 0; // the runner reports the signal's status
  if (stopped) return unreadable > 0 ? 2 : 1;
  await io.write(renderUsage(ledger.units(), options));
  return unreadable > 0 ? 2 : badLines > 0 ? 1 : 0;
}

/**
 * `--merge`: reads `--json` reports (parts of a map-reduce over many logs) and
 * writes the report of their union. Only the unit lines (kind turn, agent)
 * are read; row and total lines are derived and recomputed. A turn or
 * subagent present in several parts is counted once, so overlapping parts do
 * not double-count. Bad lines follow the usual policy.
 */
export async function usageMerge(names: readonly string[], options: UsageRunOptions, io: ToolIO): Promise<number> {
  const ledger = new UsageLedger((m) => io.warn(m));
  const { policy } = options;
  let badLines = 0;
  let stopped = false;
  const inputs = names.length === 0 ? ['-'] : names.flatMap(expandInput);
  for (const name of inputs) {
    const splitter = new LineSplitter(policy.maxLineBytes);
    let file = name === '-' ? '<stdin>' : name;
    const units: UsageUnit[] = [];
    const onLine = (line: Line) => {
      if (stopped) return;
      let problem: string;
      if (line.oversizeBytes !== undefined) {
        problem = `line of ${line.oversizeBytes} bytes exceeds --max-line-bytes ${policy.maxLineBytes}; dropped`;
      } else {
        const parsed = parseUnitLine(line.source.toString('utf8', line.start, line.end));
        if (typeof parsed !== 'string') {
          if (parsed !== null) units.push(parsed);
          return;
        }
        problem = `${line.terminated ? '' : 'last line cut off (no newline at end of input): '}${parsed}`;
      }
      io.warn(`${file}:${line.line}: ${problem}`);
      if (policy.passInvalid) return;
      badLines++;
      if (policy.strict) stopped = true;
    };
    const going = await io.readInputs([name], (chunk, display) => {
      file = display;
      splitter.push(chunk, onLine);
    });
    splitter.end(onLine);
    if (stopped) return 1;
    ledger.add(units);
    if (!going) return 0;
  }
  await io.write(renderUsage(ledger.units(), options));
  return badLines > 0 ? 1 : 0;
}
