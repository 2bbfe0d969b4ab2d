/**
 * The units of many inputs, each turn and subagent counted once however often
 * it is seen (the same file given twice, overlapping `--merge` parts), and
 * the canonical `--json` line of a unit (exact digits, fixed field order).
 */
import { describeTurn } from './scanner.js';
import { promptOf, type UsageUnit, type Warn } from './types.js';

/** The identity of a unit: a turn or subagent seen twice is counted once. */
export function unitKey(unit: UsageUnit): string {
  if (unit.kind === 'turn') {
    return unit.thread_id !== '' && unit.turn_id !== '' ? `t\u0000${unit.thread_id}\u0000${unit.turn_id}` : `t@${unit.file}\u0000${unit.line}`;
  }
  return unit.agent_id !== '' ? `a\u0000${unit.agent_id}` : `a@${unit.file}\u0000${unit.line}`;
}

const j = (v: string | null) => JSON.stringify(v);

/** Canonical JSON text of a unit (fixed field order, token counts as exact digits): the --json line. */
export function unitJson(u: UsageUnit, extra = ''): string {
  const head =
    u.kind === 'turn'
      ? `{"kind":"turn","file":${j(u.file)},"line":${u.line},"thread_id":${j(u.thread_id)},"turn_id":${j(u.turn_id)}`
      : `{"kind":"agent","file":${j(u.file)},"line":${u.line},"thread_id":${j(u.thread_id)},"agent_id":${j(u.agent_id)},"agent_type":${j(u.agent_type)},"agent_status":${j(u.agent_status)}`;
  const tail = u.kind === 'turn' ? `,"end":${j(u.end)},"source":${j(u.source)}` : `,"source":${j(u.source)}`;
  return (
    `${head},"run_id":${j(u.run_id)},"run_status":${j(u.run_status)},"provider":${j(u.provider)},"model":${j(u.model)},"time":${j(u.time)}${tail}` +
    `,"input_tokens":${u.input_tokens},"cache_creation_tokens":${u.cache_creation_tokens},"cache_read_tokens":${u.cache_read_tokens},"output_tokens":${u.output_tokens}${extra}}`
  );
}

/**
 * Which of two records of the same turn or subagent counts, independent of
 * the order they arrive in: one that ended (or whose run has a result), then
 * the larger cumulative count, then the canonical text.
 */
function preferred(a: UsageUnit, b: UsageUnit): UsageUnit {
  const rank = (u: UsageUnit): bigint[] => [
    u.kind === 'turn' ? (u.end !== null ? 1n : 0n) : u.agent_status !== 'running' && u.agent_status !== '' ? 1n : 0n,
    u.run_id !== null ? 1n : 0n,
    promptOf(u) + u.output_tokens,
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
      const what = unit.kind === 'turn' ? describeTurn(unit.thread_id, unit.turn_id) : `subagent ${unit.agent_id}`;
      this.warn(`${unit.file}:${unit.line}: warning: ${what} already seen at ${seen.file}:${seen.line}; counted once`);
      this.byKey.set(key, preferred(seen, unit));
    }
  }

  /** The units, sorted by file and line. */
  units(): UsageUnit[] {
    return [...this.byKey.values()].sort(compareUnits);
  }
}
