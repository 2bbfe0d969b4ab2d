/**
 * What the accumulating tools promise beyond exactness: the producer's flat
 * lines are read without a parse yet exactly as JSON.parse would, --max-open
 * bounds the units held (with one warning, the oldest flushed as
 * incomplete), 100k open turns stay well under 150 MB, and wuu-result never
 * blames the producer for its own interruption.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { key, WireFields } from '../../lib/accumulate/wire.js';
import { LineRecord, type Output } from '../../lib/jsonl.js';
import { createTurns } from '../../lib/turns/index.js';
import { createAccumulate } from '../../lib/accumulate/index.js';
import { spec as accumulateSpec } from '../../bin/wuu-accumulate.js';
import { spec as turnsSpec } from '../../bin/wuu-turns.js';
import { binPath } from '../helpers.js';
import { records, runTool } from './harness.js';

t.test('WireFields: the producer\'s compact lines read exactly as JSON.parse, refused otherwise', async (t) => {
  const wire = new WireFields();
  const same = [
    '{"delta":"a \\u003cb\\u003e \\u0026 \\n\\t\\"q\\" é😀","thread_id":"th","turn_id":"th-turn-0001","type":"agent_message_delta"}',
    '{}',
    '{"a":"","b":"x"}',
    '{"constructor":"c","toString":"t","type":"x"}',
    '{"k":"1","k":"2"}', // a duplicate key keeps the last value
    '{"a":1,"b":null,"c":{"d":"e"},"f":[1,"x"],"g":true,"h":-2.5e3}',
  ];
  for (const line of same) {
    const rec = new LineRecord(Buffer.from(line), 'f', 1);
    t.ok(wire.read(rec), `read: ${line}`);
    const parsed = JSON.parse(line) as Record<string, unknown>;
    for (const name of Object.keys(parsed)) t.same(wire.value(key(name)), parsed[name], `${line}: ${name}`);
  }
  const other = [
    '{ "a":"b"}', // whitespace: not the producer's
    '{"a":"b"} ',
    '{"a":"b",}',
    '{"a":"b"',
    '{"k\\u0041":"v"}', // an escaped key
    '["a"]',
    '{"a""b"}',
    '',
  ];
  for (const line of other) t.notOk(wire.read(new LineRecord(Buffer.from(line), 'f', 1)), JSON.stringify(line));
  t.ok(wire.read(new LineRecord(Buffer.from('xx{"a":"b"}yy'), 'f', 1, 2, 11)), 'a line inside a larger chunk');
  t.equal(wire.string(key('a')), 'b');
});

t.test('WireFields.readTail: the ids at the end of a line, unread before them', async (t) => {
  const wire = new WireFields();
  const itemId = key('item_id');
  const tail = (line: string) => wire.readTail(new LineRecord(Buffer.from(line), 'f', 1), [itemId]);
  t.ok(tail('{"arguments":"{\\"command\\":\\"ls\\"}","command":"ls","delta":"x","item_id":"it-3","name":"bash","thread_id":"th","turn_id":"tu","type":"command_output_delta"}'));
  t.same(
    ['type', 'turn_id', 'thread_id', 'name', 'item_id'].map((name) => wire.string(key(name))),
    ['command_output_delta', 'tu', 'th', 'bash', 'it-3'],
  );
  t.notOk(tail('{"item_id":"a\\"b","type":"x"}'), 'an escape: read in full instead');
  t.notOk(tail('{"n":1,"type":"x"}'), 'a number before the key');
  t.ok(tail('{"type":"x"}'), 'the key is absent: the line start is reached');
  t.equal(wire.string(itemId), undefined);
  t.notOk(tail('{"type":"x"} '), 'not the compact shape');
});

/** n turns that start and never end, each with an open tool call. */
function openTurns(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const turn = `th-turn-${i}`;
    lines.push(`{"thread_id":"th","turn_id":"${turn}","type":"turn_started"}`);
    lines.push(`{"arguments":"{}","item_id":"${turn}-item-2","name":"read_file","thread_id":"th","turn_id":"${turn}","type":"tool_started"}`);
  }
  return `${lines.join('\n')}\n`;
}

t.test('--max-open: one warning, the oldest flushed as incomplete, nothing lost', async (t) => {
  const input = openTurns(5);
  const turns = await runTool(turnsSpec, ['--only-turns', '--max-open', '2'], input, 17);
  t.equal(turns.code, 0);
  t.equal(turns.stderr, 'wuu-turns: <stdin>:5: more than 2 turns open at once (--max-open): the oldest are written as incomplete\n');
  const recs = records(turns.stdout);
  t.same(recs.map((r) => [r.turn_id, r.status]), [0, 1, 2, 3, 4].map((i) => [`th-turn-${i}`, 'incomplete']), 'every turn once, oldest first');
  t.same(recs.map((r) => (r.tool_calls as unknown[]).length), [1, 1, 1, 1, 1], 'each with its open tool call');
  const acc = await runTool(accumulateSpec, ['--max-open', '3'], input, 17);
  t.equal(acc.code, 0);
  t.match(acc.stderr, /^wuu-accumulate: <stdin>:\d+: more than 3 units open at once \(--max-open\)/);
  t.equal(acc.stderr.split('\n').length, 2, 'warned once');
  const calls = records(acc.stdout).filter((r) => r.type === 'tool_call');
  t.same(calls.map((c) => [c.turn_id, c.status]), [0, 1, 2, 3, 4].map((i) => [`th-turn-${i}`, 'incomplete']));
  const bad = await runTool(turnsSpec, ['--max-open', '0'], '');
  t.equal(bad.code, 2, '--max-open 0 is a usage error');
  const under = await runTool(turnsSpec, ['--only-turns'], input);
  t.equal(under.stderr, '', 'no warning under the default cap');
});

/** A collector for measuring what stays alive (the test runner does not expose gc). */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

t.test('100k open turns: what stays alive is bounded by --max-open', async (t) => {
  const gc = collector();
  const input = Buffer.from(openTurns(100_000));
  const lines: LineRecord[] = [];
  let at = 0;
  for (let n = 1; at < input.length; n++) {
    const end = input.indexOf(0x0a, at);
    lines.push(new LineRecord(input, 'f', n, at, end));
    at = end + 1;
  }
  let emitted = 0;
  const emit = (out: Output) => {
    if (typeof out !== 'string' && (out.type === 'turn' || out.type === 'tool_call')) emitted++;
  };
  for (const [name, core] of [
    ['wuu-turns', createTurns({ onlyTurns: true, warn: () => {} })],
    ['wuu-accumulate', createAccumulate({ warn: () => {} })],
  ] as const) {
    gc();
    const before = process.memoryUsage().heapUsed;
    for (const rec of lines) core.push(rec, emit);
    gc();
    const held = (process.memoryUsage().heapUsed - before) / 1e6;
    t.ok(held < 40, `${name}: ${held.toFixed(1)} MB alive with 100k turns opened (10,000 kept)`);
    core.endFile?.('f', emit);
  }
  t.equal(emitted, 2 * 100_000, 'every turn (wuu-turns) and every tool call (wuu-accumulate) written once, evicted or flushed at the end');
});

t.test('wuu-result interrupted itself: not reported as a killed producer', async (t) => {
  // --tee echoes each event as it arrives: the echo says the tool is running and reading.
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-sig-')), 'message.txt');
  t.teardown(() => fs.rmSync(path.dirname(out), { recursive: true, force: true }));
  const child = spawn(process.execPath, [binPath('wuu-result'), '--tee', '-o', out], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const echoed = new Promise((resolve) => child.stdout.once('data', resolve));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  child.stdin.write('{"thread_id":"th","turn_id":"tu","type":"turn_started"}\n');
  await echoed;
  child.kill('SIGINT');
  t.equal(await closed, 130);
  t.notMatch(stderr, /producer was killed/);
  t.equal(stderr, 'wuu-result: <stdin>: interrupted before the end of the input: no result read\n');
  child.stdin.destroy();
});

t.test('deltas read without a parse: the same text and sizes as a full parse', async (t) => {
  const outputs = ['plain ascii\n', 'é中😀 \u0007 <&> "q" \\ \t', '', 'x'.repeat(5000)];
  const lines = ['{"thread_id":"th","turn_id":"tu","type":"turn_started"}'];
  outputs.forEach((text, i) => {
    const ids = `"item_id":"it-${i}","thread_id":"th","turn_id":"tu"`;
    lines.push(`{"arguments":"{}",${ids},"name":"read_file","type":"tool_started"}`);
    // Go's escapes for <, >, &; a second, non-producer spelling (spaces) for one of them.
    const delta = JSON.stringify(text).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
    lines.push(i === 3 ? `{ "delta": ${delta}, ${ids}, "type": "tool_output_delta" }` : `{"delta":${delta},${ids},"type":"tool_output_delta"}`);
    lines.push(`{"error":"",${ids},"name":"read_file","status":"completed","type":"tool_completed"}`);
  });
  lines.push('{"delta":"a\\u003cb","thread_id":"th","turn_id":"tu","type":"agent_message_delta"}', '{"delta":"\\u2028é","thread_id":"th","turn_id":"tu","type":"agent_message_delta"}');
  lines.push('{"awaiting_auto_continuation":false,"input_tokens":1,"output_tokens":1,"thread_id":"th","trace_path":"","turn_id":"tu","type":"turn_completed"}');
  const input = `${lines.join('\n')}\n`;
  const turns = records((await runTool(turnsSpec, ['--only-turns'], input, 5)).stdout);
  t.same((turns[0]!.tool_calls as Array<{ output_bytes: number }>).map((c) => c.output_bytes), outputs.map((o) => Buffer.byteLength(o)), 'wuu-turns: output sizes in UTF-8 bytes');
  t.equal(turns[0]!.message, 'a<b\u2028é');
  const acc = records((await runTool(accumulateSpec, [], input, 5)).stdout).filter((r) => r.type === 'tool_call');
  t.same(acc.map((c) => c.output), outputs, 'wuu-accumulate: output texts');
  const raw = '{"delta":"a\tb","thread_id":"th","turn_id":"tu","type":"agent_message_delta"}\n';
  const bad = await runTool(turnsSpec, ['--only-turns'], raw);
  t.equal(bad.code, 1, 'a raw control character is still a bad line');
});
