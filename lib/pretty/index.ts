/**
 * wuu-pretty: the event stream rendered for people (terminal, Markdown, HTML).
 * The tool is in ./pretty.ts; this file only re-exports it (and the parts other
 * layers use), so implementation files never import it.
 */
export * from './pretty.js';
export { summarizeArguments, type SummaryOptions } from './arguments.js';
export { chooseFence, htmlEscape, mdEscape } from './escape.js';
export { OutputFold, type Folded } from './fold.js';
export { clip, formatCount } from './format.js';
export { HTML_CSP } from './html.js';
export { describeUsage } from './token-usage.js';
