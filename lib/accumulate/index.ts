/**
 * wuu-accumulate: rebuild whole messages and tool calls from delta pieces.
 * The tool is in ./accumulate.ts, the accumulator it shares with wuu-turns in
 * ./accumulator.ts; this file only re-exports them (and the parts other layers
 * use), so implementation files never import it.
 */
export * from './accumulate.js';
export * from './accumulator.js';
export { CappedText, OldestFirst } from './units.js';
