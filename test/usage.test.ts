import t from 'tap';
import path from 'node:path';
import { LineRecord } from '../lib/jsonl.js';
import { createUsage, type UsageOptions } from '../lib/usage/usage.js';
import { Calendar, isIsoDate, isoWeek } from '../lib/usage/dates.js';
import { buildReport } from '../lib/usage/grouping.js';
import { UsageLedger } from '../lib/usage/ledger.js';
import { parseUnitLine } from '../lib/usage/merge.js';
import { groupDigits, nanoOf, parsePricing, Pricer, usdDecimal, usdHuman } from '../lib/usage/prices.js';
import { tailType } from '../lib/usage/reader.js';
import { readTokens } from '../lib/usage/tokens.js';
import { USAGE_DIMS, type UsageDim, type UsageUnit } from '../lib/usage/types.js';
import { chunked, jsonl, pipeThrough } from './helpers.js';
import { fleet, fs, generate, oracle, tmpDir, usageRun, type Four, type Oracle } from './usage-gen.js';

// ---------------------------------------------------------------- helpers

/** Runs the core over event objects (as one file) and returns [--json output, warnings]. */
function scan(events: Array<Record<string, unknown>>, options: UsageOptions = {}): [string, string[]] {
  const warnings: string[] = [];
  const core = createUsage({ format: 'json', noCost: true, timeOfFile: () => '2026-12-02T10:00:00.000Z', ...options, warn: (m) => warnings.push(m) });
  let out = '';
  events.forEach((e, i) => core.push(new LineRecord(Buffer.from(JSON.stringify(e)), 'f', i + 1), (o) => (out += o)));
  core.endFile?.('f', () => {});
  core.end?.((o) => (out += o));
  return [out, warnings];
}

const total = (out: string) => jsonl(out).find((l) => l.kind === 'total')!;
const TH = 'th_1';
const tu = (n: number, thread = TH) => ({ thread_id: thread, turn_id: `${thread}-turn-000${n}` });
const snap = (n: number, i: number, cw: number, cr: number, o: number, thread = TH) => ({ type: 'usage_updated', ...tu(n, thread), input_tokens: i, cache_creation_tokens: cw, cache_read_tokens: cr, output_tokens: o });
const start = [
  { type: 'session_configured', model: 'm-session', provider: 'p', protocol_version: 'wuu-app-server/v0.1', permissions: { mode: 'standard' } },
  { type: 'thread_started', thread_id: TH, model: 'm-1', provider: 'p', cwd: '/w' },
];
const result = { type: 'result', status: 'completed', thread_id: TH, turn_id: tu(1).turn_id, run_id: `run-${TH}`, final_message: '', trace_path: '' };
const four = (o: Record<string, unknown>): Four => [Number(o.input_tokens), Number(o.cache_creation_tokens), Number(o.cache_read_tokens), Number(o.output_tokens)];

// ------------------------------------------------------------ pure tables

t.test('the wire sample: last snapshot, exclusive input, prompt and cache hit', async (t) => {
  const [out, warnings] = scan([
    ...start,
    { type: 'turn_started', ...tu(1) },
    snap(1, 400, 0, 800, 40),
    snap(1, 700, 0, 800, 95),
    { type: 'turn_completed', ...tu(1), input_tokens: 700, output_tokens: 95, awaiting_auto_continuation: false, trace_path: '' },
    result,
  ]);
  t.same(warnings, []);
  const tot = total(out);
  t.same(four(tot), [700, 0, 800, 95], 'the last snapshot, not the sum');
  t.equal(tot.prompt_tokens, 1500);
  t.equal(tot.cache_hit_ratio, 0.533333333, 'read / (input + write + read)');
});

t.test('a resumed session whose cache exceeds input is normal: no warning, hit below 100%', async (t) => {
  const [out, warnings] = scan([...start, { type: 'turn_started', ...tu(1) }, snap(1, 10, 50, 90_000, 20), { type: 'turn_completed', ...tu(1), input_tokens: 10, output_tokens: 20 }, result]);
  t.same(warnings, [], 'no "input_tokens should include cached tokens"');
  t.ok((total(out).cache_hit_ratio as number) < 1);
});

t.test('child threads: their turn ends and snapshots are not main-agent usage; subagents once', async (t) => {
  const agent = 'ag_1';
  const child = (n: number) => tu(n, agent);
  const [out, warnings] = scan([
    ...start,
    { type: 'turn_started', ...tu(1) },
    snap(1, 100, 0, 0, 10),
    { type: 'subagent_started', thread_id: TH, agent_id: agent, agent_type: 'explorer', status: 'running', input_tokens: 0, cache_creation_tokens: 0, cache_read_tokens: 0, output_tokens: 0 },
    snap(1, 500, 0, 0, 50, agent),
    { type: 'turn_completed', ...child(1), input_tokens: 500, output_tokens: 50 },
    { type: 'subagent_updated', thread_id: TH, agent_id: agent, status: 'running', input_tokens: 500, cache_creation_tokens: 0, cache_read_tokens: 0, output_tokens: 50 },
    snap(2, 900, 0, 100, 70, agent),
    { type: 'turn_completed', ...child(2), input_tokens: 900, output_tokens: 70 },
    { type: 'subagent_completed', thread_id: TH, agent_id: agent, status: 'completed', input_tokens: 1400, cache_creation_tokens: 0, cache_read_tokens: 100, output_tokens: 120 },
    { type: 'subagent_completed', thread_id: TH, agent_id: agent, status: 'completed', input_tokens: 1400, cache_creation_tokens: 0, cache_read_tokens: 100, output_tokens: 120 },
    { type: 'turn_completed', ...tu(1), input_tokens: 100, output_tokens: 10 },
    result,
  ]);
  t.same(warnings, []);
  const tot = total(out);
  t.same(four(tot), [100, 0, 0, 10], 'main = the root turn only');
  t.equal(tot.turns, 1);
  t.same(four(tot.subagents as Record<string, unknown>), [1400, 0, 100, 120], 'the last report, once');
  t.equal((tot.subagents as Record<string, unknown>).agents, 1);
});

t.test('a child thread that never reports as a subagent still counts, apart, once per turn', async (t) => {
  const [out] = scan([...start, { type: 'turn_started', ...tu(1) }, snap(1, 5, 0, 0, 1, 'ag_x'), snap(1, 8, 0, 0, 2, 'ag_x'), snap(2, 3, 0, 0, 1, 'ag_x'), snap(1, 1, 0, 0, 1), { type: 'turn_completed', ...tu(1), input_tokens: 1, output_tokens: 1 }, result]);
  const units = jsonl(out).filter((l) => l.kind === 'agent');
  t.equal(units.length, 1);
  t.equal(units[0]!.source, 'child_thread');
  t.same(four(units[0]!), [11, 0, 0, 3], 'last snapshot per child turn, summed over its turns');
  t.same(four(total(out)), [1, 0, 0, 1]);
});

t.test('turn_completed counts only for a turn without snapshot; exec-side empty ends name no turn', async (t) => {
  const [out, warnings] = scan([
    ...start,
    { type: 'turn_started', ...tu(1) },
    { type: 'turn_completed', ...tu(1), input_tokens: 30, output_tokens: 3 },
    { type: 'turn_started', ...tu(2) },
    snap(2, 10, 1, 2, 3),
    { type: 'turn_completed', ...tu(2), input_tokens: 99, output_tokens: 9 },
    { type: 'turn_interrupted', thread_id: '', turn_id: '', reason: 'timeout' },
    result,
  ]);
  t.same(four(total(out)), [40, 1, 2, 6]);
  t.equal(total(out).turns, 2);
  t.equal(warnings.length, 1);
  t.match(warnings[0], /^f:7: warning: turn_completed of turn th_1-turn-0002 \(thread th_1\) says input 99 output 9/);
});

t.test('odd token values are FILE:LINE warnings and not counted; beyond 2^53 is exact', async (t) => {
  const big = '9007199254740993'; // 2^53 + 1: a double cannot hold it
  const lines = [
    ...start.map((e) => JSON.stringify(e)),
    JSON.stringify({ type: 'turn_started', ...tu(1) }),
    `{"cache_creation_tokens":0,"cache_read_tokens":0,"input_tokens":${big},"output_tokens":1,"thread_id":"th_1","turn_id":"th_1-turn-0001","type":"usage_updated"}`,
    `{"cache_creation_tokens":0,"cache_read_tokens":0,"input_tokens":-5,"output_tokens":1,"thread_id":"th_1","turn_id":"th_1-turn-0001","type":"usage_updated"}`,
    `{"cache_creation_tokens":0,"cache_read_tokens":0,"input_tokens":"12","output_tokens":1,"thread_id":"th_1","turn_id":"th_1-turn-0001","type":"usage_updated"}`,
    `{"cache_creation_tokens":0,"cache_read_tokens":1e400,"input_tokens":1,"output_tokens":1,"thread_id":"th_1","turn_id":"th_1-turn-0001","type":"usage_updated"}`,
    `{"cache_creation_tokens":0.5,"cache_read_tokens":0,"input_tokens":1,"output_tokens":1,"thread_id":"th_1","turn_id":"th_1-turn-0001","type":"usage_updated"}`,
    `{"cache_creation_tokens":0,"cache_read_tokens":0,"input_tokens":1e20,"output_tokens":1,"thread_id":"th_1","turn_id":"th_1-turn-0001","type":"usage_updated"}`,
    JSON.stringify({ type: 'turn_completed', ...tu(1), input_tokens: 1, output_tokens: 1 }).replace('"input_tokens":1', `"input_tokens":${big}`),
    JSON.stringify(result),
  ];
  const r = await usageRun(['--json', '--no-cost'], { stdin: lines.join('\n') + '\n' });
  t.equal(r.code, 0);
  const warn = r.stderr.trim().split('\n');
  t.match(warn[0], /^wuu-usage: <stdin>:5: warning: usage_updated: input_tokens is negative \(-5\); this event is not counted$/);
  t.match(warn[1], /^wuu-usage: <stdin>:6: warning: usage_updated: input_tokens is a string \("12"\)/);
  t.match(warn[2], /^wuu-usage: <stdin>:7: warning: usage_updated: cache_read_tokens is out of range \(Infinity\)/);
  t.match(warn[3], /^wuu-usage: <stdin>:8: warning: usage_updated: cache_creation_tokens is a fraction \(0.5\)/);
  t.match(warn[4], /^wuu-usage: <stdin>:9: warning: usage_updated: input_tokens is not an integer written as digits/);
  t.equal(warn.length, 5, 'the exact turn_completed agrees with the snapshot');
  t.match(r.stdout, new RegExp(`"kind":"total".*"input_tokens":${big},`), 'exact digits in the total');
  t.same(readTokens({ input_tokens: 2 ** 53 + 2 }, Buffer.from(`{"input_tokens":${2 ** 53 + 2}}`)), { input_tokens: 9007199254740994n, cache_creation_tokens: 0n, cache_read_tokens: 0n, output_tokens: 0n });
});

t.test('anomalies are warnings with FILE:LINE; a run without result is not blamed on the producer when interrupted', async (t) => {
  const [, warnings] = scan([...start, { type: 'turn_started', ...tu(1) }, snap(1, 10, 0, 0, 5), snap(1, 4, 0, 0, 5)]);
  t.match(warnings[0], /^f:5: warning: usage_updated of turn th_1-turn-0001 \(thread th_1\) goes down \(input_tokens 10 -> 4\)/);
  t.match(warnings[1], /^f: warning: no result event after line 5: the run was cut short \(killed\?\)/);
  t.match(warnings[2], /^f:5: warning: turn th_1-turn-0001 \(thread th_1\) has usage but never ended/);
});

t.test('UsageLedger is order-independent and counts a unit once', async (t) => {
  const [out] = scan([...start, { type: 'turn_started', ...tu(1) }, snap(1, 10, 0, 0, 5), { type: 'turn_completed', ...tu(1), input_tokens: 10, output_tokens: 5 }, result]);
  const unit = parseUnitLine(jsonl(out)[0] === undefined ? '' : JSON.stringify(jsonl(out)[0])) as UsageUnit;
  const cut = { ...unit, end: null, run_id: null } as UsageUnit;
  const a = new UsageLedger();
  a.add([unit, cut]);
  const b = new UsageLedger();
  b.add([cut, unit]);
  t.same(a.units(), b.units());
  t.equal(a.units().length, 1);
  t.same(a.units()[0], unit, 'the ended one with a result wins');
});

t.test('parseUnitLine: every --json line is accepted; others say why', async (t) => {
  const [out] = scan([...start, { type: 'turn_started', ...tu(1) }, snap(1, 10, 0, 0, 5), result]);
  for (const line of out.trim().split('\n')) t.not(typeof parseUnitLine(line, Buffer.from(line)), 'string', line.slice(0, 40));
  t.equal(parseUnitLine('nope'), 'not a wuu-usage --json line (not valid JSON)');
  t.equal(parseUnitLine('[1]'), 'not a wuu-usage --json line (not an object)');
  t.equal(parseUnitLine('{"kind":"x"}'), 'not a wuu-usage --json line (kind "x")');
  t.match(parseUnitLine('{"kind":"turn","file":"f"}'), /bad or missing 'thread_id'/);
  // Each field checked, the first bad one named (strings, nullable strings, provider, date_source, line, counts, source).
  const turn = { kind: 'turn', file: 'f', line: 3, thread_id: 'th', turn_id: 'tu', run_id: null, run_status: null, provider: 'p', model: 'm', time: null, date_source: null, end: null, source: 'usage_updated', input_tokens: 1, cache_creation_tokens: 2, cache_read_tokens: 3, output_tokens: 4 };
  const agent = { ...turn, kind: 'agent', turn_id: undefined, end: undefined, agent_id: 'a', agent_type: 'x', agent_status: 'completed', source: 'report' };
  const line = (o: object) => JSON.stringify(o);
  t.match(parseUnitLine(line(turn)), { kind: 'turn', input_tokens: 1n, provider: 'p', source: 'usage_updated' });
  t.match(parseUnitLine(line(agent)), { kind: 'agent', agent_id: 'a', agent_type: 'x', agent_status: 'completed', source: 'report' });
  t.match(parseUnitLine(line({ ...turn, kind: 'run', provider: undefined, date_source: undefined })), { kind: 'run', provider: '', date_source: null });
  const cases: Array<[object, string]> = [
    [{ ...turn, model: 1 }, `turn line: bad or missing 'model'`],
    [{ ...turn, turn_id: null }, `turn line: bad or missing 'turn_id'`],
    [{ ...agent, agent_status: null }, `agent line: bad or missing 'agent_status'`],
    [{ ...turn, run_status: 5 }, `turn line: bad or missing 'run_status'`],
    [{ ...turn, end: false }, `turn line: bad or missing 'end'`],
    [{ ...turn, provider: null }, `turn line: bad or missing 'provider'`],
    [{ ...turn, date_source: 'sundial' }, `turn line: bad or missing 'date_source'`],
    [{ ...turn, line: -1 }, `turn line: bad or missing 'line'`],
    [{ ...turn, line: '3' }, `turn line: bad or missing 'line'`],
    [{ ...turn, cache_read_tokens: undefined }, `turn line: bad or missing 'cache_read_tokens'`],
    [{ ...turn, output_tokens: -4 }, 'turn line: output_tokens is negative (-4)'],
    [{ ...turn, source: 'guess' }, `turn line: bad or missing 'source'`],
    [{ ...agent, source: 'usage_updated' }, `agent line: bad or missing 'source'`],
    [{ ...turn, model: 1, line: -1 }, `turn line: bad or missing 'model'`],
  ];
  for (const [o, message] of cases) t.equal(parseUnitLine(line(o)), `wuu-usage --json ${message}`, message);
});

t.test('tail type sniffing: only the producer shape, never a quoted look-alike', async (t) => {
  const b = (s: string) => Buffer.from(s);
  const delta = b('{"delta":"x","thread_id":"a","turn_id":"b","type":"agent_message_delta"}');
  t.equal(tailType(delta, 0, delta.length), 'agent_message_delta');
  const tricky = b('{"delta":"\\",\\"type\\":\\"usage_updated\\"}"}');
  t.equal(tailType(tricky, 0, tricky.length), undefined);
  const later = b('{"type":"usage_updated","variant":""}');
  t.equal(tailType(later, 0, later.length), undefined, 'type not last: the general path decides');
});

t.test('dates: ISO weeks, zones, calendar dates', async (t) => {
  t.same(['2026-12-02', '2021-01-03', '2021-01-04', '2026-01-01', '2024-12-30', '2027-01-01'].map(isoWeek), ['2026-W49', '2020-W53', '2021-W01', '2026-W01', '2025-W01', '2026-W53']);
  const time = '2026-12-01T23:30:00.000Z';
  t.equal(new Calendar('UTC').day(time), '2026-12-01');
  t.equal(new Calendar('Asia/Tokyo').day(time), '2026-12-02');
  t.equal(new Calendar('America/New_York').month(time), '2026-12');
  t.equal(new Calendar('UTC').day(null), 'unknown');
  t.ok(isIsoDate('2024-02-29'));
  t.notOk(isIsoDate('2023-02-29'));
  t.notOk(isIsoDate('2023-2-1'));
});

t.test('money: exact sums, cents for people, digits for machines', async (t) => {
  t.equal(nanoOf(3.75), 3_750_000_000n);
  t.equal(nanoOf(0.3), 300_000_000n);
  t.equal(usdDecimal(3_765_000_000_000n), '0.003765');
  t.equal(usdDecimal(10n ** 15n * 12n), '12');
  t.equal(usdHuman(0n), '$0.00');
  t.equal(usdHuman(4_649_000_000_000n), '$0.0046');
  t.equal(usdHuman(10n ** 13n), '$0.01');
  t.equal(usdHuman(1_234_565n * 10n ** 12n), '$1,234.57');
  t.equal(groupDigits(9007199254740993n), '9,007,199,254,740,993');
  // A million turns of 0.1 + 0.2 cents drift in floating point, not here.
  const pricer = new Pricer(parsePricing('{"m":{"input":1,"output":2,"cache_write":0,"cache_read":0}}'), false);
  const unit = { kind: 'turn', provider: '', model: 'm', input_tokens: 1000n, cache_creation_tokens: 0n, cache_read_tokens: 0n, output_tokens: 1000n } as UsageUnit;
  let sum = 0n;
  for (let i = 0; i < 1_000_000; i++) sum += pricer.cost(unit)!;
  t.equal(usdDecimal(sum), '3000');
  t.equal(new Pricer(new Map(), false).cost({ ...unit, model: 'nope' }), null);
  t.throws(() => parsePricing('{"m":{"input":-1}}'), /'input' must be a non-negative number/);
});

// --------------------------------------------------- generated fleets

const dir = tmpDir();
const { plain } = fleet(dir, 14, 7000);

/** Our --json output, reshaped like the oracle's. */
function ours(jsonText: string): Oracle {
  const lines = jsonl(jsonText);
  const tot = lines.find((l) => l.kind === 'total')!;
  const units: Record<string, Four> = {};
  const models: Record<string, Four> = {};
  for (const l of lines) {
    if (l.kind === 'turn') {
      units[`turn:${l.thread_id}/${l.turn_id}`] = four(l);
      const m = (models[l.model as string] ??= [0, 0, 0, 0]);
      four(l).forEach((v, i) => (m[i] = (m[i] ?? 0) + v));
    }
    if (l.kind === 'agent') units[`agent:${l.agent_id}`] = four(l);
  }
  return { turns: tot.turns as number, agents: (tot.subagents as Record<string, unknown>).agents as number, main: four(tot), subagents: four(tot.subagents as Record<string, unknown>), models, units };
}

t.test('generated fleets agree with the jq oracle; serial = parallel', async (t) => {
  const serial = await usageRun(['--json', '--no-cost', '-j', '1', dir]);
  t.same(ours(serial.stdout), oracle(plain));
  const parallel = await usageRun(['--json', '--no-cost', '-j', '3', dir]);
  t.equal(parallel.stdout, serial.stdout, 'stdout identical');
  t.equal(parallel.stderr, serial.stderr, 'stderr identical, in file order');
  t.equal(parallel.code, serial.code);
});

t.test('totals of every grouping equal the ungrouped totals', async (t) => {
  const units = jsonl((await usageRun(['--json', '--no-cost', dir])).stdout)
    .filter((l) => l.kind === 'turn' || l.kind === 'agent')
    .map((l) => parseUnitLine(JSON.stringify(l)) as UsageUnit);
  const base = buildReport(units, { by: ['run'] }).totals;
  const combos: UsageDim[][] = [...USAGE_DIMS.map((d) => [d]), ['day', 'model'], ['month', 'thread'], ['week', 'file', 'model']];
  for (const by of combos) {
    const report = buildReport(units, { by, breakdown: true, calendar: new Calendar('UTC') });
    t.same([report.totals.main.sums, report.totals.subagents.sums, report.totals.all.sums], [base.main.sums, base.subagents.sums, base.all.sums], `--by ${by.join(',')}`);
    let [i, w, r, o] = [0n, 0n, 0n, 0n];
    for (const row of report.rows.filter((x) => x.kind === 'row')) {
      i += row.sums.input_tokens;
      w += row.sums.cache_creation_tokens;
      r += row.sums.cache_read_tokens;
      o += row.sums.output_tokens;
    }
    const sum = [i, w, r, o];
    const all = base.all.sums;
    t.same(sum, [all.input_tokens, all.cache_creation_tokens, all.cache_read_tokens, all.output_tokens], `rows of --by ${by.join(',')} add up`);
    const models = report.rows.filter((r) => r.kind === 'model').reduce((s, r) => s + r.sums.output_tokens, 0n);
    t.equal(models, all.output_tokens, `breakdown rows of --by ${by.join(',')} add up`);
  }
});

t.test('stream API in 1- and 7-byte chunks gives the same report', async (t) => {
  const text = generate(99, 4);
  const { usage } = await import('../lib/usage/usage.js');
  const { parse } = await import('../lib/jsonl.js');
  const whole = (await pipeThrough<string>([Buffer.from(text)], parse(), usage({ format: 'json', noCost: true, timeOfFile: () => null }))).join('');
  for (const size of [1, 7]) {
    const out = (await pipeThrough<string>(chunked(text, size), parse(), usage({ format: 'json', noCost: true, timeOfFile: () => null }))).join('');
    t.equal(out, whole, `${size}-byte chunks`);
  }
  const file = path.join(tmpDir(), 'one.jsonl');
  fs.writeFileSync(file, text);
  t.same(ours(whole).main, oracle([file]).main);
});
