/**
 * The Codex mapping: every captured `codex exec --json` stream (codex-cli
 * 0.171.0, test/fixtures/import/codex/) through wuu-import and then the kit,
 * in process: wuu-check finds no error, wuu-usage's totals are Codex's own
 * (read here straight from the fixture's last turn.completed), wuu-result
 * exits with the run's status, wuu-redact removes the planted secrets; and
 * the mapper's rules on lines the captures do not exercise.
 */
import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { spec as importSpec } from '../bin/wuu-import.js';
import { spec as checkSpec } from '../bin/wuu-check.js';
import { spec as usageSpec } from '../bin/wuu-usage.js';
import { spec as resultSpec } from '../bin/wuu-result.js';
import { spec as redactSpec } from '../bin/wuu-redact.js';
import { spec as filterSpec } from '../bin/wuu-filter.js';
import { spec as accumulateSpec } from '../bin/wuu-accumulate.js';
import { spec as turnsSpec } from '../bin/wuu-turns.js';
import { spec as prettySpec } from '../bin/wuu-pretty.js';
import { createCodexMapper, turnUsage } from '../lib/import/codex.js';
import { goJson } from '../lib/import/encode.js';
import type { ImportedEvent } from '../lib/import/mapper.js';
import { PLANTED_SECRET, PLANTED_TOKEN } from './import/capture-codex.js';
import { ROOT } from './helpers.js';
import { runIn } from './runner-harness.js';

const DIR = path.join(ROOT, 'test', 'fixtures', 'import', 'codex');
const FIXTURES = fs
  .readdirSync(DIR)
  .filter((f) => f.endsWith('.jsonl'))
  .sort();

interface Meta {
  cli_version: string;
  runs: Array<{ exit_code: number | null; model_calls_usage: Array<{ who: string; input: number; cached: number; output: number }> }>;
}

const meta = (name: string): Meta => JSON.parse(fs.readFileSync(path.join(DIR, name.replace(/\.jsonl$/, '.meta.json')), 'utf8')) as Meta;
const rawLines = (name: string) =>
  fs
    .readFileSync(path.join(DIR, name), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, any>);
const events = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, any>);

/** What wuu-result must say for each capture: Codex's own exit and last line decide. */
const RESULT_CODE: Record<string, number> = {
  'simple.jsonl': 0,
  'shell.jsonl': 0,
  'patch.jsonl': 0,
  'denied.jsonl': 0,
  'resume.jsonl': 0,
  'subagent.jsonl': 0,
  'api-error.jsonl': 3, // turn.failed, codex exit 1
  'interrupt.jsonl': 7, // SIGINT: Codex wrote no terminal line, codex exit 1
};

t.test('the fixtures are from one recorded CLI version', async (t) => {
  t.same(FIXTURES, Object.keys(RESULT_CODE).sort());
  for (const name of FIXTURES) t.equal(meta(name).cli_version, 'codex-cli 0.171.0', name);
});

for (const name of FIXTURES) {
  t.test(`${name} through wuu-import and the kit`, async (t) => {
    const bytes = fs.readFileSync(path.join(DIR, name));
    const imported = await runIn(importSpec, [path.join(DIR, name)]);
    t.equal(imported.code, 0, 'imported');
    t.equal(imported.stderr, '');
    const out = imported.stdout;

    // Fed in odd chunk sizes, the output is the same bytes.
    for (const size of [1, 7, 4093]) {
      const pieces: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
      t.equal((await runIn(importSpec, [], pieces)).stdout, out, `${size}-byte chunks`);
    }

    const check = await runIn(checkSpec, [], out);
    t.match(check.stderr, /checked 1 file: 0 errors/, 'wuu-check: no error');
    t.equal(check.code, 0);

    const result = await runIn(resultSpec, [], out);
    t.equal(result.code, RESULT_CODE[name], `wuu-result exit ${RESULT_CODE[name]}`);
    const codexExit = meta(name).runs.at(-1)!.exit_code;
    t.equal(codexExit === 0, result.code === 0, 'wuu-result succeeds exactly when codex exec did');

    // Codex's own totals: the thread's last running total, read from the raw capture.
    const last = rawLines(name)
      .filter((l) => l.type === 'turn.completed')
      .at(-1)?.usage as Record<string, number> | undefined;
    const usage = await runIn(usageSpec, ['--json'], out);
    const total = events(usage.stdout).find((e) => e.kind === 'total')!;
    const want = last ?? { input_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 0 };
    t.equal(total.prompt_tokens, want.input_tokens, 'prompt tokens = Codex input_tokens');
    t.equal(total.cache_read_tokens, want.cached_input_tokens, 'cache reads = Codex cached_input_tokens');
    t.equal(total.input_tokens, want.input_tokens! - want.cached_input_tokens! - want.cache_write_input_tokens!, 'input excludes the cache');
    t.equal(total.output_tokens, want.output_tokens, 'output = Codex output_tokens');
    // ... which are the parent's model calls as the fake server handed them out (sub-agents apart).
    if (last !== undefined) {
      const calls = meta(name).runs.flatMap((r) => r.model_calls_usage).filter((c) => c.who === 'main');
      t.equal(total.prompt_tokens, calls.reduce((s, c) => s + c.input, 0), 'prompt = the main thread model calls');
      t.equal(total.output_tokens, calls.reduce((s, c) => s + c.output, 0), 'output = the main thread model calls');
    }

    // Every other tool reads it without complaint.
    for (const [tool, args] of [
      [filterSpec, ['--count']],
      [accumulateSpec, []],
      [turnsSpec, []],
      [prettySpec, ['--color', 'never']],
      [prettySpec, ['--html']],
      [redactSpec, []],
    ] as const) {
      const r = await runIn(tool, [...args], out);
      t.same([r.code, r.stderr], [0, ''], `${tool.name} ${args.join(' ')}`);
      t.not(r.stdout, '', `${tool.name}: output`);
    }

    const first = events(out)[0]!;
    t.same(first, { effort: '', max_parallel: 0, model: '', permissions: {}, protocol_version: '', provider: '', source: { producer: 'codex' }, type: 'session_configured', variant: '', workspace_root: '' });
  });
}

t.test('shell: bash tools, a failing exit code, secrets gone after wuu-redact', async (t) => {
  const out = (await runIn(importSpec, [path.join(DIR, 'shell.jsonl')])).stdout;
  const evs = events(out);
  const tools = evs.filter((e) => e.type.startsWith('tool_'));
  t.same(
    tools.map((e) => e.type),
    ['tool_started', 'tool_output_delta', 'tool_completed', 'tool_started', 'tool_output_delta', 'tool_completed'],
  );
  const started = tools.filter((e) => e.type === 'tool_started');
  t.same(started.map((e) => e.name), ['bash', 'bash']);
  t.same(JSON.parse(started[1]!.arguments), { command: "/bin/bash -lc 'echo failing >&2; exit 3'" });
  t.same(tools[5], { error: 'exit code 3', item_id: started[1]!.item_id, name: 'bash', status: 'failed', thread_id: evs[1]!.thread_id, turn_id: evs[2]!.turn_id, type: 'tool_completed' });
  t.equal(tools[4]!.delta, 'failing\n');
  t.match(tools[2]!, { status: 'completed', error: '' });
  t.ok(out.includes(PLANTED_SECRET) && out.includes(PLANTED_TOKEN), 'both secrets reach the imported stream (output and command line)');
  t.same(JSON.parse(started[0]!.arguments), { command: rawLines('shell.jsonl')[4]!.item.command }, 'the command as Codex reported it');
  const redacted = await runIn(redactSpec, [], out);
  t.notOk(redacted.stdout.includes(PLANTED_SECRET), 'the AWS key planted in the output is gone');
  t.notOk(redacted.stdout.includes(PLANTED_TOKEN), 'the token planted in the command line is gone');
  t.notOk(redacted.stdout.includes(PLANTED_TOKEN.slice(4)), 'no part of it is left');
});

t.test("simple: the wuu producer's encoding", async (t) => {
  const out = (await runIn(importSpec, [path.join(DIR, 'simple.jsonl')])).stdout;
  t.match(out, /"message":"Hello! \\u003cok\\u003e \\u0026 done\.","thread_id"/, 'HTML escaping, keys sorted');
  t.notMatch(out, /[<>&]/, 'no raw < > &');
});

t.test('patch: file_changed per path after the tool', async (t) => {
  const evs = events((await runIn(importSpec, [path.join(DIR, 'patch.jsonl')])).stdout);
  const types = evs.map((e) => e.type);
  const done = types.indexOf('tool_completed');
  t.same(types.slice(done, done + 3), ['tool_completed', 'file_changed', 'file_changed']);
  const changed = evs.filter((e) => e.type === 'file_changed');
  t.same(
    changed.map((e) => [path.basename(e.path), e.action, e.tool_name]),
    [
      ['a.txt', 'edit', 'apply_patch'],
      ['new.txt', 'create', 'apply_patch'],
    ],
  );
  t.equal(evs.find((e) => e.type === 'tool_started')!.name, 'apply_patch');
});

t.test('subagent: collab calls give subagent events', async (t) => {
  const evs = events((await runIn(importSpec, [path.join(DIR, 'subagent.jsonl')])).stdout);
  const child = rawLines('subagent.jsonl').find((l) => l.type === 'item.completed' && l.item.tool === 'spawn_agent')!.item.receiver_thread_ids[0];
  const agents = evs.filter((e) => e.type.startsWith('subagent_'));
  t.same(
    agents.map((e) => [e.type, e.agent_id, e.status]),
    [
      ['subagent_started', child, 'pending'],
      ['subagent_completed', child, 'completed'],
    ],
  );
  t.equal(agents[0]!.description, 'Count to three');
  t.equal(agents[1]!.result, 'One, two, three.');
  const usage = events((await runIn(usageSpec, ['--json'], evs.map((e) => JSON.stringify(e)).join('\n') + '\n')).stdout).find((e) => e.kind === 'total')!;
  t.equal(usage.subagents.prompt_tokens, 0, "the child's tokens are not in Codex's stream");
});

t.test('resume: one thread, turns and usage continue', async (t) => {
  const evs = events((await runIn(importSpec, [path.join(DIR, 'resume.jsonl')])).stdout);
  t.same(
    evs.filter((e) => e.type.startsWith('thread_') || e.type === 'session_configured').map((e) => e.type),
    ['session_configured', 'thread_started', 'thread_resumed'],
  );
  const usage = evs.filter((e) => e.type === 'usage_updated');
  t.same(
    usage.map((e) => [e.turn_id.slice(-4), e.input_tokens, e.cache_read_tokens, e.output_tokens]),
    [
      ['0001', 5300, 0, 9],
      ['0002', 5700 - 5248, 5248, 11],
    ],
    'the second turn is the difference of the running totals (5300 + 5700 = 11000)',
  );
  t.equal(evs.filter((e) => e.type === 'result').length, 1, 'one result, at the end');
});

t.test('api-error: retry notices apart from the fatal error', async (t) => {
  const evs = events((await runIn(importSpec, [path.join(DIR, 'api-error.jsonl')])).stdout);
  t.same(
    evs.slice(3).map((e) => [e.type, e.retrying]),
    [
      ['error', true],
      ['error', false],
      ['turn_failed', undefined],
      ['result', undefined],
    ],
  );
  t.match(evs.at(-1), { status: 'failed', final_message: '', error: evs.at(-2)!.error });
});

t.test('interrupt: no terminal event, no result', async (t) => {
  const evs = events((await runIn(importSpec, [path.join(DIR, 'interrupt.jsonl')])).stdout);
  t.equal(evs.at(-1)!.type, 'tool_started');
  t.notOk(evs.some((e) => e.type === 'result' || e.type.startsWith('turn_') && e.type !== 'turn_started'));
});

t.test('turnUsage: differences of running totals, in wuu convention', async (t) => {
  const z = { input: 0, cached: 0, cacheWrite: 0, output: 0 };
  t.same(turnUsage(z, { input: 100, cached: 60, cacheWrite: 10, output: 5 }), { input_tokens: 30, cache_read_tokens: 60, cache_creation_tokens: 10, output_tokens: 5 });
  t.same(turnUsage({ input: 100, cached: 60, cacheWrite: 10, output: 5 }, { input: 250, cached: 160, cacheWrite: 10, output: 9 }), {
    input_tokens: 50,
    cache_read_tokens: 100,
    cache_creation_tokens: 0,
    output_tokens: 4,
  });
  t.same(turnUsage(z, { input: 100, cached: 90, cacheWrite: 40, output: 1 }), { input_tokens: 10, cache_read_tokens: 90, cache_creation_tokens: 40, output_tokens: 1 }, 'cache writes that do not fit inside the input stay apart');
  t.same(turnUsage({ input: 500, cached: 0, cacheWrite: 0, output: 50 }, { input: 100, cached: 0, cacheWrite: 0, output: 10 }), { input_tokens: 100, cache_read_tokens: 0, cache_creation_tokens: 0, output_tokens: 10 }, 'a lower total is a fresh count');
});

/** Runs lines through a fresh mapper; returns every event with its end. */
function map(lines: Array<Record<string, unknown>>): ImportedEvent[] {
  const m = createCodexMapper();
  return [...lines.flatMap((l) => m.line(l)), ...m.end()];
}
const START = [{ type: 'thread.started', thread_id: 'th' }, { type: 'turn.started' }];
const DONE = { type: 'turn.completed', usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 2 } };
const T = 'th-turn-0001';

t.test('mapper: tool kinds the captures do not show', async (t) => {
  const evs = map([
    ...START,
    { type: 'item.started', item: { id: 'item_1', type: 'mcp_tool_call', server: 'docs', tool: 'search', arguments: { q: 'x' }, status: 'in_progress' } },
    { type: 'item.completed', item: { id: 'item_1', type: 'mcp_tool_call', server: 'docs', tool: 'search', arguments: { q: 'x' }, result: { content: [{ type: 'text', text: 'found' }, { type: 'image', data: 'AA' }], structured_content: null }, status: 'completed' } },
    { type: 'item.completed', item: { id: 'item_2', type: 'mcp_tool_call', server: 'docs', tool: 'fetch', arguments: null, result: { content: [], structured_content: { n: 1 } }, error: { message: 'boom' }, status: 'failed' } },
    { type: 'item.started', item: { id: 'item_3', type: 'web_search', query: 'wuu' } },
    { type: 'item.completed', item: { id: 'item_3', type: 'web_search', query: 'wuu' } },
    { type: 'item.completed', item: { id: 'item_4', type: 'command_execution', command: 'rm -rf /', aggregated_output: '', exit_code: null, status: 'declined' } },
    { type: 'item.completed', item: { id: 'item_5', type: 'file_change', changes: [{ path: '/x', kind: 'delete' }], status: 'failed' } },
    { type: 'item.started', item: { id: 'item_6', type: 'file_change', changes: [{ path: '/y', kind: 'update' }], status: 'in_progress' } },
    { type: 'item.updated', item: { id: 'item_6', type: 'file_change', changes: [{ path: '/y', kind: 'update' }, { path: '/z', kind: 'rename' }], status: 'in_progress' } },
    { type: 'item.completed', item: { id: 'item_6', type: 'file_change', changes: [{ path: '/y', kind: 'update' }, { path: '/z', kind: 'rename' }], status: 'completed' } },
    { type: 'item.completed', item: { id: 'item_7', type: 'reasoning', text: 'thinking' } },
    { type: 'item.completed', item: { id: 'item_8', type: 'error', message: 'a warning' } },
    { type: 'item.completed', item: { id: 'item_9', type: 'command_execution', command: 'x', aggregated_output: '', exit_code: null, status: 'in_progress' } },
    { type: 'item.started', item: { id: 'item_10', type: 'agent_message', text: 'ignored' } },
    { type: 'request_user_input', id: 'x' },
    DONE,
  ]);
  const tools = evs.filter((e) => e.type.startsWith('tool_') || e.type === 'file_changed');
  t.same(
    tools.map((e) => [e.type, e.name ?? e.path, e.status, e.error]),
    [
      ['tool_started', 'docs.search', undefined, undefined],
      ['tool_output_delta', undefined, undefined, undefined],
      ['tool_completed', 'docs.search', 'completed', ''],
      ['tool_started', 'docs.fetch', undefined, undefined],
      ['tool_output_delta', undefined, undefined, undefined],
      ['tool_completed', 'docs.fetch', 'failed', 'boom'],
      ['tool_started', 'web_search', undefined, undefined],
      ['tool_completed', 'web_search', 'completed', ''],
      ['tool_started', 'bash', undefined, undefined],
      ['tool_completed', 'bash', 'failed', 'declined'],
      ['tool_started', 'apply_patch', undefined, undefined],
      ['tool_completed', 'apply_patch', 'failed', 'failed'],
      ['tool_started', 'apply_patch', undefined, undefined],
      ['tool_completed', 'apply_patch', 'completed', ''],
      ['file_changed', '/y', undefined, undefined],
      ['file_changed', '/z', undefined, undefined],
      ['tool_started', 'bash', undefined, undefined],
      ['tool_completed', 'bash', 'in_progress', ''],
    ],
  );
  t.equal(tools[1]!.delta, 'found\n{"data":"AA","type":"image"}');
  t.equal(tools[4]!.delta, '{"n":1}');
  t.equal(tools[0]!.arguments, '{"q":"x"}');
  t.equal(tools[3]!.arguments, 'null');
  t.equal(tools[6]!.arguments, '{"query":"wuu"}');
  t.same([tools[14]!.action, tools[15]!.action], ['edit', undefined], 'an unknown kind has no action');
  t.equal(tools[14]!.item_id, `${T}-item_6`);
  t.notOk(evs.some((e) => JSON.stringify(e).includes('thinking') || JSON.stringify(e).includes('a warning') || JSON.stringify(e).includes('ignored')), 'reasoning, warnings and started messages are left out');
  t.match(evs.at(-1), { type: 'result', status: 'completed', final_message: '' });
  t.notOk(evs.some((e) => e.type === 'agent_message_final'), 'no message, no final');
});

t.test('mapper: messages, plans, todos', async (t) => {
  const evs = map([
    ...START,
    { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'first' } },
    { type: 'item.started', item: { id: 'item_2', type: 'todo_list', items: [{ text: 'a', completed: false }] } },
    { type: 'item.updated', item: { id: 'item_2', type: 'todo_list', items: [{ text: 'a', completed: true }] } },
    { type: 'item.completed', item: { id: 'item_2', type: 'todo_list', items: [{ text: 'a', completed: true }] } },
    { type: 'item.completed', item: { id: 'item_3', type: 'agent_message', text: 'second' } },
    { type: 'item.completed', item: { id: 'item_4', type: 'plan', text: 'the plan' } },
    DONE,
  ]);
  t.same(
    evs.filter((e) => e.type.startsWith('agent_')).map((e) => [e.type, e.delta ?? e.message]),
    [
      ['agent_message_delta', 'first'],
      ['agent_message_delta', 'second'],
      ['agent_message_final', 'second'],
    ],
  );
  const todos = evs.filter((e) => e.type === 'todo_updated');
  t.equal(todos.length, 2, 'todo_list started and updated (its completion repeats the last)');
  t.same(JSON.parse(JSON.stringify((todos[1]!.todo as { fields: unknown }).fields)), [['todos', [{ fields: [['content', 'a'], ['status', 'completed']] }]]]);
  t.match(evs.at(-1), { type: 'result', final_message: 'second' });
  const plan = map([...START, { type: 'item.completed', item: { id: 'item_1', type: 'plan', text: 'only a plan' } }, DONE]);
  t.match(plan.find((e) => e.type === 'agent_message_final'), { message: 'only a plan' });
});

t.test('mapper: sub-agent states', async (t) => {
  const collab = (id: string, tool: string, states: Record<string, unknown>, status = 'completed') => ({
    type: 'item.completed',
    item: { id, type: 'collab_tool_call', tool, sender_thread_id: 'th', receiver_thread_ids: Object.keys(states).concat(''), prompt: null, agents_states: states, status },
  });
  const evs = map([
    ...START,
    collab('item_1', 'spawn_agent', { a: { status: 'running', message: null }, b: { status: 'pending_init', message: null } }),
    collab('item_2', 'send_input', { a: { status: 'running', message: null } }),
    collab('item_3', 'wait', { a: { status: 'errored', message: 'it broke' }, b: { status: 'not_found', message: null } }),
    collab('item_4', 'close_agent', { a: { status: 'shutdown', message: null }, b: { status: 'shutdown', message: null } }),
    DONE,
  ]);
  t.same(
    evs.filter((e) => e.type.startsWith('subagent_')).map((e) => [e.type, e.agent_id, e.status, e.error ?? e.result]),
    [
      ['subagent_started', 'a', 'running', undefined],
      ['subagent_started', 'b', 'pending', undefined],
      ['subagent_updated', 'a', 'running', undefined],
      ['subagent_completed', 'a', 'failed', 'it broke'],
      ['subagent_completed', 'b', 'cancelled', undefined],
    ],
    'not_found says nothing; closing a finished agent says nothing new',
  );
  t.equal(evs.find((e) => e.type === 'tool_output_delta' && String(e.delta).includes('it broke'))?.delta, 'a: errored: it broke\nb: not_found');
});

t.test('mapper: process boundaries and errors', async (t) => {
  // A second process of the same thread after an interrupted one: the open turn is closed.
  const evs = map([...START, { type: 'thread.started', thread_id: 'th' }, { type: 'turn.started' }, { type: 'turn.started' }, DONE]);
  t.same(
    evs.filter((e) => e.type.startsWith('turn_') || e.type.startsWith('thread_')).map((e) => [e.type, e.turn_id ?? e.thread_id, e.reason]),
    [
      ['thread_started', 'th', undefined],
      ['turn_started', T, undefined],
      ['turn_interrupted', T, 'interrupted'],
      ['thread_resumed', 'th', undefined],
      ['turn_started', 'th-turn-0002', undefined],
      ['turn_interrupted', 'th-turn-0002', 'interrupted'],
      ['turn_started', 'th-turn-0003', undefined],
      ['turn_completed', 'th-turn-0003', undefined],
    ],
  );
  t.equal(evs.filter((e) => e.type === 'session_configured').length, 1);
  // A reconnect notice is a retry, written at once; another error waits for the next line.
  const m = createCodexMapper();
  [...START].forEach((l) => m.line(l));
  t.match(m.line({ type: 'error', message: 'Reconnecting... 2/5 (stream disconnected)' }), [{ type: 'error', retrying: true, turn_id: T }], 'live');
  t.same(m.line({ type: 'error', message: 'first' }), [], 'held');
  t.match(m.line({ type: 'error', message: 'second' }), [{ type: 'error', error: 'first', retrying: true }], 'an error followed by another was retried');
  t.match(m.line({ type: 'item.completed', item: { id: 'item_1', type: 'reasoning', text: 'x' } }), [{ error: 'second', retrying: true }]);
  t.same(m.line({ type: 'error', message: 'fatal' }), []);
  t.match(m.line({ type: 'turn.failed', error: { message: 'fatal' } }), [{ type: 'error', error: 'fatal', retrying: false }, { type: 'turn_failed', error: 'fatal' }]);
  t.match(map([...START, { type: 'error', message: 'stream disconnected' }]).at(-1), { type: 'error', retrying: false }, 'the last line of a stream: fatal');
  t.notOk(map([...START, { type: 'error', message: 'x' }]).some((e) => e.type === 'result'), 'no turn end, no result');
  // Lines outside a turn, and a turn end without a start.
  const stray = map([
    { type: 'thread.started', thread_id: 'th' },
    { type: 'item.started', item: { id: 'item_1', type: 'command_execution', command: 'x' } },
    { type: 'item.completed', item: { id: 'item_2', type: 'agent_message', text: 'hi' } },
    { type: 'item.completed', item: { id: 'item_3', type: 'plan', text: 'p' } },
    { type: 'item.completed', item: { id: 'item_4', type: 'todo_list', items: [] } },
    { type: 'item.completed', item: { id: 'item_5', type: 'command_execution', command: 'x' } },
    { type: 'turn.failed', error: { message: 'bad' } },
  ]);
  t.same(
    stray.map((e) => e.type),
    ['session_configured', 'thread_started', 'result'],
  );
  t.match(stray.at(-1), { status: 'failed', error: 'bad', turn_id: '' });
  const odd = map([{ type: 'thread.started', thread_id: 7 }, { type: 'turn.started' }, { type: 'turn.completed', usage: { input_tokens: 'x' } }]);
  t.match(odd.find((e) => e.type === 'usage_updated'), { thread_id: '', input_tokens: 0, output_tokens: 0 }, 'odd values read as empty');
  const noThread = map([{ type: 'turn.completed' }]);
  t.same(noThread.map((e) => [e.type, e.status, e.turn_id]), [['result', 'completed', '']]);
});

t.test('mapper: kinds and statuses named like Object members map to nothing', async (t) => {
  const evs = map([
    ...START,
    { type: 'item.completed', item: { id: 'item_1', type: 'file_change', changes: [{ path: '/a', kind: 'constructor' }, { path: '/b', kind: '__proto__' }, { path: '/c', kind: 'toString' }], status: 'completed' } },
    {
      type: 'item.completed',
      item: { id: 'item_2', type: 'collab_tool_call', tool: 'wait', receiver_thread_ids: ['x', 'y'], agents_states: { x: { status: 'constructor' }, y: { status: 'hasOwnProperty' } }, status: 'completed' },
    },
    DONE,
  ]);
  const changed = evs.filter((e) => e.type === 'file_changed');
  t.same(
    changed.map((e) => [e.path, Object.hasOwn(e, 'action')]),
    [
      ['/a', false],
      ['/b', false],
      ['/c', false],
    ],
  );
  t.notOk(
    evs.some((e) => e.type.startsWith('subagent_')),
    'no sub-agent status',
  );
  t.doesNotThrow(() => evs.map((e) => goJson(e)), 'every event encodes');
});
