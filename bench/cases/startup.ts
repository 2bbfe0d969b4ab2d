import type { BenchCase } from '../types.js';

/** Issue 20: every binary's --version at most 1.25x `node -e 0` (start-up is most of a short run). */
const BINARIES = ['wuu-filter', 'wuu-accumulate', 'wuu-turns', 'wuu-redact', 'wuu-usage', 'wuu-result', 'wuu-check', 'wuu-pretty', 'wuu-stream'];

const cases: BenchCase[] = BINARIES.map((name) => ({
  name: `${name} --version`,
  ours: [name, '--version'],
  reference: ['@cmd', 'node', '-e', '0'],
  input: 'none',
  maxRatio: 1.25,
}));
export default cases;
