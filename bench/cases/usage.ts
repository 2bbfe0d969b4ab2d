import type { BenchCase } from '../types.js';

/**
 * Issue 13: `wuu-usage --json` within 1.15x a byte-level loop that parses only
 * usage_updated lines. The jq program does the same job on one stream: keep
 * the last usage_updated per turn and the last report per subagent, then total
 * them (jq must parse every line).
 */
const JQ_USAGE =
  'reduce inputs as $e ({t: {}, a: {}};' +
  ' if $e.type == "usage_updated" then .t[$e.thread_id + "/" + $e.turn_id] = [$e.input_tokens, $e.output_tokens, $e.cache_creation_tokens, $e.cache_read_tokens]' +
  ' elif ($e.type | startswith("subagent_")) then .a[$e.thread_id + "/" + $e.agent_id] = [$e.input_tokens, $e.output_tokens, $e.cache_creation_tokens, $e.cache_read_tokens]' +
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
  },
];
export default cases;
