/**
 * The text reports: the human table (thousands separators, dollars in one
 * precision per table, prompt total, cache hit, a totals row, a footnote on
 * where days come from, colour only when asked), Markdown, CSV and TSV. Every cell that comes from data goes through
 * escapeControls, and columns are aligned by display width (CJK and emoji
 * count double), so a log cannot paint the terminal or break the layout.
 */
import { displayWidth, escapeControls, padDisplay } from '../text.js';
import { cacheHit, dateSources, guessedDate, keyColumns, runIdentity, type UsageReport, type UsageRow } from './grouping.js';
import { FEMTO_PER_USD, groupDigits, usdDecimal } from './prices.js';
import { promptOf, type UsageUnit } from './types.js';

/** Which text format, and whether to colour it (the human table only). */
export interface TextOptions {
  format: 'table' | 'markdown' | 'csv' | 'tsv';
  color?: boolean;
  /** Days matter (a day, week or month column, or --since/--until): the table footnotes where they come from. */
  dated?: boolean;
  /** The zone days are in, for the footnote. */
  zone?: string;
}

const DATE_CELLS = new Set(['day', 'week', 'month']);
const GUESS_MARK = '*';

/**
 * The decimals of every cost in one table: the fewest (2 to 6) that show
 * the smallest non-zero cost with two significant digits, so `$0.0400`
 * stands beside `$0.0056` (never `$0.04`), and a table of dollars stays
 * in cents.
 */
export function costDecimals(costs: readonly bigint[]): number {
  let min: bigint | undefined;
  for (const c of costs) if (c > 0n && (min === undefined || c < min)) min = c;
  if (min === undefined) return 2;
  for (let d = 2; d < 6; d++) if (min >= 10n * 10n ** BigInt(15 - d)) return d;
  return 6;
}

/** Dollars for people with a fixed number of decimals, rounded half up; a non-zero cost below the last place is `<$0.000001`. */
export function usdFixed(femto: bigint, decimals: number): string {
  const unit = FEMTO_PER_USD / 10n ** BigInt(decimals);
  const units = (femto + unit / 2n) / unit;
  if (units === 0n && femto > 0n) return `<$${(1 / 10 ** decimals).toFixed(decimals)}`;
  const scale = 10n ** BigInt(decimals);
  return `$${groupDigits(units / scale)}.${(units % scale).toString().padStart(decimals, '0')}`;
}

const SOURCE_WORDS: Readonly<Record<string, string>> = {
  session_id: 'their session id',
  timestamp: 'event timestamps',
  mtime: "the file's modification time",
  now: 'the time of reading (stdin)',
  none: 'nothing (unknown day)',
};

/** The footnote on where the days of the report's runs come from. */
function dateFootnote(units: readonly UsageUnit[], zone: string): string {
  const runs = new Map<string, Set<string>>();
  for (const u of units) {
    const source = u.date_source ?? 'none';
    let set = runs.get(source);
    if (set === undefined) runs.set(source, (set = new Set()));
    set.add(runIdentity(u));
  }
  const order = ['session_id', 'timestamp', 'mtime', 'now', 'none'];
  const parts = order
    .flatMap((s) => {
      const set = runs.get(s);
      if (set === undefined) return [];
      const n = set.size;
      const mark = s === 'session_id' || s === 'timestamp' ? '' : ` (marked ${GUESS_MARK})`;
      return `${n} run${n === 1 ? '' : 's'} dated by ${SOURCE_WORDS[s]}${mark}`;
    });
  return `Days in ${zone}: ${parts.length > 0 ? parts.join('; ') : 'no runs'}.`;
}

const NUMBER_FIELDS = ['turns', 'agents', 'input_tokens', 'cache_creation_tokens', 'cache_read_tokens', 'prompt_tokens', 'output_tokens', 'cache_hit_ratio'];
const NUMBER_HEADERS = ['TURNS', 'AGENTS', 'INPUT', 'CACHE WRITE', 'CACHE READ', 'PROMPT', 'OUTPUT', 'CACHE HIT'];

/** The rows to print: the report's rows, then its totals (human formats: only `all` when there are no subagents). */
function printedRows(report: UsageReport, human: boolean): UsageRow[] {
  const t = report.totals;
  const totals = human && t.subagents.sums.agents === 0 ? [t.all] : [t.main, t.subagents, t.all];
  return [...report.rows, ...totals];
}

/** Cells of one row for machines (exact digits, raw ratio and dollars). */
function machineCells(row: UsageRow, report: UsageReport, breakdown: boolean): string[] {
  const s = row.sums;
  const hit = cacheHit(s);
  const out = [row.kind, ...row.keys.map((v) => v ?? ''), row.agent];
  if (breakdown) out.push(row.model ?? '');
  out.push(String(s.turns), String(s.agents), String(s.input_tokens), String(s.cache_creation_tokens), String(s.cache_read_tokens), String(promptOf(s)), String(s.output_tokens), hit === null ? '' : String(hit));
  if (report.priced) out.push(s.unpriced ? '' : usdDecimal(s.cost));
  out.push(dateSources(s));
  return out.map(escapeControls);
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Cells of one row for people. */
function humanCells(row: UsageRow, report: UsageReport, breakdown: boolean, nKeys: number, decimals: number, dated: boolean): string[] {
  const s = row.sums;
  const out: string[] = [];
  if (row.kind === 'total') {
    out.push('TOTAL', ...Array.from({ length: nKeys - 1 }, () => ''));
  } else if (row.kind === 'model') {
    out.push(...Array.from({ length: nKeys }, () => ''));
  } else {
    keyColumns(report.by).forEach(([field], i) => {
      const v = row.keys[i];
      if (field === 'run_id' && v === null) out.push('(no result)');
      else if (v === null || v === undefined || v === '') out.push('-');
      else out.push(escapeControls(v) + (dated && DATE_CELLS.has(field) && guessedDate(s) ? GUESS_MARK : ''));
    });
  }
  out.push(row.kind === 'model' ? '' : escapeControls(row.agent));
  if (breakdown) out.push(row.kind === 'model' ? `└ ${escapeControls(row.model ?? '')}` : '');
  const hit = cacheHit(s);
  out.push(
    groupDigits(s.turns),
    groupDigits(s.agents),
    groupDigits(s.input_tokens),
    groupDigits(s.cache_creation_tokens),
    groupDigits(s.cache_read_tokens),
    groupDigits(promptOf(s)),
    groupDigits(s.output_tokens),
    hit === null ? '-' : `${(hit * 100).toFixed(1)}%`,
  );
  if (report.priced) out.push(s.unpriced ? 'unknown' : usdFixed(s.cost, decimals));
  return out;
}

const SGR = { bold: '\u001b[1m', dim: '\u001b[2m', yellow: '\u001b[33m', reset: '\u001b[0m' };

/** Renders the report in a text format. */
export function renderText(report: UsageReport, options: TextOptions): string {
  const breakdown = report.rows.some((r) => r.kind === 'model');
  const keyCols = keyColumns(report.by);
  if (options.format === 'csv' || options.format === 'tsv') {
    const header = ['kind', ...keyCols.map(([f]) => f), 'agent', ...(breakdown ? ['breakdown_model'] : []), ...NUMBER_FIELDS, ...(report.priced ? ['cost_usd'] : []), 'date_source'];
    const body = printedRows(report, false).map((row) => machineCells(row, report, breakdown));
    const join = options.format === 'csv' ? (line: string[]) => line.map(csvCell).join(',') : (line: string[]) => line.map((v) => v.replace(/\t/g, ' ')).join('\t');
    return [header, ...body].map(join).join('\n') + '\n';
  }
  const header = [...keyCols.map(([, h]) => h), 'AGENT', ...(breakdown ? ['BY MODEL'] : []), ...NUMBER_HEADERS, ...(report.priced ? ['COST'] : [])];
  const rows = printedRows(report, true);
  const decimals = costDecimals(rows.filter((r) => !r.sums.unpriced).map((r) => r.sums.cost));
  const dated = options.dated === true;
  const body = rows.map((row) => humanCells(row, report, breakdown, keyCols.length, decimals, dated));
  const footnote = dated ? dateFootnote(report.units, options.zone ?? 'the local zone') : undefined;
  const firstNumber = keyCols.length + 1 + (breakdown ? 1 : 0);
  const numeric = header.map((_, i) => i >= firstNumber);
  if (options.format === 'markdown') {
    const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[<>&*_`[\]]/g, (c) => `\\${c}`);
    const line = (vs: string[]) => `| ${vs.map(esc).join(' | ')} |`;
    const rule = `|${numeric.map((n) => (n ? '---:' : '---')).join('|')}|`;
    return [line(header), rule, ...body.map(line), ...(footnote !== undefined ? ['', esc(footnote)] : [])].join('\n') + '\n';
  }
  const widths = header.map((h) => displayWidth(h));
  for (const cells of body) {
    cells.forEach((v, i) => {
      const w = displayWidth(v);
      if (w > (widths[i] ?? 0)) widths[i] = w;
    });
  }
  const color = options.color === true;
  const paint = (text: string, code: string) => (color && text !== '' ? `${code}${text}${SGR.reset}` : text);
  const format = (cells: string[], style: 'header' | 'total' | 'model' | 'row') =>
    cells
      .map((v, i) => {
        const padded = padDisplay(v, widths[i] ?? 0, numeric[i] ? 'start' : 'end');
        if (style === 'header' || style === 'total') return paint(padded, SGR.bold);
        if (v === 'unknown' && i === cells.length - 1 && report.priced) return paint(padded, SGR.yellow);
        if (style === 'model') return paint(padded, SGR.dim);
        return padded;
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const out: string[] = [format(header, 'header'), rule];
  rows.forEach((row, i) => {
    if (row.kind === 'total' && rows[i - 1]?.kind !== 'total') out.push(rule);
    out.push(format(body[i] ?? [], row.kind === 'total' ? 'total' : row.kind));
  });
  if (footnote !== undefined) out.push('', escapeControls(footnote));
  return out.join('\n') + '\n';
}
