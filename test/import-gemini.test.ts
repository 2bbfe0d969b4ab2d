/**
 * The Gemini CLI mapping (lib/import/gemini.ts): tables over small
 * hand-written stream-json lines, then every captured fixture of the real CLI
 * (test/fixtures/import/gemini/, see test/import/capture-gemini.ts) through
 * the tools: wuu-check finds no error, wuu-usage totals equal the producer's
 * `result.stats`, wuu-result exits with the run's status, wuu-redact removes
 * the secrets planted in tool input. Expected figures are read from the raw
 * Gemini lines, never from the mapper.
 */
import t from 'tap';
import fc from 'fast-check';
import fs from 'node:fs';
import path from 'node:path';
import { createGeminiMapper } from '../lib/import/gemini.js';
import type { ImportedEvent } from '../lib/import/mapper.js';
import { RESULT_EXIT } from '../lib/result/index.js';
import { FC_SEED, ROOT, runBin } from './helpers.js';
// The encoder: moves to lib/import/encode.ts with the import core (the one place to repoint).
import { goLine } from '../lib/import/encode.js';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'import', 'gemini');
const S = 'sess-1';
const TS = '2026-12-03T10:00:00.000Z';
const TURN = `${S}-turn-20261203100000000`;

type Obj = Record<string, unknown>;

/** Maps parsed Gemini lines (and the end of input) to wuu events. */
function mapAll(lines: Obj[]): ImportedEvent[] {
  const m = createGeminiMapper();
  const out: ImportedEvent[] = [];
  for (const l of lines) out.push(...m.line(l));
  out.push(...m.end());
  return out;
}

/** The wuu stream for a Gemini stream's text, encoded as the producer encodes. */
function importText(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Obj);
  return mapAll(lines).map((e) => goLine(e)).join('');
}

/** Events without their timestamps (checked once, separately), for short tables. */
const bare = (events: ImportedEvent[]) =>
  events.map((e) => {
    const { timestamp: _ts, ...rest } = e;
    return rest;
  });

const init = (extra: Obj = {}): Obj => ({ type: 'init', timestamp: TS, session_id: S, model: 'gemini-2.5-flash', ...extra });
const user = (content = 'hi'): Obj => ({ type: 'message', timestamp: TS, role: 'user', content });
const say = (content: string): Obj => ({ type: 'message', timestamp: TS, role: 'assistant', content, delta: true });
const stats = (s: Partial<Record<'total_tokens' | 'input_tokens' | 'output_tokens' | 'cached' | 'input', number>>): Obj => ({
  total_tokens: 0,
  input_tokens: 0,
  output_tokens: 0,
  cached: 0,
  input: 0,
  duration_ms: 5,
  tool_calls: 0,
  models: {},
  ...s,
});
const ok = (st: Obj = stats({})): Obj => ({ type: 'result', timestamp: TS, status: 'success', stats: st });
const ids = { thread_id: S, turn_id: TURN };
const HEAD = [
  {
    type: 'session_configured',
    protocol_version: '',
    provider: 'google',
    model: 'gemini-2.5-flash',
    effort: '',
    variant: '',
    max_parallel: 0,
    workspace_root: '',
    permissions: {},
    source: { producer: 'gemini' },
  },
  { type: 'thread_started', thread_id: S, model: 'gemini-2.5-flash', provider: 'google', cwd: '' },
  { type: 'turn_started', ...ids },
];
const usage = (input: number, cacheRead: number, output: number) => ({
  type: 'usage_updated',
  ...ids,
  input_tokens: input,
  output_tokens: output,
  cache_creation_tokens: 0,
  cache_read_tokens: cacheRead,
});
const completed = (input: number, output: number) => ({
  type: 'turn_completed',
  ...ids,
  input_tokens: input,
  output_tokens: output,
  trace_path: '',
  awaiting_auto_continuation: false,
});
const result = (status: string, final: string, error?: string) => ({
  type: 'result',
  status,
  thread_id: S,
  turn_id: TURN,
  run_id: '',
  final_message: final,
  trace_path: '',
  ...(error !== undefined ? { error } : {}),
});

t.test('a plain answer: deltas, a synthesized final message, usage in the exclusive convention', async (t) => {
  const events = mapAll([init(), user(), say('Hel'), say('lo'), ok(stats({ total_tokens: 1052, input_tokens: 1000, cached: 600, input: 400, output_tokens: 12 }))]);
  t.same(bare(events), [
    ...HEAD,
    { type: 'agent_message_delta', ...ids, delta: 'Hel' },
    { type: 'agent_message_delta', ...ids, delta: 'lo' },
    { type: 'agent_message_final', ...ids, message: 'Hello' },
    usage(400, 600, 12),
    completed(400, 12),
    result('completed', 'Hello'),
  ]);
  t.ok(
    events.every((e) => e.timestamp === TS),
    'every event keeps the line timestamp',
  );
  t.equal(events[0]!.type, 'session_configured', 'session_configured first');
});

t.test('the turn id comes from the prompt timestamp, so a resumed session gets a new one', async (t) => {
  const first = mapAll([init(), user(), ok()]);
  const again = mapAll([init({ timestamp: '2026-12-03T11:00:00.500Z' }), { ...user(), timestamp: '2026-12-03T11:00:00.500Z' }, ok()]);
  t.equal(first.find((e) => e.type === 'turn_started')!.turn_id, TURN);
  t.equal(again.find((e) => e.type === 'turn_started')!.turn_id, `${S}-turn-20261203110000500`);
  // No timestamp: a counter instead.
  const plain = mapAll([{ type: 'init', session_id: S, model: 'm' }, { type: 'message', role: 'user', content: 'x' }]);
  t.same(bare(plain).at(-1), { type: 'turn_started', thread_id: S, turn_id: `${S}-turn-0001` });
  t.notOk('timestamp' in plain[0]!, 'no timestamp invented');
});

t.test('a shell call is bash with {"command"} arguments; output and a failure', async (t) => {
  const params = { command: 'ls /nope', description: 'list', dir_path: 'sub' };
  const events = mapAll([
    init(),
    user(),
    { type: 'tool_use', timestamp: TS, tool_name: 'run_shell_command', tool_id: 'c1', parameters: params },
    { type: 'tool_result', timestamp: TS, tool_id: 'c1', status: 'success', output: 'ls: cannot access' },
    { type: 'tool_use', timestamp: TS, tool_name: 'read_file', tool_id: 'c2', parameters: { file_path: 'x' } },
    { type: 'tool_result', timestamp: TS, tool_id: 'c2', status: 'error', output: 'File not found.', error: { type: 'file_not_found', message: 'File not found: /w/x' } },
    { type: 'tool_use', timestamp: TS, tool_name: 'glob', tool_id: 'c3', parameters: {} },
    { type: 'tool_result', timestamp: TS, tool_id: 'c3', status: 'error' },
    ok(),
  ]);
  t.same(bare(events).slice(3, 11), [
    { type: 'tool_started', ...ids, item_id: 'c1', name: 'bash', arguments: '{"command":"ls /nope"}' },
    { type: 'tool_output_delta', ...ids, item_id: 'c1', delta: 'ls: cannot access' },
    { type: 'tool_completed', ...ids, item_id: 'c1', name: 'bash', status: 'completed', error: '' },
    { type: 'tool_started', ...ids, item_id: 'c2', name: 'read_file', arguments: '{"file_path":"x"}' },
    { type: 'tool_output_delta', ...ids, item_id: 'c2', delta: 'File not found.' },
    { type: 'tool_completed', ...ids, item_id: 'c2', name: 'read_file', status: 'failed', error: 'File not found: /w/x' },
    { type: 'tool_started', ...ids, item_id: 'c3', name: 'glob', arguments: '{}' },
    { type: 'tool_completed', ...ids, item_id: 'c3', name: 'glob', status: 'failed', error: '' },
  ]);
  t.equal(JSON.parse(events[3]!.arguments as string).command, 'ls /nope', 'arguments are JSON text');
});

t.test('a failed tool with output but no error object: the output is the error', async (t) => {
  const events = mapAll([
    init(),
    user(),
    { type: 'tool_use', tool_name: 'x', tool_id: 'c', parameters: null },
    { type: 'tool_result', tool_id: 'c', status: 'error', output: 'boom' },
  ]);
  t.same(bare(events).slice(3), [
    { type: 'tool_started', ...ids, item_id: 'c', name: 'x', arguments: '{}' },
    { type: 'tool_output_delta', ...ids, item_id: 'c', delta: 'boom' },
    { type: 'tool_completed', ...ids, item_id: 'c', name: 'x', status: 'failed', error: 'boom' },
  ]);
});

t.test('file edits give file_changed after success only; write_todos gives todo_updated', async (t) => {
  const events = mapAll([
    init(),
    user(),
    { type: 'tool_use', tool_name: 'write_file', tool_id: 'w', parameters: { file_path: 'a.txt', content: 'x' } },
    { type: 'tool_result', tool_id: 'w', status: 'success' },
    { type: 'tool_use', tool_name: 'replace', tool_id: 'r', parameters: { file_path: 'a.txt', old_string: 'x', new_string: 'y' } },
    { type: 'tool_result', tool_id: 'r', status: 'success' },
    { type: 'tool_use', tool_name: 'replace', tool_id: 'bad', parameters: { file_path: 'b.txt' } },
    { type: 'tool_result', tool_id: 'bad', status: 'error', error: { type: 'edit_no_occurrence_found', message: 'no match' } },
    { type: 'tool_use', tool_name: 'write_file', tool_id: 'nopath', parameters: { content: 'x' } },
    { type: 'tool_result', tool_id: 'nopath', status: 'success' },
    { type: 'tool_use', tool_name: 'write_todos', tool_id: 't', parameters: { todos: [{ description: 'Fix it', status: 'in_progress' }, 'junk'] } },
    { type: 'tool_result', tool_id: 't', status: 'success' },
    { type: 'tool_use', tool_name: 'write_todos', tool_id: 't2', parameters: { todos: 'not a list' } },
    { type: 'tool_result', tool_id: 't2', status: 'success' },
  ]);
  const derived = bare(events).filter((e) => e.type === 'file_changed' || e.type === 'todo_updated');
  t.same(derived, [
    { type: 'file_changed', ...ids, item_id: 'w', tool_name: 'write_file', path: 'a.txt' },
    { type: 'file_changed', ...ids, item_id: 'r', tool_name: 'replace', path: 'a.txt', action: 'edit' },
    {
      type: 'todo_updated',
      ...ids,
      todo: {
        todos: [
          { content: 'Fix it', status: 'in_progress' },
          { content: '', status: '' },
        ],
      },
    },
  ]);
});

t.test('invoke_agent is a tool call and a sub-agent (no tokens of its own in the stream)', async (t) => {
  const params = { agent_name: 'generalist', prompt: 'Look around.' };
  const events = bare(
    mapAll([
      init(),
      user(),
      { type: 'tool_use', tool_name: 'invoke_agent', tool_id: 'a1', parameters: params },
      { type: 'tool_result', tool_id: 'a1', status: 'success', output: 'found it' },
      { type: 'tool_use', tool_name: 'invoke_agent', tool_id: 'a2', parameters: params },
      { type: 'tool_result', tool_id: 'a2', status: 'error', error: { type: 'x', message: 'agent failed' } },
    ]),
  );
  const agents = events.filter((e) => String(e.type).startsWith('subagent_'));
  const sub = { thread_id: S, agent_type: 'generalist', description: 'Look around.' };
  t.same(agents, [
    { type: 'subagent_started', ...sub, agent_id: 'a1', status: 'running' },
    { type: 'subagent_completed', ...sub, agent_id: 'a1', status: 'completed', result: 'found it' },
    { type: 'subagent_started', ...sub, agent_id: 'a2', status: 'running' },
    { type: 'subagent_completed', ...sub, agent_id: 'a2', status: 'failed', error: 'agent failed' },
  ]);
  t.ok(
    agents.every((e) => !('input_tokens' in e)),
    'no token fields invented',
  );
});

t.test('a tool_result without its tool_use, and a repeated tool_use', async (t) => {
  const events = bare(
    mapAll([
      init(),
      user(),
      { type: 'tool_use', tool_name: 'glob', tool_id: 'g', parameters: {} },
      { type: 'tool_use', tool_name: 'glob', tool_id: 'g', parameters: {} },
      { type: 'tool_result', tool_id: 'orphan', status: 'success', output: 'x' },
    ]),
  );
  t.same(events.slice(3), [
    { type: 'tool_started', ...ids, item_id: 'g', name: 'glob', arguments: '{}' },
    { type: 'tool_started', ...ids, item_id: 'orphan', name: '', arguments: '' },
    { type: 'tool_output_delta', ...ids, item_id: 'orphan', delta: 'x' },
    { type: 'tool_completed', ...ids, item_id: 'orphan', name: '', status: 'completed', error: '' },
  ]);
});

t.test('a tool_id used again in the turn gets a fresh item id', async (t) => {
  const events = bare(
    mapAll([
      init(),
      user(),
      { type: 'tool_use', tool_name: 'glob', tool_id: 'g', parameters: {} },
      { type: 'tool_result', tool_id: 'g', status: 'success' },
      { type: 'tool_use', tool_name: 'glob', tool_id: 'g', parameters: {} },
      { type: 'tool_result', tool_id: 'g', status: 'success' },
      { type: 'tool_result', tool_id: 'g', status: 'success' },
    ]),
  );
  t.same(
    events.filter((e) => e.type === 'tool_started' || e.type === 'tool_completed').map((e) => [e.type, e.item_id, e.name]),
    [
      ['tool_started', 'g', 'glob'],
      ['tool_completed', 'g', 'glob'],
      ['tool_started', 'g#2', 'glob'],
      ['tool_completed', 'g#2', 'glob'],
      ['tool_started', 'g#3', ''],
      ['tool_completed', 'g#3', ''],
    ],
  );
});

t.test('errors: warnings are not fatal; an error result fails the turn', async (t) => {
  const warn: Obj = { type: 'error', timestamp: TS, severity: 'warning', message: 'Loop detected, stopping execution' };
  const events = bare(mapAll([init(), user(), warn, say('done'), ok()]));
  t.same(events.slice(3, 5), [
    { type: 'error', ...ids, run_id: '', error: 'Loop detected, stopping execution', retrying: false, severity: 'warning' },
    { type: 'agent_message_delta', ...ids, delta: 'done' },
  ]);
  t.same(events.at(-1), result('completed', 'done'));

  // The invalid-stream path: an error-severity event, then a result `error` with no error object.
  const bad: Obj = { type: 'error', severity: 'error', message: 'The model returned an empty response' };
  const failed = bare(mapAll([init(), user(), bad, { type: 'result', status: 'error', stats: stats({ input_tokens: 10, input: 10 }) }]));
  t.same(failed.slice(-3), [
    usage(10, 0, 0),
    { type: 'turn_failed', ...ids, error: 'The model returned an empty response' },
    result('failed', '', 'The model returned an empty response'),
  ]);

  // A fatal API error: the result's own message.
  const api: Obj = { type: 'result', status: 'error', error: { type: 'unknown', message: '[API Error: 400]' }, stats: stats({}) };
  t.same(bare(mapAll([init(), user(), api])).slice(-3), [usage(0, 0, 0), { type: 'turn_failed', ...ids, error: '[API Error: 400]' }, result('failed', '', '[API Error: 400]')]);
});

t.test('FatalCancellationError is an interrupted turn and run; partial text is the final message', async (t) => {
  const cancel: Obj = { type: 'result', status: 'error', error: { type: 'FatalCancellationError', message: 'Operation cancelled.' }, stats: stats({}) };
  const events = bare(mapAll([init(), user(), say('Once upon'), cancel]));
  t.same(events.slice(3), [
    { type: 'agent_message_delta', ...ids, delta: 'Once upon' },
    usage(0, 0, 0),
    { type: 'turn_interrupted', ...ids, reason: 'interrupted' },
    result('interrupted', 'Once upon', 'Operation cancelled.'),
  ]);
});

t.test('a call still open at the result is removed (Ctrl+C during a tool)', async (t) => {
  const cancel: Obj = { type: 'result', status: 'error', error: { type: 'FatalCancellationError', message: 'Operation cancelled.' } };
  const events = bare(mapAll([init(), user(), { type: 'tool_use', tool_name: 'run_shell_command', tool_id: 's', parameters: { command: 'sleep 9' } }, cancel]));
  t.same(events.slice(4), [
    { type: 'tool_removed', ...ids, item_id: 's' },
    { type: 'turn_interrupted', ...ids, reason: 'interrupted' },
    result('interrupted', '', 'Operation cancelled.'),
  ]);
  const done = mapAll([init(), user(), { type: 'tool_use', tool_name: 'glob', tool_id: 'g', parameters: {} }, ok()]);
  const check = await runBin('wuu-check', ['-'], { input: done.map((e) => goLine(e)).join('') });
  t.same([check.code, check.stdout], [0, ''], 'a completed turn with a call that never ended is still valid');
});

t.test('a stream cut before the result gives no result', async (t) => {
  const events = mapAll([init(), user(), say('Once upon'), { type: 'tool_use', tool_name: 'glob', tool_id: 'g', parameters: {} }]);
  t.notOk(
    events.some((e) => e.type === 'result' || e.type.startsWith('turn_') && e.type !== 'turn_started'),
    'no result, no turn end',
  );
  t.same(createGeminiMapper().end(), []);
});

t.test('a failure before the prompt: a bare result, no turn', async (t) => {
  const fatal: Obj = { type: 'result', status: 'error', error: { type: 'FatalInputError', message: 'bad @file' }, stats: stats({}) };
  t.same(bare(mapAll([init(), fatal])), [
    HEAD[0],
    HEAD[1],
    { type: 'result', status: 'failed', thread_id: S, turn_id: '', run_id: '', final_message: '', trace_path: '', error: 'bad @file' },
  ]);
  // No init at all, and a result that spent tokens: the ids the stream gives (none), a turn to hold the usage.
  const orphan = bare(mapAll([{ type: 'result', status: 'success', stats: stats({ input_tokens: 5, input: 5, output_tokens: 1 }) }]));
  t.same(
    orphan.map((e) => e.type),
    ['session_configured', 'thread_started', 'turn_started', 'usage_updated', 'turn_completed', 'result'],
  );
  t.equal(orphan[2]!.turn_id, '-turn-0001');
  t.equal(orphan[0]!.model, '');
});

t.test('stats: input derived when absent, odd values ignored, no stats no usage', async (t) => {
  const pick = (st: unknown) => bare(mapAll([init(), user(), { type: 'result', status: 'success', stats: st }])).filter((e) => e.type === 'usage_updated' || e.type === 'turn_completed');
  t.same(pick({ input_tokens: 100, cached: 30, output_tokens: 7 }), [usage(70, 30, 7), completed(70, 7)], 'input = input_tokens - cached');
  t.same(pick({ input_tokens: 10, cached: 30, output_tokens: 1 }), [usage(0, 30, 1), completed(0, 1)], 'never negative');
  t.same(pick({ output_tokens: 4 }), [usage(0, 0, 4), completed(0, 4)]);
  t.same(pick({ input_tokens: 9 }), [usage(9, 0, 0), completed(9, 0)], 'no cached, no output: zeros');
  t.same(pick({ input_tokens: -1, output_tokens: 'x' }), [completed(0, 0)], 'nothing usable: no snapshot');
  t.same(pick(undefined), [completed(0, 0)]);
  t.same(pick([1, 2]), [completed(0, 0)]);
});

t.test('unknown types, a user message with no init, assistant text without delta, a second init', async (t) => {
  const events = bare(
    mapAll([
      { type: 'future_thing', x: 1 },
      { type: 'message', role: 'assistant', content: 'whole' },
      { type: 'message', role: 'assistant', content: '' },
      { type: 'message', role: 'system', content: 'ignored' },
      { type: 'error', severity: 'warning', message: 'w' },
    ]),
  );
  t.same(
    events.map((e) => e.type),
    ['session_configured', 'thread_started', 'turn_started', 'agent_message_delta', 'error'],
  );
  const errOnly = bare(mapAll([{ type: 'error', severity: 'warning', message: 'early' }]));
  t.same(
    errOnly.map((e) => [e.type, e.turn_id]),
    [
      ['session_configured', undefined],
      ['thread_started', undefined],
      ['error', ''],
    ],
  );
  // Two runs concatenated: each init configures its own session.
  const two = bare(mapAll([init(), user(), ok(), init({ session_id: 'sess-2' }), user(), ok()]));
  t.same(
    two.filter((e) => e.type === 'thread_started' || e.type === 'result').map((e) => [e.type, e.thread_id]),
    [
      ['thread_started', S],
      ['result', S],
      ['thread_started', 'sess-2'],
      ['result', 'sess-2'],
    ],
  );
});

t.test('random Gemini streams: wuu-check finds no error, wuu-usage gives result.stats', async (t) => {
  const step = fc.oneof(
    fc.record({ kind: fc.constant('say' as const), text: fc.string({ maxLength: 6 }) }),
    fc.record({ kind: fc.constant('use' as const), id: fc.nat(3), tool: fc.constantFrom('run_shell_command', 'write_file', 'replace', 'write_todos', 'invoke_agent', 'glob') }),
    fc.record({ kind: fc.constant('res' as const), id: fc.nat(4), ok: fc.boolean(), output: fc.option(fc.string({ maxLength: 6 })) }),
    fc.record({ kind: fc.constant('err' as const), severity: fc.constantFrom('warning', 'error') }),
  );
  const run = fc.record({
    user: fc.boolean(),
    steps: fc.array(step, { maxLength: 14 }),
    end: fc.constantFrom('success', 'error', 'cancel', 'none'),
    prompt: fc.nat(5_000_000),
    cachedPart: fc.double({ min: 0, max: 1, noNaN: true }),
    output: fc.nat(100_000),
  });
  const params: Record<string, Obj> = {
    run_shell_command: { command: 'ls' },
    write_file: { file_path: 'a', content: '' },
    replace: { file_path: 'a', old_string: 'x', new_string: 'y' },
    write_todos: { todos: [{ description: 'd', status: 'pending' }] },
    invoke_agent: { agent_name: 'generalist', prompt: 'p' },
    glob: { pattern: '*' },
  };
  await fc.assert(
    fc.asyncProperty(run, async (r) => {
      const cached = Math.floor(r.prompt * r.cachedPart);
      const lines: Obj[] = [init()];
      if (r.user) lines.push(user());
      for (const s of r.steps) {
        if (s.kind === 'say') lines.push(say(s.text));
        else if (s.kind === 'use') lines.push({ type: 'tool_use', timestamp: TS, tool_name: s.tool, tool_id: `t${s.id}`, parameters: params[s.tool] });
        else if (s.kind === 'res') lines.push({ type: 'tool_result', timestamp: TS, tool_id: `t${s.id}`, status: s.ok ? 'success' : 'error', ...(s.output !== null ? { output: s.output } : {}) });
        else lines.push({ type: 'error', timestamp: TS, severity: s.severity, message: 'm' });
      }
      const st = stats({ input_tokens: r.prompt, cached, input: r.prompt - cached, output_tokens: r.output, total_tokens: r.prompt + r.output });
      if (r.end === 'success') lines.push(ok(st));
      else if (r.end === 'error') lines.push({ type: 'result', timestamp: TS, status: 'error', error: { type: 'unknown', message: 'x' }, stats: st });
      else if (r.end === 'cancel') lines.push({ type: 'result', timestamp: TS, status: 'error', error: { type: 'FatalCancellationError', message: 'c' }, stats: st });
      const wuu = mapAll(lines).map((e) => goLine(e)).join('');
      const check = await runBin('wuu-check', ['--json', '-'], { input: wuu });
      const errors = check.stdout.split('\n').filter((l) => l.includes('"severity":"error"'));
      if (check.code !== 0 || errors.length > 0) throw new Error(`wuu-check: ${errors.join('\n')}\n${wuu}`);
      const usage = await runBin('wuu-usage', ['--json', '--no-cost', '-'], { input: wuu });
      const all = (JSON.parse(usage.stdout.trim().split('\n').at(-1)!) as { all: Record<string, number> }).all;
      const want = r.end === 'none' ? [0, 0, 0] : [r.prompt - cached, cached, r.output];
      return JSON.stringify([all.input_tokens, all.cache_read_tokens, all.output_tokens]) === JSON.stringify(want);
    }),
    { numRuns: 120, seed: FC_SEED },
  );
  t.pass(`held on 120 random streams (seed ${FC_SEED})`);
});

// ---- the captured fixtures through the tools ----

interface Manifest {
  cli: string;
  version: string;
  fixtures: Record<string, { exit: number | string; args: string[] }>;
}
const manifest = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'manifest.json'), 'utf8')) as Manifest;
const names = Object.keys(manifest.fixtures);

t.test('the fixtures are the real CLI, every scenario the issue asks for', async (t) => {
  t.equal(manifest.cli, '@google/gemini-cli');
  t.match(manifest.version, /^\d+\.\d+\.\d+/);
  for (const name of ['simple', 'shell', 'edit', 'subagent', 'api-error', 'denied', 'policy-deny', 'hook-block', 'loop', 'interrupt', 'interrupt-tool', 'killed', 'resume-first', 'resume']) {
    t.ok(names.includes(name), `fixture ${name}`);
    t.ok(fs.existsSync(path.join(FIXTURES, `${name}.jsonl`)), `${name}.jsonl`);
  }
});

/** What wuu-result owes a Gemini run, from its raw last line and the CLI's exit code. */
function expectedExit(raw: Obj[], exit: number | string): number {
  const last = raw.at(-1)!;
  if (last.type !== 'result') return RESULT_EXIT.NO_RESULT;
  if (last.status === 'success') return RESULT_EXIT.COMPLETED;
  if ((last.error as Obj | undefined)?.type === 'FatalCancellationError') {
    if (exit !== 130) throw new Error('Gemini exits 130 on cancellation');
    return RESULT_EXIT.INTERRUPTED;
  }
  return RESULT_EXIT.FAILED;
}

for (const name of names) {
  t.test(`fixture ${name}: wuu-check, wuu-usage, wuu-result, wuu-redact`, async (t) => {
    const text = fs.readFileSync(path.join(FIXTURES, `${name}.jsonl`), 'utf8');
    const raw = text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Obj);
    const wuu = importText(text);

    const check = await runBin('wuu-check', ['-'], { input: wuu });
    const problems = check.stdout.split('\n').filter((l) => l !== '');
    t.same(
      problems.filter((l) => !l.includes(': missing-result: ')),
      [],
      'no problem but a missing result',
    );
    t.match(check.stderr, / 0 errors/);
    t.equal(check.code, 0);
    t.equal(problems.length === 1, raw.at(-1)!.type !== 'result', 'missing-result exactly when the CLI wrote none');

    const res = await runBin('wuu-result', ['-'], { input: wuu });
    t.equal(res.code, expectedExit(raw, manifest.fixtures[name]!.exit), `wuu-result exit (gemini exit ${manifest.fixtures[name]!.exit})`);
    const said = raw.filter((l) => l.type === 'message' && l.role === 'assistant').map((l) => l.content).join('');
    if (res.code !== RESULT_EXIT.NO_RESULT) t.equal(res.stdout, `${said}\n`, 'final message = the concatenated assistant text');

    const usage = await runBin('wuu-usage', ['--json', '--no-cost', '-'], { input: wuu });
    t.equal(usage.code, 0, usage.stderr);
    const total = JSON.parse(usage.stdout.trim().split('\n').at(-1)!) as { all: Record<string, number> };
    const result = raw.find((l) => l.type === 'result');
    const st = (result?.stats ?? { input_tokens: 0, cached: 0, output_tokens: 0 }) as Record<string, number>;
    t.same(
      {
        prompt: total.all.prompt_tokens,
        input: total.all.input_tokens,
        cache_read: total.all.cache_read_tokens,
        cache_creation: total.all.cache_creation_tokens,
        output: total.all.output_tokens,
      },
      { prompt: st.input_tokens, input: st.input_tokens! - st.cached!, cache_read: st.cached, cache_creation: 0, output: st.output_tokens },
      'usage totals = result.stats (prompt incl. cached, cached once)',
    );

    const turns = await runBin('wuu-turns', ['-'], { input: wuu });
    t.equal(turns.code, 0, turns.stderr);
    const records = turns.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Obj)
      .filter((r) => r.type === 'turn');
    const runStatus: Record<number, string> = { [RESULT_EXIT.COMPLETED]: 'completed', [RESULT_EXIT.FAILED]: 'failed', [RESULT_EXIT.INTERRUPTED]: 'interrupted', [RESULT_EXIT.NO_RESULT]: 'incomplete' };
    t.same(
      records.map((r) => r.status),
      [runStatus[expectedExit(raw, manifest.fixtures[name]!.exit)]],
      'one turn per run, ended as the run ended',
    );

    for (const tool of ['wuu-accumulate', 'wuu-pretty']) {
      const ran = await runBin(tool, ['-'], { input: wuu });
      t.same([ran.code, ran.stderr], [0, ''], `${tool} reads it`);
    }

    const redacted = await runBin('wuu-redact', ['-'], { input: wuu });
    t.equal(redacted.code, 0);
    const planted = ['ghp_wuuPlantedGithubToken0123456789abcd', 'AKIAWUUPLANTED7EXAMP'];
    if (text.includes(planted[0]!)) t.ok(wuu.includes(planted[0]!), 'the import keeps what the producer wrote');
    for (const secret of planted) t.notOk(redacted.stdout.includes(secret), `${secret} redacted`);
  });
}

t.test('fixture details: shell is bash, edits give file_changed, todos, resume keeps the thread', async (t) => {
  const events = (name: string) => importText(fs.readFileSync(path.join(FIXTURES, `${name}.jsonl`), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Obj);
  const shell = events('shell');
  const bash = shell.filter((e) => e.type === 'tool_started');
  t.same(
    bash.map((e) => e.name),
    ['bash', 'bash', 'bash'],
  );
  t.same(JSON.parse(bash[0]!.arguments as string), { command: "echo building && printf 'ok\\n'" });
  t.same(
    events('edit')
      .filter((e) => e.type === 'file_changed')
      .map((e) => [e.tool_name, e.path]),
    [
      ['write_file', 'notes.txt'],
      ['replace', 'notes.txt'],
    ],
  );
  t.equal(events('edit').filter((e) => e.type === 'todo_updated').length, 2);
  t.same(
    events('edit')
      .filter((e) => e.type === 'tool_completed' && e.status === 'failed')
      .map((e) => e.name),
    ['read_file'],
  );
  t.same(
    events('denied')
      .filter((e) => e.type === 'tool_completed')
      .map((e) => [e.name, e.status]),
    [['bash', 'failed']],
  );
  t.same(
    events('policy-deny')
      .filter((e) => e.type === 'tool_completed')
      .map((e) => [e.name, e.status, e.error]),
    [['bash', 'failed', 'Tool execution denied by policy.']],
  );
  const blocked = events('hook-block');
  t.same(
    blocked.filter((e) => e.type === 'error').map((e) => [e.severity, e.error]),
    [['warning', 'Agent execution blocked: Model execution blocked by security policy']],
  );
  t.equal(blocked.at(-1)!.status, 'completed', 'a warning is not fatal');
  t.equal(events('subagent').filter((e) => e.type === 'subagent_completed').length, 1);
  const first = events('resume-first');
  const second = events('resume');
  t.equal(first[1]!.thread_id, second[1]!.thread_id, 'resume keeps the session id');
  t.not(first[2]!.turn_id, second[2]!.turn_id, 'but the turn ids differ');
  const both = await runBin('wuu-usage', ['--json', '--no-cost', '-'], { input: importText(fs.readFileSync(path.join(FIXTURES, 'resume-first.jsonl'), 'utf8')) + importText(fs.readFileSync(path.join(FIXTURES, 'resume.jsonl'), 'utf8')) });
  const total = JSON.parse(both.stdout.trim().split('\n').at(-1)!) as { all: Record<string, number> };
  t.equal(total.all.turns, 2, 'both runs of the session counted');
});
