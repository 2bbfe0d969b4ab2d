/**
 * wuu-turns: one record per turn, with its messages, tool calls and usage.
 * The tool is in ./turns.ts; this file only re-exports it (and the parts other
 * layers use), so implementation files never import it.
 */
export * from './turns.js';
