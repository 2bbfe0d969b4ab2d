/**
 * The units of many inputs, each turn and subagent counted once however often
 * it is seen (the same file given twice, overlapping `--merge` parts, a run
 * plus a copy of its tail, a log rotated mid-run), and the canonical
 * `--json` line of a unit (exact digits, fixed field order).
 */
import { DATE_SOURCES } from './dates.js';
import { describeTurn } from './scanner.js';
import { promptOf, type UsageUnit, type Warn } from './types.js';

/** The identity of a unit: a turn or subagent seen twice is counted once. */
export function unitKey(unit: UsageUnit): string {
  if (unit.kind === 'turn') {
    return unit.thread_id !== '' && unit.turn_id !== '' ? `t\u0000${unit.thread_id}\u0000${unit.turn_id}` : `t@${unit.file}\u0000${unit.line}`;
  }
  if (unit.kind === 'run') return runKey(unit) ?? `r@${unit.file}\u0000${unit.line}`;
  return unit.agent_id !== '' ? `a\u0000${unit.agent_id}` : `a@${unit.file}\u0000${unit.line}`;
}

/** The identity of the run a unit belongs to, when its ids name one. */
function runKey(unit: UsageUnit): string | undefined {
  return unit.thread_id !== '' && unit.run_id !== null && unit.run_id !== '' ? `r\u0000${unit.thread_id}\u0000${unit.run_id}` : undefined;
}

/** JSON texts of the fields with few values (files, providers, models, statuses, sources), kept while few. */
const quotedCache = new Map<string, string>();
const MAX_QUOTED = 1024;

/** A string (or null) of few values as JSON text, each worked out once: the report writes them thousands of times. */
export function quoteFew(v: string | null): string {
  if (v === null) return 'null';
  let text = quotedCache.get(v);
  if (text === undefined) {
    text = JSON.stringify(v);
    if (quotedCache.size >= MAX_QUOTED) quotedCache.clear();
    quotedCache.set(v, text);
  }
  return text;
}

/** A string (or null) of many values (ids, times) as JSON text: a cache would only churn. */
function j(v: string | null): string {
  return v === null ? 'null' : JSON.stringify(v);
}

/**
 * The JSON text of the last value given, kept: units come in file and line
 * order, so the thread and run ids (and the time) of one unit are mostly
 * those of the one before (a cache of all ids would only churn).
 */
class LastQuoted {
  private value: string | null = null;
  private text = 'null';

  of(v: string | null): string {
    if (v !== this.value) {
      this.value = v;
      this.text = j(v);
    }
    return this.text;
  }
}

const threadIds = new LastQuoted();

/**
 * The members a unit shares with the other units of its run (run id and
 * status, provider, model, time and its source) as JSON text, kept for the
 * last values given: units come in file and line order, so a run's units
 * ask for the same text one after the other, and it is built once per run.
 */
class RunMembers {
  private runId: string | null = null;
  private runStatus: string | null = null;
  private provider = '';
  private model = '';
  private time: string | null = null;
  private dateSource: string | null = null;
  private text: string | undefined;

  of(u: UsageUnit): string {
    if (
      this.text === undefined ||
      u.run_id !== this.runId ||
      u.run_status !== this.runStatus ||
      u.provider !== this.provider ||
      u.model !== this.model ||
      u.time !== this.time ||
      u.date_source !== this.dateSource
    ) {
      this.runId = u.run_id;
      this.runStatus = u.run_status;
      this.provider = u.provider;
      this.model = u.model;
      this.time = u.time;
      this.dateSource = u.date_source;
      this.text = `,"run_id":${j(u.run_id)},"run_status":${quoteFew(u.run_status)},"provider":${quoteFew(u.provider)},"model":${quoteFew(u.model)},"time":${j(u.time)},"date_source":${quoteFew(u.date_source)}`;
    }
    return this.text;
  }
}

const runMembers = new RunMembers();

/** Canonical JSON text of a unit (fixed field order, token counts as exact digits): the --json line. */
export function unitJson(u: UsageUnit, extra = ''): string {
  let head: string;
  let tail: string;
  if (u.kind === 'turn') {
    head = `{"kind":"turn","file":${quoteFew(u.file)},"line":${u.line},"thread_id":${threadIds.of(u.thread_id)},"turn_id":${j(u.turn_id)}`;
    tail = `,"end":${quoteFew(u.end)},"source":${quoteFew(u.source)}`;
  } else if (u.kind === 'agent') {
    head = `{"kind":"agent","file":${quoteFew(u.file)},"line":${u.line},"thread_id":${threadIds.of(u.thread_id)},"agent_id":${j(u.agent_id)},"agent_type":${quoteFew(u.agent_type)},"agent_status":${quoteFew(u.agent_status)}`;
    tail = `,"source":${quoteFew(u.source)}`;
  } else {
    head = `{"kind":"run","file":${quoteFew(u.file)},"line":${u.line},"thread_id":${threadIds.of(u.thread_id)}`;
    tail = '';
  }
  return (
    `${head}${runMembers.of(u)}${tail}` +
    `,"input_tokens":${u.input_tokens},"cache_creation_tokens":${u.cache_creation_tokens},"cache_read_tokens":${u.cache_read_tokens},"output_tokens":${u.output_tokens}${extra}}`
  );
}

/** Compares rank vectors; positive when `a` ranks higher. */
function compareRanks(a: bigint[], b: bigint[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]! ? 1 : -1;
  return 0;
}

/** Higher is better: which record's counts are the most complete (cumulative counts only grow). */
function countRank(u: UsageUnit): bigint[] {
  const source = u.kind === 'turn' ? { usage_updated: 2n, turn_completed: 1n, none: 0n }[u.source] : u.kind === 'agent' ? (u.source === 'report' ? 1n : 0n) : 0n;
  const settled = u.kind === 'turn' ? (u.end !== null ? 1n : 0n) : u.kind === 'agent' && u.agent_status !== 'running' && u.agent_status !== '' ? 1n : 0n;
  return [source, promptOf(u) + u.output_tokens, settled, u.input_tokens, u.output_tokens, u.cache_creation_tokens, u.cache_read_tokens];
}

/** A total order on records, for ties (independent of arrival order). */
function canonical(a: UsageUnit, b: UsageUnit): UsageUnit {
  return unitJson(a) >= unitJson(b) ? a : b;
}

/** Trust of a time source: a timestamp, then the session id, then a file's mtime, then now. */
function dateRank(u: UsageUnit): number {
  return u.date_source === null ? -1 : DATE_SOURCES.length - DATE_SOURCES.indexOf(u.date_source);
}

/**
 * One record of a turn or subagent seen twice, whatever the order they
 * arrive in: each fact from the record that knows it best. Counts (with
 * their source, file and line) from the most complete record: the last
 * snapshot beats a turn_completed without cache counts, so a log rotated
 * between a turn's last `usage_updated` and its `turn_completed` keeps its
 * cache tokens. How it ended and its run's result from a record that has
 * them; the model from one that names it (a tail copy has no
 * session_configured); the time from the most trusted source.
 */
function combine(a: UsageUnit, b: UsageUnit): UsageUnit {
  const byCounts = compareRanks(countRank(a), countRank(b));
  const base = byCounts > 0 ? a : byCounts < 0 ? b : canonical(a, b);
  const other = base === a ? b : a;
  const out = { ...base } as UsageUnit;
  if (out.kind === 'turn' && other.kind === 'turn' && out.end === null) out.end = other.end;
  if (out.kind === 'agent' && other.kind === 'agent') {
    if (out.agent_type === '') out.agent_type = other.agent_type;
    if (out.agent_status === '' || (out.agent_status === 'running' && other.agent_status !== '')) out.agent_status = other.agent_status;
  }
  if (out.run_id === null && other.run_id !== null) {
    out.run_id = other.run_id;
    out.run_status = other.run_status;
  }
  if (out.model === 'unknown' && other.model !== 'unknown') {
    out.model = other.model;
    out.provider = other.provider;
  }
  const dates = dateRank(other) - dateRank(out);
  if (dates > 0 || (dates === 0 && other.time !== null && (out.time === null || other.time < out.time))) {
    out.time = other.time;
    out.date_source = other.date_source;
  }
  return out;
}

function compareUnits(a: UsageUnit, b: UsageUnit): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.line !== b.line) return a.line - b.line;
  if (a.kind !== b.kind) return a.kind < b.kind ? 1 : -1; // turn, run, agent
  const ka = unitKey(a);
  const kb = unitKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * The units of many inputs, each turn and subagent once. Adding is
 * order-independent (see {@link combine}); `units()` is sorted by file and
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
      if (unit.kind !== 'run') {
        const what = unit.kind === 'turn' ? describeTurn(unit.thread_id, unit.turn_id) : `subagent ${unit.agent_id}`;
        this.warn(`${unit.file}:${unit.line}: warning: ${what} already seen at ${seen.file}:${seen.line}; counted once`);
      }
      this.byKey.set(key, combine(seen, unit));
    }
  }

  /**
   * The units, sorted by file and line. A zero-usage run record is left out
   * when a turn or subagent of the same run was seen elsewhere (the tail of
   * a run holds only its result).
   */
  units(): UsageUnit[] {
    const all = [...this.byKey.values()];
    // Most reports hold no zero-usage run record: then there is nothing to leave out, and no run identities to build.
    if (!all.some((u) => u.kind === 'run')) return all.sort(compareUnits);
    const runs = new Set<string>();
    for (const unit of all) {
      const key = unit.kind === 'run' ? undefined : runKey(unit);
      if (key !== undefined) runs.add(key);
    }
    return all.filter((u) => u.kind !== 'run' || !runs.has(runKey(u) ?? '')).sort(compareUnits);
  }
}
