import t from 'tap';
import { createTurns, turns, type TurnsOptions } from '../lib/turns/index.js';
import type { Core } from '../lib/core.js';
import { parse, stringify } from '../lib/jsonl.js';
import { LineRecord, serialize, type Output } from '../lib/jsonl.js';
import { chunked, liveProcess, pipeThrough, runBin, runShell, jsonl } from './helpers.js';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './helpers.js';
import { EXIT_CODES, exitStream } from './exit-stream.js';

/** The 0.1.0 examples these tables were written against (examples/ now holds producer-faithful runs, tested in test/producer/). */
const legacy = (name: string) => path.join(ROOT, 'test', 'fixtures', 'v0.1', name);

const lines = (name: string) => fs.readFileSync(legacy(name), 'utf8').split('\n').filter(Boolean);
const RUN = fs.readFileSync(legacy('run.jsonl'), 'utf8');
const RUN_LINES = lines('run.jsonl');
const L = (n: number) => RUN_LINES[n - 1]!;
const ev = (o: Record<string, unknown>) => JSON.stringify(o);

function runCore(core: Core, input: string[], file = 'run.jsonl'): string[] {
  const out: string[] = [];
  const emit = (o: Output) => out.push(serialize(o).toString());
  input.forEach((line, i) => core.push(new LineRecord(Buffer.from(line), file, i + 1), emit));
  core.endFile?.(file, emit);
  core.end?.(emit);
  return out;
}

const run = (input: string[], options: TurnsOptions = {}) => runCore(createTurns(options), input);

// Written by hand from examples/run.jsonl; counts checked with
// jq -sc '[.[]|select(.turn_id=="tu_01")|.type]|group_by(.)|map({(.[0]):length})|add'
const TRACE = '/home/alice/.wuu/traces/th_7f3a.jsonl';
const TURN1 = {
  type: 'turn', thread_id: 'th_7f3a', turn_id: 'tu_01', status: 'completed', error: null, reason: null,
  awaiting_auto_continuation: true, trace_path: TRACE, subagent: false,
  message: "I'll run the tests first. The cart capped items at 3; I raised the limit.", message_source: 'final',
  tool_calls: [
    { item_id: 'it_01', name: 'bash', status: 'completed', exit_code: 0, output_bytes: 106 },
    { item_id: 'it_02', name: 'read_file', status: 'completed', output_bytes: 130 },
    { item_id: 'it_04', name: 'edit_file', status: 'completed', output_bytes: 35 },
  ],
  files_changed: ['/home/alice/src/shop/src/cart.js'],
  todo: { items: [{ content: 'Run the test suite', status: 'in_progress' }, { content: 'Fix the failing cart test', status: 'pending' }] },
  usage: { input_tokens: 9800, cache_creation_tokens: 4096, cache_read_tokens: 4096, prompt_tokens: 17992, output_tokens: 420, cache_hit: 4096 / 17992 },
  completed_tokens: { input_tokens: 9800, output_tokens: 420 },
  event_counts: {
    turn_started: 1, provider_state: 1, request_context: 1, todo_updated: 1, agent_message_delta: 3, tool_started: 4,
    command_started: 2, tool_output_delta: 6, command_output_delta: 3, tool_completed: 3, command_completed: 1,
    tool_removed: 1, command_removed: 1, file_changed: 1, usage_updated: 2, agent_message_final: 1, turn_completed: 1,
  },
};
const TURN2 = {
  type: 'turn', thread_id: 'th_7f3a', turn_id: 'tu_02', status: 'completed', error: null, reason: null,
  awaiting_auto_continuation: false, trace_path: TRACE, subagent: false, message: 'All 42 tests pass now.', message_source: 'deltas',
  tool_calls: [{ item_id: 'it_05', name: 'bash', status: 'completed', exit_code: 0, output_bytes: 17 }],
  files_changed: [],
  todo: { items: [{ content: 'Run the test suite', status: 'completed' }, { content: 'Fix the failing cart test', status: 'completed' }] },
  usage: { input_tokens: 11200, cache_creation_tokens: 0, cache_read_tokens: 8192, prompt_tokens: 19392, output_tokens: 60, cache_hit: 8192 / 19392 },
  completed_tokens: { input_tokens: 11200, output_tokens: 60 },
  event_counts: {
    turn_started: 1, todo_updated: 1, tool_started: 1, command_started: 1, tool_output_delta: 1, command_output_delta: 1,
    tool_completed: 1, command_completed: 1, agent_message_delta: 2, usage_updated: 1, turn_completed: 1,
  },
};
const RUN_EXPECTED = [L(1), L(2), L(20), L(25), L(34), ev(TURN1), ev(TURN2), L(51)];


t.test('run.jsonl: one record per turn, outside events byte for byte', async (t) => {
  t.same(run(RUN_LINES), RUN_EXPECTED);
  t.same(run(RUN_LINES, { onlyTurns: true }), [ev(TURN1), ev(TURN2)]);
});

t.test('failed, timeout and structured examples', async (t) => {
  const failed = lines('failed.jsonl');
  t.same(run(failed), [
    failed[0], failed[1],
    ev({
      type: 'turn', thread_id: 'th_9b21', turn_id: 'tu_a1', status: 'failed', error: 'tool failed: exit status 6', reason: null,
      awaiting_auto_continuation: null, trace_path: null, subagent: false, message: 'Deploying with the key from .env', message_source: 'deltas',
      tool_calls: [{ item_id: 'it_a1', name: 'bash', status: 'failed', exit_code: null, output_bytes: 33 }], files_changed: [], todo: null,
      usage: { input_tokens: 3000, cache_creation_tokens: 0, cache_read_tokens: 0, prompt_tokens: 3000, output_tokens: 90, cache_hit: 0 / 3000 },
      completed_tokens: null,
      event_counts: {
        turn_started: 1, agent_message_delta: 1, tool_started: 1, command_started: 1, tool_output_delta: 1,
        command_output_delta: 1, tool_completed: 1, command_completed: 1, usage_updated: 1, turn_failed: 1,
      },
    }),
    failed[12],
  ]);
  const timeout = lines('timeout.jsonl');
  t.same(run(timeout), [
    timeout[0], timeout[1],
    ev({
      type: 'turn', thread_id: 'th_e5f6', turn_id: 'tu_t1', status: 'interrupted', error: null, reason: 'timeout',
      awaiting_auto_continuation: null, trace_path: null, subagent: false, message: 'Refactoring the checkout', message_source: 'deltas',
      tool_calls: [], files_changed: [], todo: null,
      usage: { input_tokens: 4000, cache_creation_tokens: 0, cache_read_tokens: 3000, prompt_tokens: 7000, output_tokens: 200, cache_hit: 3000 / 7000 },
      completed_tokens: null,
      event_counts: { turn_started: 1, agent_message_delta: 1, usage_updated: 1, turn_interrupted: 1 },
    }),
    timeout[6],
  ]);
  const structured = lines('structured.jsonl');
  const out = run(structured);
  t.same([out[0], out[1], out[3], out[4]], [structured[0], structured[1], structured[8], structured[9]], 'error and result pass through after the turn');
  t.same(JSON.parse(out[2]!), {
    type: 'turn', thread_id: 'th_c4d0', turn_id: 'tu_s1', status: 'completed', error: null, reason: null,
    awaiting_auto_continuation: false, trace_path: '', subagent: false, message: '{"files":3,"ok":true}', message_source: 'final',
    tool_calls: [], files_changed: [], todo: null,
    usage: { input_tokens: 800, cache_creation_tokens: 0, cache_read_tokens: 0, prompt_tokens: 800, output_tokens: 12, cache_hit: 0 / 800 },
    completed_tokens: { input_tokens: 800, output_tokens: 12 },
    event_counts: { turn_started: 1, agent_message_delta: 2, usage_updated: 1, agent_message_final: 1, turn_completed: 1 },
  });
});

t.test('the usage is the last snapshot, never a sum', async (t) => {
  const u = (input: number, output: number) =>
    ev({ cache_creation_tokens: 1, cache_read_tokens: input, input_tokens: input, output_tokens: output, thread_id: 'a', turn_id: 'b', type: 'usage_updated' });
  const [rec] = run([u(100, 10), u(250, 30), u(400, 45), ev({ thread_id: 'a', turn_id: 'b', type: 'turn_completed', input_tokens: 401, output_tokens: 46 })]).map((l) => JSON.parse(l));
  t.same([rec.usage, rec.completed_tokens], [
    { input_tokens: 400, cache_creation_tokens: 1, cache_read_tokens: 400, prompt_tokens: 801, output_tokens: 45, cache_hit: 400 / 801 },
    { input_tokens: 401, output_tokens: 46 },
  ], 'input excludes the cache: prompt = 400 + 1 + 400');
});

t.test('files_changed: paths and move targets, each once', async (t) => {
  const f = (path: string, extra: Record<string, unknown> = {}) => ev({ ...extra, item_id: 'i', path, thread_id: 'a', turn_id: 'b', type: 'file_changed' });
  const [rec] = run([f('x'), f('y', { move_path: 'z' }), f('x'), f('')]).map((l) => JSON.parse(l));
  t.same([rec.status, rec.files_changed], ['incomplete', ['x', 'y', 'z']]);
});

t.test('--keep-removed lists withdrawn calls', async (t) => {
  const out = run(RUN_LINES, { keepRemoved: true, onlyTurns: true }).map((l) => JSON.parse(l));
  t.same(out[0].tool_calls.map((c: { item_id: string; status: string }) => `${c.item_id}:${c.status}`), [
    'it_01:completed', 'it_02:completed', 'it_03:removed', 'it_04:completed',
  ]);
});

t.test('--events embeds the original bytes of the turn events', async (t) => {
  const out = run(RUN_LINES, { events: true });
  t.equal(out.length, 8);
  const header = (turn: string, extra: Record<string, unknown>) =>
    `{"type":"turn","thread_id":"th_7f3a","turn_id":"${turn}","status":"completed","error":null,"reason":null,` +
    `${JSON.stringify(extra).slice(1, -1)},"events_dropped":0,"events":[`;
  const tu1 = [...Array(36).keys()].map((i) => i + 3).filter((n) => ![20, 25, 34].includes(n));
  t.equal(out[5], header('tu_01', { awaiting_auto_continuation: true, trace_path: TRACE, subagent: false }) + tu1.map(L).join(',') + ']}');
  const tu2 = [...Array(12).keys()].map((i) => i + 39);
  t.equal(out[6], header('tu_02', { awaiting_auto_continuation: false, trace_path: TRACE, subagent: false }) + tu2.map(L).join(',') + ']}');
  t.ok(out[5]!.includes('2\\u003e\\u00261'), 'Go escapes survive');
  t.same([out[0], out[1], out[2], out[3], out[4], out[7]], [L(1), L(2), L(20), L(25), L(34), L(51)]);
});

t.test('--events with --max-turn-bytes: later events counted, the turn end kept', async (t) => {
  const timeout = lines('timeout.jsonl');
  const cap = Buffer.byteLength(timeout[2]!) + Buffer.byteLength(timeout[3]!); // turn_started + delta
  const out = run(timeout, { events: true, maxTurnBytes: cap, onlyTurns: true });
  t.same(JSON.parse(out[0]!), {
    type: 'turn', thread_id: 'th_e5f6', turn_id: 'tu_t1', status: 'interrupted', error: null, reason: 'timeout',
    awaiting_auto_continuation: null, trace_path: null, subagent: false, events_dropped: 1,
    events: [JSON.parse(timeout[2]!), JSON.parse(timeout[3]!), JSON.parse(timeout[5]!)],
  });
});

t.test('stream API: the record of --events parses on demand', async (t) => {
  const recs = await pipeThrough<{ type: string; event: Record<string, unknown> }>(
    [Buffer.from(fs.readFileSync(legacy('timeout.jsonl'), 'utf8'))],
    parse({ file: 't' }),
    turns({ events: true, onlyTurns: true }),
  );
  t.equal(recs.length, 1);
  t.equal(recs[0]!.type, 'turn');
  t.equal((recs[0]!.event.events as unknown[]).length, 4);
  const plain = await pipeThrough<Buffer>([{ type: 'turn_started', thread_id: 'a', turn_id: 'b' }], turns({ events: true }), stringify());
  t.equal(Buffer.concat(plain).toString(), '{"type":"turn","thread_id":"a","turn_id":"b","status":"incomplete","error":null,"reason":null,"awaiting_auto_continuation":null,"trace_path":null,"subagent":false,"events_dropped":0,"events":[{"type":"turn_started","thread_id":"a","turn_id":"b"}]}\n');
});

t.test('unknown types join an open turn, else pass through', async (t) => {
  const start = ev({ thread_id: 'a', turn_id: 'b', type: 'turn_started' });
  const inTurn = ev({ thread_id: 'a', turn_id: 'b', type: 'future_thing' });
  const stray = ev({ thread_id: 'a', turn_id: 'zz', type: 'future_thing' });
  const noTurn = ev({ type: 'future_thing' });
  const out = run([start, inTurn, stray, noTurn]);
  t.same(out.slice(0, 2), [stray, noTurn]);
  t.same(JSON.parse(out[2]!).event_counts, { turn_started: 1, future_thing: 1 });
  const idless = [ev({ type: 'todo_updated', todo: 1 }), ev({ reason: 'timeout', thread_id: '', turn_id: '', type: 'turn_interrupted' }), noTurn];
  t.same(run(idless), idless, "events without a turn id (exec's own end before any turn) belong to no turn");
});

t.test('a payload too deep to serialize does not crash the flush', async (t) => {
  const deep = '['.repeat(20000) + ']'.repeat(20000);
  const out = run([`{"thread_id":"a","todo":${deep},"turn_id":"b","type":"todo_updated"}`]);
  const rec = JSON.parse(out[0]!);
  t.same([rec.status, rec.todo, rec.todo_error], ['incomplete', null, 'nested too deeply to serialize']);
});

t.test('a message spliced in as JSON reads as the text of its pieces, in JSON.stringify spelling', async (t) => {
  // Each message as the producer may spell its pieces (Go escapes, \/, raw UTF-8, surrogates split over pieces).
  const pieces: string[][] = [
    ['plain text'],
    ['\\u003cb\\u003e \\u0026 \\u2028', ' tail'],
    ['caf\u00e9 \u4e2d\u6587 \ud83d\ude00', ' \\/ \\n\\t\\"\\\\ \\u0001'],
    ['half \\ud83d', '\\ude00 pair'],
    ['lone \\ud800 in the middle'],
    [''],
  ];
  const ids = '"thread_id":"th","turn_id":"tu"';
  for (const parts of pieces) {
    const text = parts.map((p) => JSON.parse(`"${p}"`) as string).join('');
    const deltas = parts.map((p) => `{"delta":"${p}",${ids},"type":"agent_message_delta"}`);
    const final = `{"message":"${parts.join('')}",${ids},"type":"agent_message_final"}`;
    const end = `{${ids},"type":"turn_completed"}`;
    for (const [name, input, source] of [['deltas', [...deltas, end], 'deltas'], ['final', [...deltas, final, end], 'final'], ['final, no end', [final], 'final']] as const) {
      for (const maxMessageBytes of [undefined, 0, 5]) {
        const core = createTurns({ onlyTurns: true, maxMessageBytes });
        const recs: Output[] = [];
        input.forEach((line, i) => core.push(new LineRecord(Buffer.from(line), 'm', i + 1), (o) => recs.push(o)));
        core.endFile?.('m', (o) => recs.push(o));
        t.equal(recs.length, 1);
        const rec = recs[0] as Exclude<Output, string>;
        const raw = serialize(rec).toString();
        const what = `${JSON.stringify(parts)} ${name}, cap ${maxMessageBytes}`;
        // The bytes are what JSON.stringify writes for the record the event says, in its key order.
        t.equal(raw, JSON.stringify(rec.event), `${what}: bytes`);
        const got = JSON.parse(raw) as Record<string, unknown>;
        t.equal(got.message_source, source, `${what}: source`);
        if (maxMessageBytes === undefined || Buffer.byteLength(text) <= maxMessageBytes) {
          t.equal(got.message, text, `${what}: text`);
          t.notOk('message_truncated_bytes' in got, `${what}: whole`);
        } else {
          // Bytes are counted piece by piece: a surrogate pair split over two deltas counts as two lone ones (3 bytes each).
          const seen = source === 'final' ? Buffer.byteLength(text) : parts.reduce((n, p) => n + Buffer.byteLength(JSON.parse(`"${p}"`) as string), 0);
          t.equal(got.message_truncated_bytes, seen - Buffer.byteLength(got.message as string), `${what}: cut`);
        }
        t.same(Object.keys(got).slice(8, 12), ['subagent', 'message', 'message_source', 'tool_calls'], `${what}: key order`);
      }
    }
  }
});

/** Independent oracle: turns seen in a prefix, completed when their turn_completed is in it. */
function oracle(prefix: string[]) {
  const seen = new Map<string, { status: string; calls: Set<string> }>();
  for (const line of prefix) {
    const e = JSON.parse(line) as Record<string, string>;
    if (!e.turn_id || e.type === 'result') continue;
    const turn = seen.get(e.turn_id) ?? { status: 'incomplete', calls: new Set() };
    seen.set(e.turn_id, turn);
    if (e.type === 'turn_completed') turn.status = 'completed';
    if (e.type === 'tool_removed') turn.calls.delete(e.item_id!);
    else if (/^tool_/.test(e.type!)) turn.calls.add(e.item_id!);
  }
  return [...seen].map(([id, v]) => [id, v.status, v.calls.size]);
}

t.test('a stream cut at every line boundary of run.jsonl', async (t) => {
  for (let k = 0; k <= RUN_LINES.length; k++) {
    const prefix = RUN_LINES.slice(0, k);
    const out = jsonl(run(prefix, { onlyTurns: true }).join('\n'));
    t.same(out.map((r) => [r.turn_id, r.status, (r.tool_calls as unknown[]).length]), oracle(prefix), `cut after line ${k}`);
    const events = jsonl(run(prefix, { onlyTurns: true, events: true }).join('\n'));
    const held = events.reduce((n, r) => n + (r.events as unknown[]).length, 0);
    t.equal(held, prefix.filter((l) => /"turn_id"/.test(l) && !/"type":"result"/.test(l)).length, `cut after line ${k}: --events`);
  }
});

t.test('stream API fed in 1- and 7-byte chunks', async (t) => {
  for (const size of [1, 7]) {
    const out = await pipeThrough<Buffer>(chunked(RUN, size), parse({ file: 'run.jsonl' }), turns(), stringify());
    t.equal(Buffer.concat(out).toString(), RUN_EXPECTED.join('\n') + '\n', `chunks of ${size}`);
  }
});

t.test('hostile ids, types and keys pollute nothing', async (t) => {
  const before = Object.getOwnPropertyNames(Object.prototype).sort();
  const ids = { thread_id: '__proto__', turn_id: 'constructor' };
  const input = [
    ev({ ...ids, type: 'turn_started' }),
    ev({ ...ids, type: '__proto__' }),
    ev({ ...ids, type: 'toString' }),
    ev({ ...ids, type: 'todo_updated', todo: JSON.parse('{"__proto__":{"polluted":true}}') }),
    ev({ ...ids, type: 'tool_started', item_id: '__proto__', name: 'constructor', arguments: '{"__proto__":{"polluted":true}}' }),
    ev({ ...ids, type: 'tool_completed', item_id: '__proto__', status: 'completed' }),
    ev({ ...ids, type: 'file_changed', item_id: 'x', path: '__proto__' }),
    '{"__proto__":{"turn_id":"evil","polluted":1},"thread_id":"__proto__","turn_id":"constructor","type":"usage_updated","input_tokens":5}',
    ev({ ...ids, type: 'turn_completed' }),
  ];
  for (const options of [{}, { events: true }]) {
    const out = run(input, options);
    t.equal(out.length, 1);
    const rec = JSON.parse(out[0]!) as Record<string, unknown>;
    t.same([rec.thread_id, rec.turn_id, rec.status], ['__proto__', 'constructor', 'completed']);
    if (!('events' in options)) {
      const counts = rec.event_counts as Record<string, number>;
      t.ok(Object.hasOwn(counts, '__proto__'), 'a type named __proto__ is an own key');
      t.equal(counts['__proto__'], 1);
      t.equal(counts.toString, 1);
      t.same(rec.files_changed, ['__proto__']);
      t.same(rec.tool_calls, [{ item_id: '__proto__', name: 'constructor', status: 'completed', output_bytes: 0 }]);
      t.ok(Object.hasOwn(rec.todo as object, '__proto__'));
      t.equal((rec.usage as Record<string, unknown>).input_tokens, 5);
    } else {
      t.equal((rec.events as unknown[]).length, 9);
    }
  }
  t.equal(({} as Record<string, unknown>).polluted, undefined);
  t.same(Object.getOwnPropertyNames(Object.prototype).sort(), before, 'Object.prototype untouched');
});

t.test('binary: exact output and exit status', async (t) => {
  const r = await runBin('wuu-turns', [legacy('run.jsonl')]);
  t.same(r, { stdout: RUN_EXPECTED.join('\n') + '\n', stderr: '', code: 0, signal: null });
  const only = await runBin('wuu-turns', ['--only-turns'], { input: RUN });
  t.same([only.stdout, only.code], [ev(TURN1) + '\n' + ev(TURN2) + '\n', 0]);
});

t.test('binary: killed producer, open turn flushed as incomplete', async (t) => {
  const killed = fs.readFileSync(legacy('killed.jsonl'), 'utf8').split('\n');
  const r = await runBin('wuu-turns', ['test/fixtures/v0.1/killed.jsonl']);
  t.equal(r.code, 1);
  t.equal(
    r.stderr,
    'wuu-turns: test/fixtures/v0.1/killed.jsonl:22: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57)\n',
  );
  const turn = ev({
    type: 'turn', thread_id: 'th_7f3a', turn_id: 'tu_01', status: 'incomplete', error: null, reason: null,
    awaiting_auto_continuation: null, trace_path: null, subagent: false, message: "I'll run the tests first.", message_source: 'deltas',
    tool_calls: [
      { item_id: 'it_01', name: 'bash', status: 'completed', exit_code: 0, output_bytes: 106 },
      { item_id: 'it_02', name: 'read_file', status: 'incomplete', output_bytes: 0 },
    ],
    files_changed: [], todo: TURN1.todo, usage: null, completed_tokens: null,
    event_counts: {
      turn_started: 1, provider_state: 1, request_context: 1, todo_updated: 1, agent_message_delta: 3, tool_started: 2,
      command_started: 1, tool_output_delta: 3, command_output_delta: 3, tool_completed: 1, command_completed: 1,
    },
  });
  t.equal(r.stdout, [killed[0], killed[1], killed[19], turn].join('\n') + '\n');
});

t.test('binary: each file is a run', async (t) => {
  const r = await runBin('wuu-turns', ['--only-turns', 'test/fixtures/v0.1/killed.jsonl', 'test/fixtures/v0.1/timeout.jsonl', 'test/fixtures/v0.1/failed.jsonl']);
  t.same(jsonl(r.stdout).map((o) => [o.turn_id, o.status]), [['tu_01', 'incomplete'], ['tu_t1', 'interrupted'], ['tu_a1', 'failed']]);
  t.equal(r.code, 1);
});

t.test('binary: usage errors', async (t) => {
  const cases: Array<[string[], string]> = [
    [['--max-turn-bytes', '1K'], '--max-turn-bytes needs --events'],
    [['--events', '--max-turn-bytes', 'x'], "--max-turn-bytes takes a whole number (K, M, G suffixes allowed), not 'x'"],
    [['--bogus'], 'unknown option --bogus'],
  ];
  for (const [args, message] of cases) {
    const r = await runBin('wuu-turns', args);
    t.same(r, { stdout: '', stderr: `wuu-turns: ${message}\nTry 'wuu-turns --help' for more information.\n`, code: 2, signal: null });
  }
  const help = await runBin('wuu-turns', ['--help']);
  t.match(help.stdout, /^Usage: wuu-turns/);
  t.match(help.stdout, /--only-turns/);
});

t.test('binary: the message matches wuu-accumulate', async (t) => {
  const r = await runShell(
    "wuu-turns --only-turns test/fixtures/v0.1/run.jsonl | grep -o '\"message\":\"[^\"]*\"'; " +
      "wuu-accumulate test/fixtures/v0.1/run.jsonl | grep '^{\"type\":\"agent_message\"' | grep -o '\"message\":\"[^\"]*\"'",
  );
  const found = r.stdout.split('\n').filter(Boolean);
  t.same(found.slice(0, 2), found.slice(2));
  t.equal(found.length, 4);
});

t.test('binary: live pipe delivers each turn when it ends', async (t) => {
  const live = liveProcess('wuu-turns', ['--only-turns']);
  for (let i = 0; i < 3; i++) {
    const ids = { thread_id: 'th', turn_id: `tu_${i}` };
    live.write(
      [ev({ ...ids, type: 'turn_started' }), ev({ ...ids, type: 'agent_message_delta', delta: `m${i}` }), ev({ ...ids, type: 'turn_completed' })].join('\n') + '\n',
    );
    const line = await live.nextLine();
    t.match(line, new RegExp(`^\\{"type":"turn","thread_id":"th","turn_id":"tu_${i}","status":"completed".*"message":"m${i}"`), `turn ${i} arrives at its end`);
  }
  t.equal(await live.end(), 0);
});

t.test('bash calls carry their exit code from the output trailer (issue 23)', async (t) => {
  const text = exitStream();
  const expected = EXIT_CODES.map(([, name, code]) => (code === undefined ? [name] : [name, code]));
  for (const size of [1, 7, 4096]) {
    const out = await pipeThrough<Buffer>(chunked(text, size), parse({ file: 'x' }), turns({ onlyTurns: true }), stringify());
    const [turn] = jsonl(Buffer.concat(out).toString());
    const calls = (turn!.tool_calls as Array<Record<string, unknown>>).map((c) => ('exit_code' in c ? [c.name, c.exit_code] : [c.name]));
    t.same(calls, expected, `chunks of ${size}`);
  }
});
