import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_RULES } from '../../lib/redact/rules.js';
import type { BenchCase } from '../types.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..'); // dist/bench/cases
const SECRETLINT_RC = path.join(root, 'bench', 'out', 'secretlintrc.json');

/**
 * secretlint with its recommended preset, detection only (no --maskSecrets),
 * on the same stream file: the scanner people use, as issue 21 compares.
 */
const secretlint = {
  name: 'secretlint (recommended)',
  command: [process.execPath, path.join(root, 'node_modules', 'secretlint', 'bin', 'secretlint.js'), '--secretlintrc', SECRETLINT_RC, '--format', 'stylish', '{stream}'],
  maxRatio: 0.5,
  setup: () => {
    fs.mkdirSync(path.dirname(SECRETLINT_RC), { recursive: true });
    fs.writeFileSync(SECRETLINT_RC, `${JSON.stringify({ rules: [{ id: '@secretlint/secretlint-rule-preset-recommend' }] })}\n`);
  },
};

/** A JSON string literal for a jq program. */
const q = (text: string) => JSON.stringify(text);

/**
 * The jq equivalent of default wuu-redact: walk every value and, in every
 * string, replace each built-in rule's matches (the same regexes; jq's
 * Oniguruma reads them alike), then homes, /root and e-mail addresses. It does
 * less than wuu-redact (no JSON-in-string decoding, no workspace or user-name
 * tracking, whole-match replacement), so the comparison favours jq.
 */
/**
 * jq 1.6's Oniguruma refuses look-behinds of variable length, so they are
 * dropped for jq (balanced-parenthesis removal of each `(?<!...)`/`(?<=...)`).
 * That only makes jq's job easier: fewer conditions per match.
 */
export function withoutLookbehind(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    if (pattern.startsWith('(?<!', i) || pattern.startsWith('(?<=', i)) {
      let depth = 0;
      for (; i < pattern.length; i++) {
        if (pattern[i] === '\\') i++;
        else if (pattern[i] === '(') depth++;
        else if (pattern[i] === ')' && --depth === 0) break;
      }
      continue;
    }
    out += pattern[i];
    if (pattern[i] === '\\' && i + 1 < pattern.length) out += pattern[++i];
  }
  return out;
}

const substitutions = [
  ...DEFAULT_RULES.map((rule) => `gsub(${q(withoutLookbehind(rule.pattern))}; ${q(`<secret:${rule.name}>`)})`),
  `gsub(${q('/(?:home|[Uu]sers)/[A-Za-z0-9_.-]{1,64}')}; "~")`,
  `gsub(${q('/root(?![A-Za-z0-9._-])')}; "~")`,
  `gsub(${q('[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\\.[A-Za-z]{2,24}')}; "<email>")`,
];
export const JQ_REDACT = `walk(if type == "string" then ${substitutions.join(' | ')} else . end)`;

/**
 * Issue 4: default redaction at least 2x jq's walk+gsub. Issue 21: at most
 * 0.45x the time of a Node parse-walk-stringify loop applying one regex
 * (bench/reference.ts `walk`) and 0.5x secretlint's, peak memory under 150 MB.
 */
const cases: BenchCase[] = [
  {
    name: 'redact (default rules)',
    ours: ['wuu-redact'],
    jqArgs: ['-c', JQ_REDACT],
    jqSampleMb: 1,
    minRatioVsJq: 2,
    maxRssMb: 150,
    reference: ['walk', 'sk-[A-Za-z0-9_-]{20,256}'],
    maxRatio: 0.45,
    peers: [secretlint],
  },
  {
    name: 'redact --check',
    ours: ['wuu-redact', '--check'],
    reference: ['walk', 'sk-[A-Za-z0-9_-]{20,256}'],
    jqArgs: ['-c', JQ_REDACT],
    jqSampleMb: 1,
  },
];
export default cases;
