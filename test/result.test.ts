import t from 'tap';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createResult, exitCodeForStatus, result, RESULT_EXIT, type ResultOptions } from '../lib/result/index.js';
import { parse } from '../lib/jsonl.js';
import { LineRecord, type Output } from '../lib/jsonl.js';
import { binPath, chunked, pipeThrough, runBin, runShell, untracked } from './helpers.js';
import { ROOT } from './helpers.js';

/** The 0.1.0 examples these tables were written against (examples/ now holds producer-faithful runs, tested in test/producer/). */
const legacy = (name: string) => path.join(ROOT, 'test', 'fixtures', 'v0.1', name);

const NO_RESULT = 'no result event: the producer was killed or the stream was cut';

/** The examples' last lines, as read with jq by hand: final_message, status, error, structured_result. */
const FINAL = {
  'run.jsonl': 'All 42 tests pass now.',
  'failed.jsonl': 'Deploying with the key from .env',
  'structured.jsonl': '{"files":3,"ok":true}',
  'timeout.jsonl': 'Refactoring the checkout',
};
const lastLine = (name: string) => fs.readFileSync(legacy(name), 'utf8').trimEnd().split('\n').pop()!;

t.test('exit codes: a table, distinct and clear of the shared ones', async (t) => {
  const table: Array<[unknown, number]> = [
    ['completed', 0],
    ['failed', 3],
    ['permission_denied', 4],
    ['timeout', 5],
    ['interrupted', 6],
    ['cancelled', 8],
    ['', 8],
    [undefined, 8],
    [0, 8],
    ['__proto__', 8],
    ['constructor', 8],
  ];
  for (const [status, code] of table) t.equal(exitCodeForStatus(status), code, String(status));
  const codes: number[] = Object.values(RESULT_EXIT);
  t.equal(new Set(codes).size, codes.length, 'distinct');
  t.same(codes.filter((c) => c === 1 || c === 2), [], 'never 1 (bad data) or 2 (usage)');
  t.same(RESULT_EXIT, { COMPLETED: 0, FAILED: 3, PERMISSION_DENIED: 4, TIMEOUT: 5, INTERRUPTED: 6, NO_RESULT: 7, UNKNOWN_STATUS: 8, NO_STRUCTURED: 9 });
});

interface CoreRun {
  out: string[];
  warnings: string[];
  written: string[];
  status: number;
}

/** Runs the core over files (each its own input) as the runner does. */
function runCore(files: Array<[string, string]>, options: ResultOptions = {}, withWrite = false): CoreRun {
  const warnings: string[] = [];
  const written: string[] = [];
  const core = createResult({ ...options, warn: (m) => warnings.push(m), write: withWrite ? (d) => written.push(String(d)) : undefined });
  const out: string[] = [];
  const emit = (o: Output) => out.push(typeof o === 'string' ? o : `RAW ${(o.raw as Buffer).toString()}`);
  for (const [file, text] of files) {
    text
      .split('\n')
      .filter(Boolean)
      .forEach((line, i) => core.push(new LineRecord(Buffer.from(line), file, i + 1), emit));
    core.endFile?.(file, emit);
  }
  core.end?.(emit);
  return { out, warnings, written, status: core.status?.() ?? 0 };
}

const ev = (fields: Record<string, unknown>) => JSON.stringify(fields);

t.test('core: the examples, message mode', async (t) => {
  t.same(runCore([['r', fs.readFileSync(legacy('run.jsonl'), 'utf8')]]), { out: [`${FINAL['run.jsonl']}\n`], warnings: [], written: [], status: 0 });
  t.same(runCore([['f', fs.readFileSync(legacy('failed.jsonl'), 'utf8')]]), {
    out: [`${FINAL['failed.jsonl']}\n`],
    warnings: ['f: status failed: turn failed: tool failed: exit status 6'],
    written: [],
    status: 3,
  });
  t.same(runCore([['s', fs.readFileSync(legacy('structured.jsonl'), 'utf8')]]), {
    out: [`${FINAL['structured.jsonl']}\n`],
    warnings: ['s:9: error event: output schema: property "ok" expected boolean'],
    written: [],
    status: 0,
  });
  t.same(runCore([['t', fs.readFileSync(legacy('timeout.jsonl'), 'utf8')]]), {
    out: [`${FINAL['timeout.jsonl']}\n`],
    warnings: ['t: status timeout: timeout after 600s'],
    written: [],
    status: 5,
  });
  // The core sees only whole events; the cut line is the runner's business.
  const whole = fs.readFileSync(legacy('killed.jsonl'), 'utf8').split('\n').slice(0, 21).join('\n');
  t.same(runCore([['k', whole]]), { out: [], warnings: [`k: ${NO_RESULT}`], written: [], status: 7 });
});

t.test('core: statuses, a table', async (t) => {
  const table: Array<[Record<string, unknown>, string[], number]> = [
    [{ status: 'permission_denied', error: 'write denied' }, ['x: status permission_denied: write denied'], 4],
    [{ status: 'interrupted', error: '' }, ['x: status interrupted'], 6],
    [{ status: 'interrupted' }, ['x: status interrupted'], 6],
    [{ status: 'paused', error: 'e' }, ["x: unknown status 'paused': e"], 8],
    [{}, ['x: unknown status (none)'], 8],
    [{ status: 3 }, ['x: unknown status 3'], 8],
  ];
  for (const [fields, warnings, status] of table) {
    const r = runCore([['x', ev({ final_message: 'm', type: 'result', ...fields })]]);
    t.same([r.out, r.warnings, r.status], [['m\n'], warnings, status], JSON.stringify(fields));
  }
  const noMessage = runCore([['x', ev({ type: 'result', status: 'completed' })]]);
  t.same(noMessage.out, ['\n'], 'a missing final_message prints an empty line');
});

t.test('core: a failed write of the output makes the status 1, whatever the result said', async (t) => {
  for (const [name, status] of [['failed.jsonl', 3], ['run.jsonl', 0]] as const) {
    const text = fs.readFileSync(legacy(name), 'utf8');
    t.equal(runCore([['f', text]], { writeFailed: () => false }, true).status, status, `${name}: the write went through`);
    t.equal(runCore([['f', text]], { writeFailed: () => true }, true).status, 1, `${name}: the write failed`);
  }
});

t.test('core: --structured and --json', async (t) => {
  t.same(runCore([['s', fs.readFileSync(legacy('structured.jsonl'), 'utf8')]], { mode: 'structured' }).out, ['{"files":3,"ok":true}\n']);
  const none = runCore([['r', fs.readFileSync(legacy('run.jsonl'), 'utf8')]], { mode: 'structured' });
  t.same([none.out, none.warnings, none.status], [[], ['r: the result has no structured_result (was the run started with --output-schema?)'], 9]);
  const failed = runCore([['f', fs.readFileSync(legacy('failed.jsonl'), 'utf8')]], { mode: 'structured' });
  t.same([failed.out, failed.warnings, failed.status], [[], ['f: status failed: turn failed: tool failed: exit status 6'], 3], 'the run status wins');
  const nullResult = runCore([['n', ev({ type: 'result', status: 'completed', structured_result: null })]], { mode: 'structured' });
  t.same([nullResult.out, nullResult.status], [['null\n'], 0], 'a null structured_result is present');
  const json = runCore([['t', fs.readFileSync(legacy('timeout.jsonl'), 'utf8')]], { mode: 'json' }, true);
  t.same([json.out, json.written, json.status], [[], [`${lastLine('timeout.jsonl')}\n`], 5]);
});

t.test('core: several files, first run that did not complete decides', async (t) => {
  const r = runCore([
    ['a', fs.readFileSync(legacy('run.jsonl'), 'utf8')],
    ['b', fs.readFileSync(legacy('timeout.jsonl'), 'utf8')],
    ['c', fs.readFileSync(legacy('failed.jsonl'), 'utf8')],
  ]);
  t.same(r.out, [`${FINAL['run.jsonl']}\n`, `${FINAL['timeout.jsonl']}\n`, `${FINAL['failed.jsonl']}\n`]);
  t.same(r.warnings, ['b: status timeout: timeout after 600s', 'c: status failed: turn failed: tool failed: exit status 6']);
  t.equal(r.status, 5);
  const lastWins = runCore([['x', ev({ type: 'result', status: 'failed', final_message: 'one' }) + '\n' + ev({ type: 'result', status: 'completed', final_message: 'two' })]]);
  t.same([lastWins.out, lastWins.status], [['two\n'], 0], 'within one file the last result stands');
});

t.test('core: --tee passes every event, writes the message aside, parses only result and error', async (t) => {
  const r = runCore([['r', fs.readFileSync(legacy('run.jsonl'), 'utf8')]], { tee: true }, true);
  t.equal(r.out.length, 51);
  t.same(r.out.slice(0, 2), fs.readFileSync(legacy('run.jsonl'), 'utf8').split('\n').slice(0, 2).map((l) => `RAW ${l}`));
  t.same(r.written, [`${FINAL['run.jsonl']}\n`]);
  const dropped = runCore([['r', fs.readFileSync(legacy('run.jsonl'), 'utf8')]], { tee: true });
  t.same([dropped.out.length, dropped.written], [51, []], 'tee without write: no message anywhere');
  const core = createResult();
  t.same(['result', 'error', 'tool_started', 'agent_message_final'].map((type) => core.needsParse?.(type)), [true, true, false, false]);
});

t.test('core: a file that never ended (closed output) still owes a result', async (t) => {
  const warnings: string[] = [];
  const core = createResult({ warn: (m) => warnings.push(m) });
  core.push(new LineRecord(Buffer.from(lastLine('run.jsonl').replace('"result"', '"turn_started"')), 'cut', 1), () => {});
  core.end?.(() => {});
  t.same([warnings, core.status?.()], [[`cut: ${NO_RESULT}`], 7]);
});

t.test('stream API: parse | result in 1- and 7-byte chunks', async (t) => {
  for (const [name, message] of Object.entries(FINAL)) {
    for (const size of [1, 7]) {
      const out = await pipeThrough<string>(chunked(fs.readFileSync(legacy(name), 'utf8'), size), parse({ file: name }), result());
      t.same(out, [`${message}\n`], `${name}, chunks of ${size}`);
    }
  }
  const teed = await pipeThrough<{ raw: Buffer }>(chunked(fs.readFileSync(legacy('failed.jsonl'), 'utf8'), 7), parse(), result({ tee: true }));
  t.equal(teed.map((r) => `${r.raw.toString()}\n`).join(''), fs.readFileSync(legacy('failed.jsonl'), 'utf8'));
  const killed = await pipeThrough<string>(chunked(fs.readFileSync(legacy('killed.jsonl'), 'utf8'), 1), parse(), result());
  t.same(killed, []);
});

const STDERR = {
  'run.jsonl': '',
  'failed.jsonl': 'wuu-result: test/fixtures/v0.1/failed.jsonl: status failed: turn failed: tool failed: exit status 6\n',
  'structured.jsonl': 'wuu-result: test/fixtures/v0.1/structured.jsonl:9: error event: output schema: property "ok" expected boolean\n',
  'timeout.jsonl': 'wuu-result: test/fixtures/v0.1/timeout.jsonl: status timeout: timeout after 600s\n',
};
const CODE = { 'run.jsonl': 0, 'failed.jsonl': 3, 'structured.jsonl': 0, 'timeout.jsonl': 5 };
const KILLED_STDERR =
  'wuu-result: test/fixtures/v0.1/killed.jsonl:22: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57)\n' +
  `wuu-result: test/fixtures/v0.1/killed.jsonl: ${NO_RESULT}\n`;

t.test('binary: every example, exact stdout, stderr and exit status', async (t) => {
  for (const name of Object.keys(FINAL) as Array<keyof typeof FINAL>) {
    const r = await runBin('wuu-result', [`test/fixtures/v0.1/${name}`]);
    t.same(r, { stdout: `${FINAL[name]}\n`, stderr: STDERR[name], code: CODE[name], signal: null }, name);
    const json = await runBin('wuu-result', ['--json', `test/fixtures/v0.1/${name}`]);
    t.same(json, { stdout: `${lastLine(name)}\n`, stderr: STDERR[name], code: CODE[name], signal: null }, `--json ${name}`);
  }
  const killed = await runBin('wuu-result', ['test/fixtures/v0.1/killed.jsonl']);
  t.same(killed, { stdout: '', stderr: KILLED_STDERR, code: 7, signal: null });
  const structured = await runBin('wuu-result', ['--structured', 'test/fixtures/v0.1/structured.jsonl']);
  t.same(structured, { stdout: '{"files":3,"ok":true}\n', stderr: STDERR['structured.jsonl'], code: 0, signal: null });
  const noStructured = await runBin('wuu-result', ['--structured', 'test/fixtures/v0.1/run.jsonl']);
  t.same(noStructured, {
    stdout: '',
    stderr: 'wuu-result: test/fixtures/v0.1/run.jsonl: the result has no structured_result (was the run started with --output-schema?)\n',
    code: 9,
    signal: null,
  });
  const stdin = await runBin('wuu-result', [], { input: fs.readFileSync(legacy('failed.jsonl'), 'utf8') });
  t.same(stdin, { stdout: `${FINAL['failed.jsonl']}\n`, stderr: 'wuu-result: <stdin>: status failed: turn failed: tool failed: exit status 6\n', code: 3, signal: null });
  const cutFirst = await runBin('wuu-result', [], { input: '{"thread_id":"t","type":"thread_sta' });
  t.same(
    [cutFirst.stderr.split('\n').at(-2), cutFirst.code],
    ['wuu-result: <stdin>: no result event: the producer was killed or the stream was cut', 7],
    'a stream cut inside its first line is a killed producer, not an empty input',
  );
  const empty = await runBin('wuu-result', []);
  t.same(empty, { stdout: '', stderr: 'wuu-result: <stdin>: no events (empty input): no result\n', code: 7, signal: null }, 'nothing to read is not success');
  const hostile = await runBin('wuu-result', [], {
    input: '{"error":"\\u001b]0;pwned\\u0007 \\u202e","final_message":"","run_id":"","status":"failed\\u001b[2J","thread_id":"","trace_path":"","turn_id":"","type":"result"}\n',
  });
  t.same([hostile.stderr, hostile.code], ["wuu-result: <stdin>: unknown status 'failed\\e[2J': \\e]0;pwned\\x07 \\u202e\n", 8], 'status and error are escaped');
});

t.test('binary: several files; bad data in a completed run', async (t) => {
  const r = await runBin('wuu-result', ['test/fixtures/v0.1/run.jsonl', 'test/fixtures/v0.1/killed.jsonl', 'test/fixtures/v0.1/failed.jsonl']);
  t.same(r, {
    stdout: `${FINAL['run.jsonl']}\n${FINAL['failed.jsonl']}\n`,
    stderr: KILLED_STDERR + STDERR['failed.jsonl'],
    code: 7,
    signal: null,
  });
  const garbage = await runBin('wuu-result', [], { input: `not json\n${lastLine('run.jsonl')}\n` });
  t.same(garbage, {
    stdout: `${FINAL['run.jsonl']}\n`,
    stderr: 'wuu-result: <stdin>:1: not valid JSON (Unexpected token \'o\', "not json" is not valid JSON)\n',
    code: 1,
    signal: null,
  });
});

t.test('binary: --tee and --output', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-result-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'message.txt');
  fs.writeFileSync(file, 'stale text from an earlier run that is longer\n');
  const tee = await runBin('wuu-result', ['--tee', '--output', file], { input: fs.readFileSync(legacy('timeout.jsonl'), 'utf8') });
  t.same(tee, { stdout: fs.readFileSync(legacy('timeout.jsonl'), 'utf8'), stderr: 'wuu-result: <stdin>: status timeout: timeout after 600s\n', code: 5, signal: null });
  t.equal(fs.readFileSync(file, 'utf8'), `${FINAL['timeout.jsonl']}\n`, 'the file is truncated first');

  const teeKilled = await runBin('wuu-result', ['--tee', '-o', file, '--pass-invalid', 'test/fixtures/v0.1/killed.jsonl']);
  t.equal(teeKilled.stdout, fs.readFileSync(legacy('killed.jsonl'), 'utf8'), '--pass-invalid keeps the cut line in the copy, byte for byte');
  t.equal(teeKilled.code, 7);
  t.equal(fs.readFileSync(file, 'utf8'), '', 'no result: empty file');

  const out = await runBin('wuu-result', ['-o', file, '--structured', 'test/fixtures/v0.1/structured.jsonl']);
  t.same([out.stdout, out.code], ['', 0]);
  t.equal(fs.readFileSync(file, 'utf8'), '{"files":3,"ok":true}\n');

  if (fs.existsSync('/dev/full')) {
    // A full disk is a write error (exit 1), reported once, whatever the run's own status.
    const full = await runBin('wuu-result', ['-o', '/dev/full', 'test/fixtures/v0.1/run.jsonl']);
    t.same(full, { stdout: '', stderr: 'wuu-result: write error: /dev/full: No space left on device\n', code: 1, signal: null }, '-o /dev/full');
    const fullTee = await runBin('wuu-result', ['--tee', '-o', '/dev/full', 'test/fixtures/v0.1/timeout.jsonl']);
    t.same([fullTee.stdout, fullTee.code], [fs.readFileSync(legacy('timeout.jsonl'), 'utf8'), 1], '--tee -o /dev/full still copies the stream, then exits 1');
    t.equal(fullTee.stderr.split('\n').filter((l) => l.includes('write error')).length, 1, 'the write error is told once');
  }

  const cases: Array<[string[], string]> = [
    [['--tee'], '--tee needs --output FILE for the message (stdout carries the stream)'],
    [['--json', '--structured'], '--structured and --json exclude each other'],
    [['-o', path.join(dir, 'no', 'such', 'dir')], `cannot write ${path.join(dir, 'no', 'such', 'dir')}: ENOENT: no such file or directory, open '${path.join(dir, 'no', 'such', 'dir')}'`],
    [['--output'], 'option --output needs a value'],
  ];
  for (const [args, message] of cases) {
    const r = await runBin('wuu-result', args);
    t.same(r, { stdout: '', stderr: `wuu-result: ${message}\nTry 'wuu-result --help' for more information.\n`, code: 2, signal: null }, args.join(' '));
  }
  const help = await runBin('wuu-result', ['--help']);
  t.match(help.stdout, /0 completed {3}3 failed {3}4 permission_denied {3}5 timeout {3}6 interrupted\n {2}7 no result event/);
});

t.test('shell: the CI step that fails the build', async (t) => {
  const script = (name: string) =>
    `tmp=$(mktemp) && cat test/fixtures/v0.1/${name} | tee "$tmp" | wuu-result; status=$?; echo "status=$status"; cmp -s "$tmp" test/fixtures/v0.1/${name} && echo saved; rm -f "$tmp"; exit $status`;
  // What the shell sees of a real process (exit status, pipes); the tools' code is covered in
  // process above, so they run without tap's tracker, all at once.
  const env = untracked();
  const cases = [
    ['run.jsonl', 0],
    ['failed.jsonl', 3],
    ['timeout.jsonl', 5],
    ['killed.jsonl', 7],
  ] as const;
  const ran = await Promise.all(cases.map(([name]) => runShell(script(name), { env })));
  for (const [i, [name, code]] of cases.entries()) {
    const r = ran[i];
    t.equal(r?.code, code, name);
    t.equal(r?.stdout, `${name === 'killed.jsonl' ? '' : `${FINAL[name]}\n`}status=${code}\nsaved\n`, name);
  }
  const gate = await runShell('if cat test/fixtures/v0.1/failed.jsonl | wuu-result >/dev/null 2>&1; then echo pass; else echo "fail $?"; fi', { env });
  t.same([gate.stdout, gate.code], ['fail 3\n', 0]);
  const chain = await runShell('tmp=$(mktemp) && wuu-result --tee -o "$tmp" test/fixtures/v0.1/run.jsonl | wuu-filter --count turn && cat "$tmp"; rm -f "$tmp"', { env });
  t.same([chain.stdout, chain.stderr, chain.code], [`turn_started\t2\nturn_completed\t2\ntotal\t4\n${FINAL['run.jsonl']}\n`, '', 0]);
});

t.test('binary: --tee is live, each event goes out before the next is written', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-result-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const child = spawn(process.execPath, [binPath('wuu-result'), '--tee', '-o', path.join(dir, 'm')], { stdio: ['pipe', 'pipe', 'pipe'] });
  let buffered = '';
  let waiting: (() => void) | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    waiting?.();
  });
  const lines = fs.readFileSync(legacy('run.jsonl'), 'utf8').split('\n').slice(0, 5);
  for (const [i, line] of lines.entries()) {
    const arrived = new Promise<void>((resolve) => (waiting = () => buffered.includes(`${line}\n`) && resolve()));
    child.stdin.write(`${line}\n`);
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('TIMEOUT'), 30_000));
    t.not(await Promise.race([arrived, timeout]), 'TIMEOUT', `event ${i} arrives before the next is written`);
  }
  child.stdin.end(`${lastLine('run.jsonl')}\n`);
  const code = await new Promise((resolve) => child.on('close', resolve));
  t.equal(code, 0);
  t.equal(buffered, `${lines.join('\n')}\n${lastLine('run.jsonl')}\n`);
  t.equal(fs.readFileSync(path.join(dir, 'm'), 'utf8'), `${FINAL['run.jsonl']}\n`);
});

