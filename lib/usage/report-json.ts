/**
 * The `--json` report, one JSON object per line: first every unit (`kind`
 * turn or agent: the mergeable facts), then one line per row (`kind` row, or
 * `model` under it with --breakdown), then one `total` line. Token counts and
 * dollars are written as exact digits (a JSON number of any size); parsers
 * that read numbers as doubles lose digits beyond 2^53, `--merge` does not.
 */
import { exactHitOf } from '../events.js';
import { dateSources, keyColumns, type Sums, type UsageReport, type UsageRow } from './grouping.js';
import { quoteFew, unitJson } from './ledger.js';
import { usdDecimal } from './prices.js';
import { promptOf, type Tokens, type UsageUnit } from './types.js';

/** `"prompt_tokens":N,"cache_hit_ratio":R` of tokens (the prompt summed once: BigInt sums allocate). */
function derived(t: Tokens): string {
  const prompt = promptOf(t);
  const hit = exactHitOf(t.cache_read_tokens, prompt);
  return `"prompt_tokens":${prompt},"cache_hit_ratio":${hit === null ? 'null' : hit}`;
}

/** The `"cost_usd"` member of a cost (null when unknown). */
function costJson(cost: bigint | null): string {
  return `,"cost_usd":${cost === null ? 'null' : usdDecimal(cost)}`;
}

/** The sums of a row as JSON members (no braces). */
export function sumsMembers(s: Sums, priced: boolean): string {
  return (
    `"turns":${s.turns},"agents":${s.agents},"input_tokens":${s.input_tokens},"cache_creation_tokens":${s.cache_creation_tokens},` +
    `"cache_read_tokens":${s.cache_read_tokens},"output_tokens":${s.output_tokens},${derived(s)}` +
    (priced ? costJson(s.unpriced ? null : s.cost) : '') +
    `,"date_source":${JSON.stringify(dateSources(s))}`
  );
}

/**
 * Lines joined a few hundred at a time: each line is built as a rope of many
 * small pieces, and thousands of them held until one final join would all
 * survive young-generation collections (copied, then promoted); a joined
 * batch is one flat string and the pieces die young.
 */
class Lines {
  private readonly batches: string[] = [];
  private batch: string[] = [];

  push(line: string): void {
    this.batch.push(line);
    if (this.batch.length === 256) {
      this.batches.push(this.batch.join('\n'));
      this.batch = [];
    }
  }

  /** The text: every line, each ended by a newline (one join makes one flat string, not a 4 MB one plus a newline to flatten again). */
  text(): string {
    if (this.batch.length > 0) this.batches.push(this.batch.join('\n'));
    this.batches.push('');
    return this.batches.join('\n');
  }
}

/** The largest count a double holds exactly. */
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** The largest prompt whose hit ratio is worked out in doubles (lib/events.ts exactHitOf). */
const MAX_HIT_PROMPT = Math.floor(Number.MAX_SAFE_INTEGER / 1e9);

/**
 * A unit's line without its cost: {@link unitJson} with the derived members,
 * written by one JSON.stringify of an object in the same member order
 * (native code, where the template of thirty pieces was JIT-compiled and
 * run piece by piece). Only for counts a double holds exactly (and a prompt
 * whose hit ratio exactHitOf works out in doubles): undefined otherwise, and
 * the caller takes unitJson. Strings are quoted by JSON.stringify either way.
 */
export function plainUnitLine(u: UsageUnit): string | undefined {
  const input = Number(u.input_tokens);
  const write = Number(u.cache_creation_tokens);
  const read = Number(u.cache_read_tokens);
  const output = Number(u.output_tokens);
  const prompt = input + write + read;
  if (!(input >= 0 && write >= 0 && read >= 0 && output >= 0 && output <= MAX_SAFE && prompt <= MAX_HIT_PROMPT)) return undefined;
  const hit = prompt === 0 ? null : Math.floor((read * 1e9) / prompt) / 1e9;
  if (u.kind !== 'turn' && u.kind !== 'agent') return undefined;
  // One literal for both kinds: a member that is undefined is left out, so
  // each kind's line keeps its own members in the template's order.
  const turn = u.kind === 'turn' ? u : undefined;
  const agent = u.kind === 'agent' ? u : undefined;
  return JSON.stringify({
    kind: u.kind,
    file: u.file,
    line: u.line,
    thread_id: u.thread_id,
    turn_id: turn?.turn_id,
    agent_id: agent?.agent_id,
    agent_type: agent?.agent_type,
    agent_status: agent?.agent_status,
    run_id: u.run_id,
    run_status: u.run_status,
    provider: u.provider,
    model: u.model,
    time: u.time,
    date_source: u.date_source,
    end: turn?.end,
    source: u.source,
    input_tokens: input,
    cache_creation_tokens: write,
    cache_read_tokens: read,
    output_tokens: output,
    prompt_tokens: prompt,
    cache_hit_ratio: hit,
  });
}

/** A unit's line: {@link plainUnitLine} when it can, else the template; with its cost when priced. */
function unitLine(u: UsageUnit, priced: boolean, cost: bigint | null): string {
  const plain = plainUnitLine(u);
  if (plain === undefined) return unitJson(u, `,${derived(u)}${priced ? costJson(cost) : ''}`);
  return priced ? `${plain.slice(0, -1)}${costJson(cost)}}` : plain;
}

/** What every row line of one report starts its keys with: `by` as JSON, and `,"FIELD":` of each key column. */
export interface RowFrame {
  by: string;
  names: string[];
}

/** The {@link RowFrame} of a report grouped `by` (comma-joined) with these key columns: worked out once, not per row. */
export function rowFrame(by: string, fields: readonly string[]): RowFrame {
  return { by: JSON.stringify(by), names: fields.map((field) => `,${JSON.stringify(field)}:`) };
}

/**
 * A row's line as the template below writes it, by one JSON.stringify of an
 * object in the same member order (see {@link plainUnitLine}), the cost and
 * date source appended; undefined when a count is beyond what a double holds
 * exactly (the template then writes it).
 */
export function plainRowLine(row: UsageRow, frame: RowFrame, priced: boolean): string | undefined {
  const s = row.sums;
  const input = Number(s.input_tokens);
  const write = Number(s.cache_creation_tokens);
  const read = Number(s.cache_read_tokens);
  const output = Number(s.output_tokens);
  const prompt = input + write + read;
  if (!(input >= 0 && write >= 0 && read >= 0 && output >= 0 && output <= MAX_SAFE && prompt <= MAX_HIT_PROMPT)) return undefined;
  // The sums as an object of one shape (the keys before them vary with --by: a template).
  const sums = JSON.stringify({
    turns: s.turns,
    agents: s.agents,
    input_tokens: input,
    cache_creation_tokens: write,
    cache_read_tokens: read,
    output_tokens: output,
    prompt_tokens: prompt,
    cache_hit_ratio: prompt === 0 ? null : Math.floor((read * 1e9) / prompt) / 1e9,
  });
  let keys = '';
  for (let i = 0; i < frame.names.length; i++) keys += frame.names[i]! + JSON.stringify(row.keys[i] ?? null);
  const model = row.kind === 'model' ? `,"breakdown_model":${quoteFew(row.model ?? '')}` : '';
  const cost = priced ? costJson(s.unpriced ? null : s.cost) : '';
  return `{"kind":"${row.kind}","by":${frame.by}${keys},"agent":${quoteFew(row.agent)}${model},${sums.slice(1, -1)}${cost},"date_source":${quoteFew(dateSources(s))}}`;
}

/**
 * A row's line by the template, for any counts.
 */
export function templateRowLine(row: UsageRow, frame: RowFrame, priced: boolean): string {
  let keys = '';
  // Keys are mostly ids (one per row): quoted afresh, not through the cache of few values.
  for (let i = 0; i < frame.names.length; i++) keys += frame.names[i]! + JSON.stringify(row.keys[i] ?? null);
  const model = row.kind === 'model' ? `,"breakdown_model":${quoteFew(row.model ?? '')}` : '';
  return `{"kind":"${row.kind}","by":${frame.by}${keys},"agent":${quoteFew(row.agent)}${model},${sumsMembers(row.sums, priced)}}`;
}

/** Renders the report as JSON lines. */
export function renderJson(report: UsageReport): string {
  const lines = new Lines();
  const priced = report.priced;
  const units = report.units;
  for (let i = 0; i < units.length; i++) lines.push(unitLine(units[i]!, priced, report.costs[i] ?? null));
  const by = report.by.join(',');
  const frame = rowFrame(by, keyColumns(report.by).map(([field]) => field));
  for (const row of report.rows) lines.push(plainRowLine(row, frame, priced) ?? templateRowLine(row, frame, priced));
  const t = report.totals;
  const byJson = JSON.stringify(by);
  lines.push(
    `{"kind":"total","by":${byJson},${sumsMembers(t.main.sums, priced)},"subagents":{${sumsMembers(t.subagents.sums, priced)}},` +
      `"all":{${sumsMembers(t.all.sums, priced)}}${priced ? `,"unpriced_models":${JSON.stringify(report.unpriced)}` : ''}}`,
  );
  return lines.text();
}
