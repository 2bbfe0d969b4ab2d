import type { BenchCase } from '../types.js';

/**
 * Issue 20: peak RSS on a stream made mostly of 8 MiB lines (no buffer kept
 * past its line): wuu-filter under 100 MiB, every other streaming tool under
 * 150 MiB. The ratio column compares time with the pipe floor on that input.
 */
const TOOLS: Array<[string[], number]> = [
  [['wuu-filter'], 100],
  [['wuu-filter', 'tool_*'], 100],
  [['wuu-accumulate'], 150],
  [['wuu-turns'], 150],
  [['wuu-redact'], 150],
  [['wuu-usage', '--json'], 150],
  [['wuu-result'], 150],
  [['wuu-check', '--quiet'], 150],
  [['wuu-pretty', '--color', 'never'], 150],
];

const cases: BenchCase[] = TOOLS.map(([ours, maxRssMb]) => ({
  name: `8MiB lines: ${ours.join(' ').replace(/^wuu-/, '')}`,
  ours,
  reference: ['pipe'],
  input: 'biglines',
  maxRssMb,
}));
export default cases;
