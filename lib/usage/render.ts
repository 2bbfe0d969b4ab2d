/**
 * From units to the text the user asked for: one entry point for every
 * format, and the warnings the report owes (one per model without a price).
 */
import { escapeControls } from '../text.js';
import { Calendar } from './dates.js';
import { buildReport, runIdentity, type ReportOptions } from './grouping.js';
import { Pricer, type PriceTable } from './prices.js';
import { renderJson } from './report-json.js';
import { renderText } from './report-text.js';
import type { UsageDim, UsageFormat, UsageUnit, Warn } from './types.js';

/** What a report needs to know. */
export interface RenderOptions {
  by?: readonly UsageDim[];
  breakdown?: boolean;
  format?: UsageFormat;
  /** Colour the human table. */
  color?: boolean;
  /** --pricing entries (override the built-in prices). */
  pricing?: PriceTable;
  /** Price with the built-in prices too (default true); false prices only --pricing models. */
  builtinPrices?: boolean;
  /** No cost at all. */
  noCost?: boolean;
  /** IANA time zone of days, weeks and months (default: local). */
  timeZone?: string;
  since?: string;
  until?: string;
  /** Receives `warning: ...` (a model without a price). */
  warn?: Warn;
}

/** Renders units as the report in the chosen format. */
export function renderUsage(units: readonly UsageUnit[], options: RenderOptions = {}): string {
  const pricer = options.noCost ? undefined : new Pricer(options.pricing, options.builtinPrices ?? true);
  const report = buildReport(units, {
    by: options.by,
    breakdown: options.breakdown,
    pricer,
    calendar: new Calendar(options.timeZone),
    since: options.since,
    until: options.until,
  } satisfies ReportOptions);
  for (const model of report.unpriced) {
    options.warn?.(`warning: no price for model ${escapeControls(model)}: its cost is shown as unknown (add it with --pricing FILE)`);
  }
  const windowed = options.since !== undefined || options.until !== undefined;
  if (windowed && report.units.length === 0) options.warn?.(emptyWindow(units, options, zoneName(options.timeZone)));
  const format = options.format ?? 'table';
  if (format === 'json') return renderJson(report);
  const dated = windowed || (options.by ?? []).some((d) => d === 'day' || d === 'week' || d === 'month');
  return renderText(report, { format, color: options.color, dated, zone: zoneName(options.timeZone) });
}

/**
 * The zone of days, as messages and the table's note name it. Worked out only
 * when one of them is written: the local zone's name costs an Intl format
 * (tens of milliseconds when cold), which the --json report never shows.
 */
function zoneName(timeZone: string | undefined): string {
  return timeZone ?? `the local zone (${new Intl.DateTimeFormat().resolvedOptions().timeZone})`;
}

/** The warning for a --since/--until window that selects nothing: what the days read were, and where they came from. */
function emptyWindow(units: readonly UsageUnit[], options: RenderOptions, zone: string): string {
  const window = `${options.since ?? '...'} to ${options.until ?? '...'}`;
  const calendar = new Calendar(options.timeZone);
  let first: string | undefined;
  let last: string | undefined;
  const guessed = new Set<string>();
  const runs = new Set<string>();
  for (const unit of units) {
    runs.add(runIdentity(unit));
    const day = calendar.day(unit.time);
    if (day !== 'unknown') {
      if (first === undefined || day < first) first = day;
      if (last === undefined || day > last) last = day;
    }
    if (unit.date_source !== 'session_id' && unit.date_source !== 'timestamp') guessed.add(runIdentity(unit));
  }
  if (first === undefined || last === undefined) return `warning: --since/--until ${window} selects nothing: no usage with a known day was read`;
  const span = first === last ? first : `${first} to ${last}`;
  const why = guessed.size > 0 ? ` (${guessed.size} of ${runs.size} runs dated by a file's modification time or the time of reading, not their session id)` : '';
  return `warning: --since/--until ${window} selects nothing: the usage read is dated ${span} in ${zone}${why}`;
}
