import { DEFAULT_RULES } from '../../lib/redact-rules.js';
import type { BenchCase } from '../types.js';

/** A JSON string literal for a jq program. */
const q = (text: string) => JSON.stringify(text);

/**
 * The jq equivalent of default wuu-redact: walk every value and, in every
 * string, replace each built-in rule's matches (the same regexes; jq's
 * Oniguruma reads them alike), then homes, /root and e-mail addresses. It does
 * less than wuu-redact (no JSON-in-string decoding, no workspace or user-name
 * tracking, whole-match replacement), so the comparison favours jq.
 */
const substitutions = [
  ...DEFAULT_RULES.map((rule) => `gsub(${q(rule.pattern)}; ${q(`<secret:${rule.name}>`)})`),
  `gsub(${q('(?<![A-Za-z0-9._-])/(?:home|[Uu]sers)/[A-Za-z0-9_.-]{1,64}')}; "~")`,
  `gsub(${q('(?<![A-Za-z0-9._~-])/root(?![A-Za-z0-9._-])')}; "~")`,
  `gsub(${q('[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\\.[A-Za-z]{2,24}')}; "<email>")`,
];
export const JQ_REDACT = `walk(if type == "string" then ${substitutions.join(' | ')} else . end)`;

/** Issue 4: default redaction at least 2x jq's walk+gsub, peak memory under 150 MB. */
const cases: BenchCase[] = [
  {
    name: 'redact (default rules)',
    ours: ['wuu-redact'],
    jqArgs: ['-c', JQ_REDACT],
    jqSampleMb: 1,
    minRatioVsJq: 2,
    maxRssMb: 150,
  },
  {
    name: 'redact --check',
    ours: ['wuu-redact', '--check'],
    jqArgs: ['-c', JQ_REDACT],
    jqSampleMb: 1,
  },
];
export default cases;
