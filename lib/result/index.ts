/**
 * wuu-result: the final result of a run, as text or JSON, with its exit status.
 * The tool is in ./result.ts; this file only re-exports it (and the parts other
 * layers use), so implementation files never import it.
 */
export * from './result.js';
