/**
 * Proof under abuse, for every binary: hostile, broken and huge inputs never
 * crash a tool, never lose later events, and keep memory bounded.
 * "No crash" means: the run settles, no internal error or stack trace on
 * stderr, no signal, and an exit status the tool documents (below 64).
 */
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { run, type ToolSpec } from '../lib/cli/index.js';
import { tools } from '../bin/wuu-stream.js';
import { binPath, example, runBin, type BinResult } from './helpers.js';

const RUN = fs.readFileSync(example('run.jsonl'));
const TIMEOUT = fs.readFileSync(example('timeout.jsonl'));

/** Runs a tool in this process with the given stdin chunks. */
async function inProcess(spec: ToolSpec, argv: string[], chunks: Buffer[]): Promise<BinResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const code = await run(spec, { argv, stdin: Readable.from(chunks, { objectMode: false }), stdout, stderr, env: { NO_COLOR: '1' } });
  return { stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), code, signal: null };
}

/** Resolves once the binary (after its exec) has its signal handlers: SigCgt bit 0 (SIGHUP). */
async function handlersInstalled(pid: number): Promise<void> {
  for (;;) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('/dist/bin/')) {
        const caught = /SigCgt:\s*([0-9a-f]+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '0';
        if ((BigInt(`0x${caught}`) & 1n) === 1n) return;
      }
    } catch {
      return;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Bytes the process has read so far, from any descriptor (rchar). */
function readBytes(pid: number): number {
  try {
    return Number(/rchar:\s*(\d+)/.exec(fs.readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
  } catch {
    return Infinity; // gone: the exit status tells
  }
}

/** Resolves once the process has read `total` bytes in all. */
async function readAtLeast(pid: number, total: number): Promise<void> {
  while (readBytes(pid) < total) await new Promise((resolve) => setTimeout(resolve, 5));
}

function assertNoCrash(t: Test, r: BinResult, what: string): void {
  const crashed =
    r.signal !== null || r.code === null || r.code >= 64 || /internal error|\n\s+at [\w.<]/.test(r.stderr);
  if (crashed) t.fail(`${what}: crashed`, { code: r.code, signal: r.signal, stderr: r.stderr.slice(0, 2000) });
  else t.pass(`${what}: no crash (exit ${r.code})`);
}

t.test('a stream cut at every byte boundary never crashes a tool', async (t) => {
  for (const spec of tools) {
    let crashes = 0;
    for (let cut = 0; cut <= TIMEOUT.length; cut++) {
      const r = await inProcess(spec, [], [TIMEOUT.subarray(0, cut)]);
      if (r.code === null || r.code >= 64 || /internal error/.test(r.stderr)) {
        crashes++;
        if (crashes === 1) t.fail(`${spec.name} crashed on a cut at byte ${cut}`, { stderr: r.stderr });
      }
    }
    t.equal(crashes, 0, `${spec.name}: ${TIMEOUT.length + 1} cuts`);
  }
});

t.test('1-byte chunks give exactly the output of one chunk', async (t) => {
  const oneByte = Array.from(RUN, (byte) => Buffer.from([byte]));
  for (const spec of tools) {
    const whole = await inProcess(spec, [], [RUN]);
    const split = await inProcess(spec, [], oneByte);
    t.same(split, whole, spec.name);
  }
});

t.test('hostile keys and ids do not pollute prototypes', async (t) => {
  const hostile = [
    '{"__proto__":{"polluted":"yes"},"thread_id":"__proto__","turn_id":"constructor","type":"turn_started"}',
    '{"delta":"x","thread_id":"__proto__","turn_id":"constructor","type":"agent_message_delta"}',
    '{"arguments":"{\\"__proto__\\":{\\"polluted\\":\\"yes\\"}}","item_id":"__proto__","name":"constructor","thread_id":"__proto__","turn_id":"constructor","type":"tool_started"}',
    '{"delta":"out","item_id":"__proto__","thread_id":"__proto__","turn_id":"constructor","type":"tool_output_delta"}',
    '{"error":"","item_id":"__proto__","name":"constructor","status":"completed","thread_id":"__proto__","turn_id":"constructor","type":"tool_completed"}',
    '{"agent_id":"__proto__","input_tokens":5,"status":"completed","thread_id":"__proto__","type":"subagent_completed"}',
    '{"cache_creation_tokens":0,"cache_read_tokens":0,"input_tokens":10,"output_tokens":2,"thread_id":"__proto__","turn_id":"constructor","type":"usage_updated"}',
    '{"__proto__":{"polluted":"yes"},"type":"__proto__"}',
    '{"awaiting_auto_continuation":false,"input_tokens":10,"output_tokens":2,"thread_id":"__proto__","turn_id":"constructor","type":"turn_completed"}',
    '{"final_message":"ok","run_id":"__proto__","status":"completed","thread_id":"__proto__","turn_id":"constructor","type":"result"}',
  ].join('\n') + '\n';
  for (const spec of tools) {
    const r = await inProcess(spec, [], [Buffer.from(hostile)]);
    assertNoCrash(t, r, spec.name);
    t.equal(({} as Record<string, unknown>).polluted, undefined, `${spec.name}: Object.prototype untouched`);
    t.equal(Object.keys(Object.prototype).length, 0, `${spec.name}: no new prototype keys`);
  }
});

const UNKNOWN = '{"big":12345678901234567890123,"extra":{"nested":[1,2.50,-0]},"type":"future_event_type"}';

t.test('odd inputs', async (t) => {
  const cases: Array<[string, Buffer]> = [
    ['empty input', Buffer.alloc(0)],
    ['only blank lines', Buffer.from('\n\n  \n\n')],
    ['no trailing newline', RUN.subarray(0, RUN.length - 1)],
    ['CRLF line ends', Buffer.from(RUN.toString().replace(/\n/g, '\r\n'))],
    ['a byte order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), RUN])],
    ['NUL bytes', Buffer.from('{"type":"turn_started","thread_id":"a\u0000b"}\n\u0000\u0000\n{"type":"x"}\n')],
    ['invalid UTF-8', Buffer.concat([Buffer.from('{"delta":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('","type":"agent_message_delta"}\n')])],
    ['deeply nested JSON', Buffer.from(`{"type":"todo_updated","todo":${'['.repeat(10000)}${']'.repeat(10000)}}\n{"type":"after"}\n`)],
    ['unknown types, extra fields, big numbers', Buffer.from(`${UNKNOWN}\n`)],
  ];
  for (const spec of tools) {
    for (const [what, input] of cases) {
      const r = await inProcess(spec, [], [input]);
      assertNoCrash(t, r, `${spec.name}: ${what}`);
    }
  }
});

t.test('pass-through tools keep unknown events and numbers beyond 2^53 byte for byte', async (t) => {
  for (const spec of tools.filter((tool) => ['wuu-filter', 'wuu-accumulate', 'wuu-redact', 'wuu-turns'].includes(tool.name))) {
    const r = await inProcess(spec, [], [Buffer.from(`${UNKNOWN}\n`)]);
    t.equal(r.stdout, `${UNKNOWN}\n`, spec.name);
    t.equal(r.code, 0, `${spec.name} exit status`);
  }
});

t.test('a missing input file: clear error, exit 2, the other files still read', async (t) => {
  for (const spec of tools) {
    const r = await inProcess(spec, ['no-such-file.jsonl', example('run.jsonl')], []);
    t.equal(r.code, 2, `${spec.name} exits 2`);
    t.match(r.stderr, `${spec.name}: no-such-file.jsonl: No such file or directory`, `${spec.name} says why`);
    if (spec.name !== 'wuu-check') t.not(r.stdout, '', `${spec.name} still read the other file`);
  }
});

const sha256 = (data: Buffer): string => crypto.createHash('sha256').update(data).digest('hex');

/**
 * Spawns a binary under /usr/bin/time and returns its result and peak RSS in MB;
 * stdout is kept up to 256 KiB, and hashed whole.
 */
function measured(name: string, args: string[], input: Buffer): Promise<BinResult & { rssMb: number; outBytes: number; outSha256: string }> {
  return new Promise((resolve, reject) => {
    // tap injects its process-tracking loader through NODE_OPTIONS; it adds some 20 MB to
    // every child, and what is measured here is the tool.
    const options = (process.env.NODE_OPTIONS ?? '').split(/\s+/).filter((o) => o !== '' && !o.includes('@tapjs/processinfo'));
    const env = { ...process.env, NODE_OPTIONS: options.join(' ') };
    const child = spawn('/usr/bin/time', ['-f', 'RSS_KB=%M', process.execPath, binPath(name), ...args], { stdio: ['pipe', 'pipe', 'pipe'], env });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    const hash = crypto.createHash('sha256');
    child.stdout.on('data', (c: Buffer) => {
      outBytes += c.length;
      hash.update(c);
      if (outBytes < 1 << 18) out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const stderr = Buffer.concat(err).toString();
      const rss = /RSS_KB=(\d+)/.exec(stderr);
      resolve({
        stdout: Buffer.concat(out).toString().slice(0, 1 << 18),
        outBytes,
        outSha256: hash.digest('hex'),
        stderr: stderr.replace(/RSS_KB=\d+\n?/, ''),
        code,
        signal,
        rssMb: rss ? Number(rss[1]) / 1024 : NaN,
      });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

t.test('a 64 MiB single line: a clear error and bounded memory, later events kept', async (t) => {
  const huge = Buffer.alloc(64 * 1024 * 1024 + 64, 'a');
  Buffer.from('{"delta":"').copy(huge, 0);
  Buffer.from('","type":"agent_message_delta"}\n').copy(huge, huge.length - 32);
  // A secret past the first MiB (written over the a's: the length stays), for wuu-redact.
  const secret = 'sk-proj-abc123def456ghi789jkl012mno345';
  const at = 1024 * 1024;
  Buffer.from(` ${secret} `).copy(huge, at);
  const later = '{"thread_id":"t","turn_id":"u","type":"turn_started"}\n';
  const input = Buffer.concat([huge, Buffer.from(later)]);
  // wuu-redact does not drop an oversize line: it redacts it in a streaming pass
  // (lib/redact/oversize-line.ts through the runner's Core.oversize hook) and keeps it.
  const redacted = Buffer.concat([input.subarray(0, at + 1), Buffer.from('<secret:openai-key>'), input.subarray(at + 1 + secret.length)]);
  const line = JSON.parse(redacted.subarray(0, redacted.indexOf(0x0a)).toString()) as { delta: string; type: string };
  t.same([line.type, line.delta.length, line.delta.includes(secret)], ['agent_message_delta', huge.length - '{"delta":"'.length - '","type":"agent_message_delta"}\n'.length - secret.length + '<secret:openai-key>'.length, false], 'the expected line is valid JSON, without the secret');
  for (const spec of tools) {
    const r = await measured(spec.name, [], input);
    assertNoCrash(t, r, spec.name);
    if (spec.name === 'wuu-redact') {
      t.same([r.code, r.stderr], [0, ''], 'wuu-redact: exit 0, nothing dropped, nothing to report');
      t.equal(r.outBytes, redacted.length, 'wuu-redact: the whole line is written');
      t.equal(r.outSha256, sha256(redacted), 'wuu-redact: byte for byte the line with its secret replaced, then the later event');
    } else {
      // wuu-check reports problems on stdout, every other tool on stderr.
      t.match(r.stderr + r.stdout, /<stdin>:1: (bad-line: )?line of 67108927 bytes exceeds --max-line-bytes 33554432; dropped/, `${spec.name} reports line 1`);
    }
    // wuu-redact works through the line instead of discarding it: the first
    // --max-line-bytes (32 MiB), held before the line was known to be oversize, stay
    // queued while they are redacted, and the buffers it reads and writes are freed
    // only as V8 collects. Measured 171-181 MB alone and 190-207 MB under this
    // harness for this line (GC timing), hence its own bound. NOT proven flat in the
    // line's length: a 128 MiB line peaked at 245 MB (see the fix-tests report).
    const limit = spec.name === 'wuu-redact' ? 240 : 200;
    t.ok(r.rssMb < limit, `${spec.name} peak memory ${r.rssMb.toFixed(0)} MB < ${limit} MB`);
  }
  const raised = await measured('wuu-filter', ['--max-line-bytes', '100M'], input);
  t.equal(raised.outBytes, input.length, 'with the cap raised, wuu-filter passes the line through whole');
  t.equal(raised.outSha256, sha256(input));
  t.equal(raised.code, 0);
  t.ok(raised.rssMb < 400, `and stays bounded: ${raised.rssMb.toFixed(0)} MB`);
});

t.test('one million tiny events', async (t) => {
  const line = '{"thread_id":"t","todo":{},"turn_id":"u","type":"todo_updated"}\n';
  const input = Buffer.from(line.repeat(1_000_000));
  for (const spec of tools) {
    const r = await measured(spec.name, [], input);
    assertNoCrash(t, r, spec.name);
    t.ok(r.rssMb < 300, `${spec.name} peak memory ${r.rssMb.toFixed(0)} MB`);
  }
  const filtered = await runBin('wuu-filter', ['--count'], { input });
  t.equal(filtered.stdout, 'todo_updated\t1000000\ntotal\t1000000\n', 'nothing lost');
});

t.test('a slow consumer: backpressure bounds memory, nothing is lost', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-slow-'));
  const file = path.join(dir, 'big.jsonl');
  const line = `{"delta":"${'x'.repeat(200)}","thread_id":"t","turn_id":"u","type":"agent_message_delta"}\n`;
  fs.writeFileSync(file, line.repeat(400_000)); // ~100 MB
  const child = spawn(process.execPath, [binPath('wuu-filter'), 'message', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let received = 0;
  let peakKb = 0;
  child.stdout.pause();
  // Let it run into backpressure, then read slowly while sampling its memory.
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
    peakKb = Math.max(peakKb, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0));
    const chunk = child.stdout.read(64 * 1024) as Buffer | null;
    if (chunk) received += chunk.length;
  }
  child.stdout.on('data', (c: Buffer) => (received += c.length));
  child.stdout.resume();
  const code = await new Promise((resolve) => child.on('close', resolve));
  t.equal(code, 0);
  t.equal(received, line.length * 400_000, 'every byte arrived');
  t.ok(peakKb / 1024 < 120, `memory while the reader stalls: ${(peakKb / 1024).toFixed(0)} MB`);
  fs.rmSync(dir, { recursive: true, force: true });
});

t.test('SIGINT/SIGTERM mid-stream: summaries print what they have, exit 130/143', async (t) => {
  const lines = fs.readFileSync(example('run.jsonl'), 'utf8').split('\n').slice(0, 30).join('\n') + '\n';
  for (const [signal, status] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    for (const args of [['wuu-usage', '--json'], ['wuu-filter', '--count'], ['wuu-turns']]) {
      const [name, ...rest] = args;
      // env(1) drops tap's NODE_OPTIONS, whose hooks install signal handlers of their own.
      const child = spawn('/usr/bin/env', ['-u', 'NODE_OPTIONS', process.execPath, binPath(name!), ...rest], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      // Wait for the runner's handlers (SIGHUP, installed with the others), then
      // write, and wait for the lines to be read (rchar in /proc/PID/io), not for a fixed time.
      await handlersInstalled(child.pid!);
      const base = readBytes(child.pid!);
      child.stdin.write(lines);
      await readAtLeast(child.pid!, base + Buffer.byteLength(lines));
      child.kill(signal);
      const code = await new Promise((resolve) => child.on('close', (c) => resolve(c)));
      t.equal(code, status, `${name} exits ${status} on ${signal}`);
      t.not(stdout, '', `${name} printed its summary so far on ${signal}`);
      t.notMatch(stderr, /internal error/, `${name}: no crash`);
      child.stdin.destroy();
    }
  }
});
