/**
 * The `--json` report, one JSON object per line: first every unit (`kind`
 * turn or agent: the mergeable facts), then one line per row (`kind` row, or
 * `model` under it with --breakdown), then one `total` line. Token counts and
 * dollars are written as exact digits (a JSON number of any size); parsers
 * that read numbers as doubles lose digits beyond 2^53, `--merge` does not.
 */
import { exactHitOf } from '../events.js';
import { dateSources, keyColumns, type Sums, type UsageReport } from './grouping.js';
import { quoteFew, unitJson } from './ledger.js';
import { usdDecimal } from './prices.js';
import { promptOf, type Tokens } from './types.js';

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

  /** The text: every line, each ended by a newline. */
  text(): string {
    if (this.batch.length > 0) this.batches.push(this.batch.join('\n'));
    return this.batches.join('\n') + '\n';
  }
}

/** Renders the report as JSON lines. */
export function renderJson(report: UsageReport): string {
  const lines = new Lines();
  const priced = report.priced;
  report.units.forEach((unit, i) => {
    lines.push(unitJson(unit, `,${derived(unit)}${priced ? costJson(report.costs[i] ?? null) : ''}`));
  });
  const by = JSON.stringify(report.by.join(','));
  // `,"FIELD":` of each key column, once.
  const names = keyColumns(report.by).map(([field]) => `,${JSON.stringify(field)}:`);
  for (const row of report.rows) {
    let keys = '';
    // Keys are mostly ids (one per row): quoted afresh, not through the cache of few values.
    names.forEach((name, i) => (keys += name + JSON.stringify(row.keys[i] ?? null)));
    const model = row.kind === 'model' ? `,"breakdown_model":${quoteFew(row.model ?? '')}` : '';
    lines.push(`{"kind":"${row.kind}","by":${by}${keys},"agent":${quoteFew(row.agent)}${model},${sumsMembers(row.sums, priced)}}`);
  }
  const t = report.totals;
  lines.push(
    `{"kind":"total","by":${by},${sumsMembers(t.main.sums, priced)},"subagents":{${sumsMembers(t.subagents.sums, priced)}},` +
      `"all":{${sumsMembers(t.all.sums, priced)}}${priced ? `,"unpriced_models":${JSON.stringify(report.unpriced)}` : ''}}`,
  );
  return lines.text();
}
