/**
 * Every tool of this part of the kit on every producer-faithful scenario,
 * against the results written down by hand in scenarios.ts: wuu-check is
 * silent (or only warns where a user wants to know), wuu-result mirrors the
 * result, wuu-turns and wuu-accumulate get messages, tool calls (bash once),
 * per-turn usage in the exclusive convention and sub-agent threads apart.
 * Inputs are fed in odd chunk sizes through the real runner, in-process.
 */
import t from 'tap';
import { spec as checkSpec } from '../../bin/wuu-check.js';
import { spec as resultSpec } from '../../bin/wuu-result.js';
import { spec as turnsSpec } from '../../bin/wuu-turns.js';
import { spec as accumulateSpec } from '../../bin/wuu-accumulate.js';
import { SCENARIOS, type ExpectedTurn, type Usage } from './scenarios.js';
import { records, runTool } from './harness.js';

interface TurnOut {
  thread_id: string;
  turn_id: string;
  status: string;
  subagent: boolean;
  message: string | null;
  tool_calls: Array<{ item_id: string; name: string; status: string }>;
  usage: null | { input_tokens: number; cache_creation_tokens: number; cache_read_tokens: number; prompt_tokens: number; output_tokens: number; cache_hit: number | null };
}

const asExpected = (r: TurnOut): ExpectedTurn => ({
  thread_id: r.thread_id,
  turn_id: r.turn_id,
  status: r.status as ExpectedTurn['status'],
  message: r.message,
  tools: r.tool_calls.map((c) => [c.item_id, c.name, c.status] as [string, string, string]),
  usage: r.usage && { input: r.usage.input_tokens, cache_creation: r.usage.cache_creation_tokens, cache_read: r.usage.cache_read_tokens, output: r.usage.output_tokens },
});

const sum = (list: Array<Usage | null>): Usage =>
  list.reduce<Usage>(
    (a, u) => (u ? { input: a.input + u.input, cache_creation: a.cache_creation + u.cache_creation, cache_read: a.cache_read + u.cache_read, output: a.output + u.output } : a),
    { input: 0, cache_creation: 0, cache_read: 0, output: 0 },
  );

for (const s of SCENARIOS) {
  const x = s.expected;
  t.test(`${s.name}: ${s.about}`, async (t) => {
    // --- wuu-check: no error on a legitimate stream; the warnings a user wants ---
    const check = await runTool(checkSpec, ['--json', '-q'], s.text, 13);
    const problems = records(check.stdout) as Array<{ rule: string; severity: string }>;
    t.same(problems.filter((p) => p.severity === 'error').map((p) => p.rule), x.check.errors, 'wuu-check: errors');
    t.same(problems.filter((p) => p.severity === 'warning').map((p) => p.rule).sort(), [...x.check.warnings].sort(), 'wuu-check: warnings');
    t.equal(check.code, 0, 'wuu-check: exit 0');

    // --- wuu-result: the status mirrored, the message printed, the error said ---
    const result = await runTool(resultSpec, [], s.text, 13);
    t.equal(result.code, x.result.exit, 'wuu-result: exit status');
    t.equal(result.stdout, x.result.finalMessage === null ? '' : `${x.result.finalMessage}\n`, 'wuu-result: final_message');
    if (x.result.error !== undefined) t.match(result.stderr, `status ${x.result.status}: ${x.result.error}`, 'wuu-result: the error on stderr');
    if (x.result.count > 0) {
      const json = await runTool(resultSpec, ['--json'], s.text);
      const last = s.text.split('\n').filter((l) => l.endsWith('"type":"result"}')).at(-1);
      t.equal(json.stdout, `${last}\n`, 'wuu-result --json: the last result, byte for byte');
    }

    // --- wuu-turns: root turns, sub-agent turns apart, usage in the producer's convention ---
    const turns = await runTool(turnsSpec, ['--only-turns'], s.text, 13);
    t.equal(turns.code, x.cut ? 1 : 0, 'wuu-turns: exit status (a cut line is bad data)');
    const out = records(turns.stdout) as unknown as TurnOut[];
    t.same(out.filter((r) => !r.subagent).map(asExpected), x.turns, 'wuu-turns: root turns');
    t.same(out.filter((r) => r.subagent).map(asExpected), x.childTurns, 'wuu-turns: sub-agent turns, apart');
    t.same(sum(out.filter((r) => !r.subagent).map((r) => asExpected(r).usage)), x.run, 'wuu-turns: the main agent usage, summed over root turns');
    for (const r of out) {
      if (r.usage === null) continue;
      const u = r.usage;
      t.equal(u.prompt_tokens, u.input_tokens + u.cache_creation_tokens + u.cache_read_tokens, `${r.turn_id}: prompt = input + cache write + cache read`);
      t.equal(u.cache_hit, u.prompt_tokens > 0 ? u.cache_read_tokens / u.prompt_tokens : null, `${r.turn_id}: cache hit = read / prompt`);
    }

    // --- wuu-accumulate: one tool_call per item (bash once), the messages of the root turns ---
    const acc = await runTool(accumulateSpec, [], s.text, 13);
    t.equal(acc.code, x.cut ? 1 : 0, 'wuu-accumulate: exit status');
    const units = records(acc.stdout);
    const calls = units.filter((u) => u.type === 'tool_call').map((u) => `${String(u.thread_id)} ${String(u.item_id)} ${String(u.name)} ${String(u.status)}`);
    const want = [...x.turns, ...x.childTurns].flatMap((turn) => turn.tools.map(([item, name, status]) => `${turn.thread_id} ${item} ${name} ${status}`));
    t.same(calls.sort(), want.sort(), 'wuu-accumulate: tool calls');
    const messages = new Map<string, unknown>();
    for (const u of units) if (u.type === 'agent_message') messages.set(`${String(u.thread_id)} ${String(u.turn_id)}`, u.message);
    const wantMessages = new Map(x.turns.filter((turn) => turn.message !== null).map((turn) => [`${turn.thread_id} ${turn.turn_id}`, turn.message]));
    t.same(Object.fromEntries(messages), Object.fromEntries(wantMessages), 'wuu-accumulate: messages');
    const passed = units.filter((u) => u.type !== 'tool_call' && u.type !== 'agent_message').length;
    const inStream = s.text.split('\n').filter((l) => l.endsWith('}') && !/"type":"(agent_message_(delta|final)|tool_[a-z_]+|command_[a-z_]+)"}$/.test(l)).length;
    t.equal(passed, inStream, 'wuu-accumulate: every other event passed through');
  });
}
