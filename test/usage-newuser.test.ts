/**
 * wuu-usage for a new user (issue 23): days from the session id (and where
 * they come from), offset-less times in --timezone, an empty --since/--until
 * window said, an empty folder, one cost precision, -q, zero rows for runs
 * without usage, a file column, a damaged .gz, the one bad-line flood rule
 * (serial, -j and --merge), -f, and overlapping inputs counted once.
 * Expected figures are hand computed from examples/run.jsonl (main turns:
 * last snapshots 3900/4096/4096/310 and 800/0/8192/60; subagent 420/1000/0/38).
 */
import t from 'tap';
import path from 'node:path';
import { spec } from '../bin/wuu-usage.js';
import { parse } from '../lib/jsonl.js';
import { Calendar, isWallTime, sessionTime, timeOfValue } from '../lib/usage/dates.js';
import { UsageLedger } from '../lib/usage/ledger.js';
import { costDecimals, usdFixed } from '../lib/usage/report-text.js';
import type { TurnUnit } from '../lib/usage/types.js';
import { usage } from '../lib/usage/usage.js';
import { chunked, example, jsonl, pipeThrough, readExample, runBin } from './helpers.js';
import { runIn } from './runner-harness.js';
import { fs, goLine, tmpDir, usageRun, zlib } from './usage-gen.js';

const RUN = readExample('run.jsonl');

/**
 * wuu-usage with workers (-j 2) through the built binary, in process (helpers.ts runBin):
 * its workers load dist's JavaScript instead of compiling lib's TypeScript again under the
 * test loader (seconds of CPU per worker). The serial runs beside them use the sources.
 */
async function usageJobs(argv: string[]): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const { stdout, stderr, code } = await runBin('wuu-usage', argv);
  return { stdout, stderr, code };
}
const RUN_LINES = RUN.trimEnd().split('\n');
const lines = (from: number, to = RUN_LINES.length) => RUN_LINES.slice(from - 1, to).join('\n') + '\n';

/** A one-turn run of thread `thread` (its session id) with input tokens `input`; `extra` on every event. */
function oneRun(thread: string, input: number, extra: Record<string, unknown> = {}): string {
  const scope = { thread_id: thread, turn_id: `${thread}-turn-0001` };
  return (
    [
      goLine({ type: 'session_configured', model: 'm-1', provider: 'p', ...extra }),
      goLine({ type: 'thread_started', thread_id: thread, model: 'm-1', provider: 'p', cwd: '/w', ...extra }),
      goLine({ type: 'turn_started', ...scope }),
      goLine({ type: 'usage_updated', ...scope, input_tokens: input, cache_creation_tokens: 0, cache_read_tokens: 0, output_tokens: 1 }),
      goLine({ type: 'turn_completed', ...scope, input_tokens: input, output_tokens: 1, awaiting_auto_continuation: false, trace_path: '' }),
      goLine({ type: 'result', status: 'completed', thread_id: thread, turn_id: scope.turn_id, run_id: `run-${thread}`, final_message: '', trace_path: '' }),
    ].join('\n') + '\n'
  );
}

/** A file whose modification time is `day` at noon UTC (a copy made that day). */
function writeDated(file: string, text: string, day: string): void {
  fs.writeFileSync(file, text);
  const when = new Date(`${day}T12:00:00Z`);
  fs.utimesSync(file, when, when);
}

t.test('session ids and times without an offset: pure tables', async (t) => {
  const ids: Array<[string | null, string | undefined]> = [
    ['20260914-093000-ab12', '2026-09-14T09:30:00'],
    ['run-20260914-235959-x', '2026-09-14T23:59:59'],
    ['20261332-093000-ab12', undefined], // no 13th month
    ['20260230-093000-ab12', undefined], // no 30 February
    ['20260914-246000-ab12', undefined],
    ['20260914-093000', undefined], // the suffix is part of the shape
    ['agent-7e21', undefined],
    ['', undefined],
    [null, undefined],
  ];
  for (const [id, want] of ids) t.equal(sessionTime(id), want, `session id ${id}`);
  // The shape read by character codes gives what the regular expression gives.
  const shape = /^(?:run-)?(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-./;
  const general = (id: string) => {
    const m = shape.exec(id);
    return m === null ? undefined : sessionTime(`${m[1]}${m[2]}${m[3]}-${m[4]}${m[5]}${m[6]}-x`);
  };
  const base = '20260914-093000-ab12';
  // Test names with the characters escaped (a raw line separator would cut the TAP line).
  const named = (id: string) => JSON.stringify(id).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const odd = ['run-', 'run-run-', 'Run-', 'run', 'x', ' ', '\u0660', '٠'];
  const tails = ['-a', '-', '-\n', '-\r', '-\u2028', '-\u2029', '-\t', '-é', '--', 'a-b', ''];
  for (const head of ['', ...odd]) {
    for (let cut = 0; cut <= 15; cut++) {
      for (const tail of tails) {
        const id = head + base.slice(0, cut) + (cut >= 15 ? tail : tail.slice(0, 1));
        t.equal(sessionTime(id), general(id), `by codes as by the expression: ${named(id)}`);
      }
    }
    for (let k = 0; k < 15; k++) {
      const id = `${head}${base.slice(0, k)}${['a', '٣', '-', '/'][k % 4]}${base.slice(k + 1)}`;
      t.equal(sessionTime(id), general(id), `a wrong character at ${k}: ${named(id)}`);
    }
  }
  const values: Array<[unknown, string | undefined]> = [
    ['2026-09-14T23:30:00', '2026-09-14T23:30:00'],
    ['2026-09-14 23:30', '2026-09-14T23:30:00'],
    ['2026-09-14', '2026-09-14T00:00:00'],
    ['2026-09-14T23:30:00Z', '2026-09-14T23:30:00.000Z'],
    ['2026-09-14T23:30:00+02:00', '2026-09-14T21:30:00.000Z'],
    [1_789_000_000, '2026-09-10T00:26:40.000Z'],
    [1_789_000_000_123, '2026-09-10T00:26:40.123Z'],
    ['September 14, 2026', undefined], // no offset and not ISO: the machine's zone would decide, so not taken
    ['2026-02-30T10:00:00', undefined],
    ['Mon, 14 Sep 2026 23:30:00 GMT', '2026-09-14T23:30:00.000Z'],
    ['', undefined],
    [Number.NaN, undefined],
  ];
  for (const [value, want] of values) t.equal(timeOfValue(value), want, `timestamp ${JSON.stringify(value)}`);
  t.ok(isWallTime('2026-09-14T23:30:00'));
  t.notOk(isWallTime('2026-09-14T23:30:00.000Z'));
  // A wall-clock time is on its own day in every zone; an instant is not.
  for (const zone of ['UTC', 'Asia/Tokyo', 'America/Los_Angeles', 'Pacific/Kiritimati']) {
    t.equal(new Calendar(zone).day('2026-09-14T23:30:00'), '2026-09-14', `wall time in ${zone}`);
  }
  t.equal(new Calendar('Asia/Tokyo').day('2026-09-14T23:30:00.000Z'), '2026-09-15');
  t.equal(new Calendar('UTC').day('garbage'), 'unknown');
});

t.test('costs in one precision per table: pure tables', async (t) => {
  const usd = (x: string) => BigInt(Math.round(Number(x) * 1e9)) * 1_000_000n;
  const cases: Array<[string[], number]> = [
    [['0.04', '0.0056'], 4],
    [['12.5', '0.31'], 2],
    [['1234.5', '0.049'], 3],
    [['0.00000012'], 6],
    [[], 2],
    [['0'], 2],
  ];
  for (const [costs, want] of cases) t.equal(costDecimals(costs.map(usd)), want, costs.join(' '));
  t.equal(usdFixed(usd('0.04'), 4), '$0.0400');
  t.equal(usdFixed(usd('0.00555'), 4), '$0.0056', 'rounded half up');
  t.equal(usdFixed(usd('1234.5'), 2), '$1,234.50');
  t.equal(usdFixed(0n, 3), '$0.000');
  t.equal(usdFixed(usd('0.0000001'), 6), '<$0.000001', 'a cost below the last place is not shown as zero');
});

t.test('a turn seen in two records (a log rotated mid-turn) keeps its snapshot, end, result and model, in either order', async (t) => {
  const base = { kind: 'turn', line: 1, thread_id: 'th', turn_id: 'th-turn-0002', provider: 'anthropic', input_tokens: 800n, output_tokens: 60n } as const;
  const old: TurnUnit = { ...base, file: 'a.jsonl', run_id: null, run_status: null, model: 'claude-sonnet-4-5', time: '2026-12-02T23:15:01', date_source: 'session_id', end: null, source: 'usage_updated', cache_creation_tokens: 0n, cache_read_tokens: 8192n };
  const tail: TurnUnit = { ...base, file: 'b.jsonl', provider: '', run_id: 'run-th', run_status: 'completed', model: 'unknown', time: '2026-12-03T08:00:00.000Z', date_source: 'mtime', end: 'completed', source: 'turn_completed', cache_creation_tokens: 0n, cache_read_tokens: 0n };
  for (const order of [[old, tail], [tail, old]]) {
    const ledger = new UsageLedger();
    ledger.add(order);
    const [unit] = ledger.units() as TurnUnit[];
    t.same(
      { ...unit, file: unit!.file },
      { ...old, run_id: 'run-th', run_status: 'completed', end: 'completed' },
      'counts and time of the snapshot, end and result of the turn_completed',
    );
  }
});

t.test('--merge reads date_source and run lines; a part without date_source is still accepted', async (t) => {
  const { parseUnitLine } = await import('../lib/usage/merge.js');
  const line = '{"kind":"turn","file":"a","line":1,"thread_id":"t","turn_id":"u","run_id":null,"run_status":null,"provider":"","model":"m","time":null,"end":null,"source":"none","input_tokens":1,"cache_creation_tokens":0,"cache_read_tokens":0,"output_tokens":0}';
  t.match(parseUnitLine(line), { kind: 'turn', date_source: null });
  t.match(parseUnitLine(line.replace('"time":null', '"time":null,"date_source":"mtime"')), { date_source: 'mtime' });
  t.equal(parseUnitLine(line.replace('"time":null', '"time":null,"date_source":"guess"')), "wuu-usage --json turn line: bad or missing 'date_source'");
  const run = '{"kind":"run","file":"a","line":1,"thread_id":"","run_id":"","run_status":"failed","provider":"","model":"unknown","time":null,"date_source":null,"input_tokens":0,"cache_creation_tokens":0,"cache_read_tokens":0,"output_tokens":0}';
  t.match(parseUnitLine(run), { kind: 'run', run_status: 'failed' });
});

t.test('a subagent seen in two records: its type and final status from the one that has them', async (t) => {
  const base = { kind: 'agent', line: 1, thread_id: 'th', agent_id: 'ag', run_id: 'run-th', run_status: 'completed', provider: 'p', model: 'm', time: null, date_source: null, source: 'report', input_tokens: 5n, cache_creation_tokens: 0n, cache_read_tokens: 0n, output_tokens: 1n } as const;
  for (const order of [['a', 'b'], ['b', 'a']]) {
    const ledger = new UsageLedger();
    const recs = { a: { ...base, file: 'a', agent_type: '', agent_status: 'running' }, b: { ...base, file: 'b', agent_type: 'explorer', agent_status: 'completed' } } as const;
    ledger.add(order.map((k) => recs[k as 'a' | 'b']));
    t.match(ledger.units(), [{ agent_type: 'explorer', agent_status: 'completed' }]);
  }
});

t.test('days from the session id, else the mtime; date_source per row; the table footnotes it', async (t) => {
  const dir = tmpDir();
  // Copied today (mtime 2026-12-03); the session id says 14 September.
  writeDated(path.join(dir, 'a.jsonl'), oneRun('20260914-093000-ab12', 100), '2026-12-03');
  // No dated session id: the file's modification time is all there is.
  writeDated(path.join(dir, 'b.jsonl'), oneRun('th_plain', 20), '2026-10-01');
  const csv = await usageRun(['--csv', '--no-cost', '--by', 'day', '--timezone', 'UTC', '-j', '1', dir]);
  t.equal(csv.code, 0);
  t.equal(csv.stderr, '');
  t.equal(
    csv.stdout,
    [
      'kind,day,agent,turns,agents,input_tokens,cache_creation_tokens,cache_read_tokens,prompt_tokens,output_tokens,cache_hit_ratio,date_source',
      'row,2026-09-14,main,1,0,100,0,0,100,1,0,session_id',
      'row,2026-10-01,main,1,0,20,0,0,20,1,0,mtime',
      'total,,main,2,0,120,0,0,120,2,0,mtime+session_id',
      'total,,subagents,0,0,0,0,0,0,0,,',
      'total,,all,2,0,120,0,0,120,2,0,mtime+session_id',
      '',
    ].join('\n'),
  );
  const units = jsonl((await usageJobs(['--json', '--no-cost', '--timezone', 'UTC', '-j', '2', dir])).stdout).filter((l) => l.kind === 'turn');
  t.same(
    units.map((u) => [u.time, u.date_source]),
    [
      ['2026-09-14T09:30:00', 'session_id'],
      ['2026-10-01T12:00:00.000Z', 'mtime'],
    ],
    'the session id is kept as the wall-clock time it is',
  );
  const table = await usageRun(['--table', '--no-cost', '--by', 'month', '--timezone', 'Asia/Tokyo', '-j', '1', dir]);
  const out = table.stdout.split('\n');
  t.match(out[2], /^2026-09 {2}/, 'a day from the session id is not marked');
  t.match(out[3], /^2026-10\* /, 'a day from the mtime is marked');
  t.equal(out.at(-2), 'Days in Asia/Tokyo: 1 run dated by their session id; 1 run dated by the file\'s modification time (marked *).');
  const md = await usageRun(['--markdown', '--no-cost', '--by', 'day', '--timezone', 'UTC', '-j', '1', dir]);
  t.match(md.stdout, /\n\nDays in UTC: 1 run dated by their session id; 1 run dated by the file's modification time \(marked \\\*\)\.\n$/);
  const plain = await usageRun(['--table', '--no-cost', '-j', '1', dir]);
  t.notMatch(plain.stdout, /Days in/, 'no footnote when no day is shown');
});

t.test('--since/--until: the run counts on its session day; a window that selects nothing says so', async (t) => {
  const dir = tmpDir();
  writeDated(path.join(dir, 'a.jsonl'), oneRun('20260914-093000-ab12', 100), '2026-12-03');
  writeDated(path.join(dir, 'b.jsonl'), oneRun('th_plain', 20), '2026-12-03');
  const sept = await usageRun(['--json', '--no-cost', '--since', '2026-09-14', '--until', '2026-09-14', '--timezone', 'UTC', '-j', '1', dir]);
  t.equal(sept.code, 0);
  t.equal(sept.stderr, '');
  t.match(jsonl(sept.stdout).at(-1), { kind: 'total', input_tokens: 100, date_source: 'session_id' });
  const none = await usageRun(['--json', '--no-cost', '--since', '2026-01-01', '--until', '2026-01-31', '--timezone', 'UTC', '-j', '1', dir]);
  t.equal(none.code, 0);
  t.equal(
    none.stderr,
    "wuu-usage: warning: --since/--until 2026-01-01 to 2026-01-31 selects nothing: the usage read is dated 2026-09-14 to 2026-12-03 in UTC (1 of 2 runs dated by a file's modification time or the time of reading, not their session id)\n",
  );
  const quiet = await usageRun(['--json', '--no-cost', '-q', '--since', '2026-01-01', '--timezone', 'UTC', '-j', '1', dir]);
  t.equal(quiet.stderr, '', '-q: no warnings');
  const one = await usageRun(['--json', '--no-cost', '--since', '2027-01-01', '--timezone', 'UTC', path.join(dir, 'a.jsonl')]);
  t.equal(one.stderr, 'wuu-usage: warning: --since/--until 2027-01-01 to ... selects nothing: the usage read is dated 2026-09-14 in UTC\n');
  const nothing = await usageRun(['--json', '--no-cost', '--until', '2026-01-31', '--timezone', 'UTC'], { stdin: '' });
  t.equal(nothing.stderr, 'wuu-usage: warning: --since/--until ... to 2026-01-31 selects nothing: no usage with a known day was read\n');
});

t.test('a timestamp without an offset is read in --timezone, not the machine zone', async (t) => {
  // 23:30 on 14 September, no offset: in Tokyo it is still the 14th (read as UTC it would be the 15th there).
  const text = oneRun('th_1', 7, { timestamp: '2026-09-14T23:30:00' });
  for (const zone of ['Asia/Tokyo', 'America/Los_Angeles']) {
    const r = await usageRun(['--csv', '--no-cost', '--by', 'day', '--timezone', zone], { stdin: text });
    t.equal(r.stdout.split('\n')[1], 'row,2026-09-14,main,1,0,7,0,0,7,1,0,timestamp', zone);
  }
  const offset = await usageRun(['--csv', '--no-cost', '--by', 'day', '--timezone', 'Asia/Tokyo'], { stdin: oneRun('th_1', 7, { timestamp: '2026-09-14T23:30:00Z' }) });
  t.equal(offset.stdout.split('\n')[1], 'row,2026-09-15,main,1,0,7,0,0,7,1,0,timestamp', 'an instant moves with the zone');
});

t.test('the stream API dates by the session id too, in 1- and 7-byte chunks', async (t) => {
  const text = oneRun('20260914-093000-ab12', 5) + oneRun('th_plain', 6);
  for (const size of [1, 7]) {
    const out = (await pipeThrough<string>(chunked(text, size), parse(), usage({ format: 'csv', noCost: true, by: ['day'], timeZone: 'UTC', timeOfFile: () => ({ time: '2026-12-03T10:00:00.000Z', source: 'mtime' }) }))).join('');
    t.equal(out.split('\n').slice(1, 3).join('\n'), 'row,2026-09-14,main,1,0,5,0,0,5,1,0,session_id\nrow,2026-12-03,main,1,0,6,0,0,6,1,0,mtime', `${size}-byte chunks`);
  }
});

t.test('an empty folder says so and exits 2, like every tool', async (t) => {
  const dir = tmpDir();
  const r = await usageRun(['--table', dir]);
  t.equal(r.code, 2);
  t.equal(r.stdout, '');
  t.equal(r.stderr, `wuu-usage: ${dir}: no *.jsonl or *.jsonl.gz files in this directory\n`);
  const other = await usageRun(['--csv', '--no-cost', dir, example('busy.jsonl')]);
  t.equal(other.code, 2, 'the other inputs are still read');
  t.match(other.stdout, /^row,,,examples\/busy.jsonl|row,,,.*busy\.jsonl,main,0,0/m);
});

t.test('runs without usage are zero rows; rows per run name their file; costs in one precision', async (t) => {
  const r = await usageRun(['--csv', '-j', '1', example('setup-failed.jsonl'), example('busy.jsonl'), example('run.jsonl')]);
  t.equal(r.code, 0);
  const rows = r.stdout.trimEnd().split('\n');
  t.equal(rows[0], 'kind,thread_id,run_id,file,agent,turns,agents,input_tokens,cache_creation_tokens,cache_read_tokens,prompt_tokens,output_tokens,cache_hit_ratio,cost_usd,date_source');
  const cut = (row: string) => row.split(',').slice(0, 12).join(',');
  // Rows in file order (sorted names), whatever the order of the arguments or -j.
  t.same(rows.slice(1, 5).map(cut), [
    `row,,,${example('busy.jsonl')},main,0,0,0,0,0,0,0`,
    `row,20261202-231501-7f3a,run-20261202-231501-7f3a,${example('run.jsonl')},main,2,0,4700,4096,12288,21084,370`,
    `row,20261202-231501-7f3a,run-20261202-231501-7f3a,${example('run.jsonl')},subagents,0,1,420,1000,0,1420,38`,
    `row,,,${example('setup-failed.jsonl')},main,0,0,0,0,0,0,0`,
  ]);
  t.match(rows[1], /,0,mtime$/, 'a zero row costs 0, whatever its (unknown) model');
  t.equal(r.stderr, '', 'no price warning for a run that used nothing');
  // The zero row survives a map-reduce.
  const part = path.join(tmpDir(), 'part.jsonl');
  fs.writeFileSync(part, (await usageRun(['--json', example('setup-failed.jsonl')])).stdout);
  t.match(jsonl(fs.readFileSync(part, 'utf8'))[0], { kind: 'run', run_id: '', run_status: 'failed', input_tokens: 0 });
  const merged = await usageRun(['--merge', '--csv', part]);
  t.equal(merged.stdout.split('\n')[1]!.split(',').slice(0, 6).join(','), `row,,,${example('setup-failed.jsonl')},main,0`);
  // One precision in the table: no $0.04 beside $0.0056.
  const table = await usageRun(['--table', '-j', '1', example('run.jsonl'), example('timeout.jsonl'), example('failed.jsonl')]);
  const costs = table.stdout.match(/\$[\d,]+\.\d+/g) ?? [];
  t.ok(costs.length >= 6);
  t.same(new Set(costs.map((c) => c.split('.')[1]!.length)), new Set([4]), costs.join(' '));
  t.match(table.stdout, /\$0\.0387\n/, 'run.jsonl main: 4 decimals, not $0.04');
});

t.test('-q: no warnings; bad lines are still reported', async (t) => {
  const all = await usageRun(['--table', '-q', '-j', '1', path.dirname(example('run.jsonl'))]);
  t.equal(all.code, 0);
  t.equal(all.stderr, '', 'killed.jsonl warns three times without -q');
  const bad = await usageRun(['--json', '-q'], { stdin: `${RUN}not json\n` });
  t.equal(bad.code, 1);
  t.equal(bad.stderr, 'wuu-usage: <stdin>:57: not valid JSON (Unexpected token \'o\', "not json" is not valid JSON)\n');
});

t.test('a .gz without its 8-byte trailer: everything it holds, then the damage, exit 2 (serial and -j)', async (t) => {
  const dir = tmpDir();
  const whole = zlib.gzipSync(Buffer.from(RUN));
  const cut = path.join(dir, 'cut.jsonl.gz');
  fs.writeFileSync(cut, whole.subarray(0, whole.length - 8));
  const intact = path.join(dir, 'ok.jsonl');
  fs.writeFileSync(intact, oneRun('th_ok', 1));
  for (const jobs of ['1', '2']) {
    const r = await (jobs === '1' ? usageRun : usageJobs)(['--json', '--no-cost', '-j', jobs, cut, intact]);
    t.equal(r.code, 2, `-j ${jobs}`);
    t.equal(r.stderr, `wuu-usage: ${cut}: gzip data cut off (unexpected end of file)\n`);
    const turns = jsonl(r.stdout).filter((l) => l.kind === 'turn' && l.file === cut);
    t.same(turns.map((u) => [u.turn_id, u.input_tokens, u.cache_read_tokens]), [
      ['20261202-231501-7f3a-turn-0001', 3900, 4096],
      ['20261202-231501-7f3a-turn-0002', 800, 8192],
    ]);
  }
  const stdin = await runIn(spec, ['--json', '--no-cost'], [whole.subarray(0, 5), whole.subarray(5, whole.length - 8)]);
  t.equal(stdin.code, 2);
  t.equal(stdin.stderr, 'wuu-usage: <stdin>: gzip data cut off (unexpected end of file)\n');
  t.match(jsonl(stdin.stdout).at(-1), { kind: 'total', turns: 2, cache_read_tokens: 12288 });
});

t.test('the one flood rule: 20 bad lines listed, then one note and a count (serial, -j, --merge)', async (t) => {
  const dir = tmpDir();
  const file = path.join(dir, 'notes.jsonl');
  fs.writeFileSync(file, Array.from({ length: 823 }, (_, i) => `note ${i + 1}`).join('\n') + '\n');
  const listed = (name: string, n: number) => `wuu-usage: ${name}:${n}: not valid JSON (Unexpected token 'o', "note ${n}" is not valid JSON)\n`;
  const expected = (name: string, total: number) =>
    Array.from({ length: 20 }, (_, i) => listed(name, i + 1)).join('') +
    `wuu-usage: ${name}: this does not look like a 'wuu exec --json' stream (20 bad lines in a row); not listing further bad lines\n` +
    `wuu-usage: ${total} bad lines in all, ${total - 20} not listed\n`;
  const serial = await usageRun(['--json', '--no-cost', '-j', '1', file]);
  t.equal(serial.code, 1);
  t.equal(serial.stderr, expected(file, 823));
  const copy = path.join(dir, 'notes2.jsonl');
  fs.copyFileSync(file, copy);
  const parallel = await usageJobs(['--json', '--no-cost', '-j', '2', file, copy]);
  t.equal(parallel.stderr, expected(file, 1646), 'a streak goes on into the next file, as in the runner; workers replay into one log');
  t.equal((await usageRun(['--json', '--no-cost', '-j', '1', file, copy])).stderr, parallel.stderr, '-j 1 and -j 2 agree');
  const merge = await usageRun(['--merge', '--json', file]);
  t.equal(merge.code, 1);
  t.equal(merge.stderr.split('\n').length - 1, 22);
  t.match(merge.stderr, /wuu-usage: 823 bad lines in all, 803 not listed\n$/);
  // A good line breaks the streak: the next bad line is listed again.
  const mixed = await usageRun(['--json', '--no-cost'], { stdin: `${'x\n'.repeat(25)}${RUN}y\n` });
  t.match(mixed.stderr, /<stdin>:82: not valid JSON/);
  t.match(mixed.stderr, /26 bad lines in all, 5 not listed\n$/);
});

t.test('-f follows a file that does not exist yet and ends after the run\'s result', async (t) => {
  const file = path.join(tmpDir(), 'live.jsonl');
  const writes = [lines(1, 20), lines(21, 40), lines(41)];
  let timer: NodeJS.Timeout | undefined;
  const step = (i: number) => {
    timer = setTimeout(() => {
      fs.appendFileSync(file, writes[i]!);
      if (i + 1 < writes.length) step(i + 1);
    }, 150);
  };
  step(0);
  t.teardown(() => clearTimeout(timer));
  const r = await runIn(spec, ['-f', '--json', '--no-cost', file], '', { followGraceMs: 50 });
  t.equal(r.code, 0);
  t.equal(r.stderr, '');
  t.match(jsonl(r.stdout).at(-1), { kind: 'total', turns: 2, input_tokens: 4700, cache_read_tokens: 12288, subagents: { agents: 1, input_tokens: 420 } });
});

t.test('overlapping inputs count each thing once', async (t) => {
  const dir = tmpDir();
  const run = path.join(dir, 'run.jsonl');
  fs.writeFileSync(run, RUN);
  const alone = jsonl((await usageRun(['--json', run])).stdout).at(-1)!;
  // A copy of the run's tail from the sub-agent's first snapshot on: its thread is not yet known to be a child.
  const tail = path.join(dir, 'tail.jsonl');
  fs.writeFileSync(tail, lines(17));
  for (const order of [[run, tail], [tail, run]]) {
    const r = await usageRun(['--json', '-j', '1', ...order]);
    const total = jsonl(r.stdout).at(-1)!;
    t.match(total, { turns: 2, input_tokens: 4700, subagents: { agents: 1, input_tokens: 420 } }, `${path.basename(order[0]!)} first`);
    t.equal(total.cost_usd, alone.cost_usd, 'the cost is known and the same');
  }
  // A copy holding only the run's result adds no zero row beside the run.
  const last = path.join(dir, 'last.jsonl');
  fs.writeFileSync(last, lines(56));
  const withLast = await usageRun(['--csv', '--no-cost', '-j', '1', run, last]);
  t.equal(withLast.stdout.split('\n').filter((l) => l.startsWith('row,')).length, 2, 'main and subagents of the run, no zero row');
  const tailOnly = jsonl((await usageRun(['--json', '--no-cost', tail])).stdout);
  t.same(
    tailOnly.filter((l) => l.kind === 'turn').map((u) => u.turn_id),
    ['20261202-231501-7f3a-turn-0001', '20261202-231501-7f3a-turn-0002'],
    'alone, the tail counts no sub-agent thread as a main turn',
  );
  // Rotated between turn 2's last usage_updated (line 53) and its turn_completed (line 55).
  const one = path.join(dir, 'rot.1.jsonl');
  const two = path.join(dir, 'rot.2.jsonl');
  fs.writeFileSync(one, lines(1, 53));
  fs.writeFileSync(two, lines(54));
  for (const jobs of ['1', '2']) {
    const total = jsonl((await (jobs === '1' ? usageRun : usageJobs)(['--json', '-j', jobs, one, two])).stdout).at(-1)!;
    t.match(total, { turns: 2, cache_read_tokens: 12288, input_tokens: 4700 }, `rotated, -j ${jobs}`);
    t.equal(total.cost_usd, alone.cost_usd);
  }
});

t.test('a run read from many files names the first few in its FILE cell', async (t) => {
  const dir = tmpDir();
  for (let i = 1; i <= 6; i++) {
    const scope = { thread_id: 'th_x', turn_id: `th_x-turn-000${i}` };
    const text = [
      goLine({ type: 'turn_started', ...scope }),
      goLine({ type: 'usage_updated', ...scope, input_tokens: i, cache_creation_tokens: 0, cache_read_tokens: 0, output_tokens: 0 }),
      goLine({ type: 'turn_completed', ...scope, input_tokens: i, output_tokens: 0 }),
      goLine({ type: 'result', status: 'completed', thread_id: 'th_x', turn_id: scope.turn_id, run_id: 'run-th_x', final_message: '', trace_path: '' }),
    ].join('\n');
    fs.writeFileSync(path.join(dir, `p${i}.jsonl`), `${text}\n`);
  }
  const r = await usageRun(['--csv', '--no-cost', '-q', '-j', '1', dir]);
  const f = (i: number) => path.join(dir, `p${i}.jsonl`);
  t.equal(r.stdout.split('\n')[1], `row,th_x,run-th_x,"${f(1)}, ${f(2)}, ${f(3)}, ${f(4)}, ...",main,6,0,21,0,0,21,0,0,mtime`);
});
