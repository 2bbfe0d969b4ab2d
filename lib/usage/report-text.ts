/**
 * The text reports: the human table (thousands separators, dollars to the
 * cent, prompt total, cache hit, a totals row, colour only when asked),
 * Markdown, CSV and TSV. Every cell that comes from data goes through
 * escapeControls, and columns are aligned by display width (CJK and emoji
 * count double), so a log cannot paint the terminal or break the layout.
 */
import { displayWidth, escapeControls, padDisplay } from '../text.js';
import { cacheHit, keyColumns, type UsageReport, type UsageRow } from './grouping.js';
import { groupDigits, usdDecimal, usdHuman } from './prices.js';
import { promptOf } from './types.js';

/** Which text format, and whether to colour it (the human table only). */
export interface TextOptions {
  format: 'table' | 'markdown' | 'csv' | 'tsv';
  color?: boolean;
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
  return out.map(escapeControls);
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Cells of one row for people. */
function humanCells(row: UsageRow, report: UsageReport, breakdown: boolean, nKeys: number): string[] {
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
      else out.push(v === null || v === undefined || v === '' ? '-' : escapeControls(v));
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
  if (report.priced) out.push(s.unpriced ? 'unknown' : usdHuman(s.cost));
  return out;
}

const SGR = { bold: '\u001b[1m', dim: '\u001b[2m', yellow: '\u001b[33m', reset: '\u001b[0m' };

/** Renders the report in a text format. */
export function renderText(report: UsageReport, options: TextOptions): string {
  const breakdown = report.rows.some((r) => r.kind === 'model');
  const keyCols = keyColumns(report.by);
  if (options.format === 'csv' || options.format === 'tsv') {
    const header = ['kind', ...keyCols.map(([f]) => f), 'agent', ...(breakdown ? ['breakdown_model'] : []), ...NUMBER_FIELDS, ...(report.priced ? ['cost_usd'] : [])];
    const body = printedRows(report, false).map((row) => machineCells(row, report, breakdown));
    const join = options.format === 'csv' ? (line: string[]) => line.map(csvCell).join(',') : (line: string[]) => line.map((v) => v.replace(/\t/g, ' ')).join('\t');
    return [header, ...body].map(join).join('\n') + '\n';
  }
  const header = [...keyCols.map(([, h]) => h), 'AGENT', ...(breakdown ? ['BY MODEL'] : []), ...NUMBER_HEADERS, ...(report.priced ? ['COST'] : [])];
  const rows = printedRows(report, true);
  const body = rows.map((row) => humanCells(row, report, breakdown, keyCols.length));
  const firstNumber = keyCols.length + 1 + (breakdown ? 1 : 0);
  const numeric = header.map((_, i) => i >= firstNumber);
  if (options.format === 'markdown') {
    const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[<>&*_`[\]]/g, (c) => `\\${c}`);
    const line = (vs: string[]) => `| ${vs.map(esc).join(' | ')} |`;
    const rule = `|${numeric.map((n) => (n ? '---:' : '---')).join('|')}|`;
    return [line(header), rule, ...body.map(line)].join('\n') + '\n';
  }
  const widths = header.map((h) => displayWidth(h));
  for (const cells of body) {
    cells.forEach((v, i) => {
      const w = displayWidth(v);
      if (w > widths[i]!) widths[i] = w;
    });
  }
  const color = options.color === true;
  const paint = (text: string, code: string) => (color && text !== '' ? `${code}${text}${SGR.reset}` : text);
  const format = (cells: string[], style: 'header' | 'total' | 'model' | 'row') =>
    cells
      .map((v, i) => {
        const padded = padDisplay(v, widths[i]!, numeric[i] ? 'start' : 'end');
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
    out.push(format(body[i]!, row.kind === 'total' ? 'total' : row.kind));
  });
  return out.join('\n') + '\n';
}
