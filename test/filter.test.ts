import t from 'tap';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFilter, filter, typeMatcher, unknownSelectors, isInputArgument, splitPositionals, suggestSelector } from '../lib/filter/index.js';
import { parsePath } from '../lib/jsonpath.js';
import { editDistance, nearest } from '../lib/suggest.js';
import { parse, stringify } from '../lib/jsonl.js';
import { LineRecord, type Output } from '../lib/jsonl.js';
import { binPath, chunked, example, liveProcess, pipeThrough, readExample, runBin, runShell, jsonl } from './helpers.js';

const RUN = readExample('run.jsonl');
const RUN_LINES = RUN.split('\n').filter(Boolean);

t.test('typeMatcher: selectors, globs and families', async (t) => {
  const table: Array<[string[], string, boolean]> = [
    [[], 'anything', true],
    [['tool_started'], 'tool_started', true],
    [['tool_started'], 'tool_completed', false],
    [['tool_*'], 'tool_output_delta', true],
    [['tool_*'], 'command_started', false],
    [['tool'], 'command_output_delta', true],
    [['tool'], 'tool_removed', true],
    [['command'], 'tool_started', false],
    [['message'], 'agent_message_final', true],
    [['usage'], 'turn_completed', true],
    [['usage'], 'turn_started', false],
    [['turn'], 'turn_interrupted', true],
    [['subagent'], 'subagent_updated', true],
    [['file'], 'file_changed', true],
    [['todo'], 'todo_updated', true],
    [['diag'], 'request_context', true],
    [['session'], 'thread_forked', true],
    [['error'], 'error', true],
    [['result'], 'result', true],
    [['*_delta'], 'agent_message_delta', true],
    [['turn_?tarted'], 'turn_started', true],
    [['tool.started'], 'toolxstarted', false],
    [['constructor'], 'constructor', true],
    [['__proto__'], 'toString', false],
  ];
  for (const [selectors, type, expected] of table) {
    t.equal(typeMatcher(selectors)(type), expected, `${JSON.stringify(selectors)} vs ${type}`);
  }
});

t.test('unknownSelectors flags typos, not types, families or globs', async (t) => {
  t.same(unknownSelectors(['tool', 'tools', 'tool_*', 'result', 'turn_started', 'nope']), ['tools', 'nope']);
});

t.test('isInputArgument tells files from selectors', async (t) => {
  t.same(['-', 'run.jsonl', './tool', 'logs/', 'tool', 'tool_*'].map(isInputArgument), [true, true, true, true, false, false]);
});

/** Runs the core over the example and returns the kept lines. */
function keep(options: Parameters<typeof createFilter>[0]): string[] {
  const core = createFilter(options);
  const out: Output[] = [];
  RUN_LINES.forEach((line, i) => core.push(new LineRecord(Buffer.from(line), 'run.jsonl', i + 1), (o) => out.push(o)));
  core.end?.((o) => out.push(o));
  return out.map((o) => (typeof o === 'string' ? o : (o.raw as Buffer).toString()));
}

// The example run (examples/run.jsonl, 56 events): root thread 7f3a with two turns
// (bash item-3, read_file item-5, edit_file item-7, bash item-9 in turn 1; bash item-3
// in turn 2), and a sub-agent whose child thread leaks 6 events into the stream.
const ROOT = '20261202-231501-7f3a';
const TURN1 = `${ROOT}-turn-0001`;
const TURN2 = `${ROOT}-turn-0002`;
const CHILD = 'agent-7e21';

t.test('createFilter on the example run', async (t) => {
  t.equal(keep({}).length, 56, 'no condition keeps everything');
  // 6 each of tool_started/_output_delta/_completed, 3 each of their command_* twins.
  t.equal(keep({ selectors: ['tool'] }).length, 27);
  t.equal(keep({ selectors: ['tool'], invert: true }).length, 29);
  t.equal(keep({ selectors: ['tool'], keepResult: true }).length, 28);
  // turn 2: turn_started, provider_state, 3 deltas, item-3 (3 tool_* + 3 command_*), usage, turn_completed, result
  t.equal(keep({ turns: [TURN2] }).length, 14);
  t.equal(keep({ turns: [TURN2], selectors: ['command'] }).length, 3);
  // item-3 of turn 1 has 6 events (bash and its twins), item-7 has 4 (edit_file and its file_changed)
  t.equal(keep({ items: [`${TURN1}-item-3`, `${TURN1}-item-7`] }).length, 10);
  t.equal(keep({ agents: [CHILD] }).length, 2, 'agent_id is on subagent_* only');
  t.equal(keep({ threads: [CHILD] }).length, 6, 'the child thread: 2 usage, 3 tool, 1 turn_completed');
  t.equal(keep({ threads: ['th_other'] }).length, 0);
  t.equal(keep({ runs: [`run-${ROOT}`] }).length, 1);
  t.equal(keep({ where: ['$.name==bash'], selectors: ['tool_started'] }).length, 3);
  t.equal(keep({ where: ['$.todo.todos[*].status==completed'] }).length, 1);
  t.equal(keep({ where: ['$.result_path'] }).length, 2, 'existence: an empty string is selected too');
  t.equal(keep({ where: ['$.awaiting_auto_continuation==true'] }).length, 1, 'non-string values compare as JSON text');
  t.same(keep({ count: true, selectors: ['turn'] }), ['turn_started\t2\n', 'turn_completed\t3\n', 'total\t5\n']);
  t.throws(() => createFilter({ where: ['$[?(@.x)]'] }), /disabled/);
  t.throws(() => createFilter({ where: ['name'] }), /must start with/);
});

t.test('--where: operators, JSON values, bare words, regex, arguments', async (t) => {
  // usage_updated input_tokens: 1800, 300 (child), 420 (child), 3900, 800.
  // tool_started: bash x3 (npm test 2>&1 ..., npm run build, npm test), read_file, edit_file, grep (child).
  const table: Array<[string[], string[] | undefined, number]> = [
    [['$.name=="bash"'], ['tool_started'], 3],
    [['$.name==bash'], ['tool_started'], 3],
    [['$.name!=bash'], ['tool_started'], 3],
    [['$.name!="bash"'], ['tool_started'], 3],
    [['$.input_tokens>=800'], ['usage_updated'], 3],
    [['$.input_tokens>800'], ['usage_updated'], 2],
    [['$.input_tokens<800'], ['usage_updated'], 2],
    [['$.input_tokens<=800'], ['usage_updated'], 3],
    [['$.input_tokens=="800"'], ['usage_updated'], 0],
    [['$.input_tokens==800'], ['usage_updated'], 1],
    [['$.name~=^(bash|edit_file)$'], ['tool_started'], 4],
    [['$.name~=^read'], ['tool_started'], 1],
    [['$.arguments.command~=^npm run'], ['tool_started'], 1],
    [['$.arguments.command~=^npm'], ['tool_started'], 3],
    [['$.arguments.command'], ['tool_started'], 3],
    [['$.arguments.path~=cart'], ['tool_started'], 2],
    [['$.arguments.pattern==total('], ['tool_started'], 1],
    [['$.arguments~=cart'], ['tool_started'], 2],
    [['$.arguments~=background'], ['tool_started'], 1],
    [['$.arguments.run_in_background==true'], ['tool_started'], 1],
    [['$.todo==null'], undefined, 0],
    [['$.permissions.mode==standard'], undefined, 1],
    [['$.permissions=={"mode":"standard"}'], undefined, 1],
    [['$.permissions=={"mode":"auto"}'], undefined, 0],
    [['$.todo.todos[0]=={"status":"completed","content":"Run the test suite"}'], undefined, 1],
    [['$..status==completed'], ['tool_completed'], 6],
    // 6 tool_completed, 3 command_completed, the second todo_updated, subagent_completed, result
    [['$..status==completed'], undefined, 12],
    [['$.name==bash', '$.arguments.command~=test'], ['tool_started'], 2],
  ];
  for (const [where, selectors, expected] of table) t.equal(keep({ where, selectors }).length, expected, where.join(' '));
  const missing = keep({ where: ['$.missing!=x'], selectors: ['result'] });
  t.equal(missing.length, 1, '!= holds when nothing equals, nothing selected included');
});

t.test('--where on a partial or invalid arguments string: no crash, left a string', async (t) => {
  const core = createFilter({ where: ['$.arguments.path'] });
  const out: Output[] = [];
  for (const args of ['{"path":"partial', '', '{"path":"ok"}', '"just a string"']) {
    const line = JSON.stringify({ arguments: args, type: 'tool_started' });
    core.push(new LineRecord(Buffer.from(line), '-', 1), (o) => out.push(o));
  }
  t.equal(out.length, 1);
});

t.test('--where: malformed paths and expressions are refused up front', async (t) => {
  const bad: Array<[string, RegExp]> = [
    ['$.[', /a name or '\*' expected after '\.' at position 2/],
    ['$[', /expected in '\[ \]' at position 2/],
    ['$..', /expected after '\.\.'/],
    ['$.a[1', /'\]' expected/],
    ['$.a b', /unexpected ' '/],
    ['$..*..*..*', /at most one recursive descent/],
    ['$..a..b', /at most one recursive descent/],
    ['$[(@.length-1)]', /disabled for safety/],
    ['$[?(@.a)]', /disabled for safety/],
    ['name', /must start with/],
    ['$.a~=(', /bad regular expression/],
    ['$.a~=(?<=x)y', /bad regular expression/],
    ['$.a=<3', /unknown operator/],
    ['$.a<null', /compares numbers or strings/],
    ['$.a>[1]', /compares numbers or strings/],
  ];
  for (const [where, message] of bad) t.throws(() => createFilter({ where: [where] }), message, where);
  const good = ["$['a.b']", '$["x"]', '$.a[0]', '$.a[-1]', '$.a[1:3]', '$.a[::2]', '$.a[*]', '$.a.*', '$..a', '$..*', '$..[0]', "$['a','b']", '$.a[0,1]', '$.é', '$.a-b'];
  for (const path of good) t.doesNotThrow(() => createFilter({ where: [path] }), path);
  t.same(parsePath("$.a['b.c'][0]..d"), ['a', 'b.c', '0', '..', 'd']);
});

t.test('--where with one recursive descent stays linear on a big event', async (t) => {
  // A 300 KB event, 6 levels of 8-way fan-out: a single .. visits each node once.
  const tree = (depth: number): unknown => (depth === 0 ? 'x'.repeat(1) : Object.fromEntries(Array.from({ length: 8 }, (_, k) => [`f${k}`, tree(depth - 1)])));
  const event = { tree: tree(6), type: 'todo_updated', f99: 99 };
  const core = createFilter({ where: ['$..f99==99'] });
  const out: Output[] = [];
  core.push(new LineRecord(Buffer.from(JSON.stringify(event)), '-', 1), (o) => out.push(o));
  t.equal(out.length, 1);
});

t.test('did you mean: selectors and the edit distance', async (t) => {
  t.equal(suggestSelector('tools'), 'tool');
  t.equal(suggestSelector('tool_strated'), 'tool_started');
  t.equal(suggestSelector('mesage'), 'message');
  t.equal(suggestSelector('xyzzy'), undefined);
  t.equal(editDistance('kitten', 'sitting'), 3);
  t.equal(editDistance('ab', 'ba'), 1, 'a swap is one edit');
  t.equal(nearest('FILTR', ['filter', 'turns']), 'filter');
  t.equal(nearest('x'.repeat(100), ['x']), undefined, 'long words are not compared');
});

t.test('positionals: an existing file or directory is an input even without / or .', async (t) => {
  const exists = (name: string) => name === 'runs' || name === 'tool';
  t.same(splitPositionals(['runs', 'tool', 'turn', 'x.jsonl', '-'], exists), {
    selectors: ['turn'],
    inputs: ['runs', 'tool', 'x.jsonl', '-'],
    warnings: ["warning: 'tool' is both a file here and an event selector; reading it as a file"],
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-filter-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, 'logs'));
  fs.copyFileSync(example('run.jsonl'), path.join(dir, 'logs', 'a.jsonl'));
  fs.copyFileSync(example('run.jsonl'), path.join(dir, 'result'));
  const r = await runBin('wuu-filter', ['turn_started', 'logs', 'result'], { cwd: dir });
  t.equal(r.stdout.split('\n').filter(Boolean).length, 4, 'the directory and the file are both read');
  t.equal(r.stderr, "wuu-filter: warning: 'result' is both a file here and an event selector; reading it as a file\n");
  t.equal(r.code, 0);
});

t.test('only valid JSON objects are written, whatever the fast path', async (t) => {
  const bad = ['{"a":NaN,"type":"tool_started"}', '{"type":"x",}', '{"type":"a"}{"type":"b"}', '{"type":5}', '{"type":"tool_started"} x', '{"s":"\\u12","type":"tool_started"}'];
  const good = ['{"type":"tool_started"}', '{"n":1e5,"type":"x"}'];
  const input = [...bad, ...good].join('\n') + '\n';
  for (const args of [[], ['tool_*'], ['tool'], ['-v', 'turn'], ['--count'], ['x', 'tool_started']]) {
    const r = await runBin('wuu-filter', args, { input });
    const written = r.stdout.split('\n').filter(Boolean);
    if (args[0] === '--count') {
      t.equal(r.stdout, 'tool_started\t1\nx\t1\ntotal\t2\n', 'count: only valid events counted');
    } else {
      for (const line of written) t.doesNotThrow(() => JSON.parse(line), `${args.join(' ')}: ${line}`);
      t.ok(written.length >= 1, `${args.join(' ')}: the valid lines pass`);
    }
    t.equal(r.code, 1, `${args.join(' ')}: bad data exits 1`);
    t.match(r.stderr, /<stdin>:1: not valid JSON/, `${args.join(' ')}: NaN reported`);
  }
  const pass = await runBin('wuu-filter', ['--pass-invalid'], { input });
  t.equal(pass.stdout, input, '--pass-invalid hands them on, as promised');
  t.equal(pass.code, 0);
});

t.test('type-only filters never parse a line', async (t) => {
  const core = createFilter({ selectors: ['tool'] });
  t.equal(core.needsParse?.('tool_started'), false);
  const withIds = createFilter({ selectors: ['tool'], turns: ['tu_01'] });
  t.equal(withIds.needsParse?.('tool_started'), true);
  t.equal(withIds.needsParse?.('turn_started'), false, 'a type that cannot match needs no parse');
});

t.test('stream API: parse | filter | stringify, fed in odd chunk sizes', async (t) => {
  const expected = RUN_LINES.filter((l) => /"type":"(tool|command)_/.test(l)).join('\n') + '\n';
  for (const size of [1, 7, 64, 4096]) {
    const out = await pipeThrough<Buffer>(chunked(RUN, size), parse({ file: 'run.jsonl' }), filter({ selectors: ['tool'] }), stringify());
    t.equal(Buffer.concat(out).toString(), expected, `chunks of ${size}`);
  }
});

t.test('stream API accepts plain event objects', async (t) => {
  const out = await pipeThrough<Buffer>(
    [{ type: 'result', status: 'completed' }, { type: 'turn_started' }],
    filter({ selectors: ['result'] }),
    stringify(),
  );
  t.equal(Buffer.concat(out).toString(), '{"type":"result","status":"completed"}\n');
});

t.test('parse stream reports bad lines as invalid events, strict fails', async (t) => {
  const bad: string[] = [];
  const p = parse({ file: 'x.jsonl' });
  p.on('invalid', (err: Error & { line: number }) => bad.push(`${err.line}: ${err.message}`));
  const out = await pipeThrough([Buffer.from('{"type":"a"}\nnope\n\n[1]\n{"x":1}\n{"type":"b"}\n')], p);
  t.equal(out.length, 2);
  t.same(bad, ['2: not valid JSON (Unexpected token \'o\', "nope" is not valid JSON)', '3: blank line', '4: not a JSON object (an array)', '5: no "type" field']);
  await t.rejects(pipeThrough([Buffer.from('{"type":"a"}\nnope\n')], parse({ strict: true })), /not valid JSON/);
});

t.test('binary: selectors, exact output, exit codes', async (t) => {
  const r = await runBin('wuu-filter', ['result', example('run.jsonl')]);
  t.same(r, { stdout: RUN_LINES[RUN_LINES.length - 1] + '\n', stderr: '', code: 0, signal: null });
  t.match(RUN_LINES[RUN_LINES.length - 1], /"type":"result"/, 'the example ends with its result');

  const stdin = await runBin('wuu-filter', ['turn_started'], { input: RUN });
  t.equal(stdin.stdout, RUN_LINES.filter((l) => l.includes('"type":"turn_started"')).join('\n') + '\n');

  const identity = await runBin('wuu-filter', [], { input: RUN });
  t.equal(identity.stdout, RUN, 'no selector: byte-for-byte identity');

  const count = await runBin('wuu-filter', ['--count', 'turn', example('run.jsonl')]);
  t.equal(count.stdout, 'turn_started\t2\nturn_completed\t3\ntotal\t5\n', 'the child thread\'s turn_completed counts too');

  const typo = await runBin('wuu-filter', ['tools', example('run.jsonl')]);
  t.same([typo.stdout, typo.stderr, typo.code], ['', "wuu-filter: warning: 'tools' is not a known event type or family; did you mean 'tool'? (it matches only that exact type)\n", 0]);
});

t.test('binary: usage errors exit 2 with a pointer to --help', async (t) => {
  const cases: Array<[string[], string]> = [
    [['--bogus'], 'unknown option --bogus'],
    [['-x'], 'unknown option -x'],
    [['--thread'], 'option --thread needs a value'],
    [['--where', '$[?(@.a)]'], "JSONPath '$[?(@.a)]': filter and script expressions are disabled for safety"],
    [['--strict', '--pass-invalid'], '--strict and --pass-invalid exclude each other'],
    [['--max-line-bytes', 'lots'], "--max-line-bytes takes a whole number (K, M, G suffixes allowed), not 'lots'"],
  ];
  for (const [args, message] of cases) {
    const r = await runBin('wuu-filter', args);
    t.same(r, { stdout: '', stderr: `wuu-filter: ${message}\nTry 'wuu-filter --help' for more information.\n`, code: 2, signal: null }, args.join(' '));
  }
});

t.test('binary: --help and --version', async (t) => {
  const help = await runBin('wuu-filter', ['--help']);
  t.equal(help.code, 0);
  t.match(help.stdout, /^Usage: wuu-filter/);
  t.match(help.stdout, /--pass-invalid/);
  t.match(help.stdout, /--keep-result/);
  const version = await runBin('wuu-filter', ['--version']);
  t.match(version.stdout, /^wuu-filter \d+\.\d+\.\d+\n$/);
});

t.test('binary: bad-line policy', async (t) => {
  const input = '{"type":"a"}\nnot json\n{"type":"b"}\n\n{"type":"c"}\n{"type":"d"';
  const skip = await runBin('wuu-filter', [], { input });
  t.same(skip, {
    stdout: '{"type":"a"}\n{"type":"b"}\n{"type":"c"}\n',
    stderr:
      'wuu-filter: <stdin>:2: not valid JSON (Unexpected token \'o\', "not json" is not valid JSON)\n' +
      'wuu-filter: <stdin>:4: blank line\n' +
      'wuu-filter: <stdin>:6: last line cut off (no newline at end of input): not valid JSON (Expected \',\' or \'}\' after property value in JSON at position 11)\n',
    code: 1,
    signal: null,
  });
  const strict = await runBin('wuu-filter', ['--strict'], { input });
  t.same([strict.stdout, strict.code], ['{"type":"a"}\n', 1]);
  t.equal(strict.stderr.split('\n').length, 2, 'stops at the first bad line');
  const pass = await runBin('wuu-filter', ['--pass-invalid'], { input });
  t.same([pass.stdout, pass.code], [input, 0], 'byte-exact: the cut last line comes out as it came');
  t.equal(pass.stderr.split('\n').length, 4, 'still reported');
});

t.test('binary: a valid last line without newline is accepted', async (t) => {
  const r = await runBin('wuu-filter', [], { input: '{"type":"a"}\n{"type":"b"}' });
  t.same([r.stdout, r.stderr, r.code], ['{"type":"a"}\n{"type":"b"}\n', '', 0]);
});

t.test('binary: killed producer example', async (t) => {
  const r = await runBin('wuu-filter', ['--count', example('killed.jsonl')]);
  t.equal(r.code, 1);
  t.match(r.stderr, /^wuu-filter: .*killed\.jsonl:25: last line cut off \(no newline at end of input\): not valid JSON/);
  t.match(r.stdout, /total\t24\n$/);
});

t.test('binary: several files in order, missing file reported, others processed', async (t) => {
  const r = await runBin('wuu-filter', ['result', example('run.jsonl'), 'missing.jsonl', example('failed.jsonl')]);
  t.equal(r.code, 2);
  t.equal(r.stderr, 'wuu-filter: missing.jsonl: No such file or directory\n');
  t.same(jsonl(r.stdout).map((e) => e.status), ['completed', 'failed']);
});

t.test('binary: oversize line is reported and dropped, memory bounded', async (t) => {
  const big = `{"delta":"${'x'.repeat(5000)}","type":"agent_message_delta"}`;
  const r = await runBin('wuu-filter', ['--max-line-bytes', '1K'], { input: `{"type":"a"}\n${big}\n{"type":"b"}\n` });
  t.same([r.stdout, r.code], ['{"type":"a"}\n{"type":"b"}\n', 1]);
  t.equal(r.stderr, `wuu-filter: <stdin>:2: line of ${big.length} bytes exceeds --max-line-bytes 1024; dropped\n`);
});

t.test('binary: | head -1 exits 0 and says nothing', async (t) => {
  const line = RUN_LINES[6]!;
  // yes and head die of SIGPIPE upstream; what matters is wuu-filter's own status.
  const r = await runShell('yes "$LINE" | head -n 200000 | wuu-filter agent_message_delta | head -1; echo "wuu-filter=${PIPESTATUS[2]}"', {
    env: { LINE: line },
  });
  t.same([r.stdout, r.stderr, r.code], [`${line}\nwuu-filter=0\n`, '', 0]);
});

t.test('binary: live pipe delivers each event before the next is written', async (t) => {
  const live = liveProcess('wuu-filter', ['turn']);
  for (let i = 0; i < 5; i++) {
    const line = `{"thread_id":"th","turn_id":"tu_${i}","type":"turn_started"}`;
    live.write(`{"delta":"noise","type":"agent_message_delta"}\n${line}\n`);
    t.equal(await live.nextLine(), line, `event ${i} arrives before the next is written`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.equal(await live.end(), 0);
  t.equal(live.lines.length, 5);
});

t.test('binary: CRLF, BOM and invalid UTF-8 pass through byte for byte', async (t) => {
  const input = Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from('{"type":"a"}\r\n{"delta":"'),
    Buffer.from([0xff, 0xfe]),
    Buffer.from('","type":"agent_message_delta"}\n'),
  ]);
  const r = await new Promise<Buffer>((resolve) => {
    const child = spawn(process.execPath, [binPath('wuu-filter'), 'a', 'message']);
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.on('close', () => resolve(Buffer.concat(out)));
    child.stdin.end(input);
  });
  t.same(r, input.subarray(3), 'everything but the BOM is kept');
});

t.test('the runner fast path: lines of unwanted types are dropped from their bytes, the rest as before', async (t) => {
  const lines = [
    '{"a":1,"type":"tool_started"}',
    '{"delta":"x","type":"agent_message_delta"}',
    'garbage,"type":"agent_message_delta"}', // sniffable tail, not an object: still reported
    '{"type":"agent_message_delta","z":1}', // type not last: read the general way
    '  {"b":2,"type":"tool_completed"}\r',
    '{"type":"result","status":"completed"}',
    '{"type":"tool_x"', // cut: not valid, reported
    '{"n":1,"type":"t\u00e9l"}', // non-ASCII type: read the general way
    '{"s":"\\u0000","type":"tool_bad"} ', // kept, and validated: a raw NUL escape is fine
    '{"s":"a\u0001b","type":"tool_raw"}', // kept, invalid (raw control byte): reported
  ];
  const input = `${lines.join('\n')}\n`;
  const kept = await runBin('wuu-filter', ['tool_*'], { input });
  t.equal(kept.stdout, `${[lines[0], lines[4], lines[8]].join('\n')}\n`);
  t.match(kept.stderr, /<stdin>:3: not valid JSON/);
  t.match(kept.stderr, /<stdin>:7: not valid JSON/);
  t.match(kept.stderr, /<stdin>:10: not valid JSON/);
  t.equal(kept.code, 1);
  const inverted = await runBin('wuu-filter', ['-v', 'tool_*', '--keep-result'], { input });
  t.equal(inverted.stdout, `${[lines[1], lines[3], lines[5], lines[7]].join('\n')}\n`);
  const counted = await runBin('wuu-filter', ['--count', 'agent_message_delta'], { input });
  t.equal(counted.stdout, 'agent_message_delta\t2\ntotal\t2\n');
  const invertedWhere = await runBin('wuu-filter', ['-v', '--where', '$.a==1', 'tool_started'], { input: `${lines[0]}\n${lines[1]}\n` });
  t.equal(invertedWhere.stdout, `${lines[1]}\n`, 'an inverted content condition keeps any type');
  const strict = await runBin('wuu-filter', ['--strict', 'tool_*'], { input });
  t.equal(strict.code, 1);
  t.match(strict.stderr, /<stdin>:3: not valid JSON/, '--strict reads every line the general way');
});
