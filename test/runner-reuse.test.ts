/**
 * Reused read and join buffers (Core.keepsNoBytes, lib/cli/inputs.ts
 * ReadBuffers, LineSplitter.reuse): a core that keeps no bytes lets the
 * runner read regular files into one buffer and join lines held across reads
 * in a kept one. Nothing written may change for it: the oracle is the same
 * run with fresh buffers. Lines longer than a read, consecutive long lines,
 * invalid long lines, a last line cut off, gzip input and an output that is
 * slow to write (buffers still held when the next read comes) are all fed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import t from 'tap';
import { ReadBuffers } from '../lib/cli/inputs.js';
import { dropWritten, gather, OutputSink, syncStdoutFd } from '../lib/cli/sink.js';
import { LineSplitter, lineBytes, type OversizeStream } from '../lib/jsonl.js';
import { spec as filter } from '../bin/wuu-filter.js';
import { copyingStdout, runIn } from './runner-harness.js';
import { runShell } from './helpers.js';

const MiB = 1 << 20;

/** A line of `bytes` bytes (about): an event with a long string, of `type`. */
function longLine(type: string, bytes: number, fill = 'x'): string {
  return `{"delta":"${fill.repeat(bytes)}","type":"${type}"}`;
}

/** Splits `data` fed through one reused chunk buffer in `sizes` (cycled); lines copied only after each push, as the runner writes them. */
function splitReused(data: Buffer, sizes: number[], options: { max?: number; free?: () => boolean; keepViews?: boolean } = {}): { lines: string[]; bad: number[] } {
  const splitter = new LineSplitter(options.max);
  splitter.reuse = options.free ?? (() => true);
  const size = Math.max(...sizes);
  const shared = Buffer.alloc(size);
  const lines: string[] = [];
  const bad: number[] = [];
  const views: Buffer[] = [];
  let pending: Buffer[] = [];
  const onLine = (line: Parameters<Parameters<LineSplitter['push']>[1]>[0]) => {
    if (line.oversizeBytes !== undefined) bad.push(line.line);
    else pending.push(lineBytes(line));
  };
  const settle = () => {
    // Kept views (a writer that has not written yet) must stay intact when `free` says so.
    if (options.keepViews) views.push(...pending);
    else lines.push(...pending.map((b) => b.toString('latin1')));
    pending = [];
  };
  let at = 0;
  for (let k = 0; at < data.length; k++) {
    const n = Math.min(sizes[k % sizes.length] ?? 1, data.length - at);
    // The same memory every time while it is free (overwritten with garbage
    // first), a new buffer when not, as ReadBuffers does.
    const chunk = options.free?.() === false ? Buffer.alloc(size) : shared;
    chunk.fill(0x7e);
    data.copy(chunk, 0, at, at + n);
    at += n;
    splitter.push(chunk.subarray(0, n), onLine);
    settle();
  }
  splitter.end(onLine);
  settle();
  if (options.keepViews) lines.push(...views.map((b) => b.toString('latin1')));
  return { lines, bad };
}

/** Whether two lists of (long) lines are equal; a failure shows which lines differ, not megabytes. */
function sameLines(got: string[], expected: string[]): boolean {
  const differ = expected.flatMap((line, k) => (got[k] === line ? [] : [k]));
  if (differ.length > 0 || got.length !== expected.length) console.error(`lines differ: ${differ.join(',')} (${got.length} of ${expected.length})`);
  return differ.length === 0 && got.length === expected.length;
}

t.test('LineSplitter.reuse: lines come out whole whatever the chunk sizes, through one reused chunk', async (t) => {
  const lines = [
    '{"type":"a"}',
    longLine('b', 100_000),
    longLine('c', 200_000, 'y'), // right after another long line: the second join buffer
    '{"type":"d"}',
    longLine('e', 70_000, 'z'),
    '',
    '{"type":"f"}',
    longLine('g', 300_000, 'w'),
  ];
  const text = `${lines.join('\n')}\n${longLine('h', 90_000, 'v')}`; // the last line cut off (no newline)
  const expected = [...lines, longLine('h', 90_000, 'v')];
  for (const sizes of [[1 << 16], [65_537], [4096, 7, 100_003], [333_333], [1 << 20]]) {
    const got = splitReused(Buffer.from(text, 'latin1'), sizes);
    t.ok(sameLines(got.lines, expected), `chunks of ${sizes.join(',')}`);
    t.same(got.bad, []);
  }
  // A writer still holding what was handed out: the splitter takes a new join buffer rather than overwrite it.
  const held = splitReused(Buffer.from(text, 'latin1'), [50_000, 3], { free: () => false, keepViews: true });
  t.ok(sameLines(held.lines, expected), 'views kept past their push stay intact when not free');
});

t.test('LineSplitter.reuse: a line over the cap is dropped and counted, the lines around it intact', async (t) => {
  const text = ['{"type":"a"}', longLine('big', 150_000), longLine('b', 90_000), '{"type":"c"}', ''].join('\n');
  for (const sizes of [[1000], [64 * 1024 + 3], [200_000]]) {
    const got = splitReused(Buffer.from(text, 'latin1'), sizes, { max: 100_000 });
    t.ok(sameLines(got.lines, ['{"type":"a"}', longLine('b', 90_000), '{"type":"c"}']), `chunks of ${sizes.join(',')}`);
    t.same(got.bad, [2]);
  }
});

t.test('LineSplitter.reuse: a line over the cap streams as copies that outlive the chunk', async (t) => {
  const big = longLine('big', 250_000);
  const text = Buffer.from(`{"type":"a"}\n${big}\n{"type":"b"}\n${big}`, 'latin1');
  for (const size of [1000, 100_001, 300_000]) {
    const splitter = new LineSplitter(100_000);
    splitter.reuse = () => true;
    const streamed: Array<{ line: number; pieces: Buffer[]; total?: number; terminated?: boolean }> = [];
    const stream: OversizeStream = {
      start: (line) => streamed.push({ line, pieces: [] }),
      piece: (bytes) => streamed.at(-1)?.pieces.push(bytes),
      end: (total, terminated) => {
        const last = streamed.at(-1);
        if (last) Object.assign(last, { total, terminated });
        return false;
      },
    };
    splitter.streamOversize = stream;
    const chunk = Buffer.alloc(size);
    const lines: string[] = [];
    for (let at = 0; at < text.length; at += size) {
      const n = text.copy(chunk, 0, at, Math.min(at + size, text.length));
      splitter.push(chunk.subarray(0, n), (line) => lines.push(lineBytes(line).toString('latin1')));
      chunk.fill(0x7e); // the next read overwrites the chunk
    }
    splitter.end((line) => lines.push(lineBytes(line).toString('latin1')));
    t.same(lines, ['{"type":"a"}', '{"type":"b"}'], `chunks of ${size}`);
    t.same(
      streamed.map((s) => [s.line, Buffer.concat(s.pieces).toString('latin1') === big, s.total, s.terminated]),
      [
        [2, true, big.length, true],
        [4, true, big.length, false],
      ],
    );
  }
});

t.test('ReadBuffers: the same buffer while it is free, a new one (then kept) while it is not', async (t) => {
  let free = true;
  const buffers = new ReadBuffers(() => free, 16);
  const first = buffers.take();
  t.equal(first.length, 16);
  t.equal(buffers.take(), first);
  free = false;
  const second = buffers.take();
  t.not(second, first);
  free = true;
  t.equal(buffers.take(), second);
});

t.test('wuu-filter over files with reused buffers writes what it writes with fresh ones', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-reuse-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const lines = [
    '{"type":"thread_started","thread_id":"t"}',
    longLine('tool_output_delta', 1.5 * MiB), // longer than a read
    longLine('agent_message_delta', 2.2 * MiB), // right after: the other join buffer
    '{"type":"tool_started","x":[1,2,{"y":null}]}',
    `{"delta":"${'x'.repeat(1.2 * MiB)}","type":"tool_output_delta",}`, // a long invalid line (trailing comma)
    '{"type":"tool_completed"}',
    longLine('tool_output_delta', 1.1 * MiB, 'a\\u003cb'), // escapes all along
    '{"type":"result","status":"ok"}',
  ];
  const plain = path.join(dir, 'run.jsonl');
  fs.writeFileSync(plain, `${lines.join('\n')}\n${longLine('tool_output_delta', 1.3 * MiB)}`); // cut off at the end
  const gz = path.join(dir, 'run.jsonl.gz');
  fs.writeFileSync(gz, gzipSync(fs.readFileSync(plain)));
  for (const args of [[], ['tool_*'], ['-v', 'tool_*'], ['--count']]) {
    for (const input of [plain, gz]) {
      const fresh = await runIn(filter, [...args, input]);
      // The long invalid line is a tool_ line: reported unless -v drops it unread.
      t.equal(fresh.code, args[0] === '-v' ? 0 : 1, 'exit 1 for an invalid line read');
      for (const slow of [false, true]) {
        const stdout = copyingStdout(slow);
        const reused = await runIn(filter, [...args, input], '', { stdout, stdoutCopies: true });
        const name = `${args.join(' ') || 'identity'} ${path.basename(input)}${slow ? ', slow output' : ''}`;
        t.ok(stdout.bytes().toString('latin1') === fresh.stdoutBytes.toString('latin1'), `${name}: same bytes`);
        t.equal(reused.stderr, fresh.stderr, `${name}: same messages`);
        t.equal(reused.code, fresh.code, `${name}: same status`);
      }
    }
  }
});

t.test('wuu-filter reading stdin redirected from a file writes every byte as it came', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-reuse-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'run.jsonl');
  const started = '{"type":"tool_started"}';
  const output = longLine('tool_output_delta', 2.5 * MiB);
  const lines = [started, output, longLine('agent_message_delta', 1.5 * MiB), '{"type":"result"}'];
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  const all = await runShell(`wuu-filter < '${file}' | cmp - '${file}' && wuu-filter 'tool_*' < '${file}' | wc -c`);
  t.equal(all.code, 0, all.stderr);
  t.equal(all.stdout.trim(), String(started.length + output.length + 2));
});

t.test('OutputSink.syncFd: pieces go out with writev, in order, however many', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-writev-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'out');
  const fd = fs.openSync(file, 'w');
  const sink = new OutputSink(copyingStdout(false));
  sink.syncFd = fd;
  // More pieces than one writev takes, of every size from empty to 70 KB.
  const parts = Array.from({ length: 2500 }, (_, k) => Buffer.alloc((k * 37) % (k % 100 === 0 ? 70_000 : 300), 97 + (k % 26)));
  await sink.writeParts(parts);
  await sink.writeParts(parts.slice(0, 3));
  fs.closeSync(fd);
  t.ok(fs.readFileSync(file).equals(Buffer.concat([...parts, ...parts.slice(0, 3)])), 'the file holds every piece in order');
  t.equal(sink.failure, undefined);
});

t.test('OutputSink.syncFd: a write error is kept, later writes dropped', { skip: !fs.existsSync('/dev/full') }, async (t) => {
  const fd = fs.openSync('/dev/full', 'w');
  t.teardown(() => fs.closeSync(fd));
  const sink = new OutputSink(copyingStdout(false));
  sink.syncFd = fd;
  await sink.writeParts([Buffer.from('x')]);
  t.equal(sink.failure?.code, 'ENOSPC');
  t.ok(sink.closed);
  await sink.writeParts([Buffer.from('y')]);
  t.equal(sink.failure?.code, 'ENOSPC');
});

t.test('dropWritten: a short writev leaves the unwritten rest', async (t) => {
  const group = [Buffer.from('abc'), Buffer.from('de'), Buffer.from('fgh')];
  dropWritten(group, 4);
  t.same(group.map(String), ['e', 'fgh']);
  dropWritten(group, 1);
  t.same(group.map(String), ['fgh']);
  dropWritten(group, 5);
  t.same(group, []);
});

t.test('wuu-filter writing to a file or /dev/null writes what it writes to a pipe', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-writev-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const input = path.join(dir, 'run.jsonl');
  const lines = Array.from({ length: 3000 }, (_, k) => (k % 3 === 0 ? `{"type":"tool_started","k":${k}}` : `{"type":"agent_message_delta","delta":"${'d'.repeat(k % 500)}"}`));
  lines.push(longLine('tool_output_delta', 1.5 * MiB), '{"type":"result"}');
  fs.writeFileSync(input, `${lines.join('\n')}\n`);
  const r = await runShell(
    `cd '${dir}' && wuu-filter 'tool_*' run.jsonl > file.out && wuu-filter 'tool_*' < run.jsonl | cat > pipe.out && cmp file.out pipe.out && wuu-filter run.jsonl > all.out && cmp all.out run.jsonl && wuu-filter run.jsonl > /dev/null && wc -l < file.out`,
  );
  t.equal(r.code, 0, r.stderr);
  t.equal(r.stdout.trim(), String(lines.filter((line) => line.includes('"tool_')).length));
});

t.test('gather: runs of short pieces are joined, long ones kept as the views they are', async (t) => {
  const long = Buffer.alloc(2000, 0x61);
  const got = gather([Buffer.from('a'), Buffer.from('bc'), Buffer.alloc(0), long, Buffer.from('d'), long, long, Buffer.from('ef')]);
  t.same(got.map((b) => (b === long ? 'LONG' : b.toString())), ['abc', 'LONG', 'd', 'LONG', 'LONG', 'ef']);
  t.same(gather([]), []);
});

t.test('reused buffers: missing files, a one-byte file, a directory and stdin read as with fresh ones', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-reuse-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'one.jsonl'), '{');
  fs.mkdirSync(path.join(dir, 'sub'));
  fs.writeFileSync(path.join(dir, 'sub', 'a.jsonl'), '{"type":"tool_started"}\n{"type":"x"}\n');
  const stdin = '{"type":"tool_completed"}\n';
  for (const args of [[path.join(dir, 'missing.jsonl')], [path.join(dir, 'one.jsonl')], [path.join(dir, 'sub')], ['-'], [path.join(dir, 'sub'), '-', path.join(dir, 'one.jsonl')]]) {
    const fresh = await runIn(filter, ['tool_*', ...args], stdin);
    const stdout = copyingStdout(true);
    const reused = await runIn(filter, ['tool_*', ...args], stdin, { stdout, stdoutCopies: true });
    const name = args.map((a) => path.basename(a)).join(' ');
    t.equal(stdout.bytes().toString('latin1'), fresh.stdout, `${name}: same output`);
    t.equal(reused.stderr, fresh.stderr, `${name}: same messages`);
    t.equal(reused.code, fresh.code, `${name}: same status`);
  }
});

t.test('syncStdoutFd: files and devices other than terminals are written synchronously; pipes and bad descriptors are not', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-writev-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = fs.openSync(path.join(dir, 'out'), 'w');
  const devNull = fs.openSync('/dev/null', 'w');
  t.teardown(() => [file, devNull].forEach((fd) => fs.closeSync(fd)));
  t.equal(syncStdoutFd(false, file), file);
  t.equal(syncStdoutFd(false, devNull), devNull);
  t.equal(syncStdoutFd(true, devNull), undefined, 'a terminal is a device Node writes its own way');
  const fifo = path.join(dir, 'fifo');
  const made = await runShell(`mkfifo '${fifo}'`);
  t.equal(made.code, 0, made.stderr);
  // Read-write: a FIFO opens at once without a peer (Linux).
  const pipe = fs.openSync(fifo, fs.constants.O_RDWR);
  t.equal(syncStdoutFd(false, pipe), undefined, 'a pipe is written through its stream');
  fs.closeSync(pipe);
  t.equal(syncStdoutFd(false, 1_000_000), undefined, 'a descriptor that is not open');
});
