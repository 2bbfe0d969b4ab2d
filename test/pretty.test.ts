import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import {
  chooseFence,
  clip,
  colorEnabled,
  createPretty,
  formatCount,
  OutputFold,
  pretty,
  summarizeArguments,
  type PrettyOptions,
} from '../lib/pretty/index.js';
import { parse } from '../lib/jsonl.js';
import { LineRecord, makeRecord, type Output } from '../lib/jsonl.js';
import type { WuuEvent } from '../lib/events.js';
import { binPath, chunked, FC_SEED, pipeThrough, ROOT, runBin, runShell } from './helpers.js';

const fixture = (name: string) => path.join(ROOT, 'test', 'fixtures', 'pretty', name);
const RUN = fs.readFileSync(fixture('run.jsonl'), 'utf8');
const GOLDEN_MD = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'pretty', 'run.md'), 'utf8');
const GOLDEN_TXT = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'pretty', 'run.txt'), 'utf8');
const ANSI = /\x1b\[[0-9;]*m/g;

/** A heading rule as the spec draws it: label, then ━ up to 80 columns. */
function rule(label: string): string {
  const text = `━━ ${label} `;
  return text + '━'.repeat(80 - Array.from(text).length);
}

/** Renders events (objects or JSONL text) through the core; returns the text. */
function render(events: Array<Record<string, unknown>> | string, options: PrettyOptions = {}): string {
  const core = createPretty(options);
  const out: Output[] = [];
  const emit = (o: Output) => out.push(o);
  if (typeof events === 'string') {
    events
      .split('\n')
      .filter(Boolean)
      .forEach((line, i) => core.push(new LineRecord(Buffer.from(line), 'x.jsonl', i + 1), emit));
  } else {
    for (const e of events) core.push(makeRecord(e as WuuEvent), emit);
  }
  core.endFile?.('x.jsonl', emit);
  core.end?.(emit);
  if (core.status?.() !== 0) throw new Error('wuu-pretty never judges a run');
  return out.map((o) => (typeof o === 'string' ? o : '<record>')).join('');
}

const bash = (id: string, command: string) => JSON.stringify({ command });

t.test('summarizeArguments: bash command, file path, key=value', async (t) => {
  const table: Array<[string, unknown, string, number?]> = [
    ['bash', bash('a', 'npm test 2>&1'), 'npm test 2>&1'],
    ['bash', bash('a', 'cat <<EOF\nhello\nEOF'), 'cat <<EOF …(+2 lines)'],
    ['bash', bash('a', 'x'.repeat(100)), `${'x'.repeat(19)}…`, 20],
    ['read_file', '{"path":"/w/src/a.js"}', '/w/src/a.js'],
    ['edit_file', '{"path":"src/a.js","old":"x","new":"y"}', 'src/a.js'],
    ['write_file', '{"content":"lots\\nof\\nlines","file_path":"b.md"}', 'b.md'],
    ['move_file', '{"path":"a","move_path":"b"}', 'a → b'],
    ['apply_patch', '{"patch":"*** Begin Patch\\n*** Update File: a.js\\n*** Delete File: b.js\\n"}', 'a.js, b.js'],
    ['apply_patch', '{"input":"--- a/x.c\\n+++ b/x.c\\n"}', 'x.c'],
    ['grep', '{"pattern":"foo bar","path":"src","n":3,"i":true,"empty":""}', 'pattern="foo bar" path=src n=3 i=true'],
    ['grep', '{"pattern":"two\\nlines"}', 'pattern=<2 lines>'],
    ['web', '{"q":{"deep":[1,2]}}', 'q={"deep":[1,2]}'],
    ['weird', 'not json {', 'not json {'],
    ['weird', '[1,2]', '[1,2]'],
    ['weird', '', ''],
    ['weird', undefined, ''],
    ['weird', '"\\u001b[31mred"', '\\e[31mred'],
    ['read_file', '{"path":"\\u001b]0;x\\u0007evil"}', '\\e]0;x\\x07evil'],
    ['bash', bash('a', 'echo \x1b[2J\u202e'), 'echo \\e[2J\\u202e'],
  ];
  for (const [name, args, expected, max] of table) {
    t.equal(summarizeArguments(name, args, { max }), expected, `${name} ${String(args)}`);
  }
  t.equal(summarizeArguments('read_file', '{"path":"/w/a.js"}', { showPath: (p) => p.replace('/w/', '') }), 'a.js');
});

t.test('chooseFence is longer than any backtick run inside', async (t) => {
  t.equal(chooseFence('plain'), '```');
  t.equal(chooseFence('a ``` b'), '````');
  t.equal(chooseFence('`````'), '``````');
  t.equal(chooseFence('` `` `'), '```');
});

t.test('colorEnabled: flag beats environment, auto needs a TTY and no NO_COLOR', async (t) => {
  const table: Array<[Parameters<typeof colorEnabled>, boolean]> = [
    [['auto', true, {}], true],
    [['auto', false, {}], false],
    [['auto', true, { NO_COLOR: '1' }], false],
    [['auto', true, { NO_COLOR: '' }], true],
    [['auto', true, { TERM: 'dumb' }], false],
    [['always', false, { NO_COLOR: '1' }], true],
    [['never', true, {}], false],
  ];
  for (const [args, expected] of table) t.equal(colorEnabled(...args), expected, JSON.stringify(args));
});

t.test('text helpers: clip by display width, formatCount', async (t) => {
  t.equal(clip('abcdef', 6), 'abcdef');
  t.equal(clip('abcdefg', 6), 'abcde…');
  t.equal(clip('😀😀😀', 6), '😀😀😀', 'wide characters count two columns');
  t.equal(clip('😀😀😀😀', 6), '😀😀…');
  t.equal(clip('日本語のテキスト', 7), '日本語…');
  t.same([0, 999, 1000, 1234567].map(formatCount), ['0', '999', '1,000', '1,234,567']);
});

t.test('OutputFold keeps head, a tail ring and a count; memory stays bounded', async (t) => {
  const fold = (text: string | string[], head = 2, tail = 2, cap?: number) => {
    const f = new OutputFold(head, tail, cap);
    for (const piece of Array.isArray(text) ? text : [text]) f.write(piece);
    const { head: h, hidden, tail: tl } = f.finish();
    return { head: h, hidden, tail: tl };
  };
  t.same(fold('a\nb\nc\n'), { head: ['a', 'b'], hidden: 0, tail: ['c'] });
  t.same(fold('1\n2\n3\n4\n5\n'), { head: ['1', '2'], hidden: 0, tail: ['3', '4', '5'] }, 'hiding one line would save nothing');
  t.same(fold('1\n2\n3\n4\n5\n6\n7'), { head: ['1', '2'], hidden: 3, tail: ['6', '7'] }, 'a last line without newline counts');
  t.same(fold(['par', 'tial\nli', 'ne\n']), { head: ['partial', 'line'], hidden: 0, tail: [] });
  t.same(fold('crlf\r\nnext\r\n'), { head: ['crlf', 'next'], hidden: 0, tail: [] });
  t.same(fold(['10%\r', '50%\r100%\n']), { head: ['100%'], hidden: 0, tail: [] }, 'a progress bar shows its last state');
  t.same(fold(['a\r', '\nb\n']), { head: ['a', 'b'], hidden: 0, tail: [] }, 'CRLF split across writes');
  t.same(fold('abcdefghij\n', 2, 2, 4), { head: ['abcd…'], hidden: 0, tail: [] });
  const big = new OutputFold(3, 3, 50);
  for (let i = 1; i <= 100000; i++) big.write(`${i} ${'x'.repeat(200)}\n`);
  const view = big.finish();
  t.equal(view.hidden, 100000 - 6);
  t.equal(view.lines, 100000, 'every line counted');
  t.ok(view.chars > 100000 * 200, 'its size counted');
  t.same(view.tail.map((l) => l.split(' ')[0]), ['99998', '99999', '100000']);
  t.ok([...view.head, ...view.tail].every((l) => l.length <= 51));
  t.same(new OutputFold().finish(), { head: [], hidden: 0, tail: [], lines: 0, chars: 0 });
});

t.test('core: bash output arriving twice is shown once', async (t) => {
  const base = { thread_id: 'th', turn_id: 'tu', item_id: 'it', name: 'bash', arguments: bash('it', 'ls') };
  const text = render([
    { type: 'turn_started', turn_id: 'tu' },
    { ...base, type: 'tool_started' },
    { ...base, type: 'command_started', command: 'ls' },
    { ...base, type: 'tool_output_delta', delta: 'one\n' },
    { ...base, type: 'command_output_delta', delta: 'one\n' },
    { ...base, type: 'tool_output_delta', delta: 'two\n' },
    { ...base, type: 'command_output_delta', delta: 'two\n' },
    { ...base, type: 'tool_completed', status: 'completed', error: '' },
    { ...base, type: 'command_completed', status: 'completed', error: '' },
    { type: 'turn_completed', turn_id: 'tu' },
  ]);
  t.equal(text.match(/│ one/g)?.length, 1);
  t.equal(text.match(/│ two/g)?.length, 1);
  t.equal(text.match(/\$ ls/g)?.length, 1);
  t.equal(text.match(/└ ✓ completed/g)?.length, 1);
  // Only the command_* twins (e.g. after `wuu-filter command`): still shown.
  const only = render([
    { ...base, type: 'command_started', command: 'ls' },
    { ...base, type: 'command_output_delta', delta: 'solo\n' },
    { ...base, type: 'command_completed', status: 'completed' },
  ]);
  t.match(only, /\$ ls\n  │ solo\n  └ ✓ completed\n/);
});

t.test('core: the final message is shown only when it differs', async (t) => {
  const turn = (deltas: string[], final?: string) => [
    { type: 'turn_started', turn_id: 'tu' },
    ...deltas.map((delta) => ({ type: 'agent_message_delta', turn_id: 'tu', delta })),
    ...(final === undefined ? [] : [{ type: 'agent_message_final', turn_id: 'tu', message: final }]),
    { type: 'turn_completed', turn_id: 'tu' },
  ];
  // What is shown between the turn heading and the turn's closing line.
  const body = (text: string) => {
    const lines = text.split('\n');
    return lines.slice(1, lines.findIndex((l) => l.startsWith('── turn'))).join('\n');
  };
  t.equal(body(render(turn(['Hel', 'lo.'], 'Hello.'))), 'Hello.', 'same: not repeated');
  t.equal(body(render(turn(['Hel', 'lo.'], 'Hello. More.'))), 'Hello. More.', 'extended: only the rest');
  t.equal(body(render(turn([], 'Only final.'))), 'Only final.', 'no deltas: the final is the message');
  t.equal(body(render(turn(['Draft'], 'Rewritten.'))), 'Draft\n↻ final message (replaces the text above):\nRewritten.');
  const md = render(turn(['Draft'], 'Rewritten.'), { markdown: true });
  t.match(md, /Draft\n\n\*Final message \(replaces the text above\):\*\n\nRewritten\.\n/);
});

t.test('core: diagnostics hidden unless verbose; unknown events are a dim line', async (t) => {
  const events = [
    { type: 'provider_state', turn_id: 'tu', step_index: 2, transport: 'sse', fallback_active: false },
    { type: 'provider_state', turn_id: 'tu', step_index: 0, input_items: 0 },
    { type: 'request_context', turn_id: 'tu', message_count: 3 },
    { type: 'shiny_new_thing', turn_id: 'tu', answer: 42 },
  ];
  const quiet = render(events);
  t.notMatch(quiet, /provider_state|request_context/);
  t.match(quiet, /^· shiny_new_thing answer=42$/m);
  const loud = render(events, { verbose: true });
  t.match(loud, /^· provider_state step 2 transport=sse$/m, 'empty and false values are left out');
  t.match(loud, /^· provider_state step 0$/m, 'step 0 is still shown');
  t.match(loud, /^· request_context message_count=3$/m);
  const colored = render([{ type: 'shiny_new_thing' }], { color: true });
  t.equal(colored, '\x1b[2m· shiny_new_thing\x1b[0m\n\n\x1b[1;33m━━ ✗ no result: the run was cut ' + '━'.repeat(48) + '\x1b[0m\n\x1b[2mthe input ended without a result event; seen: 0 turns\x1b[0m\n');
  const core = createPretty();
  t.equal(core.needsParse?.('provider_state'), false);
  t.equal(core.needsParse?.('tool_started'), true);
  t.equal(createPretty({ verbose: true }).needsParse?.('provider_state'), true);
});

t.test('core: escape sequences from data never reach the terminal', async (t) => {
  const text = render(
    [
      { type: 'agent_message_delta', turn_id: 'tu', delta: 'hi \x1b]0;owned\x07there\x1b[2J' },
      { type: 'tool_started', turn_id: 'tu', item_id: 'i', name: 'bash', arguments: bash('i', 'echo \x1b[31mx') },
      { type: 'tool_output_delta', turn_id: 'tu', item_id: 'i', delta: '\x1b[31mred\x1b[0m\n' },
      { type: 'tool_completed', turn_id: 'tu', item_id: 'i', status: 'completed' },
    ],
    { color: false },
  );
  t.notMatch(text, /\x1b/);
  t.match(text, /hi \\e\]0;owned\\x07there\\e\[2J\n\$ echo \\e\[31mx\n  │ \\e\[31mred\\e\[0m\n/, 'shown visibly, not obeyed');
});

t.test('core: long output folded with a count; --full shows it all', async (t) => {
  const events = [
    { type: 'tool_started', turn_id: 'tu', item_id: 'i', name: 'bash', arguments: bash('i', 'seq 20') },
    { type: 'tool_output_delta', turn_id: 'tu', item_id: 'i', delta: Array.from({ length: 20 }, (_, i) => `${i + 1}\n`).join('') },
    { type: 'tool_completed', turn_id: 'tu', item_id: 'i', status: 'completed' },
    { type: 'result', status: 'completed' },
  ];
  t.match(render(events), /\$ seq 20\n  │ 1\n  │ 2\n  │ 3\n  │ … 14 more lines\n  │ 18\n  │ 19\n  │ 20\n  └ ✓ completed\n/);
  const all = render(events, { full: true });
  t.equal(all.match(/  │ \d+\n/g)?.length, 20);
  t.notMatch(all, /more lines/);
  const md = render(events, { markdown: true });
  t.match(md, /```console\n\$ seq 20\n```\n\n<details><summary>Output: 20 lines, 51 bytes<\/summary>\n\n```text\n1\n2\n[\d\n]*\n20\n```\n\n<\/details>\n/, 'a long output folded in <details> with its size');
  const short = render(events.map((e) => (e.type === 'tool_output_delta' ? { ...e, delta: 'a\nb\n' } : e)), { markdown: true });
  t.match(short, /```console\n\$ seq 20\na\nb\n```\n/, 'a short output stays in the call block');
});

t.test('core: markdown fences outlast backticks in the output', async (t) => {
  const md = render(
    [
      { type: 'tool_started', turn_id: 'tu', item_id: 'i', name: 'read_file', arguments: '{"path":"README.md"}' },
      { type: 'tool_output_delta', turn_id: 'tu', item_id: 'i', delta: '```sh\nls\n```\n``````\n' },
      { type: 'tool_completed', turn_id: 'tu', item_id: 'i', status: 'failed', error: 'too *big*' },
      { type: 'result', status: 'completed' },
    ],
    { markdown: true },
  );
  t.match(md, /\n```````text\n▸ read_file README\.md\n```sh\nls\n```\n``````\n```````\n\n\*\*✗ failed:\*\* too \\\*big\\\*\n/);
  t.notMatch(md, /\x1b/);
});

t.test('core: subagents, todo, files, errors, parallel tools', async (t) => {
  const text = render([
    { type: 'session_configured', model: 'm', provider: 'p', workspace_root: '/w', permissions: { mode: 'auto' } },
    { type: 'turn_started', turn_id: 'tu' },
    { type: 'tool_started', turn_id: 'tu', item_id: 'a', name: 'read_file', arguments: '{"path":"/w/a.txt"}' },
    { type: 'tool_started', turn_id: 'tu', item_id: 'b', name: 'read_file', arguments: '{"path":"/elsewhere/b.txt"}' },
    { type: 'tool_output_delta', turn_id: 'tu', item_id: 'a', delta: 'A\n' },
    { type: 'tool_completed', turn_id: 'tu', item_id: 'b', status: 'completed' },
    { type: 'tool_completed', turn_id: 'tu', item_id: 'a', status: 'completed' },
    { type: 'subagent_started', agent_id: 'g', agent_type: 'explorer', task_name: 'find', status: 'running', description: 'Look around' },
    { type: 'subagent_updated', agent_id: 'g', agent_type: 'explorer', task_name: 'find', status: 'running', input_tokens: 5 },
    { type: 'subagent_updated', agent_id: 'g', agent_type: 'explorer', task_name: 'find', status: 'waiting' },
    { type: 'subagent_completed', agent_id: 'g', agent_type: 'explorer', task_name: 'find', status: 'failed', error: 'crashed', input_tokens: 1200, output_tokens: 30 },
    { type: 'todo_updated', turn_id: 'tu', todo: { items: [{ content: 'one', status: 'completed' }, { content: 'two', status: 'pending' }] } },
    { type: 'file_changed', turn_id: 'tu', item_id: 'a', path: '/w/a.txt', action: 'create' },
    { type: 'error', turn_id: 'tu', error: 'schema mismatch', retrying: false },
    { type: 'turn_failed', turn_id: 'tu', error: 'boom' },
    { type: 'result', status: 'failed', error: 'turn failed: boom', run_id: 'r1', final_message: 'partial' },
  ]);
  t.equal(
    text,
    [
      '● m (p) in /w',
      '  permissions mode=auto',
      '',
      rule('turn 1 · tu'),
      '▸ read_file a.txt',
      '▸ read_file /elsewhere/b.txt',
      '  └ ✓ completed',
      '▸ read_file a.txt',
      '  │ A',
      '  └ ✓ completed',
      '◆ find (explorer) started: Look around',
      '◆ find (explorer) waiting',
      '◆ find (explorer) ✗ failed: crashed · prompt 1,200 · output 30',
      '≡ todo 1/2 done',
      '  [x] one',
      '  [ ] two',
      '  ✎ create a.txt',
      '✗ error: schema mismatch',
      '── ✗ turn 1 failed: boom',
      '',
      rule('✗ failed'),
      'turn failed: boom',
      'final message:',
      'partial',
      'run r1 · 1 turn',
      '1 subagent · prompt 1,200 · output 30',
      '',
    ].join('\n'),
    'a tool completing away from its call line repeats the call line',
  );
});

t.test('core: never throws, whatever the fields hold', async (t) => {
  const types = ['session_configured', 'thread_started', 'turn_started', 'agent_message_delta', 'agent_message_final', 'usage_updated', 'turn_completed', 'turn_failed', 'turn_interrupted', 'tool_started', 'tool_output_delta', 'tool_completed', 'tool_removed', 'command_started', 'command_output_delta', 'command_completed', 'command_removed', 'file_changed', 'subagent_started', 'subagent_updated', 'subagent_completed', 'todo_updated', 'provider_state', 'error', 'result', 'nope'];
  const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), fc.string(), { maxKeys: 3 }));
  const field = fc.constantFrom('turn_id', 'item_id', 'agent_id', 'name', 'arguments', 'delta', 'message', 'status', 'error', 'todo', 'path', 'permissions', 'input_tokens', 'result', 'command', '__proto__');
  const event = fc.record({ type: fc.constantFrom(...types), fields: fc.dictionary(field, value, { maxKeys: 5 }) });
  fc.assert(
    fc.property(fc.array(event, { maxLength: 30 }), fc.constantFrom('text', 'markdown', 'html'), (events, mode) => {
      const text = render(events.map(({ type, fields }) => ({ ...fields, type })), { markdown: mode === 'markdown', html: mode === 'html', verbose: true });
      return typeof text === 'string' && !text.includes('\x1b');
    }),
    { numRuns: 300, seed: FC_SEED },
  );
  t.pass('300 random streams rendered, none with a raw escape');
});

t.test('stream factory: 1- and 7-byte chunks give the golden output', async (t) => {
  for (const size of [1, 7]) {
    const text = await pipeThrough<string>(chunked(RUN, size), parse({ file: 'run.jsonl' }), pretty({ width: 100 }));
    t.equal(text.join(''), GOLDEN_TXT, `text, chunks of ${size}`);
    const md = await pipeThrough<string>(chunked(RUN, size), parse({ file: 'run.jsonl' }), pretty({ markdown: true, width: 100 }));
    t.equal(md.join(''), GOLDEN_MD, `markdown, chunks of ${size}`);
  }
});

t.test('golden transcripts: reviewed content', async (t) => {
  // Facts checked by hand (jq) against test/fixtures/pretty/run.jsonl, a producer-faithful stream,
  // so the golden files cannot drift silently. Exclusive convention: prompt = input + cache write + cache read.
  // Turn 1, last root snapshot: 3,900 + 4,096 + 4,096 = 12,092; hit 4,096 / 12,092.
  t.match(GOLDEN_TXT, /^── turn 1 completed · prompt 12,092 \(3,900 uncached \+ 4,096 cache write \+ 4,096 cache read, 33\.9% cache hit\) · output 310 · auto-continues$/m, 'last snapshot of turn 1');
  // Run: root turns only, 3,900 + 800 uncached, 4,096 write, 4,096 + 8,192 read = 21,084; hit 12,288 / 21,084.
  t.match(GOLDEN_TXT, /^run run-20261202-231501-7f3a · 2 turns · prompt 21,084 \(4,700 uncached \+ 4,096 cache write \+ 12,288 cache read, 58\.3% cache hit\) · output 370$/m, 'sum of the two last root snapshots; the sub-agent thread not added');
  t.match(GOLDEN_TXT, /^1 subagent · prompt 1,420 \(420 uncached \+ 1,000 cache write \+ 0 cache read, 0\.0% cache hit\) · output 38$/m, 'the subagent apart, its last report');
  t.match(GOLDEN_TXT, /^◆ find-callers turn agent-7e21-turn-0001 completed \(sub-agent\) · prompt 1,420 .*· output 38$/m, "the child thread's turn end is the sub-agent's");
  t.match(GOLDEN_TXT, /^\[find-callers\] ▸ grep /m, "the child thread's tool call is marked");
  t.equal(GOLDEN_TXT.match(/expected 3 items, got 2 <cart>/g)?.length, 1, 'bash output once');
  t.equal(GOLDEN_TXT.match(/━━ turn/g)?.length, 2, 'two root turns, no heading for the child thread');
  t.match(GOLDEN_MD, /^## Turn 1 · 20261202-231501-7f3a-turn-0001$/m);
  t.match(GOLDEN_MD, /^- \[ \] Run the test suite \*\(in progress\)\*$/m);
  t.match(GOLDEN_MD, /^```console\n\$ npm test 2>&1 \| tail -n 3\nFAIL test\/cart\.test\.js\n/m);
  t.notMatch(GOLDEN_MD, /\x1b/);
});

t.test('binary: golden markdown for run.jsonl, exactly', async (t) => {
  const r = await runBin('wuu-pretty', ['--markdown', fixture('run.jsonl')], { env: { NO_COLOR: '' } });
  t.same(r, { stdout: GOLDEN_MD, stderr: '', code: 0, signal: null });
  const always = await runBin('wuu-pretty', ['--markdown', '--color=always', fixture('run.jsonl')]);
  t.equal(always.stdout, GOLDEN_MD, 'markdown never carries colors');
});

t.test('binary: plain text for failed.jsonl, exactly', async (t) => {
  const r = await runBin('wuu-pretty', [fixture('failed.jsonl')]);
  const expected = [
    '● gpt-5 (openai, effort high) in /home/bob/work/api',
    '  permissions mode=standard',
    '  thread 20261202-224010-9b21 started',
    '',
    rule('turn 1 · 20261202-224010-9b21-turn-0001'),
    'Deploying with the key from .env.',
    '▸ read_file .env',
    '  │ read .env',
    '  │ OPENAI_API_KEY=sk-proj-Q7x2Lm9Vb4Nc8Rt1Wy6Zp3Kd',
    '  │ DEPLOY_URL=https://api.example.com/deploy',
    '  └ ✓ completed',
    "$ curl -sf -H 'Authorization: [REDACTED] [REDACTED]' https://api.example.com/deploy",
    '  │ curl: (6) Could not resolve host: api.example.com',
    '  │ Exit code 6',
    '  └ ✗ failed (exit code 6)',
    '── ✗ turn 1 failed: openai: 401 invalid_api_key: Incorrect API key provided: sk-proj-****3Kd · prompt 3,000 · output 90',
    '',
    rule('✗ failed'),
    'openai: 401 invalid_api_key: Incorrect API key provided: sk-proj-****3Kd',
    'run run-20261202-224010-9b21 · 1 turn · prompt 3,000 · output 90',
    'trace /home/alice/.wuu/sessions/20261202-224010-9b21/session-trace.jsonl',
    '',
  ].join('\n');
  t.same(r, { stdout: expected, stderr: '', code: 0, signal: null });
  t.notMatch(r.stdout, /sha256|\{"content"/, 'a file tool shows the path and content, not its JSON result');
});

t.test('binary: plain text for killed.jsonl, exactly', async (t) => {
  const r = await runBin('wuu-pretty', [fixture('killed.jsonl')]);
  const seen = 'prompt 3,348 (1,300 uncached + 2,048 cache write + 0 cache read, 0.0% cache hit) · output 81';
  const expected = [
    '● claude-haiku-4-5 (anthropic) in /home/alice/src/shop',
    '  permissions mode=standard',
    '  thread 20261202-233000-e1d2 started',
    '',
    rule('turn 1 · 20261202-233000-e1d2-turn-0001'),
    'Running the migration, then seeding.',
    '$ npm run migrate',
    '  │ migrated: users, carts, orders',
    '  │ Exit code 0',
    '  └ ✓ completed',
    '$ npm run seed -- --rows 100000',
    '  │ seeding users... done (25000 rows)',
    '  └ no completion (the run was cut)',
    `── turn 1 cut off before it ended · ${seen}`,
    '',
    rule('✗ no result: the run was cut'),
    `the input ended without a result event; seen: 1 turn · ${seen}`,
    '',
  ].join('\n');
  t.same(r, {
    stdout: expected,
    stderr: `wuu-pretty: ${fixture('killed.jsonl')}:19: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120)\n`,
    code: 1,
    signal: null,
  });
});

t.test('binary: the other streams render with their status', async (t) => {
  const timeout = await runBin('wuu-pretty', [fixture('timeout.jsonl')]);
  t.match(timeout.stdout, /^── ✗ turn 1 interrupted: timeout · prompt 7,000 \(4,000 uncached \+ 0 cache write \+ 3,000 cache read, 42\.9% cache hit\) · output 200$/m);
  t.match(timeout.stdout, new RegExp(`^${rule('✗ timeout')}\ntimeout\n`, 'm'));
  const structured = await runBin('wuu-pretty', [fixture('structured.jsonl')]);
  t.match(structured.stdout, /^structured result \{"files":\["src\/cart\.test\.js","src\/api\.test\.js"\],"ok":true\}$/m);
  const both = await runBin('wuu-pretty', [fixture('failed.jsonl'), fixture('timeout.jsonl')]);
  t.match(both.stdout, new RegExp(`^━━ ${fixture('failed.jsonl').slice(-40)}`.replace(/[.*+?^${}()|[\]\\/]/g, (c) => (c === '^' ? c : `\\${c}`)).replace('━━ ', '━━ .*'), 'm'));
  t.match(both.stdout, /\n\n━━ .*timeout\.jsonl ━*\n● claude-sonnet-4-20250514/, 'a heading per input file');
});

t.test('binary: --pass-invalid shows a notice, not the raw line', async (t) => {
  const input = '{"type":"turn_started","turn_id":"t"}\nnot json at all\n{"type":"result","status":"completed"}\n';
  const r = await runBin('wuu-pretty', ['--pass-invalid'], { input });
  t.equal(r.code, 0);
  t.match(r.stdout, /^\[invalid line\] not json at all$/m);
  const md = await runBin('wuu-pretty', ['--pass-invalid', '--markdown'], { input });
  t.match(md.stdout, /^\*\[invalid line\]\* `not json at all`$/m);
  const skip = await runBin('wuu-pretty', [], { input });
  t.same([skip.code, /invalid line/.test(skip.stdout)], [1, false]);
});

t.test('binary: colors by flag, width flag, usage errors', async (t) => {
  const always = await runBin('wuu-pretty', ['--color=always', fixture('timeout.jsonl')], { env: { NO_COLOR: '1' } });
  t.match(always.stdout, /\x1b\[1;36m━━ turn 1/, '--color=always beats NO_COLOR');
  const auto = await runBin('wuu-pretty', [fixture('timeout.jsonl')], { env: { NO_COLOR: '' } });
  t.notMatch(auto.stdout, /\x1b/, 'a pipe is not a terminal');
  const narrow = await runBin('wuu-pretty', ['--width', '40', fixture('failed.jsonl')]);
  t.match(narrow.stdout, /^\$ curl -sf -H 'Authorization: \[REDACTED…$/m);
  t.equal("$ curl -sf -H 'Authorization: [REDACTED…".length, 40);
  t.match(narrow.stdout, new RegExp(`^━━ turn 1 · 20261202-224010-9b21-turn-0001 ━━$`, 'm'), 'rules follow a narrow width');
  const cases: Array<[string[], string]> = [
    [['--color=purple'], "--color takes always, never or auto, not 'purple'"],
    [['--color'], 'option --color needs a value'],
    [['--width', 'wide'], "--width takes a whole number, not 'wide'"],
    [['--width', '5'], '--width must be at least 20'],
    [['--markdown', '--html'], '--markdown and --html exclude each other'],
  ];
  for (const [args, message] of cases) {
    const r = await runBin('wuu-pretty', args);
    t.same(r, { stdout: '', stderr: `wuu-pretty: ${message}\nTry 'wuu-pretty --help' for more information.\n`, code: 2, signal: null }, args.join(' '));
  }
  const noColor = await runBin('wuu-pretty', ['--no-color', fixture('timeout.jsonl')]);
  t.same([noColor.code, /\x1b/.test(noColor.stdout)], [0, false]);
  const help = await runBin('wuu-pretty', ['--help']);
  t.match(help.stdout, /^Usage: wuu-pretty/);
  t.match(help.stdout, /--markdown/);
  t.match(help.stdout, /--html/);
  t.match(help.stdout, /ARRIVAL/, 'says elapsed times come from arrival');
  t.match(help.stdout, /--pass-invalid/);
  const own = help.stdout.slice(0, help.stdout.indexOf('Input and bad-line policy'));
  t.same(own.split('\n').filter((l) => l.length > 80), [], "wuu-pretty's help fits 80 columns");
});

const hasScript = spawnSync('sh', ['-c', 'command -v script'], { encoding: 'utf8' }).status === 0;

t.test('on a terminal: colored, sized to the terminal, plain with NO_COLOR', { skip: hasScript ? false : 'script(1) not installed' }, async (t) => {
  const onPty = (env: Record<string, string>, args = '') =>
    runShell(`script -qfec "stty cols 100; node dist/bin/wuu-pretty.js ${args} test/fixtures/pretty/run.jsonl" /dev/null`, { env });
  const colored = await onPty({ NO_COLOR: '', TERM: 'xterm-256color' });
  t.equal(colored.code, 0);
  const screen = colored.stdout.replace(/\r\n/g, '\n');
  t.match(screen, /\x1b\[1;36m━━ turn 1 · 20261202-231501-7f3a-turn-0001 ━+\x1b\[0m/, 'turn headings in bold cyan');
  t.match(screen, /\x1b\[32m✓\x1b\[0m/, 'a green check');
  t.match(screen, /\x1b\[2m  │ FAIL test\/cart\.test\.js\x1b\[0m/, 'output preview dimmed');
  t.equal(screen.replace(ANSI, ''), GOLDEN_TXT, 'a saved file on a terminal: the plain rendering, no arrival times');
  t.notMatch(screen.replace(ANSI, ''), / · \d+\.\ds$/m, 'no "· 0.0s" after every call when replaying a file (issue 23)');
  const plain = await onPty({ NO_COLOR: '1', TERM: 'xterm-256color' });
  const plainScreen = plain.stdout.replace(/\r\n/g, '\n');
  t.notMatch(plainScreen, /\x1b/, 'NO_COLOR=1: no escape codes at all');
  t.equal(plainScreen, GOLDEN_TXT);
  const piped = await runShell(`script -qfec "stty cols 100; node dist/bin/wuu-pretty.js < test/fixtures/pretty/run.jsonl" /dev/null`, { env: { NO_COLOR: '1', TERM: 'xterm-256color' } });
  t.equal(piped.stdout.replace(/\r\n/g, '\n'), GOLDEN_TXT, 'stdin redirected from a file is a saved file too');
  const never = await onPty({ NO_COLOR: '', TERM: 'xterm-256color' }, '--color=never');
  t.notMatch(never.stdout, /\x1b/);
  const narrow = await runShell(`script -qfec "stty cols 50; node dist/bin/wuu-pretty.js test/fixtures/pretty/failed.jsonl" /dev/null`, { env: { NO_COLOR: '1' } });
  t.match(narrow.stdout.replace(/\r\n/g, '\n'), /^\$ curl -sf -H 'Authorization: \[REDACTED\] \[REDACTE…$/m, 'clipped to the terminal width');
  t.equal("$ curl -sf -H 'Authorization: [REDACTED] [REDACTE…".length, 50);
});

t.test('live pipe: each event is on screen before the next is written', async (t) => {
  const child = spawn(process.execPath, [binPath('wuu-pretty')], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let seen = '';
  let check: (() => void) | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    seen += chunk.toString();
    check?.();
  });
  const expectOutput = (event: object, want: string) =>
    new Promise<string>((resolve) => {
      const timer = setTimeout(() => resolve(`TIMEOUT; got ${JSON.stringify(seen)}`), 5000);
      check = () => {
        if (seen.endsWith(want)) {
          clearTimeout(timer);
          resolve(want);
        }
      };
      child.stdin.write(`${JSON.stringify(event)}\n`);
    });
  const steps: Array<[object, string]> = [
    [{ type: 'turn_started', turn_id: 'tu' }, `${rule('turn 1 · tu')}\n`],
    [{ type: 'agent_message_delta', turn_id: 'tu', delta: 'Hel' }, 'Hel'],
    [{ type: 'agent_message_delta', turn_id: 'tu', delta: 'lo' }, 'Hello'],
    [{ type: 'tool_started', turn_id: 'tu', item_id: 'i', name: 'bash', arguments: '{"command":"ls"}' }, 'Hello\n$ ls\n'],
    [{ type: 'tool_completed', turn_id: 'tu', item_id: 'i', status: 'completed' }, '$ ls\n  │ a\n  └ ✓ completed\n'],
  ];
  for (const [event, want] of steps) {
    if ((event as { type: string }).type === 'tool_completed') {
      // Output is previewed at completion: the delta alone adds nothing to the screen.
      const before = seen;
      child.stdin.write(`${JSON.stringify({ type: 'tool_output_delta', turn_id: 'tu', item_id: 'i', delta: 'a\n' })}\n`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      t.equal(seen, before, 'an output delta is held until the tool completes');
    }
    t.equal(await expectOutput(event, want), want, `${(event as { type: string }).type} shows at once`);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  child.stdin.end();
  const code = await new Promise((resolve) => child.on('close', resolve));
  t.equal(code, 0);
  t.match(seen, /no result: the run was cut/);
});
