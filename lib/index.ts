/**
 * wuu-stream: composable filters over the `wuu exec --json` event stream.
 * Programmatic entry point, the public API only: the stream factories, their
 * pure per-event cores (`create*`), the framing streams, and the types.
 * Internals (line splitting, byte scans, output folding, usage scanning,
 * the redaction engine's classes) are not exported and may change.
 */
export * from './events.js';
export { DEFAULT_MAX_LINE_BYTES, InvalidLineError, makeRecord, parse, stringify, type EventRecord, type Output, type ParseOptions } from './jsonl.js';
export { coreStream, type BadLine, type Core, type Emit } from './core.js';
export { createFilter, filter, type FilterOptions } from './filter/index.js';
export { createResult, exitCodeForStatus, result, RESULT_EXIT, type ResultMode, type ResultOptions } from './result/index.js';
export { check, createCheck, RULES, type CheckOptions, type Problem, type Rule, type Severity } from './check/index.js';
export {
  accumulate,
  createAccumulate,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_OUTPUT_BYTES,
  type AccumulateOptions,
  type AgentMessage,
  type RemovedItem,
  type ToolCall,
} from './accumulate/index.js';
export { createTurns, DEFAULT_MAX_TURN_BYTES, turns, type TurnRecord, type TurnsOptions, type TurnToolCall, type TurnUsage } from './turns/index.js';
export { createPretty, pretty, type ColorMode, type PrettyOptions } from './pretty/index.js';
export { createUsage, usage, USAGE_TYPES, type PriceTable, type Rates, type UsageDim, type UsageFormat, type UsageOptions } from './usage/index.js';
export { createRedact, redact, DEFAULT_SALT, type PathMode, type RedactOptions } from './redact/index.js';
export { createImport, importStream, MAPPERS, type ImportOptions, type ImportedEvent, type Mapper } from './import/index.js';
