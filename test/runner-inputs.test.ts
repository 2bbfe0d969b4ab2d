/**
 * Inputs and the line policy, in process: gzip by its bytes, damaged gzip,
 * directories with nothing to read, symlink loops, terminal-safe messages,
 * byte-exact --pass-invalid, the bad-line streak, the oversize hook, and
 * parse() speaking the runner's words.
 */
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { Readable } from 'node:stream';
import type { Core } from '../lib/core.js';
import { parse } from '../lib/jsonl.js';
import type { InvalidLineError } from '../lib/jsonl.js';
import { BAD_STREAK, expandInput, listInputs, type ToolSpec } from '../lib/cli/index.js';
import { spec as filter } from '../bin/wuu-filter.js';
import { spec as turns } from '../bin/wuu-turns.js';
import { spec as result } from '../bin/wuu-result.js';
import { example } from './helpers.js';
import { runIn } from './runner-harness.js';

const RUN = fs.readFileSync(example('run.jsonl'));
const LINES = RUN.toString().split('\n').filter((l) => l !== '').length;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-inputs-'));
t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = (name: string, data: Buffer | string) => {
  const full = path.join(dir, name);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, data);
  return full;
};

t.test('gzip is recognised by its bytes: stdin, .GZ, any name', async (t) => {
  const gz = zlib.gzipSync(RUN);
  const count = `total\t${LINES}\n`;
  const viaStdin = await runIn(filter, ['--count'], [gz.subarray(0, 1), gz.subarray(1, 7), gz.subarray(7)]);
  t.equal(viaStdin.stdout.split('\n').slice(-2).join('\n'), count, 'stdin, first read one byte');
  t.equal(viaStdin.code, 0);
  for (const name of ['run.GZ', 'run.jsonl', 'noext']) {
    const r = await runIn(filter, ['--count', file(`gz/${name}`, gz)]);
    t.match(r.stdout, count, name);
    t.equal(r.code, 0, `${name}: exit 0`);
  }
  const twoMembers = await runIn(filter, ['--count'], Buffer.concat([gz, gz]));
  t.match(twoMembers.stdout, `total\t${2 * LINES}\n`, 'concatenated members are one stream');
  const plain = await runIn(filter, ['--count'], Buffer.from([0x1f]));
  t.equal(plain.code, 1, 'a lone 0x1f byte is a (bad) line, not gzip');
});

t.test('a cut .gz: everything decompressed is processed, end of file runs, then the damage', async (t) => {
  const gz = zlib.gzipSync(RUN);
  const cut = file('cut.jsonl.gz', gz.subarray(0, gz.length - 4));
  const r = await runIn(filter, ['--count', cut]);
  t.match(r.stdout, `total\t${LINES}\n`, 'every event was read');
  t.equal(r.stderr, `wuu-filter: ${cut}: gzip data cut off (unexpected end of file)\n`);
  t.equal(r.code, 2);
  // Cut inside the data: the last (partial) line is reported as cut, open turns flushed.
  const mid = file('mid.jsonl.gz', gz.subarray(0, Math.floor(gz.length * 0.6)));
  const turned = await runIn(turns, [mid]);
  t.equal(turned.code, 2);
  t.match(turned.stderr, /mid\.jsonl\.gz:\d+: last line cut off \(no newline at end of input\)/, 'the cut line is reported');
  t.match(turned.stderr, /gzip data cut off \(unexpected end of file\)\n$/, 'then the damage');
  t.match(turned.stdout, /"type":"turn"/, 'the open turn was flushed');
});

t.test('trailing garbage after a valid member: every event first, then the garbage is named (exit 2)', async (t) => {
  const gz = zlib.gzipSync(RUN);
  const glued = Buffer.concat([gz, Buffer.from('garbage after the member\n')]);
  for (const size of [1, 7, 4096, glued.length]) {
    const chunks: Buffer[] = [];
    for (let at = 0; at < glued.length; at += size) chunks.push(glued.subarray(at, at + size));
    const r = await runIn(filter, ['--count'], chunks);
    t.match(r.stdout, `total\t${LINES}\n`, `every event was read (chunks of ${size})`);
    t.equal(r.stderr, 'wuu-filter: <stdin>: trailing garbage after the gzip data\n', `chunks of ${size}`);
    t.equal(r.code, 2);
  }
  // wuu-result finds the result before the garbage, and names the garbage.
  const res = await runIn(result, [], glued);
  t.equal(res.stdout, 'The build finished. Running the tests again. All 42 tests pass now.\n');
  t.equal(res.stderr, 'wuu-result: <stdin>: trailing garbage after the gzip data\n');
  t.equal(res.code, 2);
});

t.test('gzip framing: members, padding, header fields, checksums, cuts', async (t) => {
  const gz = zlib.gzipSync(RUN);
  const count = async (bytes: Buffer) => {
    const r = await runIn(filter, ['--count'], bytes);
    return [r.stdout.split('\n').at(-2) ?? '', r.stderr.replace(/^wuu-filter: <stdin>: /, '').trimEnd(), r.code];
  };
  const total = (n: number) => `total\t${n}`;
  t.same(await count(Buffer.concat([gz, gz, gz])), [total(3 * LINES), '', 0], 'three members');
  t.same(await count(Buffer.concat([gz, Buffer.alloc(1000)])), [total(LINES), '', 0], 'zero padding after the last member is accepted (as gzip(1) does)');
  t.same(await count(Buffer.concat([gz, Buffer.alloc(10), Buffer.from('x')])), [total(LINES), 'trailing garbage after the gzip data', 2], 'padding followed by junk');
  // A header with every optional field (RFC 1952 2.3.1): FEXTRA, FNAME, FCOMMENT, FHCRC.
  const body = gz.subarray(10);
  const fancy = Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 2 | 4 | 8 | 16, 0, 0, 0, 0, 0, 3]), Buffer.from([3, 0, 1, 2, 3]), Buffer.from('run.jsonl\0'), Buffer.from('a comment\0'), Buffer.from([0, 0]), body]);
  for (const size of [1, 3, fancy.length]) {
    const chunks: Buffer[] = [];
    for (let at = 0; at < fancy.length; at += size) chunks.push(fancy.subarray(at, at + size));
    const r = await runIn(filter, ['--count'], chunks);
    t.match(r.stdout, total(LINES), `optional header fields (chunks of ${size})`);
    t.equal(r.code, 0);
  }
  const badCrc = Buffer.from(gz);
  badCrc.writeUInt32LE((badCrc.readUInt32LE(badCrc.length - 8) ^ 1) >>> 0, badCrc.length - 8);
  t.same(await count(badCrc), [total(LINES), 'damaged gzip data (incorrect data check)', 2], 'a CRC that does not match: everything, then the damage');
  const badSize = Buffer.from(gz);
  badSize.writeUInt32LE(badSize.readUInt32LE(badSize.length - 4) + 1, badSize.length - 4);
  t.same(await count(badSize), [total(LINES), 'damaged gzip data (incorrect length check)', 2], 'a length that does not match');
  const badMethod = Buffer.concat([gz, Buffer.from([0x1f, 0x8b, 7, 0, 0, 0, 0, 0, 0, 3])]);
  t.same(await count(badMethod), [total(LINES), 'damaged gzip data (unknown compression method 7)', 2], 'a second member with another method');
  t.same(await count(Buffer.concat([gz, gz.subarray(0, 6)])), [total(LINES), 'gzip data cut off (unexpected end of file)', 2], 'a second member cut in its header');
  t.same(await count(gz.subarray(0, gz.length - 8)), [total(LINES), 'gzip data cut off (unexpected end of file)', 2], 'the 8-byte trailer missing');
  const corrupt = Buffer.from(gz);
  corrupt[20] = (corrupt[20] ?? 0) ^ 0xff;
  const broken = await runIn(filter, ['--count'], corrupt);
  t.equal(broken.code, 2, 'a corrupt body is damage');
  t.match(broken.stderr, /<stdin>: damaged gzip data \(.+\)\n$/);
});

t.test('nothing to read is an error; other inputs are still read', async (t) => {
  const empty = path.join(dir, 'empty');
  fs.mkdirSync(empty);
  const none = path.join(dir, 'none');
  fs.mkdirSync(none);
  file('none/notes.txt', 'hello\n');
  const ok = file('ok.jsonl', RUN);
  for (const name of [empty, none]) {
    const r = await runIn(filter, ['--count', name, ok]);
    t.equal(r.code, 2, `${path.basename(name)}: exit 2`);
    t.equal(r.stderr, `wuu-filter: ${name}: no *.jsonl or *.jsonl.gz files in this directory\n`);
    t.match(r.stdout, `total\t${LINES}\n`, 'the other input was read');
  }
  t.same(expandInput(empty), [], 'expandInput: an empty directory gives no path');
});

t.test('symlink loops and unreadable directories are named, not crashed on', async (t) => {
  const tree = path.join(dir, 'tree');
  file('tree/a.jsonl', RUN);
  fs.symlinkSync('loop.jsonl', path.join(tree, 'loop.jsonl'));
  const loop = path.join(dir, 'self');
  fs.symlinkSync('self', loop);
  const r = await runIn(filter, ['--count', tree, loop]);
  t.equal(r.code, 2);
  t.equal(
    r.stderr,
    `wuu-filter: ${path.join(tree, 'loop.jsonl')}: Too many levels of symbolic links\nwuu-filter: ${loop}: Too many levels of symbolic links\n`,
  );
  t.match(r.stdout, `total\t${LINES}\n`, 'a.jsonl was read');
  const locked = path.join(dir, 'locked');
  fs.mkdirSync(path.join(locked, 'sub'), { recursive: true });
  fs.chmodSync(path.join(locked, 'sub'), 0o000);
  t.teardown(() => fs.chmodSync(path.join(locked, 'sub'), 0o755));
  const entries = listInputs(locked);
  if (process.getuid?.() === 0) {
    t.same(entries, [{ name: locked, error: 'no *.jsonl or *.jsonl.gz files in this directory' }], 'root reads everything');
  } else {
    t.same(entries, [{ name: path.join(locked, 'sub'), error: 'Permission denied' }], 'an unreadable subdirectory is named');
  }
});

t.test('messages on stderr are terminal-safe: file names and the bad line itself', async (t) => {
  const hostile = file('evil\u001b]0;title\u0007.jsonl', '{"type":"x"}\n\u001b[2J{nope\n');
  const r = await runIn(filter, [hostile]);
  t.equal(r.code, 1);
  t.notMatch(r.stderr, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/, 'no raw control character');
  t.match(r.stderr, 'evil\\e]0;title\\x07.jsonl:2: not valid JSON (Unexpected token');
  t.match(r.stderr, '\\e[2J');
  const missing = await runIn(filter, [path.join(dir, 'gone\u009b31m.jsonl')]);
  t.match(missing.stderr, 'gone\\x9b31m.jsonl: No such file or directory');
});

t.test('--pass-invalid on identity is byte-exact', async (t) => {
  const cases = [
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), RUN]),
    Buffer.from('{"type":"a"}\nnot json\n{"type":"b"}'),
    Buffer.from('{"type":"a"}\n{"cut":'),
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('oops\n\n{"type":"a"}')]),
  ];
  for (const input of cases) {
    const r = await runIn(filter, ['--pass-invalid'], [input]);
    t.ok(r.stdoutBytes.equals(input), JSON.stringify(input.toString().slice(0, 30)));
    t.equal(r.code, 0);
  }
  const plain = await runIn(filter, [], Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"type":"a"}')]));
  t.equal(plain.stdout, '{"type":"a"}\n', 'without it, output is normalised JSONL');
});

t.test('after a streak of bad lines, one note instead of a screenful, counts at the end', async (t) => {
  const input = `${'garbage\n'.repeat(100)}{"type":"a"}\nbad again\n`;
  const r = await runIn(filter, [], input);
  const lines = r.stderr.trimEnd().split('\n');
  t.equal(lines.filter((l) => /<stdin>:\d+: not valid JSON/.test(l)).length, BAD_STREAK + 1, 'the first ones and the one after a good line');
  t.equal(lines.filter((l) => l.includes("does not look like a 'wuu exec --json' stream")).length, 1, 'said once');
  t.equal(lines[lines.length - 1], 'wuu-filter: 101 bad lines in all, 80 not listed');
  t.equal(r.code, 1);
  t.equal(r.stdout, '{"type":"a"}\n');
});

t.test('Core.oversize: a line over the cap is streamed to the core in pieces, in order', async (t) => {
  const pieces: number[] = [];
  const core: Core = {
    push: (rec, emit) => emit(rec),
    oversize(source, where, emit) {
      if (where.line === 4) return undefined; // declined: reported and dropped
      return (async () => {
        let bytes = 0;
        for await (const piece of source) {
          pieces.push(piece.length);
          bytes += piece.length;
        }
        if (where.line === 6) throw new Error('cannot redact this line');
        emit(`{"type":"big","file":${JSON.stringify(where.file)},"line":${where.line},"bytes":${bytes}}\n`);
      })();
    },
  };
  const spec: ToolSpec = { name: 'wuu-test', summary: '', usage: '', create: () => ({ core }) };
  const big = `{"delta":"${'x'.repeat(3000)}","type":"agent_message_delta"}`;
  const input = Buffer.from(`{"type":"a"}\n${big}\n{"type":"b"}\n${big}\n{"type":"c"}\n${big}\n${big}`);
  const r = await runIn(spec, ['--max-line-bytes', '1K'], [0, 100, 1500, 4000, 7000].map((at, i, all) => input.subarray(at, all[i + 1] ?? input.length)));
  t.equal(
    r.stdout,
    `{"type":"a"}\n{"type":"big","file":"<stdin>","line":2,"bytes":${big.length}}\n{"type":"b"}\n{"type":"c"}\n{"type":"big","file":"<stdin>","line":7,"bytes":${big.length}}\n`,
  );
  t.equal(
    r.stderr,
    `wuu-test: <stdin>:4: line of ${big.length} bytes exceeds --max-line-bytes 1024; dropped\nwuu-test: <stdin>:6: cannot redact this line\n`,
  );
  t.ok(pieces.length > 3, 'the bytes came in several pieces');
  t.equal(r.code, 1);
});

t.test('parse() reports bad lines in the words of the binaries', async (t) => {
  const stream = parse({ maxLineBytes: 20 });
  const errors: string[] = [];
  stream.on('invalid', (err: InvalidLineError) => errors.push(`${err.line}: ${err.message}`));
  const records: unknown[] = [];
  Readable.from([Buffer.from('{"type":"a"}\n{"type":"a very long type"}\n[1]\n\u001b')]).pipe(stream);
  for await (const rec of stream) records.push(rec);
  t.equal(records.length, 1);
  t.same(errors, ['2: line of 27 bytes exceeds --max-line-bytes 20; dropped', '3: not a JSON object (an array)', '4: not valid JSON (Unexpected token \'\\e\', "\\e" is not valid JSON)']);
});

t.test('tools that write unread lines through prove them valid first: an invalid line is reported and skipped (exit 1)', async (t) => {
  const { spec: accumulate } = await import('../bin/wuu-accumulate.js');
  const { spec: redact } = await import('../bin/wuu-redact.js');
  const start = '{"thread_id":"t","turn_id":"u","type":"turn_started"}\n';
  const good = '{"final_message":"hi","status":"completed","type":"result"}\n';
  const bad: Array<[string, string]> = [
    ['an unescaped quote', '{"final_message":"say "hi"","status":"completed","type":"result"}\n'],
    ['a trailing comma', '{"thread_id":"t","type":"todo_updated",}\n'],
    ['NaN', '{"thread_id":"t","tokens":NaN,"type":"usage_updated"}\n'],
  ];
  for (const spec of [accumulate, turns, redact]) {
    for (const [what, line] of bad) {
      for (const chunk of [1, 7, 4096]) {
        const input = Buffer.from(start + line + good);
        const chunks: Buffer[] = [];
        for (let at = 0; at < input.length; at += chunk) chunks.push(input.subarray(at, at + chunk));
        const r = await runIn(spec, [], chunks);
        t.equal(r.code, 1, `${spec.name}, ${what} (chunks of ${chunk}): exit 1`);
        t.notOk(r.stdout.includes(line.trimEnd()), `${spec.name}, ${what}: not copied through`);
        t.match(r.stderr, new RegExp(`^${spec.name}: <stdin>:2: not valid JSON`), `${spec.name}, ${what}: reported`);
        t.ok(r.stdout.includes(good.trimEnd()), `${spec.name}, ${what}: the valid lines still pass`);
      }
    }
    const passed = await runIn(spec, ['--pass-invalid'], start + bad[0]![1] + good);
    t.equal(passed.code, 0, `${spec.name} --pass-invalid keeps its promise`);
  }
});

t.test('an abandoned FIFO open is released before the process may exit (fifoReleases)', async (t) => {
  const { abandonRaw, fifoReleases } = await import('../lib/cli/inputs.js');
  const fifo = path.join(dir, 'abandoned-fifo');
  execFileSync('mkfifo', [fifo]);
  // The open blocks in a pool thread until a writer comes: nobody writes here.
  const raw = fs.createReadStream(fifo);
  raw.on('error', () => {});
  let closed = false;
  raw.on('close', () => (closed = true));
  abandonRaw(raw, fifo);
  t.equal(closed, false, 'the stream is not closed before its open returns');
  await fifoReleases();
  t.equal(closed, true, 'fifoReleases resolves only once the pending open came back and the stream closed');
  await fifoReleases(); // nothing left: resolves at once
  t.pass('with nothing pending it resolves at once');
});
