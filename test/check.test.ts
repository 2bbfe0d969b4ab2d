import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { check, createCheck, isRule, jsonType, RULES, SCHEMA, schemaProblems } from '../lib/check/index.js';
import { KNOWN_TYPES } from '../lib/events.js';
import { LineRecord, parse, parseEventBytes, type Output } from '../lib/jsonl.js';
import { spec as checkSpec } from '../bin/wuu-check.js';
import { runIn } from './runner-harness.js';
import { chunked, pipeThrough, readExample, ROOT, runBin, runShell } from './helpers.js';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'check');
const rel = (name: string) => `test/fixtures/check/${name}.jsonl`;

const CUT = 'last line cut off (no newline at end of input)';
const NO_RESULT = 'the stream ended without a result event (the producer was killed or the stream was cut)';

/**
 * Expected problems of every example and fixture, written by hand from how
 * each file was built (see the fixture list in the test below): [line, rule, message].
 */
const EXPECTED: Record<string, Array<[number, string, string]>> = {
  'examples/run.jsonl': [],
  'examples/failed.jsonl': [],
  'examples/structured.jsonl': [],
  'examples/timeout.jsonl': [],
  'examples/killed.jsonl': [
    [25, 'cut-line', `${CUT}: not valid JSON (Unterminated string in JSON at position 120)`],
    [25, 'missing-result', NO_RESULT],
  ],
  'examples/setup-failed.jsonl': [],
  'examples/busy.jsonl': [],
  clean: [],
  'ok-setup-failed': [],
  'bad-line': [[4, 'bad-line', 'not valid JSON (Unexpected token \'o\', "not json" is not valid JSON)']],
  'cut-line': [
    [18, 'cut-line', `${CUT}: not valid JSON (Unterminated string in JSON at position 40)`],
    [18, 'missing-result', NO_RESULT],
  ],
  'unknown-type': [[4, 'unknown-type', 'unknown event type "future_event"']],
  'missing-field': [[4, 'missing-field', 'agent_message_delta: missing required field "delta"']],
  'wrong-type': [
    [14, 'wrong-type', 'usage_updated: "thread_id" is null, expected a string'],
    [14, 'wrong-type', 'usage_updated: "input_tokens" is a string, expected a number'],
  ],
  'no-events': [[0, 'no-events', 'the input is empty: nothing to check']],
  'unknown-status': [[18, 'unknown-status', 'result status "cancelled" is not one the wire format names']],
  'missing-result': [[17, 'missing-result', NO_RESULT]],
  'result-not-last': [[19, 'result-not-last', 'subagent_updated after the result at line 18 (only the result ends a run)']],
  'duplicate-result': [[19, 'duplicate-result', "a second result event (the first is at line 18; settlement and exec's own deadline can race)"]],
  'duplicate-turn': [[4, 'duplicate-turn', 'turn tu_1 already started at line 3']],
  'unknown-turn': [[4, 'unknown-turn', 'agent_message_delta for turn tu_9 of thread th_1, which never started']],
  'ended-turn': [[18, 'ended-turn', 'agent_message_final for turn tu_1, which ended at line 17 (turn_completed)']],
  'usage-decreased': [[15, 'usage-decreased', 'output_tokens went down from 40 to 30 in turn tu_1 (snapshots are cumulative)']],
  'tool-not-started': [[14, 'tool-not-started', 'tool_output_delta for tool item it_9, which never started']],
  'tool-started-twice': [[12, 'tool-started-twice', 'tool item it_2 already started at line 11']],
  'tool-after-end': [[14, 'tool-after-end', 'tool_output_delta for tool item it_2, which ended at line 13']],
  'tool-not-ended': [[16, 'tool-not-ended', 'tool item it_2 (started at line 11) never ended before its turn tu_1 completed']],
  'command-without-tool': [[7, 'command-without-tool', 'command_started for item it_1 does not come right after its tool_started']],
  'id-mismatch': [[4, 'id-mismatch', 'agent_message_delta on thread th_2, which is not the root thread (agent messages are written for the root thread only)']],
};

const WARNINGS = new Set(['unknown-type', 'unknown-status', 'cut-line', 'missing-result', 'duplicate-result']);
const pathOf = (name: string) => (name.startsWith('examples/') ? name : rel(name));
const textOf = (name: string) => EXPECTED[name]!.map(([line, rule, message]) => `${pathOf(name)}:${line}: ${rule}: ${message}\n`).join('');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
function summaryOf(names: string[]): string {
  const all = names.flatMap((n) => EXPECTED[n]!);
  const warnings = all.filter(([, rule]) => WARNINGS.has(rule)).length;
  return `wuu-check: checked ${plural(names.length, 'file')}: ${plural(all.length - warnings, 'error')}, ${plural(warnings, 'warning')}\n`;
}

t.test('every rule has a fixture, and every fixture file is listed', async (t) => {
  const files = fs.readdirSync(FIXTURES).map((f) => f.replace(/\.jsonl$/, '')).sort();
  t.same(files, Object.keys(EXPECTED).filter((k) => !k.startsWith('examples/')).sort());
  for (const rule of RULES) {
    t.ok(Object.hasOwn(EXPECTED, rule.id), `fixture for ${rule.id}`);
    t.ok(EXPECTED[rule.id]!.some(([, r]) => r === rule.id), `${rule.id} fixture triggers it`);
  }
});

t.test('rules: stable kebab-case ids, unique, two warnings', async (t) => {
  const ids = RULES.map((r) => r.id);
  t.equal(new Set(ids).size, ids.length);
  for (const id of ids) t.match(id, /^[a-z]+(-[a-z]+)*$/);
  t.same(RULES.filter((r) => r.severity === 'warning').map((r) => r.id).sort(), [...WARNINGS].sort());
  t.equal(isRule('bad-line'), true);
  t.equal(isRule('__proto__'), false);
});

t.test('the schema covers every known type and nothing else', async (t) => {
  t.same([...SCHEMA.keys()].sort(), [...KNOWN_TYPES].sort());
});

t.test('jsonType names JSON types', async (t) => {
  t.same([null, [], {}, 'a', 1, true].map(jsonType), ['null', 'array', 'object', 'string', 'number', 'boolean']);
});

t.test('schemaProblems: a table', async (t) => {
  const table: Array<[Record<string, unknown>, Array<[string, string]>]> = [
    [{ type: 'turn_started', thread_id: 'th', turn_id: 'tu' }, []],
    [{ type: 'turn_started', thread_id: '', turn_id: '' }, []],
    [{ type: 'turn_started', thread_id: 'th' }, [['missing-field', 'turn_started: missing required field "turn_id"']]],
    [{ type: 'turn_started', thread_id: 7, turn_id: 'tu' }, [['wrong-type', 'turn_started: "thread_id" is a number, expected a string']]],
    [{ type: 'turn_started', thread_id: 'th', turn_id: 'tu', extra: 1 }, []],
    [{ type: 'future', x: 1 }, []],
    [
      { type: 'tool_started', thread_id: 'th', turn_id: 'tu', item_id: 'it', name: 'bash', arguments: { command: 'ls' } },
      [['wrong-type', 'tool_started: "arguments" is an object, expected a string']],
    ],
    // The producer may write arguments empty or cut off (argument text streamed later is not forwarded).
    [{ type: 'tool_started', thread_id: 'th', turn_id: 'tu', item_id: 'it', name: 'write_file', arguments: '{"path":"partial' }, []],
    [{ type: 'tool_started', thread_id: 'th', turn_id: 'tu', item_id: 'it', name: 'glob', arguments: '' }, []],
    [{ type: 'command_completed', thread_id: 'th', turn_id: 'tu', item_id: 'it', name: 'bash', arguments: '', status: 'completed', error: '' }, []],
    [{ type: 'command_removed', thread_id: 'th', turn_id: 'tu', item_id: 'it', name: 'bash' }, []],
    [{ type: 'tool_started', thread_id: 'th', turn_id: 'tu', item_id: 'it', name: 'x', arguments: '{}' }, []],
    [
      { type: 'command_started', thread_id: 'th', turn_id: 'tu', item_id: 'it', name: 'bash', arguments: '{}', process_id: 4242 },
      [],
    ],
    [
      { type: 'command_started', thread_id: 'th', turn_id: 'tu', item_id: 'it', name: 'bash', arguments: '{}', process_id: true },
      [['wrong-type', 'command_started: "process_id" is a boolean, expected a string or a number']],
    ],
    [
      { type: 'result', status: 'completed', thread_id: '', turn_id: '', run_id: '', final_message: '', trace_path: '', structured_result: null },
      [],
    ],
    [
      { type: 'result', status: 'completed', thread_id: '', turn_id: '', run_id: '', trace_path: '', error: 3 },
      [
        ['missing-field', 'result: missing required field "final_message"'],
        ['wrong-type', 'result: "error" is a number, expected a string'],
      ],
    ],
    [{ type: 'todo_updated', thread_id: 'th', turn_id: 'tu', todo: null }, []],
    [{ type: 'todo_updated', thread_id: 'th', turn_id: 'tu' }, [['missing-field', 'todo_updated: missing required field "todo"']]],
    [{ type: 'session_configured', protocol_version: '1', provider: 'p', model: 'm', effort: '', variant: '', max_parallel: 4, workspace_root: '/', permissions: [] }, [['wrong-type', 'session_configured: "permissions" is an array, expected an object']]],
    [{ type: 'provider_state', thread_id: 'th', turn_id: 'tu' }, []],
    [{ type: 'subagent_started', thread_id: 'th', agent_id: 'a', agent_type: 'x', status: 'running', result_truncated: 'no' }, [['wrong-type', 'subagent_started: "result_truncated" is a string, expected a boolean']]],
    [{ type: 'error', thread_id: 'th', turn_id: 'tu', run_id: 'r', error: 'e', retrying: 'false' }, [['wrong-type', 'error: "retrying" is a string, expected a boolean']]],
  ];
  for (const [event, expected] of table) t.same(schemaProblems(event), expected, JSON.stringify(event));
});

/** Runs the core over lines as the runner would (bad lines to badLine) and returns [outputs, status, summary]. */
function runCore(text: string, options: Parameters<typeof createCheck>[0] = {}, file = 'f.jsonl'): [string, number, string[]] {
  const summaries: string[] = [];
  const core = createCheck({ summary: (line) => summaries.push(line), ...options });
  const out: Output[] = [];
  const emit = (o: Output) => out.push(o);
  const lines = text === '' ? [] : text.split('\n');
  const terminatedAll = text.endsWith('\n');
  if (terminatedAll) lines.pop();
  lines.forEach((line, i) => {
    const bytes = Buffer.from(line);
    const parsed = parseEventBytes(bytes);
    const terminated = terminatedAll || i < lines.length - 1;
    if ('error' in parsed) core.badLine({ file, line: i + 1, message: parsed.error, terminated, raw: bytes }, emit);
    else core.push(new LineRecord(bytes, file, i + 1), emit);
  });
  core.endFile?.(file, emit);
  core.end?.(emit);
  return [out.map((o) => (typeof o === 'string' ? o : 'RECORD')).join(''), core.status?.() ?? 0, summaries];
}

const ev = (fields: Record<string, unknown>) => JSON.stringify(fields);
const T1 = { thread_id: 'th', turn_id: 'tu1' };
const T2 = { thread_id: 'th', turn_id: 'tu2' };
const START1 = ev({ type: 'turn_started', ...T1 });
const START2 = ev({ type: 'turn_started', ...T2 });
const RESULT = ev({ type: 'result', status: 'completed', thread_id: 'th', turn_id: 'tu1', run_id: 'r1', final_message: '', trace_path: '' });
const tool = (type: string, turn: Record<string, string>, item: string, extra: Record<string, unknown> = {}) =>
  ev({ type, ...turn, item_id: item, ...extra });
const STARTED = { name: 'read_file', arguments: '{}' };
const DONE = { name: 'read_file', status: 'completed', error: '' };

t.test('core: cross-event rules, a table', async (t) => {
  const table: Array<[string, string[], string]> = [
    ['empty input: nothing was checked, at line 0', [], 'f.jsonl:0: no-events: the input is empty: nothing to check\n'],
    [
      'items are keyed by thread and turn: the same item id in another turn is another item',
      [START1, START2, tool('tool_started', T1, 'it', STARTED), tool('tool_completed', T2, 'it', DONE), RESULT],
      'f.jsonl:4: tool-not-started: tool_completed for tool item it, which never started\n',
    ],
    [
      'turn_started on a thread other than the root',
      [ev({ type: 'thread_started', thread_id: 'th', model: '', provider: '', cwd: '' }), ev({ type: 'turn_started', thread_id: 'other', turn_id: 'tu1' }), RESULT],
      'f.jsonl:2: id-mismatch: turn_started for turn tu1 on thread other, which is not the root thread th (turn_started is written for the root thread only)\n',
    ],
    [
      "a sub-agent thread's usage, tools and turn end, never started: its own, not errors",
      [
        ev({ type: 'thread_started', thread_id: 'th', model: '', provider: '', cwd: '' }),
        START1,
        ev({ type: 'usage_updated', thread_id: 'ag', turn_id: 'ag-1', input_tokens: 1, output_tokens: 1, cache_creation_tokens: 0, cache_read_tokens: 0 }),
        tool('tool_started', { thread_id: 'ag', turn_id: 'ag-1' }, 'it', STARTED),
        tool('tool_completed', { thread_id: 'ag', turn_id: 'ag-1' }, 'it', DONE),
        ev({ type: 'turn_failed', thread_id: 'ag', turn_id: 'ag-1', error: 'x' }),
        ev({ type: 'turn_completed', ...T1, input_tokens: 1, output_tokens: 1, trace_path: '', awaiting_auto_continuation: false }),
        RESULT,
      ],
      '',
    ],
    [
      'but an agent message on a sub-agent thread is not the producer (deltas are root-only)',
      [ev({ type: 'thread_started', thread_id: 'th', model: '', provider: '', cwd: '' }), START1, ev({ type: 'agent_message_delta', thread_id: 'ag', turn_id: 'ag-1', delta: 'x' }), RESULT],
      'f.jsonl:3: id-mismatch: agent_message_delta on thread ag, which is not the root thread (agent messages are written for the root thread only)\n',
    ],
    [
      "exec's own turn_interrupted: empty ids, a turn never started, a turn already completed",
      [
        ev({ type: 'turn_interrupted', thread_id: '', turn_id: '', reason: 'timeout' }),
        START1,
        ev({ type: 'turn_completed', ...T1, input_tokens: 1, output_tokens: 1, trace_path: '', awaiting_auto_continuation: true }),
        ev({ type: 'turn_interrupted', ...T1, reason: 'timeout' }),
        ev({ type: 'turn_interrupted', ...T2, reason: 'timeout' }),
        RESULT,
      ],
      '',
    ],
    [
      'the timeout race: result, turn_interrupted, result: a warning only',
      [START1, RESULT, ev({ type: 'turn_interrupted', ...T1, reason: 'timeout' }), RESULT],
      "f.jsonl:4: duplicate-result: a second result event (the first is at line 2; settlement and exec's own deadline can race)\n",
    ],
    [
      'a turn_interrupted after the result with no second result is not the race',
      [START1, RESULT, ev({ type: 'turn_interrupted', ...T1, reason: 'timeout' })],
      'f.jsonl:3: result-not-last: turn_interrupted after the result at line 2 (only the result ends a run)\n',
    ],
    [
      'tool_removed for an item that never started (a reconnect row)',
      [START1, tool('tool_removed', T1, 'tu1-item-2'), RESULT],
      '',
    ],
    [
      "error run_id unlike the result's",
      [START1, ev({ type: 'error', ...T1, run_id: 'r0', error: 'x', retrying: false }), RESULT],
      "f.jsonl:3: id-mismatch: result run_id r1 differs from the error event's run_id r0 (line 2)\n",
    ],
    ["a result may name the Run's final turn, never started", [RESULT], ''],
    [
      'an error event for a turn never started',
      [START1, ev({ type: 'error', ...T2, run_id: 'r1', error: 'x', retrying: false }), RESULT],
      'f.jsonl:2: unknown-turn: error names turn tu2 of thread th, which never started\n',
    ],
    [
      'tool_removed ends an item; later output is after its end',
      [START1, tool('tool_started', T1, 'it', STARTED), tool('tool_removed', T1, 'it'), tool('tool_output_delta', T1, 'it', { delta: '' }), RESULT],
      'f.jsonl:4: tool-after-end: tool_output_delta for tool item it, which ended at line 3\n',
    ],
    [
      'file_changed for an unknown item',
      [START1, tool('file_changed', T1, 'nope', { tool_name: 'write_file', path: '/a' }), RESULT],
      'f.jsonl:2: tool-not-started: file_changed for tool item nope, which never started\n',
    ],
    [
      'file_changed after the tool completed is fine',
      [START1, tool('tool_started', T1, 'it', STARTED), tool('tool_completed', T1, 'it', DONE), tool('file_changed', T1, 'it', { tool_name: 'read_file', path: '/a' }), RESULT],
      '',
    ],
    [
      'a command twin as the very first event',
      [tool('command_removed', T1, 'it', { name: 'bash', arguments: '{}' })],
      'f.jsonl:1: unknown-turn: command_removed for turn tu1 of thread th, which never started\n' +
        'f.jsonl:1: command-without-tool: command_removed for item it does not come right after its tool_removed\n' +
        'f.jsonl:1: missing-result: ' + NO_RESULT + '\n',
    ],
    [
      'a command twin for another item',
      [START1, tool('tool_started', T1, 'a', STARTED), tool('command_started', T1, 'b', { name: 'bash', arguments: '{}' })],
      'f.jsonl:3: command-without-tool: command_started for item b does not come right after its tool_started\n' +
        'f.jsonl:3: missing-result: ' + NO_RESULT + '\n',
    ],
    [
      'after a bad line the command twin is not blamed',
      [START1, tool('tool_started', T1, 'it', { name: 'bash', arguments: '{}' }), '{oops', tool('command_started', T1, 'it', { name: 'bash', arguments: '{}' }), RESULT],
      `f.jsonl:3: bad-line: not valid JSON (Expected property name or '}' in JSON at position 1)\n`,
    ],
    [
      'turn_failed ends a turn with its tools open, which is fine',
      [START1, tool('tool_started', T1, 'it', STARTED), ev({ type: 'turn_failed', ...T1, error: 'x' }), RESULT],
      '',
    ],
    [
      'only the first event after the result is reported',
      [START1, RESULT, ev({ type: 'x' }), ev({ type: 'y' })],
      'f.jsonl:3: result-not-last: x after the result at line 2 (only the result ends a run)\n' +
        'f.jsonl:3: unknown-type: unknown event type "x"\n' +
        'f.jsonl:4: unknown-type: unknown event type "y"\n',
    ],
    [
      'usage decreasing on two counters',
      [
        START1,
        ev({ type: 'usage_updated', ...T1, input_tokens: 10, output_tokens: 5, cache_creation_tokens: 0, cache_read_tokens: 0 }),
        ev({ type: 'usage_updated', ...T1, input_tokens: 9, output_tokens: 4, cache_creation_tokens: 0, cache_read_tokens: 0 }),
        ev({ type: 'usage_updated', ...T2, input_tokens: 1, output_tokens: 1, cache_creation_tokens: 0, cache_read_tokens: 0 }),
        RESULT,
      ],
      'f.jsonl:3: usage-decreased: input_tokens went down from 10 to 9 in turn tu1 (snapshots are cumulative)\n' +
        'f.jsonl:3: usage-decreased: output_tokens went down from 5 to 4 in turn tu1 (snapshots are cumulative)\n' +
        'f.jsonl:4: unknown-turn: usage_updated for turn tu2 of thread th, which never started\n',
    ],
    [
      'ids with __proto__ and constructor are plain keys',
      [ev({ type: 'turn_started', thread_id: '__proto__', turn_id: '__proto__' }), tool('tool_started', { thread_id: '__proto__', turn_id: '__proto__' }, 'constructor', STARTED), ev({ type: 'result', status: 'completed', thread_id: '__proto__', turn_id: '__proto__', run_id: '', final_message: '', trace_path: '' })],
      '',
    ],
  ];
  for (const [name, lines, expected] of table) {
    const [out] = runCore(lines.map((l) => `${l}\n`).join(''));
    t.equal(out, expected, name);
  }
});

t.test('core: status, summary, --json, --ignore', async (t) => {
  const clean = runCore(readExample('run.jsonl'));
  t.same(clean, ['', 0, ['checked 1 file: 0 errors, 0 warnings']]);
  const warnOnly = runCore(`${START1}\n${ev({ type: 'x' })}\n${RESULT}\n`);
  t.same([warnOnly[1], warnOnly[2]], [0, ['checked 1 file: 0 errors, 1 warning']], 'warnings do not fail');
  const killed = runCore(readExample('killed.jsonl'), { json: true }, 'k');
  t.same(killed[0].split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown), [
    { file: 'k', line: 25, rule: 'cut-line', severity: 'warning', message: `${CUT}: not valid JSON (Unterminated string in JSON at position 120)` },
    { file: 'k', line: 25, rule: 'missing-result', severity: 'warning', message: NO_RESULT },
  ]);
  t.equal(killed[1], 0, 'a killed producer is legitimate: warnings, exit 0');
  const escaped = runCore(`${ev({ type: 'turn_started', thread_id: 'th', turn_id: 't\u001b]0;x\u0007' })}\n${ev({ type: 'agent_message_delta', thread_id: 'th', turn_id: 't\u009b2J', delta: '' })}\n${RESULT}\n`);
  t.equal(escaped[0], 'f.jsonl:2: unknown-turn: agent_message_delta for turn t\\x9b2J of thread th, which never started\n', 'data in messages is escaped');
  const ignored = runCore(readExample('killed.jsonl'), { ignore: ['cut-line', 'missing-result'] });
  t.same(ignored, ['', 0, ['checked 1 file: 0 errors, 0 warnings']], 'ignored rules neither print nor count');
});

t.test('core: --max-warnings makes too many warnings fail (eslint convention)', async (t) => {
  const killed = readExample('killed.jsonl'); // two warnings, no error
  t.same(runCore(killed, { maxWarnings: 2 }).slice(1), [0, ['checked 1 file: 0 errors, 2 warnings']], 'N warnings with a limit of N pass');
  t.same(runCore(killed, { maxWarnings: 1 }).slice(1), [1, ['checked 1 file: 0 errors, 2 warnings (more than --max-warnings 1)']], 'one more fails');
  t.same(runCore(killed, { maxWarnings: 0 }).slice(1), [1, ['checked 1 file: 0 errors, 2 warnings (more than --max-warnings 0)']]);
  t.same(runCore(readExample('run.jsonl'), { maxWarnings: 0 }).slice(1), [0, ['checked 1 file: 0 errors, 0 warnings']], 'no warning: 0 passes');
  t.same(runCore(killed, { maxWarnings: 0, ignore: ['cut-line', 'missing-result'] }).slice(1), [0, ['checked 1 file: 0 errors, 0 warnings']], 'ignored rules do not count');
});

t.test('core: each file is its own stream', async (t) => {
  const core = createCheck();
  const out: string[] = [];
  const emit = (o: Output) => out.push(String(o));
  const lines = readExample('timeout.jsonl').split('\n').filter(Boolean);
  // The first file has the turn and no result; the second only the result, which names a turn it never started.
  lines.slice(0, -1).forEach((l, i) => core.push(new LineRecord(Buffer.from(l), 'a', i + 1), emit));
  core.endFile?.('a', emit);
  core.push(new LineRecord(Buffer.from(lines[lines.length - 1]!), 'b', 1), emit);
  core.endFile?.('b', emit);
  t.same(out, [`a:9: missing-result: ${NO_RESULT}\n`]);
});

const ALL = Object.keys(EXPECTED);
const bytesOf = (name: string) => fs.readFileSync(path.join(ROOT, pathOf(name)));

t.test('runner: every example and fixture on stdin in 1- and 7-byte chunks, exact output', async (t) => {
  for (const name of ALL) {
    for (const size of [1, 7]) {
      const r = await runIn(checkSpec, [], chunked(bytesOf(name), size));
      const errors = EXPECTED[name]!.filter(([, rule]) => !WARNINGS.has(rule)).length;
      // On stdin the problems name `<stdin>`; the summary is the same as for the file.
      t.equal(r.stdout, textOf(name).replaceAll(`${pathOf(name)}:`, '<stdin>:'), `${name}, chunks of ${size}`);
      t.equal(r.stderr, summaryOf([name]), `${name}, chunks of ${size}: summary`);
      t.equal(r.code, errors > 0 ? 1 : 0, `${name}, chunks of ${size}: status`);
    }
  }
});

t.test('runner: --json, an oversize line, and check() after parse()', async (t) => {
  const json = await runIn(checkSpec, ['--json'], chunked(bytesOf('usage-decreased'), 7));
  t.same(json.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown), [
    { file: '<stdin>', line: 15, rule: 'usage-decreased', severity: 'error', message: EXPECTED['usage-decreased']![0]![2] },
  ]);
  const oversize = await runIn(checkSpec, ['--max-line-bytes', '200'], [Buffer.from(`${'x'.repeat(500)}\n${RESULT}\n`)]);
  t.equal(oversize.stdout, '<stdin>:1: bad-line: line of 500 bytes exceeds --max-line-bytes 200; dropped\n');
  t.equal(oversize.code, 1);
  const viaParse = await pipeThrough<string>(chunked(readExample('failed.jsonl'), 7), parse({ file: 'f' }), check());
  t.same(viaParse, []);
  const missing = await pipeThrough<string>(chunked(bytesOf('missing-result'), 1), parse({ file: 'm' }), check());
  t.same(missing, [`m:17: missing-result: ${NO_RESULT}\n`]);
});

t.test('binary: every example and fixture, exact stdout, stderr and exit status', async (t) => {
  for (const name of ALL) {
    const r = await runBin('wuu-check', [pathOf(name)]);
    const errors = EXPECTED[name]!.filter(([, rule]) => !WARNINGS.has(rule)).length;
    t.same(r, { stdout: textOf(name), stderr: summaryOf([name]), code: errors > 0 ? 1 : 0, signal: null }, name);
  }
});

t.test('binary: several files, a directory, stdin, --json, --quiet, --ignore', async (t) => {
  const both = await runBin('wuu-check', ['examples/killed.jsonl', rel('unknown-type'), 'examples/run.jsonl']);
  t.same(both, {
    stdout: textOf('examples/killed.jsonl') + textOf('unknown-type'),
    stderr: summaryOf(['examples/killed.jsonl', 'unknown-type', 'examples/run.jsonl']),
    code: 0,
    signal: null,
  });
  const dir = await runBin('wuu-check', ['examples']);
  t.same([dir.stdout, dir.stderr, dir.code], [
    textOf('examples/killed.jsonl'),
    'wuu-check: checked 7 files: 0 errors, 2 warnings\n',
    0,
  ]);
  const stdin = await runBin('wuu-check', ['-q'], { input: bytesOf('tool-not-ended') });
  t.same(stdin, { stdout: textOf('tool-not-ended').replaceAll(rel('tool-not-ended'), '<stdin>'), stderr: '', code: 1, signal: null });
  const json = await runBin('wuu-check', ['--json', '--quiet', rel('wrong-type')]);
  t.same(
    json.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown),
    EXPECTED['wrong-type']!.map(([line, rule, message]) => ({ file: rel('wrong-type'), line, rule, severity: 'error', message })),
  );
  const empty = await runBin('wuu-check', ['-q'], { input: '' });
  t.same([empty.stdout, empty.code], ['<stdin>:0: no-events: the input is empty: nothing to check\n', 1], 'nothing to read is an error');
  const ignore = await runBin('wuu-check', ['--ignore', 'cut-line,missing-result', 'examples/killed.jsonl']);
  t.same([ignore.stdout, ignore.stderr, ignore.code], ['', 'wuu-check: checked 1 file: 0 errors, 0 warnings\n', 0]);
  const strict = await runBin('wuu-check', ['--strict', rel('bad-line'), 'examples/killed.jsonl']);
  t.same([strict.stdout, strict.stderr, strict.code], [textOf('bad-line'), '', 1], '--strict stops at the first bad line');
  const pass = await runBin('wuu-check', ['--pass-invalid', '-q', rel('bad-line')]);
  t.same([pass.stdout, pass.stderr, pass.code], [textOf('bad-line'), '', 1], 'a bad line is a problem under any policy');
});

t.test('binary: --max-warnings', async (t) => {
  const strict = await runBin('wuu-check', ['--max-warnings', '0', 'examples/killed.jsonl']);
  t.same([strict.stdout, strict.stderr, strict.code], [
    textOf('examples/killed.jsonl'),
    'wuu-check: checked 1 file: 0 errors, 2 warnings (more than --max-warnings 0)\n',
    1,
  ]);
  const enough = await runBin('wuu-check', ['--max-warnings=2', '-q', 'examples/killed.jsonl']);
  t.same([enough.stderr, enough.code], ['', 0]);
  const quiet = await runBin('wuu-check', ['--max-warnings', '1', '-q', 'examples/killed.jsonl']);
  t.same([quiet.stderr, quiet.code], ['', 1], '-q keeps the status');
  const unlimited = await runBin('wuu-check', ['--max-warnings=-1', 'examples/killed.jsonl']);
  t.same([unlimited.stderr, unlimited.code], ['wuu-check: checked 1 file: 0 errors, 2 warnings\n', 0], "eslint's -1: no limit");
  const clean = await runBin('wuu-check', ['--max-warnings', '0', 'examples/run.jsonl']);
  t.equal(clean.code, 0);
  const bad = await runBin('wuu-check', ['--max-warnings', 'x', 'examples/run.jsonl']);
  t.same([bad.stdout, bad.code], ['', 2]);
  t.match(bad.stderr, /^wuu-check: --max-warnings takes a whole number, not 'x'\n/);
});

t.test('binary: usage errors and help', async (t) => {
  const cases: Array<[string[], string]> = [
    [['--ignore', 'nope'], "--ignore: unknown rule 'nope' (see --help for the list)"],
    [['--bogus'], 'unknown option --bogus'],
  ];
  for (const [args, message] of cases) {
    const r = await runBin('wuu-check', args);
    t.same(r, { stdout: '', stderr: `wuu-check: ${message}\nTry 'wuu-check --help' for more information.\n`, code: 2, signal: null });
  }
  const missing = await runBin('wuu-check', ['-q', 'missing.jsonl']);
  t.same([missing.stdout, missing.stderr, missing.code], ['', 'wuu-check: missing.jsonl: No such file or directory\n', 2]);
  const help = await runBin('wuu-check', ['--help']);
  t.equal(help.code, 0);
  for (const rule of RULES) t.match(help.stdout, new RegExp(`\\n  ${rule.id} `), rule.id);
  const own = help.stdout.slice(0, help.stdout.indexOf('Input and bad-line policy'));
  t.same(own.split('\n').filter((line) => line.length > 80), [], "the tool's own help fits 80 columns");
});

t.test('shell: CI-style pipelines', async (t) => {
  const ok = await runShell('cat examples/run.jsonl | wuu-check -q && echo valid');
  t.same([ok.stdout, ok.stderr, ok.code], ['valid\n', '', 0]);
  const bad = await runShell('tmp=$(mktemp) && cat examples/killed.jsonl | tee "$tmp" | wuu-check -q; echo "status=$?"; cmp -s "$tmp" examples/killed.jsonl && echo same; rm -f "$tmp"');
  t.same([bad.stdout, bad.stderr, bad.code], [textOf('examples/killed.jsonl').replaceAll('examples/killed.jsonl', '<stdin>') + 'status=0\nsame\n', '', 0]);
  const rules = await runShell('{ wuu-check --json -q test/fixtures/check || true; } | jq -r .rule | sort -u | wc -l');
  t.same([rules.stdout.trim(), rules.code], [String(RULES.length), 0], 'the fixture directory triggers every rule');
});
