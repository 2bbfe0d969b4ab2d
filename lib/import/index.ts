/**
 * wuu-import: other agent CLIs' streams as wuu events.
 * The tool is in ./import.ts, its parts beside it (detect.ts, encode.ts, one
 * mapping per producer, the shared mapper.ts contract); this file only
 * re-exports them, so implementation files never import it.
 */
export * from './import.js';
export { detectLine, FROM_VALUES, isFrom, KNOWN_PRODUCERS, SNIFF_LINES, type Detection, type From, type Producer } from './detect.js';
export { byteOrder, goJson, goLine, goString, GoStruct, struct } from './encode.js';
export type { ImportedEvent, Mapper } from './mapper.js';
export { createCodexMapper, turnUsage } from './codex.js';
