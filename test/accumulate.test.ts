import t from 'tap';
import {
  accumulate,
  CappedText,
  createAccumulate,
  createAccumulator,
  parseArguments,
} from '../lib/accumulate/index.js';
import type { Core } from '../lib/core.js';
import { parse, stringify } from '../lib/jsonl.js';
import { LineRecord, serialize, type Output } from '../lib/jsonl.js';
import { chunked, liveProcess, pipeThrough, runBin, runShell, jsonl } from './helpers.js';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './helpers.js';
import os from 'node:os';
import { EXIT_CODES, exitStream, LONG_OUTPUT } from './exit-stream.js';

/** The 0.1.0 examples these tables were written against (examples/ now holds producer-faithful runs, tested in test/producer/). */
const legacy = (name: string) => path.join(ROOT, 'test', 'fixtures', 'v0.1', name);

const RUN = fs.readFileSync(legacy('run.jsonl'), 'utf8');
const RUN_LINES = RUN.split('\n').filter(Boolean);
/** Line N of run.jsonl (1-based, as jq's input_line_number). */
const L = (n: number) => RUN_LINES[n - 1]!;

/** Runs a core over whole lines, then ends the file; returns each output as text. */
function runCore(core: Core, lines: string[], file = 'run.jsonl'): string[] {
  const out: string[] = [];
  const emit = (o: Output) => out.push(serialize(o).toString());
  lines.forEach((line, i) => core.push(new LineRecord(Buffer.from(line), file, i + 1), emit));
  core.endFile?.(file, emit);
  core.end?.(emit);
  return out;
}

const ev = (o: Record<string, unknown>) => JSON.stringify(o);

// Expected units of examples/run.jsonl, written by hand from the file; outputs and
// byte counts checked with: jq -sc '[.[]|select(.type=="tool_output_delta" and .item_id==$it)|.delta]|add|[., utf8bytelength]'
const CMD1 = 'npm test 2>&1 | tail -n 5 && echo done';
const TC1 = ev({
  type: 'tool_call', thread_id: 'th_7f3a', turn_id: 'tu_01', item_id: 'it_01', name: 'bash',
  arguments: { command: CMD1 }, arguments_raw: `{"command":"${CMD1}"}`, command: CMD1,
  status: 'completed', error: '', exit_code: 0,
  output: '> shop@1.0.0 test\nFAIL test/cart.test.js\n  expected 3 items, got 2 <cart>\nTests: 1 failed, 41 passed\ndone\n',
  output_bytes: 106, output_truncated_bytes: 0,
});
const TC2 = ev({
  type: 'tool_call', thread_id: 'th_7f3a', turn_id: 'tu_01', item_id: 'it_02', name: 'read_file',
  arguments: { path: 'src/cart.js' }, arguments_raw: '{"path":"src/cart.js"}', status: 'completed', error: '',
  output: 'export function add(cart, item) {\n  if (cart.items.length > 2) return cart;\n  return { ...cart, items: [...cart.items, item] };\n}\n',
  output_bytes: 130, output_truncated_bytes: 0,
});
const TC4 = ev({
  type: 'tool_call', thread_id: 'th_7f3a', turn_id: 'tu_01', item_id: 'it_04', name: 'edit_file',
  arguments: { path: 'src/cart.js', old: '> 2', new: '> 99' }, arguments_raw: '{"path":"src/cart.js","old":"> 2","new":"> 99"}',
  status: 'completed', error: '', output: 'Edited src/cart.js (1 replacement)\n', output_bytes: 35, output_truncated_bytes: 0,
});
const TC5 = ev({
  type: 'tool_call', thread_id: 'th_7f3a', turn_id: 'tu_02', item_id: 'it_05', name: 'bash',
  arguments: { command: 'npm test' }, arguments_raw: '{"command":"npm test"}', command: 'npm test', process_id: '4242',
  status: 'completed', error: '', exit_code: 0, output: 'Tests: 42 passed\n', output_bytes: 17, output_truncated_bytes: 0,
});
const MSG1 = ev({
  type: 'agent_message', thread_id: 'th_7f3a', turn_id: 'tu_01',
  message: "I'll run the tests first. The cart capped items at 3; I raised the limit.", source: 'final',
});
const MSG2 = ev({ type: 'agent_message', thread_id: 'th_7f3a', turn_id: 'tu_02', message: 'All 42 tests pass now.', source: 'deltas' });

/** wuu-accumulate over run.jsonl: pass-through lines by number, new events in place. */
const RUN_EXPECTED = [
  L(1), L(2), L(3), L(4), L(5), L(6), TC1, L(20), TC2, L(25), TC4, L(33), L(34), L(35), L(36), MSG1, L(38),
  L(39), L(40), TC5, L(49), MSG2, L(50), L(51),
];

t.test('CappedText keeps whole text under the cap, head and tail over it', async (t) => {
  const table: Array<[number, string[], string, number]> = [
    [10, ['abcdefghij'], 'abcdefghij', 0],
    [10, ['abcdefghijklmnop'], 'abcdelmnop', 6],
    [10, 'abcdefghijklmnopqrstuvwxyz'.split(''), 'abcdevwxyz', 16],
    [10, ['abc', 'defghijklmnopqrstuvwxyz'], 'abcdevwxyz', 16],
    [5, ['ééé'], 'éé', 2], // 6 bytes: head 3 bytes cut to one é, tail 2 bytes = one é
    [5, ['€€'], '€', 3], // tail bytes 82 ac are the end of a cut character
    [0, ['abc'], '', 3],
    [4, ['\ud800x'], '\ud800x', 0], // under the cap the exact string survives
    [3, [], '', 0],
  ];
  for (const [cap, pieces, text, truncated] of table) {
    const capped = new CappedText(cap);
    for (const piece of pieces) capped.append(piece);
    t.same(capped.result(), { text, truncatedBytes: truncated }, `cap ${cap}: ${JSON.stringify(pieces)}`);
  }
  const big = new CappedText(8);
  for (let i = 0; i < 10000; i++) big.append('0123456789');
  t.same(big.result(), { text: '01236789', truncatedBytes: 99992 });
  t.equal(big.bytes, 100000);
});

t.test('parseArguments', async (t) => {
  t.same(parseArguments('{"a":1}'), { arguments: { a: 1 }, arguments_raw: '{"a":1}' });
  t.same(parseArguments('{"a":'), { arguments: null, arguments_raw: '{"a":' });
  t.same(parseArguments(''), { arguments: null, arguments_raw: '' });
  t.same(parseArguments(undefined), { arguments: null, arguments_raw: null });
  t.same(parseArguments({ a: 1 }), { arguments: { a: 1 }, arguments_raw: '{"a":1}' });
  t.same(parseArguments('[1,2]'), { arguments: [1, 2], arguments_raw: '[1,2]' });
});

t.test('core over test/fixtures/v0.1/run.jsonl: whole events in place, the rest byte for byte', async (t) => {
  t.same(runCore(createAccumulate(), RUN_LINES), RUN_EXPECTED);
});

t.test('--keep-deltas passes every original line too, in order', async (t) => {
  const out = runCore(createAccumulate({ keepDeltas: true }), RUN_LINES);
  t.same(out.filter((l) => !/^\{"type":"(tool_call|agent_message)"/.test(l)), RUN_LINES, 'originals unchanged and in order');
  t.equal(out.length, 51 + 6);
  t.equal(out.indexOf(TC1), out.indexOf(L(18)) + 1, 'tool_call right after tool_completed');
  t.equal(out.indexOf(L(19)), out.indexOf(TC1) + 1, 'then the command twin');
  t.equal(out.indexOf(MSG1), out.indexOf(L(37)) + 1);
  t.equal(out.indexOf(MSG2), out.indexOf(L(50)) - 1);
});

t.test('--keep-removed passes tool_removed for the withdrawn item', async (t) => {
  const out = runCore(createAccumulate({ keepRemoved: true }), RUN_LINES);
  t.same(out, [...RUN_EXPECTED.slice(0, 10), L(28), ...RUN_EXPECTED.slice(10)]);
  const both = runCore(createAccumulate({ keepRemoved: true, keepDeltas: true }), RUN_LINES);
  t.equal(both.filter((l) => l === L(28)).length, 1, 'not twice with --keep-deltas');
});

t.test('--check reports finals that disagree with their deltas', async (t) => {
  const check = (lines: string[], file: string) => {
    const warnings: string[] = [];
    const core = createAccumulate({ check: true, warn: (m) => warnings.push(m) });
    runCore(core, lines, file);
    return { warnings, status: core.status?.() };
  };
  t.same(check(RUN_LINES, 'run.jsonl'), {
    warnings: ['run.jsonl:37: turn "tu_01" of thread "th_7f3a": the deltas (25 bytes) are only a prefix of agent_message_final (73 bytes)'],
    status: 1,
  });
  t.same(check(fs.readFileSync(legacy('structured.jsonl'), 'utf8').split('\n').filter(Boolean), 's.jsonl'), { warnings: [], status: 0 });
  const d = (delta: string) => ev({ delta, thread_id: 'th', turn_id: 'tu', type: 'agent_message_delta' });
  const f = (message: string) => ev({ message, thread_id: 'th', turn_id: 'tu', type: 'agent_message_final' });
  t.same(check([d('é1'), f('é2')], 'x'), {
    warnings: ['x:2: turn "tu" of thread "th": agent_message_final (3 bytes) differs from the deltas (3 bytes) at byte 2'],
    status: 1,
  });
  t.same(check([f('only a final')], 'x'), { warnings: [], status: 0 }, 'no deltas: nothing to disagree with');
  t.same(check([d('ab'), d('c'), f('abc')], 'x'), { warnings: [], status: 0 });
  t.equal(createAccumulate().status?.(), 0);
});

const tu = (type: string, extra: Record<string, unknown> = {}, ids: [string, string] = ['th', 'tu']) =>
  ev({ ...extra, thread_id: ids[0], turn_id: ids[1], type });
const item = (type: string, itemId: string, extra: Record<string, unknown> = {}, ids: [string, string] = ['th', 'tu']) =>
  tu(type, { ...extra, item_id: itemId }, ids);

t.test('bash twins: output taken once, command copy only without tool deltas', async (t) => {
  const args = '{"command":"ls"}';
  const twin = { arguments: args, command: 'ls', name: 'bash', process_id: 7 };
  const both = [
    item('tool_started', 'i', { arguments: args, name: 'bash' }),
    item('command_started', 'i', twin),
    item('tool_output_delta', 'i', { delta: 'a\n' }),
    item('command_output_delta', 'i', { ...twin, delta: 'a\n' }),
    item('tool_completed', 'i', { error: '', name: 'bash', status: 'completed' }),
    item('command_completed', 'i', { ...twin, error: '', status: 'completed' }),
  ];
  const call = {
    type: 'tool_call', thread_id: 'th', turn_id: 'tu', item_id: 'i', name: 'bash', arguments: { command: 'ls' },
    arguments_raw: args, command: 'ls', process_id: 7, status: 'completed', error: '', exit_code: 0, output: 'a\n', output_bytes: 2,
    output_truncated_bytes: 0,
  };
  t.same(runCore(createAccumulate(), both), [ev(call)], 'tool copy, not both');
  const commandDeltasOnly = both.filter((l) => !l.includes('tool_output_delta'));
  t.same(runCore(createAccumulate(), commandDeltasOnly), [ev(call)], 'command copy when no tool delta came');
  const commandOnly = both.filter((l) => l.includes('"type":"command_'));
  t.same(runCore(createAccumulate(), commandOnly), [ev(call)], 'a command-only item completes at command_completed');
  const removedCommandOnly = [item('command_started', 'i', twin), item('command_removed', 'i', twin)];
  t.same(runCore(createAccumulate(), removedCommandOnly), []);
  t.same(runCore(createAccumulate({ keepRemoved: true }), removedCommandOnly), [
    ev({ type: 'tool_removed', thread_id: 'th', turn_id: 'tu', item_id: 'i' }),
  ]);
});

t.test('item ids repeating across turns and threads are separate items', async (t) => {
  const a: [string, string] = ['th_a', 'tu_1'];
  const b: [string, string] = ['th_a', 'tu_2'];
  const c: [string, string] = ['th_b', 'tu_1'];
  const lines = [
    item('tool_started', 'x', { name: 'A' }, a),
    item('tool_started', 'x', { name: 'B' }, b),
    item('tool_started', 'x', { name: 'C' }, c),
    item('tool_output_delta', 'x', { delta: 'b' }, b),
    item('tool_output_delta', 'x', { delta: 'a' }, a),
    item('tool_output_delta', 'x', { delta: 'c' }, c),
    item('tool_completed', 'x', { status: 'completed' }, c),
    item('tool_completed', 'x', { status: 'failed', error: 'e' }, a),
    item('tool_completed', 'x', { status: 'completed' }, b),
  ];
  const out = jsonl(runCore(createAccumulate(), lines).join('\n'));
  t.same(out.map((o) => [o.thread_id, o.turn_id, o.name, o.output, o.status]), [
    ['th_b', 'tu_1', 'C', 'c', 'completed'],
    ['th_a', 'tu_1', 'A', 'a', 'failed'],
    ['th_a', 'tu_2', 'B', 'b', 'completed'],
  ]);
});

t.test('open units: flushed before the turn end, before result, and at end of input', async (t) => {
  const started = item('tool_started', 'i', { arguments: '{not json', name: 'x' });
  const incomplete = ev({
    type: 'tool_call', thread_id: 'th', turn_id: 'tu', item_id: 'i', name: 'x', arguments: null, arguments_raw: '{not json',
    status: 'incomplete', error: null, output: 'o', output_bytes: 1, output_truncated_bytes: 0,
  });
  const msg = ev({ type: 'agent_message', thread_id: 'th', turn_id: 'tu', message: 'hi', source: 'deltas' });
  const body = [started, tu('agent_message_delta', { delta: 'hi' }), item('tool_output_delta', 'i', { delta: 'o' })];
  const end = tu('turn_interrupted', { reason: 'timeout' });
  t.same(runCore(createAccumulate(), [...body, end]), [incomplete, msg, end], 'before the turn end');
  const result = ev({ status: 'failed', type: 'result' });
  t.same(runCore(createAccumulate(), [...body, result]), [incomplete, msg, result], 'before result');
  t.same(runCore(createAccumulate(), body), [incomplete, msg], 'at end of input');
  t.same(runCore(createAccumulate(), [tu('turn_started'), tu('turn_completed')]), [tu('turn_started'), tu('turn_completed')], 'no message, none emitted');
  const late = [tu('agent_message_final', { message: 'F' }), tu('agent_message_delta', { delta: 'more' }), tu('turn_completed')];
  t.same(runCore(createAccumulate(), late), [
    ev({ type: 'agent_message', thread_id: 'th', turn_id: 'tu', message: 'F', source: 'final' }),
    ev({ type: 'agent_message', thread_id: 'th', turn_id: 'tu', message: 'more', source: 'deltas' }),
    tu('turn_completed'),
  ], 'deltas after a final open a new message');
  const removed = [item('tool_started', 'r', { name: 'x' }), item('tool_removed', 'r'), tu('turn_completed')];
  t.same(runCore(createAccumulate(), removed), [tu('turn_completed')], 'a removed item is not flushed');
});

t.test('arguments too deep to serialize do not crash the flush', async (t) => {
  const deep = '['.repeat(20000) + ']'.repeat(20000);
  const out = runCore(createAccumulate(), [item('tool_started', 'i', { arguments: deep, name: 'n' })]);
  const call = JSON.parse(out[0]!);
  t.same([call.status, call.arguments, call.arguments_raw, call.arguments_error], ['incomplete', null, deep, 'nested too deeply to serialize']);
});

t.test('--max-output-bytes and --max-message-bytes keep head and tail', async (t) => {
  const lines = [
    item('tool_started', 'i', { name: 'n' }),
    item('tool_output_delta', 'i', { delta: 'abcdefghij' }),
    item('tool_output_delta', 'i', { delta: 'klmnop' }),
    item('tool_completed', 'i', { status: 'completed' }),
    tu('agent_message_delta', { delta: 'hello world' }),
  ];
  const out = jsonl(runCore(createAccumulate({ maxOutputBytes: 10, maxMessageBytes: 4 }), lines).join('\n'));
  t.same([out[0]!.output, out[0]!.output_bytes, out[0]!.output_truncated_bytes], ['abcdelmnop', 16, 6]);
  t.same(out[1], { type: 'agent_message', thread_id: 'th', turn_id: 'tu', message: 'held', source: 'deltas', message_truncated_bytes: 7 });
});

t.test('the accumulator holds state only for open units', async (t) => {
  const counts: number[][] = [];
  const acc = createAccumulator({}, { message() {}, tool() {}, removed() {} });
  for (const [i, line] of RUN_LINES.entries()) {
    const rec = new LineRecord(Buffer.from(line), 'run.jsonl', i + 1);
    if (/"type":"(agent_message|tool|command)_/.test(line)) acc.piece(rec);
    else if (/"type":"turn_(completed|failed|interrupted)"/.test(line)) acc.endTurn(rec);
    counts.push([acc.openTurns, acc.openItems]);
  }
  t.same(counts[9], [1, 1], 'after tool_started it_01 (line 10)');
  t.same(counts[17], [1, 0], 'it_01 done at line 18; the message of tu_01 is still open');
  t.same(counts[36], [0, 0], 'all of tu_01 delivered at the final (line 37)');
  t.same(counts[50], [0, 0], 'nothing left at the end');
});

/** Types of the first `k` lines, an independent oracle for the cut-stream test. */
function oracle(lines: string[]) {
  const events = lines.map((l) => JSON.parse(l) as Record<string, string>);
  const items = new Map<string, string>();
  for (const e of events) {
    if (!/^(tool|command)_/.test(e.type!)) continue;
    const key = `${e.turn_id}/${e.item_id}`;
    if (e.type === 'tool_removed') items.set(key, 'removed');
    else if (e.type === 'tool_completed') items.set(key, e.status!);
    else if (!items.has(key)) items.set(key, 'incomplete');
  }
  const messages = new Set(events.filter((e) => e.type?.startsWith('agent_message_')).map((e) => e.turn_id));
  const passed = lines.filter((l) => !/"type":"(agent_message|tool|command)_/.test(l));
  return { items: [...items].filter(([, s]) => s !== 'removed'), messages: messages.size, passed };
}

t.test('a stream cut at every line boundary of run.jsonl: no crash, open units flushed', async (t) => {
  for (let k = 0; k <= RUN_LINES.length; k++) {
    const prefix = RUN_LINES.slice(0, k);
    const out = runCore(createAccumulate(), prefix);
    const expected = oracle(prefix);
    const parsed = jsonl(out.join('\n'));
    const calls = parsed.filter((o) => o.type === 'tool_call').map((o) => [`${o.turn_id}/${o.item_id}`, o.status]);
    t.same(calls.sort(), [...expected.items].sort(), `cut after line ${k}: tool calls`);
    t.equal(parsed.filter((o) => o.type === 'agent_message').length, expected.messages, `cut after line ${k}: messages`);
    t.same(out.filter((l) => !/^\{"type":"(tool_call|agent_message)"/.test(l)), expected.passed, `cut after line ${k}: pass-through`);
  }
});

t.test('stream API fed in 1- and 7-byte chunks', async (t) => {
  const expected = RUN_EXPECTED.join('\n') + '\n';
  for (const size of [1, 7]) {
    const out = await pipeThrough<Buffer>(chunked(RUN, size), parse({ file: 'run.jsonl' }), accumulate(), stringify());
    t.equal(Buffer.concat(out).toString(), expected, `chunks of ${size}`);
  }
});

t.test('hostile ids and keys pollute nothing', async (t) => {
  const before = Object.getOwnPropertyNames(Object.prototype).sort();
  const ids: [string, string] = ['__proto__', 'constructor'];
  const lines = [
    item('tool_started', '__proto__', { arguments: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"p2":1}}}', name: 'toString' }, ids),
    item('tool_output_delta', '__proto__', { delta: 'x' }, ids),
    item('command_started', 'hasOwnProperty', { command: 'c' }, ids),
    tu('agent_message_delta', { delta: 'm', __proto__x: 1 }, ids),
    '{"__proto__":{"thread_id":"evil","polluted":1},"type":"agent_message_delta","delta":"d","turn_id":"constructor"}',
    item('tool_completed', '__proto__', { status: 'completed' }, ids),
    tu('turn_completed', {}, ids),
  ];
  const out = runCore(createAccumulate({ check: true, keepRemoved: true }), lines);
  const parsed = out.map((l) => JSON.parse(l) as Record<string, unknown>);
  const call = parsed[0]!;
  t.same([call.thread_id, call.turn_id, call.item_id, call.name, call.output], ['__proto__', 'constructor', '__proto__', 'toString', 'x']);
  t.ok(Object.hasOwn(call.arguments as object, '__proto__'), '__proto__ stays an own key of the arguments');
  t.same(parsed.map((o) => [o.type, o.item_id, o.message, o.status, o.thread_id]), [
    ['tool_call', '__proto__', undefined, 'completed', '__proto__'],
    ['tool_call', 'hasOwnProperty', undefined, 'incomplete', '__proto__'],
    ['agent_message', undefined, 'm', undefined, '__proto__'],
    ['turn_completed', undefined, undefined, undefined, '__proto__'],
    ['agent_message', undefined, 'd', undefined, ''],
  ]);
  t.equal(({} as Record<string, unknown>).polluted, undefined);
  t.equal(({} as Record<string, unknown>).p2, undefined);
  t.same(Object.getOwnPropertyNames(Object.prototype).sort(), before, 'Object.prototype untouched');
});

t.test('binary: exact output, exit status', async (t) => {
  const r = await runBin('wuu-accumulate', [legacy('run.jsonl')]);
  t.same(r, { stdout: RUN_EXPECTED.join('\n') + '\n', stderr: '', code: 0, signal: null });

  const stdin = await runBin('wuu-accumulate', [], { input: RUN });
  t.equal(stdin.stdout, RUN_EXPECTED.join('\n') + '\n');

  const check = await runBin('wuu-accumulate', ['--check', 'test/fixtures/v0.1/run.jsonl']);
  t.same([check.stdout, check.stderr, check.code], [
    RUN_EXPECTED.join('\n') + '\n',
    'wuu-accumulate: test/fixtures/v0.1/run.jsonl:37: turn "tu_01" of thread "th_7f3a": the deltas (25 bytes) are only a prefix of agent_message_final (73 bytes)\n',
    1,
  ]);
  const ok = await runBin('wuu-accumulate', ['--check', 'test/fixtures/v0.1/structured.jsonl']);
  t.same([ok.stderr, ok.code], ['', 0]);
});

t.test('binary: killed producer flushes open units as incomplete', async (t) => {
  const killed = fs.readFileSync(legacy('killed.jsonl'), 'utf8').split('\n');
  const r = await runBin('wuu-accumulate', ['test/fixtures/v0.1/killed.jsonl']);
  t.equal(r.code, 1);
  t.equal(
    r.stderr,
    'wuu-accumulate: test/fixtures/v0.1/killed.jsonl:22: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57)\n',
  );
  const it02 = ev({
    type: 'tool_call', thread_id: 'th_7f3a', turn_id: 'tu_01', item_id: 'it_02', name: 'read_file',
    arguments: { path: 'src/cart.js' }, arguments_raw: '{"path":"src/cart.js"}', status: 'incomplete', error: null,
    output: '', output_bytes: 0, output_truncated_bytes: 0,
  });
  const msg = ev({ type: 'agent_message', thread_id: 'th_7f3a', turn_id: 'tu_01', message: "I'll run the tests first.", source: 'deltas' });
  t.equal(r.stdout, [...killed.slice(0, 6), TC1, killed[19], it02, msg].join('\n') + '\n');
});

t.test('binary: files are runs; open units do not leak into the next file', async (t) => {
  const r = await runBin('wuu-accumulate', ['test/fixtures/v0.1/killed.jsonl', 'test/fixtures/v0.1/timeout.jsonl']);
  const types = jsonl(r.stdout).map((o) => o.type);
  t.same(types.slice(-10), [
    'subagent_started',
    'tool_call', // killed.jsonl's open item and message, flushed at the end of its file
    'agent_message',
    'session_configured',
    'thread_forked',
    'turn_started',
    'usage_updated',
    'agent_message',
    'turn_interrupted',
    'result',
  ]);
  t.equal(r.code, 1, 'the cut last line of killed.jsonl');
});

t.test('binary: options and usage errors', async (t) => {
  const cases: Array<[string[], string]> = [
    [['--max-output-bytes', 'lots'], "--max-output-bytes takes a whole number (K, M, G suffixes allowed), not 'lots'"],
    [['--max-message-bytes', '-1'], 'option --max-message-bytes needs a value'],
    [['--keep'], 'unknown option --keep'],
  ];
  for (const [args, message] of cases) {
    const r = await runBin('wuu-accumulate', args);
    t.same(r, { stdout: '', stderr: `wuu-accumulate: ${message}\nTry 'wuu-accumulate --help' for more information.\n`, code: 2, signal: null });
  }
  const help = await runBin('wuu-accumulate', ['--help']);
  t.match(help.stdout, /^Usage: wuu-accumulate/);
  t.match(help.stdout, /--max-output-bytes N/);
  const small = await runBin('wuu-accumulate', ['--max-output-bytes', '8', 'test/fixtures/v0.1/run.jsonl']);
  const first = jsonl(small.stdout).find((o) => o.type === 'tool_call')!;
  t.same([first.output, first.output_bytes, first.output_truncated_bytes], ['> shone\n', 106, 98]);
});

t.test('binary: pipelines with wuu-filter', async (t) => {
  const r = await runShell("wuu-filter -v diag test/fixtures/v0.1/run.jsonl | wuu-accumulate | grep -c '^{\"type\":\"tool_call\"'");
  t.same([r.stdout, r.stderr, r.code], ['4\n', '', 0]);
  const back = await runShell('wuu-accumulate --keep-deltas test/fixtures/v0.1/run.jsonl | wuu-filter -v tool_call agent_message 2>/dev/null');
  t.same([back.stdout, back.code], [RUN, 0], '--keep-deltas, then dropping the new events, is the identity');
});

t.test('binary: live pipe delivers each tool_call at its tool_completed', async (t) => {
  const live = liveProcess('wuu-accumulate');
  for (let i = 0; i < 3; i++) {
    live.write(
      [
        item('tool_started', `i${i}`, { name: 'n' }),
        item('tool_output_delta', `i${i}`, { delta: `out ${i}` }),
        item('tool_completed', `i${i}`, { status: 'completed' }),
      ].join('\n') + '\n',
    );
    const line = await live.nextLine();
    t.match(line, new RegExp(`^\\{"type":"tool_call".*"item_id":"i${i}".*"output":"out ${i}"`), `call ${i} arrives before the stream ends`);
  }
  t.equal(await live.end(), 0);
});

t.test('bash exit codes from the output trailer (issue 23), whatever the chunks and the cap', async (t) => {
  const text = exitStream();
  const expected = EXIT_CODES.map(([item, name, code]) => [item, name, code]);
  const calls = (out: string) =>
    jsonl(out)
      .filter((e) => e.type === 'tool_call')
      .map((e) => [String(e.item_id).replace(/^.*-(item-\d+)$/, '$1'), e.name, e.exit_code]);
  for (const maxOutputBytes of [undefined, 0, 16]) {
    for (const size of [1, 7, 1 << 20]) {
      const out = await pipeThrough<Buffer>(chunked(text, size), parse({ file: 'x' }), accumulate({ maxOutputBytes }), stringify());
      t.same(calls(Buffer.concat(out).toString()), expected, `cap ${maxOutputBytes}, chunks of ${size}`);
    }
  }
  const read = jsonl(runCore(createAccumulate(), text.split('\n').filter(Boolean)).join('\n')).find((e) => e.name === 'read_file')!;
  t.notOk('exit_code' in read, 'only bash calls have an exit_code');
});

t.test('--max-output-bytes 0: all output left out is counted as truncated, sorted-key lines included', async (t) => {
  const lines = exitStream().split('\n').filter(Boolean);
  const out = jsonl(runCore(createAccumulate({ maxOutputBytes: 0 }), lines).join('\n')).filter((e) => e.type === 'tool_call');
  t.ok(out.length === EXIT_CODES.length);
  for (const call of out) t.same([call.output, call.output_truncated_bytes], ['', call.output_bytes], String(call.item_id));
  t.equal(out[5]!.output_bytes, Buffer.byteLength(LONG_OUTPUT), 'the long output, counted without being kept');
  // The same lines with their keys in another order take the parsing path: same answer.
  const reordered = lines.map((l) => ev(Object.fromEntries(Object.entries(JSON.parse(l) as Record<string, unknown>).reverse())));
  const slow = jsonl(runCore(createAccumulate({ maxOutputBytes: 0 }), reordered).join('\n')).filter((e) => e.type === 'tool_call');
  t.same(slow.map((c) => [c.output_bytes, c.output_truncated_bytes, c.exit_code]), out.map((c) => [c.output_bytes, c.output_truncated_bytes, c.exit_code]));
  const capped = new CappedText(0);
  capped.count(5);
  t.same(capped.result(), { text: '', truncatedBytes: 5 });
});

t.test('binary: failed commands with wuu-filter --where on exit_code', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-exit-'));
  const file = path.join(dir, 'run.jsonl');
  fs.writeFileSync(file, exitStream());
  const ids = (out: string) => jsonl(out).map((e) => `${String(e.item_id).replace(/^.*-(item-\d+)$/, '$1')}=${JSON.stringify(e.exit_code)}`);
  const failed = await runShell(`wuu-accumulate ${file} | wuu-filter tool_call --where '$.name==bash' --where '$.exit_code!=0'`);
  t.same([ids(failed.stdout), failed.stderr, failed.code], [['item-2=2', 'item-8=null', 'item-12=137', 'item-14=null', 'item-16=1'], '', 0]);
  const bare = await runShell(`wuu-accumulate ${file} | wuu-filter tool_call --where '$.exit_code!=0'`);
  t.same(ids(bare.stdout), ['item-2=2', 'item-8=null', 'item-10=undefined', 'item-12=137', 'item-14=null', 'item-16=1'], 'alone, != also keeps unknown codes and calls without one (documented)');
  const known = await runShell(`wuu-accumulate ${file} | wuu-filter tool_call --where '$.exit_code!=0' --where '$.exit_code!=null' --where '$.exit_code'`);
  t.same(ids(known.stdout), ['item-2=2', 'item-12=137', 'item-16=1'], 'known non-zero codes only');
  const positive = await runShell(`wuu-accumulate ${file} | wuu-filter --where '$.exit_code>0'`);
  t.same(ids(positive.stdout), ['item-2=2', 'item-12=137', 'item-16=1']);
  const turns = await runShell(`wuu-turns --only-turns ${file} | jq -c '[.tool_calls[] | .exit_code]'`);
  t.same([turns.stdout, turns.code], [`${JSON.stringify(EXIT_CODES.map(([, , code]) => code ?? null))}\n`, 0]);
  fs.rmSync(dir, { recursive: true, force: true });
});
