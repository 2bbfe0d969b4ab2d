import type { BenchCase } from '../types.js';

/**
 * Issue 20: wuu-accumulate and wuu-turns --only-turns at most 0.7x, wuu-check
 * at most 0.8x the time of a loop that JSON.parses and JSON.stringifies every
 * line (what a naive tool doing the job costs); peak RSS under 150 MiB. The
 * jq program folds the same units (messages and tool outputs per turn); it
 * grows each text by copying it (quadratic on long tool outputs: it ran for
 * more than 8 minutes on the 100 MB stream), so it gets the first 5 MB.
 */
const JQ_FOLD =
  'reduce inputs as $e ({}; if $e.type == "agent_message_delta" then .[$e.thread_id + "/" + $e.turn_id] += $e.delta' +
  ' elif $e.type == "tool_output_delta" then .[$e.thread_id + "/" + $e.turn_id + "/" + $e.item_id] += $e.delta else . end) | length';

const cases: BenchCase[] = [
  { name: 'accumulate', ours: ['wuu-accumulate'], reference: ['parse-stringify'], maxRatio: 0.7, jqArgs: ['-n', JQ_FOLD], jqSampleMb: 5, maxRssMb: 150, profile: true },
  { name: 'turns --only-turns', ours: ['wuu-turns', '--only-turns'], reference: ['parse-stringify'], maxRatio: 0.7, maxRssMb: 150, profile: true },
  { name: 'check', ours: ['wuu-check', '--quiet'], reference: ['parse-stringify'], maxRatio: 0.8, maxRssMb: 150, profile: true },
  { name: 'pretty', ours: ['wuu-pretty', '--color', 'never'], reference: ['parse-stringify'], maxRssMb: 150 },
];
export default cases;
