/**
 * wuu-redact: make a log safe to share without breaking it.
 * The tool is in ./redact.ts; this file only re-exports it (and the parts other
 * layers use), so implementation files never import it.
 */
export * from './redact.js';
export { RuleError, parsePatternOption, parseRuleFile, type RuleSpec } from './rule-spec.js';
export { DEFAULT_RULES } from './rules.js';
export { DEFAULT_SALT } from './placeholders.js';
export { holdPoint } from './hold-back.js';
export { FALLBACK_HOLD } from './compile.js';
export { Redactor, type PathMode } from './engine.js';
