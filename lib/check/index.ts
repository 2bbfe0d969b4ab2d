/**
 * wuu-check: validate a stream against the wire format and its cross-event rules.
 * The tool is in ./check.ts; this file only re-exports it (and the parts other
 * layers use), so implementation files never import it.
 */
export * from './check.js';
export { isRule, jsonType, RULES, SCHEMA, schemaProblems, type FieldSpec, type FieldType, type Problem, type Rule, type Severity } from './schema.js';
