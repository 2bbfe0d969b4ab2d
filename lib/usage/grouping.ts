/**
 * Grouping units into report rows: any combination of turn, run, thread,
 * model, file, day, week and month (`--by day,model`), with the main agent
 * and subagents in rows of their own, an optional row per model under each
 * row (`--breakdown`), and totals. Every row and total is a sum of units, so
 * the totals of any grouping equal the ungrouped totals.
 */
import { exactCacheHitRatio } from '../events.js';
import { DATE_SOURCES, type Calendar } from './dates.js';
import { unitKey } from './ledger.js';
import type { Pricer } from './prices.js';
import { addTokens, type Tokens, type UsageDim, type UsageUnit } from './types.js';

/** Sums of one row: exact tokens and cost. */
export interface Sums extends Tokens {
  turns: number;
  agents: number;
  /** Cost in femto-dollars of the priced units. */
  cost: bigint;
  /** Whether a unit of the row has no price (then the row's cost is unknown). */
  unpriced: boolean;
  /** Where the days of its units come from: a bit per DATE_SOURCES entry, and NO_DATE. */
  dates: number;
}

/** The bit of a unit without any time in {@link Sums.dates}. */
const NO_DATE = 1 << DATE_SOURCES.length;

/** The date sources of sums, as `session_id`, `mtime+session_id`, ... (`none` for a unit without time). */
export function dateSources(s: Sums): string {
  let text = dateSourceNames[s.dates];
  if (text === undefined) {
    const names: string[] = [];
    DATE_SOURCES.forEach((name, i) => {
      if (s.dates & (1 << i)) names.push(name);
    });
    if (s.dates & NO_DATE) names.push('none');
    text = dateSourceNames[s.dates] = names.sort().join('+');
  }
  return text;
}

/** {@link dateSources} by bit set (a few dozen at most), worked out once each: every row asks. */
const dateSourceNames: Array<string | undefined> = [];

/** Whether some day of the sums comes from a guess (a file's mtime, now, or nothing) rather than the run itself. */
export function guessedDate(s: Sums): boolean {
  return (s.dates & ~((1 << DATE_SOURCES.indexOf('timestamp')) | (1 << DATE_SOURCES.indexOf('session_id')))) !== 0;
}

/** One report row. */
export interface UsageRow {
  /** `row`; `model` for a --breakdown row under it; `total`. */
  kind: 'row' | 'model' | 'total';
  /**
   * Values of the grouping columns (see {@link keyColumns}); null where none
   * applies. The `file` column of a per-run or per-turn row is the files its
   * units were read from (`, `-joined), not part of its identity.
   */
  keys: Array<string | null>;
  /** `main`, `subagents`, an agent_id (--by turn) or `all` (total). */
  agent: string;
  /** The model of a breakdown row. */
  model?: string;
  sums: Sums;
}

/** Options of the report. */
export interface ReportOptions {
  /** Grouping dimensions, in column order (default: run). */
  by?: readonly UsageDim[];
  /** A row per model under each row. */
  breakdown?: boolean;
  /** Prices; without it there is no cost. */
  pricer?: Pricer;
  /** Days, weeks and months in a time zone. */
  calendar?: Calendar;
  /** Only units whose day (in the calendar's zone) is within [since, until] (YYYY-MM-DD). */
  since?: string;
  until?: string;
}

/** The report: rows in a deterministic order, then the totals. */
export interface UsageReport {
  by: readonly UsageDim[];
  rows: UsageRow[];
  totals: { main: UsageRow; subagents: UsageRow; all: UsageRow };
  /** Whether costs were computed. */
  priced: boolean;
  /** Models (`provider/model`) with usage and no price, sorted. */
  unpriced: string[];
  /** The units the report covers (after --since/--until). */
  units: UsageUnit[];
  /** The cost of each unit (same order), when priced. */
  costs: Array<bigint | null>;
}

/** The grouping columns of each dimension, as [JSON field, table header]. */
export function dimColumns(dim: UsageDim): Array<[string, string]> {
  switch (dim) {
    case 'turn':
      return [
        ['thread_id', 'THREAD'],
        ['run_id', 'RUN'],
        ['turn_id', 'TURN'],
        ['model', 'MODEL'],
        ['file', 'FILE'],
      ];
    case 'run':
      return [
        ['thread_id', 'THREAD'],
        ['run_id', 'RUN'],
        ['file', 'FILE'],
      ];
    case 'thread':
      return [['thread_id', 'THREAD']];
    case 'model':
      return [['model', 'MODEL']];
    case 'file':
      return [['file', 'FILE']];
    case 'day':
      return [['day', 'DAY']];
    case 'week':
      return [['week', 'WEEK']];
    case 'month':
      return [['month', 'MONTH']];
  }
}

/** The grouping columns of a list of dimensions (a column shared by two is shown once). */
export function keyColumns(by: readonly UsageDim[]): Array<[string, string]> {
  const seen = new Set<string>();
  const out: Array<[string, string]> = [];
  for (const dim of by) {
    for (const col of dimColumns(dim)) {
      if (seen.has(col[0])) continue;
      seen.add(col[0]);
      out.push(col);
    }
  }
  return out;
}

/** The value of one column for a unit. */
function columnValue(unit: UsageUnit, field: string, calendar: Calendar | undefined): string | null {
  switch (field) {
    case 'thread_id':
      return unit.thread_id;
    case 'run_id':
      return unit.run_id;
    case 'turn_id':
      return unit.kind === 'turn' ? unit.turn_id : null;
    case 'model':
      return unit.model;
    case 'file':
      return unit.file;
    case 'day':
      return calendar?.day(unit.time) ?? (unit.time ?? 'unknown').slice(0, 10);
    case 'week':
      return calendar?.week(unit.time) ?? 'unknown';
    case 'month':
      return calendar?.month(unit.time) ?? (unit.time ?? 'unknown').slice(0, 7);
    default:
      return null;
  }
}

/** Which run a unit belongs to, for counting runs (a run without ids is its file and line). */
export function runIdentity(u: UsageUnit): string {
  return u.thread_id !== '' || u.run_id ? `${u.thread_id}\u0000${u.run_id}` : `${u.file}\u0000${u.line}`;
}

/** Empty sums. */
export function newSums(): Sums {
  return { turns: 0, agents: 0, input_tokens: 0n, cache_creation_tokens: 0n, cache_read_tokens: 0n, output_tokens: 0n, cost: 0n, unpriced: false, dates: 0 };
}

/** Adds a unit (and its cost: null when it has no price) to sums. */
export function addUnit(sums: Sums, unit: UsageUnit, cost: bigint | null): void {
  if (unit.kind === 'turn') sums.turns++;
  else if (unit.kind === 'agent') sums.agents++;
  sums.dates |= unit.date_source === null ? NO_DATE : 1 << DATE_SOURCES.indexOf(unit.date_source);
  addTokens(sums, unit);
  if (cost === null) sums.unpriced = true;
  else sums.cost += cost;
}

/** Files named in the FILE column of one run's row, at most. */
const MAX_FILES = 4;

const SORTED_DIMS: ReadonlySet<UsageDim> = new Set(['model', 'file', 'day', 'week', 'month']);

interface Group {
  keys: Array<string | null>;
  sortKey: string;
  /** Index of the file column when it is an attribute (per-run rows), and the files seen. */
  files?: string[];
  main?: Sums;
  subagents?: Sums;
  agent?: string;
  models: Map<string, { main?: Sums; subagents?: Sums }>;
}

/**
 * The rows' groups of units, in row order, with their sums. Units come
 * sorted by file and line, so a unit mostly joins the row of the one before
 * it (the turns of a run): that row is taken by comparing the key fields,
 * without building and hashing the key.
 */
function groupUnits(units: readonly UsageUnit[], costs: ReadonlyArray<bigint | null>, by: readonly UsageDim[], cols: Array<[string, string]>, options: ReportOptions): Group[] {
  const calendar = options.calendar;
  const pricer = options.pricer;
  const perUnit = by.includes('turn');
  // The file of a run is where it was read, not what it is: a run split over two files is one row.
  const fileAt = by.includes('file') ? -1 : cols.findIndex(([field]) => field === 'file');
  const groups = new Map<string, Group>();
  const order: Group[] = [];
  let last: UsageUnit | undefined;
  let lastGroup: Group | undefined;
  for (let i = 0; i < units.length; i++) {
    const unit = units[i]!;
    const cost = pricer ? (costs[i] ?? null) : 0n;
    // --by turn: every turn and every subagent is a row of its own.
    // A run without ids (a setup failure) cannot be told from another: a row of its own.
    const own = perUnit || (fileAt >= 0 && unit.thread_id === '' && !unit.run_id);
    let group: Group | undefined;
    if (!own && last !== undefined && lastGroup !== undefined && sameKeys(last, unit, cols, fileAt)) group = lastGroup;
    else {
      const keys = cols.map(([field], k) => (k === fileAt ? null : columnValue(unit, field, calendar)));
      const sortKey = JSON.stringify(keys);
      const groupKey = own ? unitKey(unit) : sortKey;
      group = groups.get(groupKey);
      if (group === undefined) {
        group = { keys, sortKey, models: new Map(), files: fileAt >= 0 ? [] : undefined };
        groups.set(groupKey, group);
        order.push(group);
      }
    }
    last = own ? undefined : unit;
    lastGroup = group;
    if (group.files !== undefined && group.files.length <= MAX_FILES && !group.files.includes(unit.file)) {
      // Units come sorted by file: a run read from many files lists the first few.
      group.files.push(unit.file);
      group.keys[fileAt] = group.files.length > MAX_FILES ? `${group.files.slice(0, MAX_FILES).join(', ')}, ...` : group.files.join(', ');
    }
    const side = unit.kind === 'agent' ? 'subagents' : 'main';
    addUnit((group[side] ??= newSums()), unit, cost);
    if (unit.kind === 'agent' && perUnit) group.agent = unit.agent_id;
    if (options.breakdown) {
      let m = group.models.get(unit.model);
      if (m === undefined) group.models.set(unit.model, (m = {}));
      addUnit((m[side] ??= newSums()), unit, cost);
    }
  }
  // Units come sorted by file and line: turn, run and thread rows keep that
  // (reading) order; model, file and calendar rows are sorted by their keys.
  if (by.every((d) => SORTED_DIMS.has(d))) order.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
  return order;
}

/** Adds sums `b` into `a` (a row's sums into a total). */
function addSums(a: Sums, b: Sums): void {
  a.turns += b.turns;
  a.agents += b.agents;
  a.dates |= b.dates;
  addTokens(a, b);
  a.cost += b.cost;
  if (b.unpriced) a.unpriced = true;
}

/**
 * Whether two units have the same values in the grouping columns, by the
 * fields those values are made of (a day, week or month by the time it is
 * read from: the same time is the same day). False may still be the same
 * row: the caller then compares the values themselves.
 */
function sameKeys(a: UsageUnit, b: UsageUnit, cols: ReadonlyArray<[string, string]>, fileAt: number): boolean {
  for (let k = 0; k < cols.length; k++) {
    if (k === fileAt) continue;
    switch (cols[k]![0]) {
      case 'thread_id':
        if (a.thread_id !== b.thread_id) return false;
        break;
      case 'run_id':
        if (a.run_id !== b.run_id) return false;
        break;
      case 'model':
        if (a.model !== b.model) return false;
        break;
      case 'file':
        if (a.file !== b.file) return false;
        break;
      case 'day':
      case 'week':
      case 'month':
        if (a.time !== b.time) return false;
        break;
      default:
        return false; // turn_id: --by turn never takes this path
    }
  }
  return true;
}

/** Groups units into rows. Subagents are rows of their own, never added to main. */
export function buildReport(allUnits: readonly UsageUnit[], options: ReportOptions = {}): UsageReport {
  const by = options.by && options.by.length > 0 ? options.by : (['run'] as const);
  const calendar = options.calendar;
  const cols = keyColumns(by);
  const units: UsageUnit[] = [];
  for (const unit of allUnits) {
    if (options.since !== undefined || options.until !== undefined) {
      const day = columnValue(unit, 'day', calendar) ?? 'unknown';
      if (day === 'unknown' || (options.since !== undefined && day < options.since) || (options.until !== undefined && day > options.until)) continue;
    }
    units.push(unit);
  }
  const pricer = options.pricer;
  // A run without usage costs nothing, whatever its model (a setup failure names none).
  const costs = units.map((u) => (pricer ? (u.kind === 'run' ? 0n : pricer.cost(u)) : null));
  const order = groupUnits(units, costs, by, cols, options);
  // Every unit is in exactly one row: the totals are the rows' sums (exact
  // integers, so the order of the additions does not matter).
  const main = newSums();
  const subagents = newSums();
  const all = newSums();
  for (const group of order) {
    if (group.main !== undefined) addSums(main, group.main);
    if (group.subagents !== undefined) addSums(subagents, group.subagents);
  }
  addSums(all, main);
  addSums(all, subagents);
  const rows: UsageRow[] = [];
  for (const group of order) {
    for (const side of ['main', 'subagents'] as const) {
      const sums = group[side];
      if (sums === undefined) continue;
      const agent = side === 'main' ? 'main' : (group.agent ?? 'subagents');
      rows.push({ kind: 'row', keys: group.keys, agent, sums });
      if (!options.breakdown) continue;
      for (const [model, parts] of Array.from(group.models).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const part = parts[side];
        if (part !== undefined) rows.push({ kind: 'model', keys: group.keys, agent, model, sums: part });
      }
    }
  }
  const blank = cols.map(() => null);
  const unpriced = pricer ? Array.from(pricer.unknown).sort() : [];
  return {
    by,
    rows,
    totals: {
      main: { kind: 'total', keys: blank, agent: 'main', sums: main },
      subagents: { kind: 'total', keys: blank, agent: 'subagents', sums: subagents },
      all: { kind: 'total', keys: blank, agent: 'all', sums: all },
    },
    priced: pricer !== undefined,
    unpriced,
    units,
    costs,
  };
}

/** Cache hit ratio of sums: cache read / prompt, truncated to 1e-9; null with no prompt. */
export function cacheHit(s: Tokens): number | null {
  return exactCacheHitRatio(s);
}
