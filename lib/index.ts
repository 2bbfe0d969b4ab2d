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
