import type { BenchCase } from '../types.js';

/**
 * Issue 13: wuu-accumulate and wuu-turns at most 0.7x the time of the
 * parse-every-line loop ("x node" >= 1.43): the producer's flat lines
 * (deltas, tool and command events) are read without JSON.parse. The jq
 * programs fold the same units (messages and tool calls per thread and turn).
 */
const JQ_FOLD =
  'reduce inputs as $e ({}; if $e.type == "agent_message_delta" then .[$e.thread_id + "/" + $e.turn_id] += $e.delta' +
  ' elif $e.type == "tool_output_delta" then .[$e.thread_id + "/" + $e.turn_id + "/" + $e.item_id] += $e.delta else . end) | length';

const cases: BenchCase[] = [
  { name: 'accumulate', ours: ['wuu-accumulate'], jqArgs: ['-n', JQ_FOLD], maxRssMb: 150 },
  { name: 'turns --only-turns', ours: ['wuu-turns', '--only-turns'], jqArgs: ['-n', JQ_FOLD], maxRssMb: 150 },
];
export default cases;
