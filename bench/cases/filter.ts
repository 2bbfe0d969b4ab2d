import type { BenchCase } from '../types.js';

/** Issue 2: a type filter at least 3x jq, peak memory under 100 MB. */
const cases: BenchCase[] = [
  {
    name: "filter 'tool_*'",
    ours: ['wuu-filter', 'tool_*'],
    jqArgs: ['-c', 'select(.type|startswith("tool_"))'],
    minRatioVsJq: 3,
    maxRssMb: 100,
  },
  {
    name: 'filter --turn (parses)',
    ours: ['wuu-filter', '--turn', 'tu_1_0'],
    jqArgs: ['-c', 'select(.turn_id=="tu_1_0")'],
  },
  {
    name: 'filter (identity)',
    ours: ['wuu-filter'],
    jqArgs: ['-c', '.'],
  },
];
export default cases;
