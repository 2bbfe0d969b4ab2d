import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchCase } from '../types.js';

const reference = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'reference.js');

/**
 * `wuu-usage --json` against jq doing the same job on one stream: keep the
 * last usage_updated per ROOT-thread turn and the last report per subagent,
 * then total them (jq must parse every line; wuu-usage skips lines of other
 * types as bytes, by the type at the line's tail). Issue 20: at most 1.15x a
 * byte-level loop that sums the same fields (bench/reference.ts `usage`: the
 * type sniffed from each line's tail, only the lines of the types a report
 * reads parsed, one priced line per turn and subagent written).
 *
 * The loop the issue was first measured against (`usage-snapshots`: only
 * usage_updated lines, found by Buffer.indexOf, one total line; no turn
 * ends, root threads, subagents, models, prices or per-turn lines) did not do
 * the same job; it is kept as a peer row, for comparison, without a target.
 */
const JQ_USAGE =
  'reduce inputs as $e ({t: {}, a: {}, r: {}};' +
  ' if ($e.type | test("^thread_(started|resumed|forked)$|^turn_started$")) then .r[$e.thread_id] = true' +
  ' elif $e.type == "usage_updated" and (.r[$e.thread_id] // false) then .t[$e.thread_id + "/" + $e.turn_id] = [$e.input_tokens, $e.cache_creation_tokens, $e.cache_read_tokens, $e.output_tokens]' +
  ' elif ($e.type | startswith("subagent_")) then .a[$e.agent_id] = [$e.input_tokens, $e.cache_creation_tokens, $e.cache_read_tokens, $e.output_tokens]' +
  ' else . end)' +
  ' | {main: ([.t[]] | transpose | map(add)), subagents: ([.a[]] | transpose | map(add)), turns: (.t | length), agents: (.a | length)}';

const cases: BenchCase[] = [
  {
    name: 'usage --json',
    ours: ['wuu-usage', '--json'],
    reference: ['usage'],
    maxRatio: 1.15,
    jqArgs: ['-n', '-c', JQ_USAGE],
    minRatioVsJq: 2,
    maxRssMb: 150,
    peers: [{ name: 'usage-snapshots', command: [process.execPath, reference, 'usage-snapshots'] }],
    profile: true,
  },
];
export default cases;
