/**
 * wuu-stream: composable filters over the `wuu exec --json` event stream.
 * Programmatic entry point: stream factories, their pure cores, and the types.
 */
export * from './events.js';
export { topLevelString } from './scan.js';
export {
  DEFAULT_MAX_LINE_BYTES,
  InvalidLineError,
  LineRecord,
  LineSplitter,
  makeRecord,
  parseEventBytes,
  serialize,
  serializeLine,
  type EventRecord,
  type Line,
  type Output,
} from './jsonl.js';
export { coreStream, parse, stringify, type Core, type Emit, type ParseOptions } from './core.js';
export { createFilter, filter, typeMatcher, type FilterOptions } from './filter.js';
export { createResult, exitCodeForStatus, result, RESULT_EXIT, type ResultMode, type ResultOptions } from './result.js';
export {
  check,
  checkBytes,
  createCheck,
  isRule,
  jsonType,
  RULES,
  SCHEMA,
  schemaProblems,
  type CheckBytesOptions,
  type CheckOptions,
  type FieldSpec,
  type FieldType,
  type Problem,
  type Rule,
  type Severity,
} from './check.js';
export {
  accumulate,
  CappedText,
  createAccumulate,
  createAccumulator,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_OUTPUT_BYTES,
  PIECE_TYPES,
  type AccumulateOptions,
  type Accumulator,
  type AccumulatorOptions,
  type AccumulatorSink,
  type AgentMessage,
  type RemovedItem,
  type ToolCall,
} from './accumulate.js';
export {
  createTurns,
  DEFAULT_MAX_TURN_BYTES,
  OUTSIDE_TURN_TYPES,
  turns,
  type TurnRecord,
  type TurnsOptions,
  type TurnToolCall,
  type TurnUsage,
} from './turns.js';
export { chooseFence, clip, colorEnabled, createPretty, formatCount, OutputFold, pretty, summarizeArguments, type ColorMode, type Folded, type PrettyOptions, type SummaryOptions } from './pretty/index.js';
export { buildReport, createUsage, parsePricing, parseUnitLine, renderUsage, UsageLedger, UsageScanner, usage, USAGE_TYPES, type AgentUnit, type Price, type Pricing, type TurnUnit, type UsageBy, type UsageFormat, type UsageOptions, type UsageUnit } from './usage.js';
export { createRedact, redact, Redactor, DEFAULT_SALT, type RedactOptions, type PathMode } from './redact/index.js';
