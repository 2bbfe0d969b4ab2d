import type { BenchCase } from '../types.js';

/**
 * Issue 13: the accumulating tools at most 0.7x the time of a loop that parses
 * every line (they read a delta's string without parsing the event), and
 * wuu-redact at most 0.5x a parse -> walk -> stringify loop applying one regex.
 */
const cases: BenchCase[] = [
  { name: 'accumulate', ours: ['wuu-accumulate'], reference: ['parse'], maxRatio: 0.7 },
  { name: 'turns', ours: ['wuu-turns'], reference: ['parse'], maxRatio: 0.7 },
  { name: 'check', ours: ['wuu-check', '--quiet'], reference: ['parse'] },
  { name: 'pretty', ours: ['wuu-pretty', '--color', 'never'], reference: ['parse'] },
  { name: 'redact (default rules)', ours: ['wuu-redact'], reference: ['walk', 'sk-[A-Za-z0-9]{20,}'], maxRatio: 0.5 },
];
export default cases;
