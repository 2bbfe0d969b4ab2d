/**
 * The Claude Code mapping (lib/import/claude.ts): tables of small
 * hand-written stream-json inputs, then every captured fixture
 * (test/fixtures/import/claude/, CLI version in each NAME.meta.json) through
 * the mapper and the kit's own tools: wuu-check finds no error, wuu-usage
 * totals equal the producer's own, wuu-result exits with the run's status,
 * wuu-redact removes the secrets planted in tool input.
 */
import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { createClaudeMapper } from '../lib/import/claude.js';
import type { ImportedEvent } from '../lib/import/mapper.js';
// The encoder moves to lib/import/encode.ts with the import core: this is the one import to repoint.
import { goLine } from '../lib/import/encode.js';
import { ROOT, jsonl, runBin } from './helpers.js';
import { PLANTED_AWS, PLANTED_KEY } from './import/capture-claude.js';

type Obj = Record<string, unknown>;

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'import', 'claude');

/** Every event the mapper makes of these lines, end() included. */
function mapAll(lines: Obj[]): ImportedEvent[] {
  const mapper = createClaudeMapper();
  const out: ImportedEvent[] = [];
  for (const line of lines) out.push(...mapper.line(line));
  out.push(...mapper.end());
  return out;
}

/** The wuu stream (encoded as the producer writes it) of a Claude stream's text. */
function importText(text: string): string {
  const lines = text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Obj);
  return mapAll(lines)
    .map((e) => goLine(e))
    .join('');
}

const S = 'sess-1';
const T1 = `${S}-turn-0001`;
const T2 = `${S}-turn-0002`;
const at = (turn = T1) => ({ thread_id: S, turn_id: turn });

const init = (over: Obj = {}): Obj => ({
  type: 'system',
  subtype: 'init',
  session_id: S,
  cwd: '/w',
  model: 'claude-x',
  permissionMode: 'acceptEdits',
  claude_code_version: '2.1.999',
  ...over,
});
const assistant = (id: string, content: Obj[], over: Obj = {}): Obj => ({
  type: 'assistant',
  message: { id, type: 'message', role: 'assistant', content, usage: { input_tokens: 3, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } },
  parent_tool_use_id: null,
  session_id: S,
  ...over,
});
const toolUse = (id: string, name: string, input: Obj): Obj => ({ type: 'tool_use', id, name, input });
const toolResult = (id: string, content: unknown, isError = false, over: Obj = {}): Obj => ({
  type: 'user',
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }] },
  parent_tool_use_id: null,
  session_id: S,
  ...over,
});
const usage = (input: number, output: number, cacheRead = 0, cacheCreation = 0): Obj => ({
  input_tokens: input,
  output_tokens: output,
  cache_read_input_tokens: cacheRead,
  cache_creation_input_tokens: cacheCreation,
});
const modelUsage = (input: number, output: number, cacheRead = 0, cacheCreation = 0): Obj => ({
  'claude-x': { inputTokens: input, outputTokens: output, cacheReadInputTokens: cacheRead, cacheCreationInputTokens: cacheCreation, costUSD: 0.1 },
});
const result = (over: Obj = {}): Obj => ({
  type: 'result',
  subtype: 'success',
  is_error: false,
  result: 'Done.',
  usage: usage(10, 5, 100, 20),
  modelUsage: modelUsage(10, 5, 100, 20),
  terminal_reason: 'completed',
  session_id: S,
  ...over,
});
const tokens = (input: number, output: number, cacheRead = 0, cacheCreation = 0) => ({
  input_tokens: input,
  output_tokens: output,
  cache_read_tokens: cacheRead,
  cache_creation_tokens: cacheCreation,
});
const completedTurn = (turn: string, input: number, output: number, cacheRead: number, cacheCreation: number, message: string): ImportedEvent[] => [
  { type: 'usage_updated', ...at(turn), ...tokens(input, output, cacheRead, cacheCreation) },
  { type: 'agent_message_final', ...at(turn), message },
  { type: 'turn_completed', ...at(turn), input_tokens: input, output_tokens: output, trace_path: '', awaiting_auto_continuation: false },
];
const runResult = (over: Obj = {}): ImportedEvent => ({ type: 'result', status: 'completed', ...at(), run_id: '', final_message: 'Done.', trace_path: '', ...over });
const types = (events: ImportedEvent[]) => events.map((e) => e.type);

t.test('a simple answer: session, thread, turn, text, usage, final, result', async (t) => {
  const events = mapAll([init({ effort: 'high' }), assistant('m1', [{ type: 'text', text: 'Done.' }]), result()]);
  t.same(events, [
    {
      type: 'session_configured',
      protocol_version: '',
      provider: 'anthropic',
      model: 'claude-x',
      effort: 'high',
      variant: '',
      max_parallel: 0,
      workspace_root: '/w',
      permissions: { mode: 'acceptEdits' },
      source: { producer: 'claude', version: '2.1.999' },
    },
    { type: 'thread_started', thread_id: S, model: 'claude-x', provider: 'anthropic', cwd: '/w' },
    { type: 'turn_started', ...at() },
    // A running snapshot per API call as it arrives; the result's count replaces it.
    { type: 'usage_updated', ...at(), ...tokens(3, 1) },
    { type: 'agent_message_delta', ...at(), delta: 'Done.' },
    ...completedTurn(T1, 10, 5, 100, 20, 'Done.'),
    runResult(),
  ]);
  t.equal(createClaudeMapper().producer, 'claude');
});

t.test('lines before the first init, unknown types and subtypes carry nothing', async (t) => {
  const mapper = createClaudeMapper();
  for (const line of [
    assistant('m0', [{ type: 'text', text: 'early' }]),
    { type: 'stream_event', event: { type: 'content_block_delta', delta: { type: 'text_delta', text: 'x' } }, parent_tool_use_id: null },
    { type: 'system', subtype: 'api_retry', attempt: 1 },
    { type: 'system', subtype: 'task_started', task_id: 'a1', task_type: 'local_agent' },
    toolResult('nope', 'x'),
    { type: 'rate_limit_event' },
    { type: 'system', subtype: 'status', status: 'requesting' },
    { type: 'user', message: { role: 'user', content: 'a plain prompt' } },
    {},
  ]) {
    t.same(mapper.line(line), [], JSON.stringify(line).slice(0, 60));
  }
  t.same(mapper.end(), [], 'no result, no events owed');
});

t.test('partial messages: stream_event deltas, the same text block not again', async (t) => {
  const delta = (text: unknown, parent: unknown = null): Obj => ({
    type: 'stream_event',
    event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
    parent_tool_use_id: parent,
  });
  const events = mapAll([
    init(),
    { type: 'stream_event', event: { type: 'message_start', message: { id: 'm1' } }, parent_tool_use_id: null },
    delta('Do'),
    delta(''),
    delta(7),
    delta('ne.'),
    delta('sub-agent text', 'toolu_a'),
    { type: 'stream_event', event: { type: 'content_block_delta', delta: { type: 'input_json_delta', partial_json: '{"a' } }, parent_tool_use_id: null },
    { type: 'stream_event', event: 'not an object', parent_tool_use_id: null },
    { type: 'stream_event', event: { type: 'message_start', message: {} }, parent_tool_use_id: null },
    assistant('m1', [{ type: 'text', text: 'Done.' }]),
    // A message never streamed (the CLI's own, like an API error notice) still has its text.
    assistant('m2', [{ type: 'text', text: ' More.' }]),
    assistant('m3', [{ type: 'text', text: 'API Error: 500' }], { error: 'server_error' }),
    assistant('m4', [{ type: 'thinking', thinking: 'hidden' }, { type: 'text', text: '' }, 'junk' as unknown as Obj]),
    result({ result: 'Done. More.' }),
  ]);
  t.same(
    events.filter((e) => e.type === 'agent_message_delta').map((e) => e.delta),
    ['Do', 'ne.', ' More.'],
  );
  t.same(events.find((e) => e.type === 'agent_message_final')?.message, 'Done. More.');
});

t.test('Bash is bash with {"command"}; output, failure, blocks, unknown ids', async (t) => {
  const events = mapAll([
    init(),
    assistant('m1', [
      { type: 'text', text: 'Listing.' },
      toolUse('tb1', 'Bash', { command: 'ls <dir> && echo "&"', description: 'List', timeout: 5 }),
      toolUse('tb1', 'Bash', { command: 'again' }),
      toolUse('', 'Bash', { command: 'no id' }),
    ]),
    toolResult('tb1', 'a.txt\nb.txt'),
    toolResult('tb1', 'a second result for an ended call'),
    assistant('m2', [toolUse('tb2', 'Bash', { command: 'false' }), toolUse('tr', 'Read', { file_path: '/w/a' }), toolUse('tn', 'Bash', {})]),
    {
      type: 'user',
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'tb2', content: 'Exit code 1', is_error: true },
          { type: 'tool_result', tool_use_id: 'tr', content: [{ type: 'text', text: 'line 1' }, { type: 'image', source: {} }, { type: 'text', text: 'line 2' }, null] },
          { type: 'text', text: 'not a result' },
          { type: 'tool_result', tool_use_id: 'tn', content: '' },
        ],
      },
      parent_tool_use_id: null,
    },
    { type: 'user', message: 'not an object' },
    result(),
  ]);
  const item = (id: string) => ({ ...at(), item_id: id });
  t.same(
    events.filter((e) => e.type.startsWith('tool_')),
    [
      { type: 'tool_started', ...item('tb1'), name: 'bash', arguments: '{"command":"ls <dir> && echo \\"&\\""}' },
      { type: 'tool_output_delta', ...item('tb1'), delta: 'a.txt\nb.txt' },
      { type: 'tool_completed', ...item('tb1'), name: 'bash', status: 'completed', error: '' },
      { type: 'tool_started', ...item('tb2'), name: 'bash', arguments: '{"command":"false"}' },
      { type: 'tool_started', ...item('tr'), name: 'Read', arguments: '{"file_path":"/w/a"}' },
      { type: 'tool_started', ...item('tn'), name: 'bash', arguments: '{"command":""}' },
      { type: 'tool_output_delta', ...item('tb2'), delta: 'Exit code 1' },
      { type: 'tool_completed', ...item('tb2'), name: 'bash', status: 'failed', error: 'Exit code 1' },
      { type: 'tool_output_delta', ...item('tr'), delta: 'line 1\nline 2' },
      { type: 'tool_completed', ...item('tr'), name: 'Read', status: 'completed', error: '' },
      { type: 'tool_completed', ...item('tn'), name: 'bash', status: 'completed', error: '' },
    ],
  );
  // The encoder escapes the HTML characters of the arguments text as the wuu producer does.
  t.match(goLine(events.find((e) => e.type === 'tool_started')!), /\\u003cdir\\u003e \\u0026\\u0026/);
});

t.test('file tools give file_changed after success; TodoWrite gives todo_updated', async (t) => {
  const events = mapAll([
    init(),
    assistant('m1', [
      toolUse('w1', 'Write', { file_path: '/w/new.md', content: 'x' }),
      toolUse('w2', 'Write', { file_path: '/w/old.md', content: 'y' }),
      toolUse('w3', 'Write', { file_path: '/w/unknown.md', content: 'z' }),
      toolUse('e1', 'Edit', { file_path: '/w/a.ts', old_string: 'a', new_string: 'b' }),
      toolUse('e2', 'MultiEdit', { file_path: '/w/b.ts', edits: [] }),
      toolUse('n1', 'NotebookEdit', { notebook_path: '/w/n.ipynb', new_source: '' }),
      toolUse('f1', 'Write', { file_path: '/w/denied.md' }),
      toolUse('p1', 'Edit', {}),
      toolUse('t1', 'TodoWrite', { todos: [{ content: 'Fix', status: 'in_progress', activeForm: 'Fixing' }, 'junk'] }),
      toolUse('t2', 'TodoWrite', { todos: 'none' }),
      toolUse('t3', 'TodoWrite', { todos: [] }),
    ]),
    toolResult('w1', 'File created', false, { tool_use_result: { type: 'create', filePath: '/w/new.md' } }),
    toolResult('w2', 'File updated', false, { tool_use_result: { type: 'update', filePath: '/w/old.md' } }),
    toolResult('w3', 'Written', false, { tool_use_result: 'text, not an object' }),
    toolResult('e1', 'Edited', false, { tool_use_result: { filePath: '/w/a.ts' } }),
    toolResult('e2', 'Edited'),
    toolResult('n1', 'Edited'),
    toolResult('f1', 'Permission denied', true),
    toolResult('p1', 'Edited'),
    toolResult('t1', 'Todos updated'),
    toolResult('t2', 'Todos updated'),
    toolResult('t3', 'disabled', true),
    result(),
  ]);
  const item = (id: string) => ({ ...at(), item_id: id });
  t.same(
    events.filter((e) => e.type === 'file_changed' || e.type === 'todo_updated'),
    [
      { type: 'file_changed', ...item('w1'), tool_name: 'Write', path: '/w/new.md', action: 'create' },
      { type: 'file_changed', ...item('w2'), tool_name: 'Write', path: '/w/old.md', action: 'overwrite' },
      { type: 'file_changed', ...item('w3'), tool_name: 'Write', path: '/w/unknown.md' },
      { type: 'file_changed', ...item('e1'), tool_name: 'Edit', path: '/w/a.ts', action: 'edit' },
      { type: 'file_changed', ...item('e2'), tool_name: 'MultiEdit', path: '/w/b.ts', action: 'edit' },
      { type: 'file_changed', ...item('n1'), tool_name: 'NotebookEdit', path: '/w/n.ipynb', action: 'edit' },
      { type: 'todo_updated', ...at(), todo: { todos: [{ content: 'Fix', status: 'in_progress' }, { content: '', status: '' }] } },
    ],
  );
  const odd = mapAll([
    init(),
    assistant('m1', [toolUse('w1', 'Write', { file_path: '/w/a.md' })]),
    toolResult('w1', 'Written', false, { tool_use_result: { type: 'constructor', filePath: '/w/a.md' } }),
    result(),
  ]).find((e) => e.type === 'file_changed');
  t.same(odd, { type: 'file_changed', ...item('w1'), tool_name: 'Write', path: '/w/a.md' }, 'a Write result type named like an Object member: no action');
  // The todo struct's keys sorted are its declaration order (content, status).
  t.match(goLine(events.find((e) => e.type === 'todo_updated')!), /"todo":\{"todos":\[\{"content":"Fix","status":"in_progress"\}/);
});

t.test('api_retry is a retrying error, not the end of the turn', async (t) => {
  const events = mapAll([
    init(),
    { type: 'system', subtype: 'api_retry', attempt: 1, max_retries: 10, retry_delay_ms: 500, error_status: 529, error: 'overloaded', session_id: S },
    { type: 'system', subtype: 'api_retry', attempt: 2, max_retries: 10, retry_delay_ms: 900, error_status: null, error: 'unknown', session_id: S },
    { type: 'system', subtype: 'api_retry', attempt: 3, error_status: 500, session_id: S },
    { type: 'system', subtype: 'api_retry', error: '', session_id: S },
    assistant('m1', [{ type: 'text', text: 'Done.' }]),
    result(),
  ]);
  t.same(
    events.filter((e) => e.type === 'error'),
    [
      { type: 'error', ...at(), run_id: '', error: 'API error 529: overloaded (attempt 1 of 10, retrying in 500 ms)', retrying: true },
      { type: 'error', ...at(), run_id: '', error: 'API connection error: unknown (attempt 2 of 10, retrying in 900 ms)', retrying: true },
      { type: 'error', ...at(), run_id: '', error: 'API error 500 (attempt 3)', retrying: true },
      { type: 'error', ...at(), run_id: '', error: 'API connection error', retrying: true },
    ],
  );
  t.equal(events.at(-1)?.status, 'completed');
});

t.test('how a turn ends: failed, interrupted, max turns, structured output', async (t) => {
  const ending = (over: Obj) => {
    const events = mapAll([init(), result(over)]);
    return { end: events.at(-2)!, result: events.at(-1)! };
  };
  const apiError = ending({ is_error: true, result: 'API Error: 400 bad request', terminal_reason: 'api_error' });
  t.same(apiError.end, { type: 'turn_failed', ...at(), error: 'API Error: 400 bad request' });
  t.same(apiError.result, runResult({ status: 'failed', final_message: '', error: 'API Error: 400 bad request' }));

  const maxTurns = ending({ subtype: 'error_max_turns', is_error: true, errors: ['Reached maximum number of turns (1)', 7, ''], terminal_reason: 'max_turns' });
  t.same(maxTurns.end, { type: 'turn_failed', ...at(), error: 'Reached maximum number of turns (1)' });
  t.equal(maxTurns.result.status, 'failed');

  t.same(ending({ subtype: 'error_during_execution', is_error: true, terminal_reason: 'budget_exhausted', errors: 'x' }).end.error, 'budget_exhausted');
  t.same(ending({ subtype: 'error_during_execution', is_error: true, terminal_reason: undefined }).end.error, 'error_during_execution');
  t.same(ending({ subtype: undefined, is_error: true, terminal_reason: undefined, result: '' }).end.error, 'error');

  const interrupted = ending({ subtype: 'error_during_execution', is_error: true, terminal_reason: 'aborted_streaming', errors: ['[ede_diagnostic] internal'] });
  t.same(interrupted.end, { type: 'turn_interrupted', ...at(), reason: 'interrupted' });
  t.same(interrupted.result, runResult({ status: 'interrupted', final_message: '', error: 'aborted_streaming' }));
  t.equal(ending({ subtype: 'error_during_execution', is_error: true, terminal_reason: 'aborted_tools' }).result.status, 'interrupted');

  t.same(ending({ structured_output: { ok: true } }).result, runResult({ structured_result: { ok: true } }));
  t.same(ending({ structured_output: null }).result, runResult({ structured_result: null }));
  t.notOk(Object.hasOwn(ending({ is_error: true, structured_output: 1 }).result, 'structured_result'), 'only a completed run has one');
});

t.test('a startup failure is a lone result with empty ids', async (t) => {
  const events = mapAll([{ type: 'result', subtype: 'error_during_execution', is_error: true, errors: ['cwd_unavailable'], usage: usage(0, 0), modelUsage: {} }]);
  t.same(events, [{ type: 'result', status: 'failed', thread_id: '', turn_id: '', run_id: '', final_message: '', trace_path: '', error: 'cwd_unavailable' }]);
});

t.test('a stream cut before its final result gives no result', async (t) => {
  const cutInTurn = mapAll([init(), assistant('m1', [{ type: 'text', text: 'Work' }, toolUse('tb', 'Bash', { command: 'sleep 9' })])]);
  t.same(types(cutInTurn), ['session_configured', 'thread_started', 'turn_started', 'usage_updated', 'agent_message_delta', 'tool_started']);
  const cutInSecondTurn = mapAll([init(), result(), init()]);
  t.notOk(cutInSecondTurn.some((e) => e.type === 'result'), 'a turn begun after the last result never ended');
  t.equal(cutInSecondTurn.at(-1)?.type, 'turn_started');
});

t.test('results end the oldest open turn (a result held back for background work)', async (t) => {
  const events = mapAll([
    init(),
    assistant('m1', [toolUse('tb', 'Bash', { command: 'sleep 1', run_in_background: true })]),
    init(),
    assistant('m2', [{ type: 'text', text: 'Second.' }]),
    result({ result: 'First.', usage: usage(1, 1), model_usage_since_last_result: modelUsage(3, 3) }),
    result({ result: 'Second.', usage: usage(2, 2), model_usage_since_last_result: {} }),
  ]);
  const rest = events.slice(2).filter((e) => e.type !== 'usage_updated');
  t.same(types(rest), [
    'turn_started',
    'tool_started',
    'turn_started',
    'agent_message_delta',
    'tool_removed',
    'agent_message_final',
    'turn_completed',
    'agent_message_final',
    'turn_completed',
    'result',
  ]);
  t.same(rest[4], { type: 'tool_removed', ...at(T1), item_id: 'tb' }, 'the open call of the ended turn');
  t.same(rest[3], { type: 'agent_message_delta', ...at(T2), delta: 'Second.' }, 'text after the second init is the second turn');
  // No sub-agent: the process's increase is the main loop's, whole; never below the calls seen.
  const snapshots = (turn: string) => events.filter((e) => e.type === 'usage_updated' && e.turn_id === turn).map((e) => [e.input_tokens, e.output_tokens]);
  t.same(snapshots(T1), [[3, 1], [3, 3]]);
  t.same(snapshots(T2), [[3, 1]], 'the result says less than the calls seen: the snapshot stays');
  t.same(events.at(-1), runResult({ turn_id: T2, final_message: 'Second.' }));
});

t.test('a held-back result does not forget the streamed messages of the turn still open', async (t) => {
  const events = mapAll([
    init(),
    init(),
    { type: 'stream_event', event: { type: 'message_start', message: { id: 'm2' } }, parent_tool_use_id: null },
    { type: 'stream_event', event: { type: 'content_block_delta', delta: { type: 'text_delta', text: 'Second.' } }, parent_tool_use_id: null },
    result({ result: 'First.' }),
    assistant('m2', [{ type: 'text', text: 'Second.' }]),
    result({ result: 'Second.' }),
  ]);
  t.same(events.filter((e) => e.type === 'agent_message_delta').map((e) => [e.turn_id, e.delta]), [[T2, 'Second.']]);
});

t.test('usage: the increase of modelUsage when the since-last key is absent, result.usage without either', async (t) => {
  const events = mapAll([
    init(),
    result({ modelUsage: modelUsage(5, 5, 50, 5) }),
    init(),
    result({ modelUsage: { a: { inputTokens: 8, outputTokens: 9, cacheReadInputTokens: 80, cacheCreationInputTokens: 5 }, b: 'junk', c: { inputTokens: -1, outputTokens: 1.5 } } }),
    init(),
    result({ modelUsage: undefined, usage: { input_tokens: 4, output_tokens: '2' } }),
    init(),
    result({ modelUsage: modelUsage(1, 1), usage: undefined }),
  ]);
  t.same(
    events.filter((e) => e.type === 'usage_updated').map((e) => [e.input_tokens, e.output_tokens, e.cache_read_tokens, e.cache_creation_tokens]),
    [
      [5, 5, 50, 5],
      [3, 4, 30, 0],
      [4, 0, 0, 0],
      [0, 0, 0, 0],
    ],
  );
});

/** A sub-agent run as Claude Code writes it (shape of the subagent fixture). */
function subagentRun(extra: Obj[] = [], since: Obj = modelUsage(60, 20, 600, 60)): Obj[] {
  return [
    init(),
    assistant('m1', [toolUse('ta', 'Agent', { description: 'Count', prompt: 'count', subagent_type: 'general-purpose' })]),
    { type: 'system', subtype: 'task_started', task_id: 'ag1', tool_use_id: 'ta', description: 'Count', subagent_type: 'general-purpose', task_type: 'local_agent', parent_task_id: 'ag0' },
    toolResult('ta', 'Async agent launched successfully.'),
    assistant('s1', [toolUse('sb', 'Bash', { command: 'ls | wc -l' })], { parent_tool_use_id: 'ta', agent_id: 'ag1', message: { id: 's1', content: [toolUse('sb', 'Bash', { command: 'ls | wc -l' })], usage: usage(20, 1, 200, 20) } }),
    { type: 'system', subtype: 'task_progress', task_id: 'ag1', usage: { total_tokens: 241 } },
    // A second block of the same API call repeats its usage: counted once, the largest kept.
    assistant('s1', [{ type: 'text', text: 'sub-agent text is not forwarded' }], { parent_tool_use_id: 'ta', agent_id: 'ag1', message: { id: 's1', content: [{ type: 'text', text: 'x' }], usage: usage(20, 2, 200, 20) } }),
    toolResult('sb', '1', false, { parent_tool_use_id: 'ta', agent_id: 'ag1' }),
    // Without agent_id the spawning call names the agent.
    assistant('s2', [toolUse('sc', 'Bash', { command: 'sleep 9' })], { parent_tool_use_id: 'ta', message: { id: 's2', content: [toolUse('sc', 'Bash', { command: 'sleep 9' })], usage: usage(20, 1, 200, 20) } }),
    ...extra,
    assistant('m2', [{ type: 'text', text: 'Started.' }]),
    result({ result: 'Started.', usage: usage(10, 5, 100, 10), model_usage_since_last_result: since }),
  ];
}

t.test('sub-agents: subagent_* events, child-thread tools, usage counted once and apart', async (t) => {
  const events = mapAll(
    subagentRun([
      { type: 'system', subtype: 'task_updated', task_id: 'ag1', patch: { end_time: 1 } },
      { type: 'system', subtype: 'task_updated', task_id: 'ag1', patch: { status: 'completed' } },
      { type: 'system', subtype: 'task_notification', task_id: 'ag1', tool_use_id: 'ta', status: 'completed', output_file: '/tmp/ag1.output', summary: 'There is 1 file.', usage: { total_tokens: 1 } },
    ]),
  );
  const agent = { thread_id: S, agent_id: 'ag1', agent_type: 'general-purpose', description: 'Count' };
  const child = { thread_id: 'ag1', turn_id: 'ag1-turn-0001' };
  t.same(
    events.filter((e) => e.type.startsWith('subagent_') || e.thread_id === 'ag1'),
    [
      { type: 'subagent_started', ...agent, status: 'running', parent_id: 'ag0', ...tokens(0, 0) },
      { type: 'tool_started', ...child, item_id: 'sb', name: 'bash', arguments: '{"command":"ls | wc -l"}' },
      { type: 'subagent_updated', ...agent, status: 'running', ...tokens(20, 1, 200, 20) },
      { type: 'tool_output_delta', ...child, item_id: 'sb', delta: '1' },
      { type: 'tool_completed', ...child, item_id: 'sb', name: 'bash', status: 'completed', error: '' },
      { type: 'tool_started', ...child, item_id: 'sc', name: 'bash', arguments: '{"command":"sleep 9"}' },
      { type: 'tool_removed', ...child, item_id: 'sc' },
      { type: 'subagent_completed', ...agent, status: 'completed', ...tokens(40, 3, 400, 40) },
      { type: 'subagent_completed', ...agent, status: 'completed', result: 'There is 1 file.', result_path: '/tmp/ag1.output', ...tokens(40, 3, 400, 40) },
      // At the end: what the process total holds beyond the main loop and the calls seen is this agent's.
      { type: 'subagent_completed', ...agent, status: 'completed', ...tokens(50, 15, 500, 50) },
    ],
  );
  t.same(events.filter((e) => e.type === 'usage_updated').at(-1), { type: 'usage_updated', ...at(), ...tokens(10, 5, 100, 10) }, 'the main loop is result.usage');
  t.notOk(events.some((e) => e.type === 'agent_message_delta' && String(e.delta).includes('sub-agent')), 'sub-agent text stays out');
  t.equal(events.at(-1)?.type, 'result');
});

t.test('sub-agent task statuses, other task kinds, unknown tasks', async (t) => {
  const status = (subtype: string, fields: Obj) => mapAll(subagentRun([{ type: 'system', subtype, task_id: 'ag1', ...fields }])).filter((e) => e.type.startsWith('subagent_'));
  const killed = status('task_updated', { patch: { status: 'killed', error: 'stopped by the user' } });
  t.same([killed[2]?.type, killed[2]?.status, killed[2]?.error], ['subagent_completed', 'cancelled', 'stopped by the user']);
  const stopped = status('task_notification', { status: 'stopped', summary: 'partial', output_file: '' });
  t.same([stopped[2]?.status, stopped[2]?.result, Object.hasOwn(stopped[2]!, 'result_path')], ['cancelled', 'partial', false]);
  const member = status('task_updated', { patch: { status: 'constructor' } });
  t.same([member[2]?.type, member[2]?.status], ['subagent_updated', 'constructor'], 'a status named like an Object member is kept as it is');
  const paused = status('task_updated', { patch: { status: 'paused', error: '' } });
  t.same([paused[2]?.type, paused[2]?.status, Object.hasOwn(paused[2]!, 'error')], ['subagent_updated', 'paused', false]);
  // A running agent at the end gets its share as an update.
  t.equal(paused.at(-1)?.type, 'subagent_updated');
  t.equal(paused.at(-1)?.input_tokens, 50);

  const others = mapAll([
    init(),
    { type: 'system', subtype: 'task_started', task_id: 'b1', task_type: 'local_bash', description: 'sleep' },
    { type: 'system', subtype: 'task_notification', task_id: 'b1', status: 'completed' },
    { type: 'system', subtype: 'task_started', task_id: 'w1', description: 'workflow without a type' },
    { type: 'system', subtype: 'task_started', task_id: '', task_type: 'local_agent' },
    { type: 'system', subtype: 'task_progress', task_id: 'unknown' },
    { type: 'system', subtype: 'task_started', task_id: 'r1', subagent_type: 'Explore', description: 'no task_type (older CLI)' },
    result(),
  ]);
  t.same(
    others.filter((e) => e.type.startsWith('subagent_')).map((e) => e.agent_id),
    ['r1'],
  );
});

t.test('usage no single sub-agent accounts for is reported under an agent with no id', async (t) => {
  const second = [
    { type: 'system', subtype: 'task_started', task_id: 'ag2', tool_use_id: 'tb2', description: 'Other', task_type: 'local_agent' },
    assistant('s9', [toolUse('sd', 'Read', {})], { parent_tool_use_id: 'tb2', agent_id: 'ag2', message: { id: 's9', content: [], usage: usage(5, 1) } }),
  ];
  const events = mapAll(subagentRun(second));
  const rest = events.at(-2)!;
  t.same(rest, {
    type: 'subagent_updated',
    thread_id: S,
    agent_id: '',
    agent_type: '',
    status: '',
    description: 'model calls not attributed to the main loop or one sub-agent',
    // 60 in total, 10 main, 40 + 5 seen: 5 left; output 20 - 5 - 3 - 1.
    ...tokens(5, 11, 100, 10),
  });
  // Exactly what the stream accounts for: no agent without id; the agent's calls since its last report are reported.
  const exact = mapAll(subagentRun([], modelUsage(50, 8, 500, 50)));
  t.same(exact.at(-2), { type: 'subagent_updated', thread_id: S, agent_id: 'ag1', agent_type: 'general-purpose', status: 'running', description: 'Count', ...tokens(40, 3, 400, 40) });
  t.equal(exact.at(-3)?.type, 'turn_completed');
});

t.test('an interrupted turn without sub-agents counts the aborted call the process booked', async (t) => {
  const events = mapAll([
    init(),
    { type: 'stream_event', event: { type: 'message_start', message: { id: 'm1' } }, parent_tool_use_id: null },
    assistant('m1', [{ type: 'text', text: 'Partial' }], { aborted: true }),
    result({ subtype: 'error_during_execution', is_error: true, terminal_reason: 'aborted_streaming', usage: usage(0, 0), model_usage_since_last_result: modelUsage(100, 7, 0, 500) }),
  ]);
  t.same(events.filter((e) => e.type === 'usage_updated').at(-1), { type: 'usage_updated', ...at(), ...tokens(100, 7, 0, 500) });
});

// ---------------------------------------------------------------------------
// The captured fixtures through the kit.

interface Meta {
  claude_code_version: string;
  exit_code: number | null;
}

/** One directory of captures per CLI version. */
const VERSIONS = fs.readdirSync(FIXTURES).sort();
const fixtures = VERSIONS.flatMap((version) =>
  fs
    .readdirSync(path.join(FIXTURES, version))
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => `${version}/${f}`),
);

/** The producer's own totals: the sum of each result's increase (model_usage_since_last_result, else modelUsage growth). */
function producerTotals(lines: Obj[]): { all: number[]; main: number[] } {
  const all = [0, 0, 0, 0];
  const main = [0, 0, 0, 0];
  let previous = [0, 0, 0, 0];
  const sum = (models: unknown) => {
    const s = [0, 0, 0, 0];
    for (const m of Object.values((models ?? {}) as Record<string, Obj>)) {
      ['inputTokens', 'outputTokens', 'cacheReadInputTokens', 'cacheCreationInputTokens'].forEach((k, i) => (s[i]! += Number(m[k] ?? 0)));
    }
    return s;
  };
  for (const line of lines.filter((l) => l.type === 'result')) {
    const now = sum(line.modelUsage);
    const increase = line.model_usage_since_last_result !== undefined ? sum(line.model_usage_since_last_result) : now.map((n, i) => n - previous[i]!);
    previous = now;
    increase.forEach((n, i) => (all[i]! += n));
    const u = (line.usage ?? {}) as Obj;
    ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'].forEach((k, i) => (main[i]! += Number(u[k] ?? 0)));
  }
  return { all, main };
}

/** wuu-result's exit for the producer's last result, read independently of the mapper. */
function expectedExit(lines: Obj[]): number {
  const last = lines.filter((l) => l.type === 'result').at(-1)!;
  if (last.terminal_reason === 'aborted_streaming' || last.terminal_reason === 'aborted_tools') return 6;
  return last.subtype === 'success' && last.is_error === false ? 0 : 3;
}

t.test('every fixture: wuu-check, wuu-usage, wuu-result, wuu-redact', async (t) => {
  t.ok(fixtures.length >= 10 * VERSIONS.length, 'the captures are checked in');
  for (const name of fixtures) {
    t.test(name, async (t) => {
      const text = fs.readFileSync(path.join(FIXTURES, name), 'utf8');
      const meta = JSON.parse(fs.readFileSync(path.join(FIXTURES, name.replace(/\.jsonl$/, '.meta.json')), 'utf8')) as Meta;
      t.equal(meta.claude_code_version, name.split('/')[0], 'captured by the CLI version its directory names');
      const lines = jsonl(text);
      const wuu = importText(text);

      const checked = await runBin('wuu-check', ['-'], { input: wuu });
      t.equal(checked.code, 0, `wuu-check: ${checked.stdout}`);
      t.equal(checked.stdout, '', 'no problem at all, warnings included');

      const report = await runBin('wuu-usage', ['--json', '--no-cost'], { input: wuu });
      t.equal(report.code, 0);
      t.equal(report.stderr, '', 'no usage warning');
      const total = jsonl(report.stdout).find((r) => r.kind === 'total') as { all: Obj; subagents?: Obj; input_tokens: number };
      const pick = (o: Obj | undefined) => ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_creation_tokens'].map((k) => Number(o?.[k] ?? 0));
      const producer = producerTotals(lines);
      t.same(pick(total.all), producer.all, 'all tokens: the producer total, each counted once');
      const agents = lines.some((l) => l.type === 'system' && l.subtype === 'task_started' && l.task_type === 'local_agent');
      if (agents) {
        t.same(pick(total as unknown as Obj), producer.main, 'main agent: result.usage of its turns');
        t.same(
          pick(total.subagents),
          producer.all.map((n, i) => n - producer.main[i]!),
          'sub-agents apart: the rest',
        );
        t.ok(pick(total.subagents).some((n) => n > 0), 'the sub-agent used tokens');
      }

      const res = await runBin('wuu-result', ['-'], { input: wuu });
      t.equal(res.code, expectedExit(lines), `wuu-result exit (${res.stderr.trim()})`);
      if (meta.exit_code === 1) t.equal(res.code, 3, 'the CLI failed: so did the run');

      const redacted = await runBin('wuu-redact', ['-'], { input: wuu });
      t.equal(redacted.code, 0);
      for (const secret of [PLANTED_KEY, PLANTED_AWS]) {
        if (text.includes(secret)) {
          t.ok(wuu.includes(secret), 'the planted secret reaches the imported stream');
          t.notOk(redacted.stdout.includes(secret), 'and is gone after wuu-redact');
        }
      }
    });
  }
});

for (const version of VERSIONS) t.test(`the ${version} fixtures cover what the issue asks for`, async (t) => {
  const read = (f: string) => mapAll(jsonl(fs.readFileSync(path.join(FIXTURES, version, f), 'utf8')));
  const all = new Map(fixtures.filter((f) => f.startsWith(`${version}/`)).map((f) => [f.slice(version.length + 1), read(f.slice(version.length + 1))]));
  const has = (f: string, pred: (e: ImportedEvent) => boolean) => t.ok(all.get(f)?.some(pred), `${f}`);
  has('shell.jsonl', (e) => e.type === 'tool_completed' && e.status === 'failed' && String(e.error).startsWith('Exit code 2'));
  has('shell.jsonl', (e) => e.type === 'tool_started' && e.name === 'bash' && String(e.arguments).includes(PLANTED_KEY));
  has('edit.jsonl', (e) => e.type === 'file_changed' && e.action === 'create');
  has('edit.jsonl', (e) => e.type === 'file_changed' && e.action === 'edit');
  has('edit.jsonl', (e) => e.type === 'todo_updated');
  has('subagent.jsonl', (e) => e.type === 'subagent_completed' && e.result === 'There is 1 file: a.txt.');
  has('subagent.jsonl', (e) => e.type === 'tool_started' && e.thread_id !== all.get('subagent.jsonl')![1]!.thread_id);
  has('subagent-fg.jsonl', (e) => e.type === 'subagent_completed');
  has('api-error.jsonl', (e) => e.type === 'turn_failed' && String(e.error).includes('400'));
  has('api-retry.jsonl', (e) => e.type === 'error' && e.retrying === true);
  has('api-retry.jsonl', (e) => e.type === 'result' && e.status === 'completed');
  has('denied.jsonl', (e) => e.type === 'tool_completed' && e.status === 'failed' && String(e.error).includes('needs approval'));
  has('interrupt.jsonl', (e) => e.type === 'turn_interrupted');
  has('max-turns.jsonl', (e) => e.type === 'result' && e.status === 'failed' && String(e.error).includes('maximum number of turns'));
  has('simple-partial.jsonl', (e) => e.type === 'agent_message_delta');
  // With partial messages the text is there once: the deltas add up to the final text.
  const partial = all.get('simple-partial.jsonl')!;
  t.equal(
    partial.filter((e) => e.type === 'agent_message_delta').map((e) => e.delta).join(''),
    partial.find((e) => e.type === 'agent_message_final')?.message,
  );
  has('resume.jsonl', (e) => e.type === 'result' && e.status === 'completed');
  has('interrupt-tool.jsonl', (e) => e.type === 'result' && e.status === 'interrupted' && e.error === 'aborted_tools');
  has('interrupt-tool.jsonl', (e) => e.type === 'tool_completed' && e.status === 'failed');
  // A background shell's completion starts a second turn in the same process.
  has('bg-bash.jsonl', (e) => e.type === 'turn_completed' && String(e.turn_id).endsWith('-turn-0002'));
  t.notOk(all.get('bg-bash.jsonl')!.some((e) => e.type.startsWith('subagent_')), 'a background shell is not a sub-agent');
  // A refused start: one zeroed result, nothing else (as wuu's setup failures).
  t.same(types(all.get('startup-failure.jsonl')!), ['result']);
  has('startup-failure.jsonl', (e) => e.status === 'failed' && String(e.error).includes('Configuration error'));
  const agents = new Set(all.get('multi-agent.jsonl')!.filter((e) => e.type === 'subagent_started').map((e) => e.agent_id));
  t.equal(agents.size, 2, 'two sub-agents, apart');
});

t.test('a fixture cut anywhere before its last result gives no result and no check error', async (t) => {
  const text = fs.readFileSync(path.join(FIXTURES, VERSIONS[0]!, 'subagent.jsonl'), 'utf8');
  const lines = text.split('\n').filter((l) => l !== '');
  const lastResult = lines.length - 1;
  for (const keep of [1, 5, 20, lastResult - 1, lastResult]) {
    const wuu = importText(lines.slice(0, keep).join('\n'));
    t.notOk(jsonl(wuu).some((e) => e.type === 'result'), `cut after ${keep} lines: no result`);
    const checked = await runBin('wuu-check', ['--json', '-'], { input: wuu });
    t.same(
      jsonl(checked.stdout).map((p) => p.rule),
      ['missing-result'],
      `cut after ${keep} lines: only the missing result`,
    );
  }
});

t.test('a background sub-agent can go on after its spawning turn ended', async (t) => {
  const events = mapAll([
    init(),
    result(),
    assistant('s1', [toolUse('sb', 'Bash', { command: 'ls' })], { parent_tool_use_id: 'ta', agent_id: 'ag1', message: { id: 's1', content: [toolUse('sb', 'Bash', { command: 'ls' })], usage: usage(1, 1) } }),
    toolResult('sb', 'a', false, { parent_tool_use_id: 'ta', agent_id: 'ag1' }),
    assistant('m9', [{ type: 'text', text: 'no turn is open: dropped' }]),
  ]);
  t.same(
    events.filter((e) => e.thread_id === 'ag1').map((e) => e.type),
    ['tool_started', 'tool_output_delta', 'tool_completed'],
  );
  t.notOk(events.some((e) => e.type === 'agent_message_delta'));
  t.equal(events.at(-1)?.type, 'result');
});

t.test('running usage with partial messages: message_start, then message_delta\'s final counts', async (t) => {
  const start = (id: string, u: Obj): Obj => ({ type: 'stream_event', event: { type: 'message_start', message: { id, usage: u } }, parent_tool_use_id: null });
  const delta = (u: Obj): Obj => ({ type: 'stream_event', event: { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: u }, parent_tool_use_id: null });
  const events = mapAll([
    init(),
    start('c1', usage(100, 1, 0, 500)),
    assistant('c1', [{ type: 'text', text: 'A' }], { message: { id: 'c1', content: [{ type: 'text', text: 'A' }], usage: usage(100, 1, 0, 500) } }),
    delta({ output_tokens: 12 }),
    start('c2', usage(50, 1, 600, 0)),
    delta(usage(50, 9, 600, 0)),
    { type: 'stream_event', event: { type: 'message_delta', usage: { output_tokens: 9 } }, parent_tool_use_id: 'toolu_sub' },
    result({ usage: usage(150, 21, 600, 500), model_usage_since_last_result: modelUsage(150, 21, 600, 500) }),
  ]);
  t.same(
    events.filter((e) => e.type === 'usage_updated').map((e) => [e.input_tokens, e.output_tokens, e.cache_read_tokens, e.cache_creation_tokens]),
    [
      [100, 1, 0, 500],
      [100, 12, 0, 500],
      [150, 13, 600, 500],
      [150, 21, 600, 500],
    ],
    'each call once, its final output from message_delta; the result equals the last snapshot: no repeat',
  );
});

t.test('a CLI without task events: sub-agent messages alone still count, under their spawning call', async (t) => {
  const sub = (id: string, parent: string, u: Obj): Obj => assistant(id, [toolUse(`${id}-t`, 'Read', {})], { parent_tool_use_id: parent, message: { id, content: [toolUse(`${id}-t`, 'Read', {})], usage: u } });
  const exact = mapAll([init(), sub('s1', 'ta', usage(20, 3, 200, 20)), result({ usage: usage(10, 5, 100, 10), model_usage_since_last_result: modelUsage(30, 8, 300, 30) })]);
  t.same(exact.at(-2), { type: 'subagent_updated', thread_id: S, agent_id: 'ta', agent_type: '', status: 'running', description: '', ...tokens(20, 3, 200, 20) }, 'reported once, at the end');
  const two = mapAll([
    init(),
    sub('s1', 'ta', usage(20, 3, 200, 20)),
    sub('s2', 'tb', usage(7, 1)),
    result({ usage: usage(10, 5, 100, 10), model_usage_since_last_result: modelUsage(40, 9, 300, 30) }),
  ]);
  t.same(
    two.filter((e) => e.type === 'subagent_updated').map((e) => [e.agent_id, e.input_tokens, e.output_tokens]),
    [
      ['ta', 20, 3],
      ['tb', 7, 1],
      ['', 3, 0],
    ],
  );
});
