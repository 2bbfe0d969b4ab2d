/**
 * wuu-filter: keep or drop events by type, family and predicate.
 * The tool is in ./filter.ts; this file only re-exports it (and the parts other
 * layers use), so implementation files never import it.
 */
export * from './filter.js';
