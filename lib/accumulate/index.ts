/**
 * wuu-accumulate: rebuild whole messages and tool calls from delta pieces.
 * The tool is in ./accumulate.ts; this file only re-exports it (and the parts other
 * layers use), so implementation files never import it.
 */
export * from './accumulate.js';
export { deltaLine, eventOf, type DeltaLine } from './read.js';
export { CappedText, OldestFirst } from './units.js';
