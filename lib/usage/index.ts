/**
 * wuu-usage: exact token usage per turn, run, thread, model, file, day, week
 * or month, with subagents apart, prices and a fleet-mergeable JSON form.
 *
 * Parts: types (units, exact BigInt tokens), tokens (exact reading, odd
 * values), scanner (one stream's events to units), reader (bytes to the
 * scanner, non-usage lines skipped as bytes), files (one file), parallel
 * (serial and worker-thread runs, signals), worker, ledger (each unit once),
 * dates (a unit's time: timestamp, session id, mtime; day/week/month in a zone), prices (built-in and --pricing, exact
 * money), genai-load (the built-in price library, with the build's code cache), grouping (rows, breakdown, totals), report-json, report-text
 * (table, Markdown, CSV, TSV), render (format dispatch), merge (--merge),
 * usage (the tool: its core and programmatic stream).
 */
export { createUsage, usage, type UsageOptions } from './usage.js';
export { createUsageMerge, parseUnitLine } from './merge.js';
export { usageMain, defaultJobs, type UsageRunOptions } from './parallel.js';
export { renderUsage, type RenderOptions } from './render.js';
export { buildReport, keyColumns, type ReportOptions, type UsageReport, type UsageRow, type Sums } from './grouping.js';
export { UsageLedger, unitJson, unitKey } from './ledger.js';
export { UsageScanner } from './scanner.js';
export { parsePricing, Pricer, usdHuman, usdDecimal, groupDigits, libraryUsage, type Rates, type PriceTable } from './prices.js';
export { checkTimeZone, isIsoDate, Calendar, isoWeek, sessionTime, type DateSource } from './dates.js';
export { USAGE_TYPES, USAGE_DIMS, TOKEN_FIELDS, type Tokens, type AgentUnit, type RunUnit, type TurnUnit, type UsageUnit, type UsageDim, type UsageFormat, type Warn } from './types.js';
export type { ScanPolicy } from './reader.js';
