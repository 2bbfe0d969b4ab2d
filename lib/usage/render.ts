/**
 * From units to the text the user asked for: one entry point for every
 * format, and the warnings the report owes (one per model without a price).
 */
import { escapeControls } from '../text.js';
import { Calendar } from './dates.js';
import { buildReport, type ReportOptions } from './grouping.js';
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
  const format = options.format ?? 'table';
  if (format === 'json') return renderJson(report);
  return renderText(report, { format, color: options.color });
}
