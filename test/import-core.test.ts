/**
 * wuu-import's core: the encoder, producer detection, the wuu identity, the
 * messages for inputs it cannot convert, the registry, and streams fed in odd
 * chunk sizes.
 */
import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { spec } from '../bin/wuu-import.js';
import { spec as check } from '../bin/wuu-check.js';
import { createImport, detectLine, goJson, goLine, goString, importStream, MAPPERS, struct, type Detection, type ImportedEvent, type Mapper } from '../lib/import/index.js';
import { liveProcess, ROOT } from './helpers.js';
import { runIn } from './runner-harness.js';

const CODEX = path.join(ROOT, 'test', 'fixtures', 'import', 'codex');
const KNOWN =
  "known producers: wuu ('wuu exec --json', passed through unchanged), codex ('codex exec --json'), claude ('claude -p --output-format stream-json --verbose'), gemini ('gemini --output-format stream-json'); name it with --from claude, codex or gemini";

t.test('encoder: Go json.Encoder bytes', async (t) => {
  const cases: Array<[unknown, string]> = [
    [{ b: 1, a: { d: [1, 'x'], c: null } }, '{"a":{"c":null,"d":[1,"x"]},"b":1}'],
    ['<a href="x">&</a>', '"\\u003ca href=\\"x\\"\\u003e\\u0026\\u003c/a\\u003e"'],
    ['line\nsep\u2028para\u2029tab\tcr\rbs\bff\f', '"line\\nsep\\u2028para\\u2029tab\\tcr\\rbs\\bff\\f"'],
    ['\u0001\u001f\u007f/é😀', '"\\u0001\\u001f\u007f/é😀"'],
    ['lone \ud800 high and \udc00 low', '"lone \ufffd high and \ufffd low"'],
    ['back\\slash "q"', '"back\\\\slash \\"q\\""'],
    [[], '[]'],
    [{}, '{}'],
    [true, 'true'],
    [false, 'false'],
    [undefined, 'null'],
    [1e21, '1e+21'],
    [1e-7, '1e-7'],
    [-0.5, '-0.5'],
    [{ é: 1, z: 2, Z: 3, a: 4 }, '{"Z":3,"a":4,"z":2,"é":1}'],
    // Byte order, not UTF-16 order: U+FF21 (EF BC A1) sorts before U+1F600 (F0 9F 98 80).
    [{ '😀': 1, 'Ａ': 2, '\ue000': 3 }, '{"\ue000":3,"Ａ":2,"😀":1}'],
    [struct({ z: 1, a: [struct({ y: 2, b: 3 })] }), '{"z":1,"a":[{"y":2,"b":3}]}'],
  ];
  // Names by index: a raw U+2028 in a test name would upset the TAP parser.
  cases.forEach(([value, want], i) => t.equal(goJson(value), want, `case ${i}`));
  t.equal(goString('plain'), '"plain"');
  t.equal(goLine({ type: 'x', a: '<' }), '{"a":"\\u003c","type":"x"}\n');
  t.throws(() => goJson(Number.NaN), /Go cannot encode NaN/);
  t.throws(() => goJson({ f: () => 1 }), /cannot encode function/);
  t.throws(() => goJson(Symbol('s')), /cannot encode symbol/);
  // Data nested far deeper than any call stack: the walk keeps its own.
  let deep: unknown = 'leaf';
  for (let i = 0; i < 200_000; i++) deep = [deep];
  const text = goJson(deep);
  t.equal(text.length, 200_000 * 2 + '"leaf"'.length);
  t.equal(text, `${'['.repeat(200_000)}"leaf"${']'.repeat(200_000)}`);
});

t.test('detection table', async (t) => {
  const rows: Array<[Record<string, unknown>, Detection['kind'], string?]> = [
    [{ type: 'session_configured', protocol_version: 'wuu-app-server/v0.1' }, 'wuu'],
    [{ type: 'anything', protocol_version: 'wuu-app-server/v9' }, 'wuu'],
    [{ type: 'turn_started', thread_id: 't', turn_id: 'u' }, 'wuu'],
    [{ type: 'result', run_id: 'run-1', final_message: '' }, 'wuu'],
    [{ type: 'error', run_id: '', error: 'x', retrying: false }, 'wuu'],
    [{ type: 'thread.started', thread_id: 'x' }, 'producer', 'codex'],
    [{ type: 'turn.started' }, 'producer', 'codex'],
    [{ type: 'item.completed', item: {} }, 'producer', 'codex'],
    [{ type: 'error', message: 'Reconnecting...' }, 'unknown'],
    [{ type: 'system', subtype: 'init', session_id: 's', uuid: 'u', claude_code_version: '2.1.334' }, 'producer', 'claude'],
    [{ type: 'system', subtype: 'hook_started', session_id: 's', uuid: 'u' }, 'producer', 'claude'],
    [{ type: 'result', subtype: 'error_during_execution', session_id: 's', uuid: 'u' }, 'producer', 'claude'],
    [{ type: 'init', timestamp: '2026-12-03T09:00:00.000Z', session_id: 's', model: 'auto' }, 'producer', 'gemini'],
    [{ type: 'message', timestamp: '2026-12-03T09:00:00.000Z', role: 'user', content: 'hi' }, 'producer', 'gemini'],
    [{ type: 'message', timestamp: 'yesterday' }, 'unknown'],
    [{ type: 'message', timestamp: '2026-12-03T09:00:00Z', uuid: 'u' }, 'unknown'],
    [{ type: 'session_meta', timestamp: 'x', payload: { id: 'a' } }, 'unsupported', 'Codex rollout'],
    [{ sessionId: 'a', projectHash: 'b', kind: 'main' }, 'unsupported', 'Gemini CLI session file'],
    [{ type: 'user', sessionId: 'a', parentUuid: null, uuid: 'u' }, 'unsupported', 'Claude Code transcript'],
    [{ type: 'summary', sessionId: 'a' }, 'unsupported', 'Claude Code transcript'],
    [{ id: '0', msg: { type: 'task_started' } }, 'unsupported', 'legacy'],
    [{ type: 'x' }, 'unknown'],
    [{ type: 7 }, 'unknown'],
    [{ nothing: true }, 'unknown'],
  ];
  for (const [line, kind, detail] of rows) {
    const found = detectLine(line);
    t.equal(found.kind, kind, JSON.stringify(line));
    if (found.kind === 'producer') t.equal(found.producer, detail);
    if (found.kind === 'unsupported') t.match(found.what, detail!);
  }
});

t.test('a wuu stream passes through byte for byte: every example', async (t) => {
  const examples = fs.readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.jsonl'));
  t.ok(examples.length >= 5);
  for (const name of examples) {
    const bytes = fs.readFileSync(path.join(ROOT, 'examples', name));
    // --pass-invalid: even a cut last line (killed.jsonl) comes out as it came.
    const r = await runIn(spec, ['--pass-invalid', path.join(ROOT, 'examples', name)]);
    t.equal(r.code, 0, `${name}: exit`);
    t.equal(r.stderr.split('\n').length - 1, name === 'killed.jsonl' ? 1 : 0, `${name}: messages`);
    t.ok(r.stdoutBytes.equals(bytes), `${name}: identical bytes`);
    const chunked = await runIn(spec, ['--pass-invalid'], chunks(bytes, 7));
    t.ok(chunked.stdoutBytes.equals(bytes), `${name}: identical bytes in 7-byte chunks`);
  }
});

function chunks(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

t.test('inputs it cannot convert: the message and exit 2', async (t) => {
  let r = await runIn(spec, [], '{"type":"x"}\n{"type":"y"}\n');
  t.equal(r.code, 2);
  t.equal(r.stdout, '');
  t.equal(r.stderr, `wuu-import: <stdin>: cannot tell which producer wrote this stream from its first 2 lines; ${KNOWN}\n`);

  r = await runIn(spec, [], 'hello\nworld\n{"type":"x"}\n\nfive\nsix\nseven\n');
  t.equal(r.code, 2);
  t.equal(
    r.stderr,
    [
      "wuu-import: <stdin>:1: not valid JSON (Unexpected token 'h', \"hello\" is not valid JSON)",
      "wuu-import: <stdin>:2: not valid JSON (Unexpected token 'w', \"world\" is not valid JSON)",
      'wuu-import: <stdin>:4: blank line',
      `wuu-import: <stdin>: cannot tell which producer wrote this stream from its first 5 lines; ${KNOWN}`,
      '',
    ].join('\n'),
    'bad lines before the verdict are reported, none after it',
  );

  r = await runIn(spec, [], '{"type":"x"}\n{"type":"y"}\n{"type":"z"}\n{"type":"w"}\n{"type":"v"}\n{"type":"thread.started","thread_id":"late"}\n');
  t.equal(r.code, 2, 'five lines without a verdict: unrecognised, even if the sixth would tell');
  t.equal(r.stdout, '');

  r = await runIn(spec, [], '{"id":"0","msg":{"type":"task_started"}}\n');
  t.equal(r.code, 2);
  t.equal(r.stderr, 'wuu-import: <stdin>: this is a Codex stream in the legacy {id, msg} format (Codex before 0.44), which wuu-import does not convert; upgrade Codex\n');

  r = await runIn(spec, [], '{"timestamp":"x","type":"session_meta","payload":{"id":"a"}}\n{"type":"event_msg","payload":{}}\n');
  t.equal(r.code, 2);
  t.equal(r.stderr, "wuu-import: <stdin>: this is a Codex rollout (session) file, which wuu-import does not convert; pipe 'codex exec --json' instead\n");

  r = await runIn(spec, [], '{"sessionId":"a","projectHash":"b"}\nnot json\n');
  t.equal(r.code, 2);
  t.equal(r.stderr, "wuu-import: <stdin>: this is a Gemini CLI session file, which wuu-import does not convert; pipe 'gemini --output-format stream-json' instead\n", 'later bad lines are skipped quietly');

  r = await runIn(spec, [], '[1]\n');
  t.equal(r.code, 2, 'a lone bad line at the end: unrecognised');
  t.equal(r.stderr, `wuu-import: <stdin>:1: not a JSON object (an array)\nwuu-import: <stdin>: cannot tell which producer wrote this stream from its first line; ${KNOWN}\n`);

  r = await runIn(spec, [], '');
  t.equal(r.code, 0, 'an empty input is an empty stream');
  t.equal(r.stdout + r.stderr, '');

  r = await runIn(spec, ['--from', 'nope']);
  t.equal(r.code, 2);
  t.equal(r.stderr, "wuu-import: --from must be one of auto, claude, codex, gemini (got 'nope')\nTry 'wuu-import --help' for more information.\n");
});

t.test('bad lines once the producer is known follow the common policy', async (t) => {
  const codex = fs.readFileSync(path.join(CODEX, 'simple.jsonl'), 'utf8').split('\n');
  const withBad = [codex[0], 'garbage', ...codex.slice(1)].join('\n');
  const r = await runIn(spec, [], withBad);
  t.equal(r.code, 1, 'bad data');
  t.equal(r.stderr, "wuu-import: <stdin>:2: not valid JSON (Unexpected token 'g', \"garbage\" is not valid JSON)\n");
  t.match(r.stdout, /"type":"result"/, 'the rest converted');
  const forced = await runIn(spec, ['--from', 'codex'], `garbage\n${codex.join('\n')}`);
  t.equal(forced.code, 1, '--from: no sniffing, the policy reports');
  t.match(forced.stderr, /<stdin>:1: not valid JSON/);
  // A stream cut inside its first line: reported as cut, then unrecognised.
  const cut = await runIn(spec, [], '{"type":"thread.sta');
  t.equal(cut.code, 2);
  t.match(cut.stderr, /<stdin>:1: last line cut off \(no newline at end of input\)/);
  t.match(cut.stderr, /from its first line; known producers/);
  // Buffered plain objects (no bytes behind them) are replayed as they are.
  const stream = importStream();
  const got: string[] = [];
  stream.on('data', (d: string) => got.push(d));
  stream.write({ type: 'error', message: 'Reconnecting... 1/2' });
  stream.end({ type: 'thread.started', thread_id: 'x' });
  await new Promise((resolve) => stream.on('end', resolve));
  t.match(got.join(''), /"retrying":true.*\n.*session_configured/);
});

t.test('each file is its own stream', async (t) => {
  const simple = path.join(CODEX, 'simple.jsonl');
  const run = path.join(ROOT, 'examples', 'run.jsonl');
  const bad = path.join(ROOT, 'examples', 'pricing.json');
  const r = await runIn(spec, [simple, run, bad, simple]);
  t.equal(r.code, 2, 'the unrecognised file decides the status');
  const lines = r.stdout.split('\n');
  const results = lines.filter((l) => l.includes('"type":"result"'));
  t.equal(results.length, 3, 'a result per converted or passed-through run');
  t.ok(r.stdout.includes(fs.readFileSync(run, 'utf8')), 'the wuu file is copied whole in between');
  t.match(r.stderr, /pricing\.json: cannot tell which producer/);
  t.equal(lines.filter((l) => l.includes('"type":"session_configured"')).length, 3);
});

t.test('--from names the producer; the registry has the mappings', async (t) => {
  t.same(Object.keys(MAPPERS), ['claude', 'codex', 'gemini']);
  const codex = fs.readFileSync(path.join(CODEX, 'simple.jsonl'));
  const auto = await runIn(spec, [], codex);
  const forced = await runIn(spec, ['--from', 'codex'], codex);
  t.equal(forced.code, 0);
  t.equal(forced.stdout, auto.stdout);
  // A lone error line first is not decisive: held, then replayed once the stream is known.
  const lead = '{"type":"error","message":"Reconnecting... 1/5"}\n';
  const held = await runIn(spec, [], Buffer.concat([Buffer.from(lead), codex]));
  t.match(held.stdout, /"retrying":true/);
  t.equal(held.code, 0);
  const warned: string[] = [];
  const core = createImport({ mappers: {}, warn: (m) => warned.push(m) });
  const out: unknown[] = [];
  const rec = { type: 'thread.started', event: { type: 'thread.started', thread_id: 'x' }, file: 'f', line: 1 };
  core.push(rec, (o) => out.push(o));
  core.push(rec, (o) => out.push(o));
  core.endFile!('f', (o) => out.push(o));
  t.same(out, []);
  t.same(warned, ['f: this looks like a Codex exec --json stream, which this build of wuu-import cannot convert yet']);
  t.equal(core.status!(), 2);
  const forcedMissing = createImport({ from: 'gemini', mappers: {}, warn: (m) => warned.push(m) });
  forcedMissing.push(rec, () => {});
  t.equal(forcedMissing.status!(), 2);
  t.match(warned[1]!, /Gemini CLI stream-json stream, which this build/);
  t.equal(createImport().needsParse!('x'), true, 'lines are read while the producer is unknown');
  const quiet = createImport();
  for (let i = 1; i <= 5; i++) quiet.push({ type: 'x', event: { type: 'x' }, file: 'q', line: i }, () => t.fail('nothing is written'));
  t.equal(quiet.status!(), 2, 'without a warn function the verdict is still the exit status');
  t.equal(quiet.needsParse!('x'), false, 'the rest of the file is skipped unread');
});

t.test('a mapper from the registry: its events are encoded and written live', async (t) => {
  const seen: string[] = [];
  const fake = (): Mapper => ({
    producer: 'gemini',
    line: (obj) => {
      seen.push(String(obj.type));
      return obj.type === 'init' ? [{ type: 'thread_started', thread_id: '<s>', model: '', provider: '', cwd: '' } as ImportedEvent] : [];
    },
    end: () => [{ type: 'result', status: 'completed' }],
  });
  const stream = importStream({ mappers: { gemini: fake } });
  const got: unknown[] = [];
  stream.on('data', (d) => got.push(d));
  stream.write({ type: 'init', timestamp: '2026-12-03T09:00:00.000Z', session_id: 's', model: 'm' });
  await new Promise((resolve) => setImmediate(resolve));
  t.same(got, ['{"cwd":"","model":"","provider":"","thread_id":"\\u003cs\\u003e","type":"thread_started"}\n'], 'written before the input ends');
  stream.end({ type: 'message', timestamp: '2026-12-03T09:00:01.000Z' });
  await new Promise((resolve) => stream.on('end', resolve));
  t.same(seen, ['init', 'message']);
  t.equal(got[1], '{"status":"completed","type":"result"}\n');
});

t.test('the umbrella runs it as `wuu-stream import`', async (t) => {
  const { main } = await import('../bin/wuu-stream.js');
  const { PassThrough, Readable } = await import('node:stream');
  const stdout = new PassThrough();
  const out: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  const code = await main({ argv: ['import', path.join(CODEX, 'simple.jsonl')], stdin: Readable.from([]), stdout, stderr: new PassThrough() });
  t.equal(code, 0);
  const direct = await runIn(spec, [path.join(CODEX, 'simple.jsonl')]);
  t.equal(Buffer.concat(out).toString(), direct.stdout);
  const script = new PassThrough();
  const text: Buffer[] = [];
  script.on('data', (c: Buffer) => text.push(c));
  t.equal(await main({ argv: ['completion', 'bash'], stdin: Readable.from([]), stdout: script, stderr: new PassThrough() }), 0);
  const bash = Buffer.concat(text).toString();
  t.match(bash, /  import\|wuu-import\)\n    cands="[^"]*--from[^"]*"/, 'completion knows its flags');
  t.match(bash, /--from\) vals="auto claude codex gemini"/, 'and the values of --from');
});

t.test('live: each line of a producer writing slowly is converted at once', async (t) => {
  const lines = fs.readFileSync(path.join(CODEX, 'shell.jsonl'), 'utf8').split('\n').filter((l) => l !== '');
  const live = liveProcess('wuu-import');
  live.write(`${lines[0]}\n`);
  t.match(JSON.parse(await live.nextLine()), { type: 'session_configured', source: { producer: 'codex' } });
  t.match(JSON.parse(await live.nextLine()), { type: 'thread_started' });
  live.write(`${lines[1]}\n${lines[2]}\n`);
  t.match(JSON.parse(await live.nextLine()), { type: 'turn_started' }, 'the warning item gives nothing, the turn start at once');
  live.write(`${lines[3]}\n`);
  t.match(JSON.parse(await live.nextLine()), { type: 'agent_message_delta', delta: 'Listing the files first.' });
  live.write(`${lines[4]}\n`);
  t.match(JSON.parse(await live.nextLine()), { type: 'tool_started', name: 'bash' }, 'a command shows while it runs');
  for (const line of lines.slice(5)) live.write(`${line}\n`);
  t.equal(await live.end(), 0);
  t.match(JSON.parse(live.lines.at(-1)!), { type: 'result', status: 'completed' }, 'the result once the input ends');
});

t.test('-f: a followed Codex stream ends after its turn ends (Codex writes no result line)', async (t) => {
  for (const name of ['simple.jsonl', 'api-error.jsonl']) {
    const r = await runIn(spec, ['-f', path.join(CODEX, name)], '', { followGraceMs: 50 });
    t.equal(r.code, 0, `${name}: ended by itself`);
    t.equal(r.stdout, (await runIn(spec, [path.join(CODEX, name)])).stdout, `${name}: the whole stream`);
  }
  const core = createImport();
  t.equal(core.endsRun!('turn.completed'), false, 'nothing ends while the producer is unknown');
  core.push({ type: 'thread.started', event: { type: 'thread.started', thread_id: 'x' }, file: 'f', line: 1 }, () => {});
  t.same(['turn.completed', 'turn.failed', 'result', 'item.completed'].map((type) => core.endsRun!(type)), [true, true, false, false]);
});

t.test('every Claude and Gemini capture is recognised by itself and converts to a stream wuu-check accepts', async (t) => {
  const dirs = [path.join(ROOT, 'test', 'fixtures', 'import', 'gemini')];
  const claude = path.join(ROOT, 'test', 'fixtures', 'import', 'claude');
  for (const version of fs.readdirSync(claude)) dirs.push(path.join(claude, version));
  let files = 0;
  for (const dir of dirs) {
    for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
      const input = fs.readFileSync(path.join(dir, name));
      const producer = dir.includes(`${path.sep}gemini`) ? 'gemini' : 'claude';
      const auto = await runIn(spec, [], input);
      const forced = await runIn(spec, ['--from', producer], input);
      t.equal(auto.stdout, forced.stdout, `${producer} ${name}: auto-detected as ${producer}`);
      if (auto.stdout === '') continue; // a refused start writes nothing to convert
      const checked = await runIn(check, ['-'], auto.stdout);
      t.match(checked.stderr, / 0 errors/, `${producer} ${name}: wuu-check finds no error`);
      files++;
    }
  }
  t.ok(files >= 30, `${files} captures converted`);
});
