import type { BenchCase } from '../types.js';

/** Issue 13: a type filter within 1.15x the byte-level needle loop; identity within 1.3x a pipe. */
const cases: BenchCase[] = [
  {
    name: "filter 'tool_*'",
    ours: ['wuu-filter', 'tool_*'],
    reference: ['needle', '"type":"tool_'],
    maxRatio: 1.15,
    jqArgs: ['-c', 'select(.type|startswith("tool_"))'],
    maxRssMb: 100,
  },
  {
    name: 'filter (identity)',
    ours: ['wuu-filter'],
    reference: ['pipe'],
    maxRatio: 1.3,
    jqArgs: ['-c', '.'],
  },
  {
    name: 'filter --turn (parses)',
    ours: ['wuu-filter', '--turn', 'th_1-turn-0001'],
    reference: ['parse'],
    jqArgs: ['-c', 'select(.turn_id=="th_1-turn-0001")'],
  },
  {
    name: 'byte validator (isJsonObject)',
    ours: ['@reference', 'validate'],
    reference: ['pipe'],
  },
];
export default cases;
