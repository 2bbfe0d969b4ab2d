/**
 * wuu-accumulate and wuu-turns keep no bytes of a line past its push
 * (Core.keepsNoBytes): the runner then reads regular files into one reused
 * buffer and joins long lines in a kept one. The oracle is the same run
 * reading the same bytes from stdin with fresh buffers. Reads come in odd
 * sizes (RunOptions.readBytes) so that lines, escapes and multi-byte
 * characters straddle reads; long output pieces (past the accumulator's
 * 64 KiB, kept from their bytes through AsciiText) span many reads; a slow
 * output keeps buffers held when the next read comes.
 *
 * AsciiText itself is checked against JSON.parse of each literal.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { AsciiText } from '../lib/accumulate/ascii.js';
import { goLine } from '../lib/import/encode.js';
import type { ToolSpec } from '../lib/cli/index.js';
import { spec as accumulate } from '../bin/wuu-accumulate.js';
import { spec as turns } from '../bin/wuu-turns.js';
import { copyingStdout, runIn } from './runner-harness.js';

const KiB = 1024;

/** Text of about `bytes` bytes from `unit` repeated, ending in a newline (as a tool's output does). */
function long(unit: string, bytes: number): string {
  return `${unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit)))}\n`;
}

/**
 * One run in the producer's encoding (Go's escapes: `\n`, `\u003c`, ...),
 * with pieces of every kind the accumulator reads differently: short and
 * long, ASCII and not, escapes of ASCII and past it, a bash call with its
 * twins and an exit code, a message from deltas and one from a final.
 * `big`: the long pieces' size.
 */
function runLines(big: number): string[] {
  const thread = { thread_id: 'th-1' };
  const turn = (n: number) => ({ ...thread, turn_id: `turn-${n}` });
  const lines: string[] = [];
  const add = (event: Record<string, unknown>) => lines.push(goLine(event).slice(0, -1));
  add({ type: 'thread_started', ...thread });
  add({ type: 'turn_started', ...turn(1) });
  for (const delta of ['Hello ', 'wörld <b> & "q"\n', '日本語\t', '😀 end']) add({ type: 'agent_message_delta', ...turn(1), delta });
  const bash = (item: string, output: string, pieces = 1) => {
    const ids = { ...turn(1), item_id: item };
    const args = JSON.stringify({ command: 'ls -la' });
    add({ type: 'tool_started', ...ids, name: 'bash', arguments: args });
    add({ type: 'command_started', ...ids, name: 'bash', arguments: args, command: 'ls -la' });
    const size = Math.ceil(output.length / pieces);
    for (let k = 0; k < output.length; k += size) {
      add({ type: 'tool_output_delta', ...ids, delta: output.slice(k, k + size) });
      add({ type: 'command_output_delta', ...ids, name: 'bash', command: 'ls -la', delta: output.slice(k, k + size) });
    }
    add({ type: 'tool_completed', ...ids, name: 'bash', status: 'completed', error: '' });
    add({ type: 'command_completed', ...ids, name: 'bash', command: 'ls -la', status: 'completed', error: '' });
  };
  bash('i1', 'short output\nExit code 0\n');
  bash('i2', `${long('plain ascii line <tag> & "quoted"\tend\n', big)}Exit code 3\n`);
  // Plain, one escape at the end: pieces past 64 KiB, past the cap in all (kept as head and tail).
  bash('i3', long('x', 5 * big), 5);
  bash('i4', `${long('é non-ASCII output ✓\n', big)}Exit code 1\n`);
  bash('i5', `${long('ascii then \u00e9 once\n', big / 4)}${long('more ascii\n', big)}`); // \u00e9 is raw UTF-8 in Go's encoding
  add({ type: 'tool_started', ...turn(1), item_id: 'r1', name: 'read_file', arguments: '{"path":"a.ts"}' });
  add({ type: 'tool_output_delta', ...turn(1), item_id: 'r1', delta: long('const a = 1; // <ok>\n', big) });
  add({ type: 'tool_completed', ...turn(1), item_id: 'r1', name: 'read_file', status: 'completed', error: '' });
  add({ type: 'file_changed', ...turn(1), item_id: 'r1', path: 'src/a.ts', move_path: '' });
  add({ type: 'usage_updated', ...turn(1), input_tokens: 10, cache_creation_tokens: 2, cache_read_tokens: 30, output_tokens: 5 });
  add({ type: 'turn_completed', ...turn(1), input_tokens: 10, output_tokens: 5, awaiting_auto_continuation: false });
  add({ type: 'turn_started', ...turn(2) });
  add({ type: 'agent_message_delta', ...turn(2), delta: long('a long message delta <x>\n', big) });
  add({ type: 'agent_message_final', ...turn(2), message: `done ${long('ü', 300)}` });
  // Written by another encoder: escapes of every kind, a surrogate pair, `\/`, an escape of ASCII past 64 KiB.
  lines.push(`{"delta":"${'\\/a\\u0041\\"\\\\\\b\\f\\r'.repeat(big / 32)}\\ud83d\\ude00\\u00e9","item_id":"o1","thread_id":"th-1","turn_id":"turn-2","type":"tool_output_delta"}`);
  lines.push(`{"delta":"${'\\u0041\\u007f\\n'.repeat(big / 16)}","item_id":"o1","thread_id":"th-1","turn_id":"turn-2","type":"tool_output_delta"}`);
  lines.push('{"type":"tool_completed","thread_id":"th-1","turn_id":"turn-2","item_id":"o1","status":"failed","error":"boom"}');
  lines.push('{"type":"tool_output_delta","thread_id":"th-1",'); // invalid: reported, skipped
  lines.push(`{"delta":"${'y'.repeat(big)}\\q","item_id":"o2","thread_id":"th-1","turn_id":"turn-2","type":"tool_output_delta"}`); // a long invalid escape
  add({ type: 'turn_interrupted', ...turn(2), reason: 'interrupted' });
  add({ type: 'result', status: 'ok' });
  return lines;
}

/** The runs compared: each tool's usual ways. */
const RUNS: Array<[ToolSpec, string[]]> = [
  [accumulate, []],
  [accumulate, ['--keep-deltas']],
  // A tail longer than a piece: long pieces are kept in it as they come.
  [accumulate, ['--max-output-bytes', '300000', '--max-message-bytes', '50000', '--check']],
  [accumulate, ['--max-output-bytes', '70000']],
  [turns, []],
  [turns, ['--only-turns']],
  [turns, ['--events', '--max-turn-bytes', '100000']],
];

/** Runs every RUNS entry over `text` as a file read in each of `sizes` with reused buffers, and compares with stdin. */
async function sameAsFresh(t: Test, text: string, sizes: number[], slowAt: number): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-acc-reuse-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'run.jsonl');
  fs.writeFileSync(file, text);
  for (const [spec, args] of RUNS) {
    // stdin is not a regular file: fresh buffers, the oracle.
    const fresh = await runIn(spec, args, text);
    t.equal(fresh.code, 1, `${spec.name} ${args.join(' ')}: the invalid lines are reported`);
    for (const readBytes of sizes) {
      const stdout = copyingStdout(readBytes === slowAt);
      const reused = await runIn(spec, [...args, file], '', { stdout, stdoutCopies: true, readBytes });
      const name = `${spec.name} ${args.join(' ')}, reads of ${readBytes}${readBytes === slowAt ? ', slow output' : ''}`;
      t.ok(stdout.bytes().equals(fresh.stdoutBytes), `${name}: same bytes`);
      t.equal(reused.stderr, fresh.stderr.replaceAll('<stdin>:', `${file}:`), `${name}: same messages`);
      t.equal(reused.code, fresh.code, `${name}: same status`);
    }
  }
}

t.test('reused buffers, long pieces: output identical to fresh buffers, reads of odd sizes', async (t) => {
  const text = `${runLines(100 * KiB).join('\n')}\n{"type":"agent_message_delta","thread_id":"th-1","turn_id":"t9","delta":"cut off`;
  await sameAsFresh(t, text, [4093, 65_537, 100_003, 1 << 20], 65_537);
});

/**
 * The multi-byte units of `bytes` a read can cut into, by kind: UTF-8
 * characters of 2, 3 and 4 bytes, the two-byte escapes, `\uXXXX`, a
 * surrogate pair's two escapes, and the newline (a read ending just before
 * or just after it).
 */
function units(bytes: Buffer): Map<string, number[]> {
  const starts = new Map<string, number[]>();
  const add = (kind: string, at: number) => (starts.get(kind) ?? starts.set(kind, []).get(kind)!).push(at);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b >= 0xc0) {
      const len = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      add(`UTF-8 of ${len} bytes`, i);
      i += len - 1;
    } else if (b === 0x5c && bytes[i + 1] === 0x75) {
      const pair = /^d[89ab]/i.test(bytes.toString('latin1', i + 2, i + 6));
      add(pair ? 'surrogate pair \\uD83D\\uDE00' : '\\uXXXX', i);
      i += pair ? 11 : 5;
    } else if (b === 0x5c) {
      add('two-byte escape', i);
      i++;
    } else if (b === 0x0a) add('newline', i);
  }
  return starts;
}

/** Each unit kind's cut offsets (1 .. length-1; a newline: 0 and 1) with whether a read of `size` bytes ends there in some unit. */
function edges(bytes: Buffer, size: number): Array<{ kind: string; offset: number; cut: boolean }> {
  const lengths: Record<string, number> = { 'UTF-8 of 2 bytes': 2, 'UTF-8 of 3 bytes': 3, 'UTF-8 of 4 bytes': 4, '\\uXXXX': 6, 'surrogate pair \\uD83D\\uDE00': 12, 'two-byte escape': 2 };
  const out: Array<{ kind: string; offset: number; cut: boolean }> = [];
  for (const [kind, starts] of units(bytes)) {
    const offsets = kind === 'newline' ? [0, 1] : Array.from({ length: lengths[kind]! - 1 }, (_, k) => k + 1);
    for (const offset of offsets) out.push({ kind, offset, cut: starts.some((at) => (at + offset) % size === 0) });
  }
  return out;
}

t.test('reused buffers, tiny reads: every byte edge of a short run', async (t) => {
  // Short pieces only (the long ones are past 64 KiB). Reads of 3 bytes end inside every kind of
  // escape and character at every offset (checked below: a 4-byte character and a surrogate pair are
  // written at three alignments for it); reads of 7 bytes, once run too, cut no edge that 3 misses.
  const lines = runLines(256);
  const extra = [
    goLine({ type: 'agent_message_delta', thread_id: 'th-1', turn_id: 'turn-2', delta: '😀 😀 😀' }).slice(0, -1),
    '{"delta":"\\ud83d\\ude00 \\ud83d\\ude00 \\ud83d\\ude00","item_id":"o3","thread_id":"th-1","turn_id":"turn-2","type":"tool_output_delta"}',
  ];
  lines.splice(-2, 0, ...extra);
  const text = `${lines.join('\n')}\n`;
  for (const { kind, offset, cut } of edges(Buffer.from(text), 3)) t.ok(cut, `a read of 3 bytes ends ${kind === 'newline' ? (offset === 0 ? 'just before' : 'just after') : `${offset} byte${offset === 1 ? '' : 's'} into`} a ${kind}`);
  await sameAsFresh(t, text, [3], 3);
});

t.test('AsciiText decodes ASCII literals as JSON.parse does, and refuses the rest', async (t) => {
  const ascii = new AsciiText();
  const literals = [
    '""',
    '"plain"',
    '"a\\nb"',
    '"\\n"',
    '"\\"\\\\\\/\\b\\f\\n\\r\\t"',
    '"\\u0000\\u001f\\u0041\\u007f\\u007F"',
    '"x\\u003cy\\u003e\\u0026z"',
    `"${'q'.repeat(70_000)}\\n${'r'.repeat(10)}"`,
    '"end\\\\"',
  ];
  for (const literal of literals) {
    // Inside a larger buffer, as a line in a chunk.
    const source = Buffer.from(`{"delta":${literal},"type":"x"}`);
    const open = 9;
    const close = open + Buffer.byteLength(literal) - 1;
    const got = ascii.decode(source, open, close);
    const expected = JSON.parse(literal) as string;
    t.equal(got?.toString('latin1'), expected, literal.slice(0, 40));
  }
  for (const literal of ['"é"', '"\\u00e9"', '"\\u0080"', '"\\ud83d\\ude00"', '"bad \\q"', '"cut \\u00"', '"x\\u12"']) {
    const source = Buffer.from(literal);
    t.equal(ascii.decode(source, 0, source.length - 1), undefined, `refused: ${literal}`);
  }
  // The buffer is reused: a shorter literal after a longer one is its own text only.
  const first = Buffer.from('"aaaa\\naaaa"');
  const second = Buffer.from('"b\\tb"');
  t.equal(ascii.decode(first, 0, first.length - 1)?.toString('latin1'), 'aaaa\naaaa');
  t.equal(ascii.decode(second, 0, second.length - 1)?.toString('latin1'), 'b\tb');
});

t.test("a bash twin's output is proven by comparing it with its tool output's: only the same bytes pass unread", async (t) => {
  const ids = '"item_id":"i1","thread_id":"th","turn_id":"tu"';
  const tool = (delta: string) => `{"delta":"${delta}",${ids},"type":"tool_output_delta"}`;
  const twin = (delta: string) => `{"command":"ls","delta":"${delta}",${ids},"name":"bash","type":"command_output_delta"}`;
  const text = 'line one\\nExit code 2\\n';
  const lines = [
    '{"arguments":"{}",' + ids + ',"name":"bash","type":"tool_started"}',
    tool(text),
    twin(text), // the same bytes: valid as the tool's
    twin(`${text}\u0001`), // the same start, then a raw control byte: not valid JSON
    twin('line one\\qExit'), // a bad escape where the tool's had a good one
    twin(text.replace('\\n', '\u0001X')), // the same length, a raw control byte inside
    twin(text.slice(0, -2)), // a prefix of the tool's text: valid, judged by its bytes
    tool('x\u0002'), // not valid: not remembered, the last valid one stays
    twin(text),
    '{' + ids + ',"name":"bash","status":"completed","type":"tool_completed"}',
  ];
  const input = `${lines.join('\n')}\n`;
  // Which lines JSON.parse refuses: the independent oracle of what is reported.
  const refused = lines.flatMap((line, k) => {
    try {
      JSON.parse(line);
      return [];
    } catch {
      return [k + 1];
    }
  });
  t.same(refused, [4, 5, 6, 8]);
  for (const spec of [accumulate, turns]) {
    const r = await runIn(spec, [], input);
    t.same(
      [...r.stderr.matchAll(/<stdin>:(\d+): not valid JSON/g)].map((m) => Number(m[1])),
      refused,
      `${spec.name}: exactly the invalid lines are reported`,
    );
    t.equal(r.code, 1);
  }
  const r = await runIn(accumulate, [], input);
  const call = JSON.parse(r.stdout.trim().split('\n')[0] ?? '{}') as { output?: string; exit_code?: number };
  t.equal(call.output, 'line one\nExit code 2\n', 'the output is the tool deltas that were valid');
  t.equal(call.exit_code, 2);
});
