import type { BenchCase } from '../types.js';

/**
 * Issue 20. wuu-filter promises to write only valid JSON events, so its fair
 * references validate what they keep: a type filter against a loop that
 * sniffs the type at byte level and JSON.parses only the lines it keeps
 * (<= 0.8x); identity against a loop that JSON.parses every line and writes
 * the original bytes (<= 0.6x). Peak RSS under 100 MiB on many small lines.
 */
const cases: BenchCase[] = [
  {
    name: "filter 'tool_*'",
    ours: ['wuu-filter', 'tool_*'],
    reference: ['sniff', 'tool_'],
    maxRatio: 0.8,
    jqArgs: ['-c', 'select(.type|startswith("tool_"))'],
    maxRssMb: 100,
    profile: true,
  },
  {
    name: 'filter (identity)',
    ours: ['wuu-filter'],
    reference: ['parse'],
    maxRatio: 0.6,
    jqArgs: ['-c', '.'],
    maxRssMb: 100,
    profile: true,
  },
  {
    name: 'filter --turn (parses)',
    ours: ['wuu-filter', '--turn', '20260101-100000-0000-turn-0001'],
    reference: ['parse'],
    jqArgs: ['-c', 'select(.turn_id=="20260101-100000-0000-turn-0001")'],
    maxRssMb: 100,
  },
  {
    name: 'byte validator alone',
    ours: ['@reference', 'validate'],
    reference: ['parse'],
  },
  {
    // What identity runs: a chunk's lines in one loop (lib/validate.ts validEventLines).
    name: 'many-line validator alone',
    ours: ['@reference', 'validate-lines'],
    reference: ['parse'],
  },
];
export default cases;
