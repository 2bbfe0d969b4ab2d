/**
 * The per-event and per-unit shortcuts of wuu-usage (token counts read by
 * name, the JSON text of the last thread id, run id and time kept, the last
 * price route kept): each must give exactly what the general code gives, on
 * the producer's case and on every case that must leave the shortcut.
 */
import t from 'tap';
import { exactCacheHitRatio } from '../lib/events.js';
import type { Sums, UsageRow } from '../lib/usage/grouping.js';
import { unitJson } from '../lib/usage/ledger.js';
import { plainRowLine, plainUnitLine, rowFrame, templateRowLine } from '../lib/usage/report-json.js';
import { parsePricing, Pricer, usdDecimal } from '../lib/usage/prices.js';
import { readTokens, tokenValue, type TokenField } from '../lib/usage/tokens.js';
import { UsageScanner } from '../lib/usage/scanner.js';
import type { UsageUnit } from '../lib/usage/types.js';

const FOUR: readonly TokenField[] = ['input_tokens', 'cache_creation_tokens', 'cache_read_tokens', 'output_tokens'];

/** readTokens the long way: each field through tokenValue (the general rule), problems in field order. */
function general(event: Record<string, unknown>, raw: Buffer | undefined, fields: readonly TokenField[]): unknown {
  const out: Record<string, bigint> = { input_tokens: 0n, cache_creation_tokens: 0n, cache_read_tokens: 0n, output_tokens: 0n };
  const problems: string[] = [];
  for (const f of fields) {
    const v = tokenValue(Object.prototype.hasOwnProperty.call(event, f) ? event[f] : undefined, raw, f);
    if (typeof v === 'string') problems.push(v);
    else out[f] = v;
  }
  return problems.length > 0 ? problems : out;
}

t.test('readTokens: the shortcut and the general rule agree, field set by field set', async (t) => {
  const big = 2 ** 53 + 2;
  const events: Array<[string, Record<string, unknown>, Buffer | undefined]> = [
    ['the producer case', { cache_creation_tokens: 2560, cache_read_tokens: 8192, input_tokens: 2264, output_tokens: 368 }, undefined],
    ['zeros', { cache_creation_tokens: 0, cache_read_tokens: 0, input_tokens: 0, output_tokens: 0 }, undefined],
    ['cache fields absent (a turn_completed)', { input_tokens: 5, output_tokens: 6 }, undefined],
    ['one cache field absent', { cache_read_tokens: 3, input_tokens: 5, output_tokens: 6 }, undefined],
    ['input absent', { cache_creation_tokens: 1, cache_read_tokens: 3, output_tokens: 6 }, undefined],
    ['output negative', { cache_creation_tokens: 1, cache_read_tokens: 3, input_tokens: 5, output_tokens: -6 }, undefined],
    ['input a fraction', { input_tokens: 1.5, output_tokens: 6 }, undefined],
    ['a cache field a string', { cache_creation_tokens: '7', cache_read_tokens: 3, input_tokens: 5, output_tokens: 6 }, undefined],
    ['a cache field null', { cache_creation_tokens: 1, cache_read_tokens: null, input_tokens: 5, output_tokens: 6 }, undefined],
    ['-0 (JSON.parse of -0)', { cache_creation_tokens: -0, cache_read_tokens: 3, input_tokens: -0, output_tokens: 6 }, undefined],
    ['beyond 2^53, exact from the raw digits', { cache_creation_tokens: 0, cache_read_tokens: big, input_tokens: 1, output_tokens: 2 }, Buffer.from(`{"cache_creation_tokens":0,"cache_read_tokens":${big},"input_tokens":1,"output_tokens":2}`)],
    ['beyond 2^53 with no raw line', { cache_creation_tokens: 0, cache_read_tokens: 3, input_tokens: big, output_tokens: 2 }, undefined],
    ['an inherited-looking key is not a count', JSON.parse('{"__proto__":{"input_tokens":9},"output_tokens":1}') as Record<string, unknown>, undefined],
  ];
  const fieldSets: Array<readonly TokenField[]> = [FOUR, ['input_tokens', 'output_tokens'], ['input_tokens'], ['output_tokens', 'input_tokens']];
  for (const [name, event, raw] of events) {
    for (const fields of fieldSets) {
      const got = fields === FOUR ? readTokens(event, raw) : readTokens(event, raw, fields);
      t.same(got, general(event, raw, fields), `${name}, fields ${fields.join(',')}`);
    }
  }
  t.same(readTokens({ cache_creation_tokens: 2, cache_read_tokens: 3, input_tokens: 1, output_tokens: 4 }, undefined), { input_tokens: 1n, cache_creation_tokens: 2n, cache_read_tokens: 3n, output_tokens: 4n }, 'values, not just agreement');
  t.same(readTokens({ cache_creation_tokens: 2, input_tokens: 1, output_tokens: 4 }, undefined, ['input_tokens', 'output_tokens']), { input_tokens: 1n, cache_creation_tokens: 0n, cache_read_tokens: 0n, output_tokens: 4n }, 'a turn_completed reads no cache counts');
});

/** A unit with the given ids and time. */
function unit(i: number, thread: string, run: string | null, time: string | null): UsageUnit {
  return { kind: 'turn', file: 'f', line: i, thread_id: thread, turn_id: `u${i}`, run_id: run, run_status: run === null ? null : 'completed', provider: 'p', model: 'm', time, date_source: time === null ? null : 'timestamp', end: 'completed', source: 'usage_updated', input_tokens: 1n, cache_creation_tokens: 0n, cache_read_tokens: 0n, output_tokens: BigInt(i) };
}

t.test('unit lines: the kept texts of the last thread id, run id and time never leak into the next unit; counts beyond 2^53 exact', async (t) => {
  const threads = ['t1', 't1', 't2', 't1', 'q"\\\u0001\u2028é', '', 'q"\\\u0001', 't1'];
  const runs = [null, 'r1', 'r1', null, 'r"2', 'r"2', '', null];
  const times = [null, '2026-01-02T03:04:05Z', null, null, '2026-01-02T03:04:05', '2026-01-02T03:04:05', null, 'x"y'];
  const big = 2n ** 60n + 7n;
  threads.forEach((thread, i) => {
    const turn = unit(i, thread, runs[i] ?? null, times[i] ?? null);
    const agent: UsageUnit = { kind: 'agent', file: 'f\u0007', line: i, thread_id: thread, agent_id: `a"${i}`, agent_type: 'explorer', agent_status: 'running', run_id: runs[i] ?? null, run_status: null, provider: '', model: 'm', time: times[i] ?? null, date_source: null, source: 'child_thread', input_tokens: 0n, cache_creation_tokens: 1n, cache_read_tokens: 2n, output_tokens: 3n };
    const run: UsageUnit = { kind: 'run', file: 'f', line: i, thread_id: thread, run_id: runs[i] ?? null, run_status: 'failed', provider: 'p', model: 'm', time: times[i] ?? null, date_source: 'session_id', input_tokens: 0n, cache_creation_tokens: 0n, cache_read_tokens: 0n, output_tokens: 0n };
    for (const u of [turn, agent, run]) {
      for (const extra of ['', ',"prompt_tokens":3,"cost_usd":0.5']) {
        const text = unitJson(u, extra);
        const line = JSON.parse(text) as Record<string, unknown>;
        t.same([line.kind, line.thread_id, line.run_id, line.time, line.input_tokens, line.output_tokens, line.prompt_tokens], [u.kind, u.thread_id, u.run_id, u.time, Number(u.input_tokens), Number(u.output_tokens), extra === '' ? undefined : 3], `${u.kind} ${i}${extra}`);
        // Beyond 2^53 the same line, with the exact digits in place of the small ones (and the kept texts reused).
        const huge = { ...u, input_tokens: big, output_tokens: big + 1n };
        const expected = text.replace(`"input_tokens":${u.input_tokens},`, `"input_tokens":${big},`).replace(`"output_tokens":${u.output_tokens}`, `"output_tokens":${big + 1n}`);
        t.equal(unitJson(huge, extra), expected, `${u.kind} ${i}${extra}: counts beyond 2^53`);
      }
    }
  });
  const negative = { ...unit(1, 't', null, null), cache_read_tokens: -(2n ** 60n) };
  t.match(unitJson(negative), /"cache_read_tokens":-1152921504606846976,/, 'a count below -2^53 too');
});

t.test('usdDecimal: the double shortcut below 2^53 writes what the BigInt rule writes', async (t) => {
  /** The exact decimal by BigInt division alone (the general rule). */
  const general = (femto: bigint): string => {
    const abs = femto < 0n ? -femto : femto;
    const frac = (abs % 10n ** 15n).toString().padStart(15, '0').replace(/0+$/, '');
    return `${femto < 0n ? '-' : ''}${abs / 10n ** 15n}${frac === '' ? '' : `.${frac}`}`;
  };
  const safe = BigInt(Number.MAX_SAFE_INTEGER);
  const values = [0n, 1n, 9n, 10n, 100n, 10n ** 14n, 10n ** 15n - 1n, 10n ** 15n, 10n ** 15n + 1n, 8_999_999_999_999_999n, 9n * 10n ** 15n, safe - 1n, safe, safe + 1n, safe + 2n, 10n ** 20n + 5n, -1n, -(10n ** 15n), 27_256_500_000_000n];
  for (let k = 0; k < 16; k++) values.push(7n * 10n ** BigInt(k), 123_456_789n * 10n ** BigInt(k % 8), safe - BigInt(k) * 999_999_999_999n);
  for (const v of values) t.equal(usdDecimal(v), general(v), String(v));
});

t.test('--json lines by JSON.stringify: the same text as the templates, or undefined beyond what doubles hold', async (t) => {
  const big = 2n ** 53n;
  const counts: Array<[bigint, bigint, bigint, bigint, boolean]> = [
    [6586n, 2560n, 8192n, 1480n, true],
    [0n, 0n, 0n, 0n, true],
    [0n, 0n, 0n, 7n, true],
    [1n, 0n, 2n, 0n, true],
    [9_007_199n, 0n, 0n, 1n, true],
    [9_007_199n, 1n, 0n, 1n, false],
    [0n, 0n, 0n, big - 1n, true],
    [0n, 0n, 0n, big, false],
    [big + 1n, 0n, 0n, 0n, false],
    [-1n, 0n, 0n, 0n, false],
  ];
  const texts: Array<string | null> = ['t1', '', 'q"\\\u0001\u2028\ud800é', null];
  const units: UsageUnit[] = [];
  counts.forEach(([input, write, read, output, plain], i) => {
    const text = texts[i % texts.length]!;
    const tokens = { input_tokens: input, cache_creation_tokens: write, cache_read_tokens: read, output_tokens: output };
    const base = { file: `f${text ?? ''}`, line: i + 1, thread_id: text ?? 'x', run_id: text, run_status: text, provider: text ?? '', model: 'm', time: text, date_source: i % 2 === 0 ? ('session_id' as const) : null, ...tokens };
    units.push({ ...base, kind: 'turn', turn_id: `u${text ?? ''}`, end: text, source: 'usage_updated' }, { ...base, kind: 'agent', agent_id: `a${text ?? ''}`, agent_type: text ?? '', agent_status: 'running', source: 'report' });
    const expected = (u: UsageUnit) => {
      const hit = exactCacheHitRatio(u);
      return unitJson(u, `,"prompt_tokens":${u.input_tokens + u.cache_creation_tokens + u.cache_read_tokens},"cache_hit_ratio":${hit === null ? 'null' : hit}`);
    };
    for (const u of units.slice(-2)) t.equal(plainUnitLine(u), plain ? expected(u) : undefined, `${u.kind} ${i}`);
    const sums: Sums = { turns: i, agents: 1, ...tokens, cost: 27_256_500_000_000n * BigInt(i), unpriced: i % 3 === 0, dates: i % 8 };
    const rows: UsageRow[] = [
      { kind: 'row', keys: [text, null, `f${i}`], agent: i % 2 === 0 ? 'main' : `agent"${i}`, sums },
      { kind: 'model', keys: [text, 'r', null], agent: 'subagents', model: text ?? 'm', sums },
    ];
    for (const row of rows) {
      for (const priced of [true, false]) {
        for (const [by, fields] of [['run', ['thread_id', 'run_id', 'file']], ['day,model', ['day', 'model', 'file']]] as const) {
          const frame = rowFrame(by, fields);
          t.equal(plainRowLine(row, frame, priced), plain ? templateRowLine(row, frame, priced) : undefined, `${row.kind} ${i} ${by} priced ${priced}`);
        }
      }
    }
  });
  t.equal(plainUnitLine({ ...units[0]!, kind: 'run' } as UsageUnit), undefined, 'a run record takes the template');
});

t.test('prices: the kept last route gives each unit its own model price, models interleaved', async (t) => {
  const table = parsePricing('{"a":{"input":1,"output":2,"cache_write":0,"cache_read":0},"p/b":{"input":3,"output":4,"cache_write":0,"cache_read":0}}');
  const kept = new Pricer(table, false);
  const models: Array<[string, string]> = [['p', 'a'], ['p', 'a'], ['p', 'b'], ['q', 'b'], ['p', 'b'], ['p', 'a'], ['', 'a'], ['p', 'c']];
  models.forEach(([provider, model], i) => {
    const u = { ...unit(i + 1, 't', 'r', null), provider, model };
    t.equal(kept.cost(u), new Pricer(table, false).cost(u), `${provider}/${model}`);
  });
  t.same([...kept.unknown].sort(), ['p/c', 'q/b'], 'the unpriced models, each once');
});

/** Units and warnings of events, through the scanner. */
function scanEvents(events: Array<Record<string, unknown>>): { units: UsageUnit[]; warnings: string[] } {
  const warnings: string[] = [];
  const scanner = new UsageScanner('f', (m) => warnings.push(m), () => null);
  events.forEach((e, i) => scanner.push(String(e.type), e, i + 1));
  return { units: scanner.finish(), warnings };
}

const TH = '20260101-100000-abcd';
const started = (turn: string) => ({ thread_id: TH, turn_id: turn, type: 'turn_started' });
const counts = (turn: string, n: [number, number, number, number]) => ({ cache_creation_tokens: n[1], cache_read_tokens: n[2], input_tokens: n[0], output_tokens: n[3], thread_id: TH, turn_id: turn, type: 'usage_updated' });
/** A turn end without counts (the snapshots count). */
const ended = (turn: string) => ({ thread_id: TH, turn_id: turn, type: 'turn_interrupted' });
const result = (run: string) => ({ run_id: run, status: 'completed', thread_id: TH, type: 'result' });

t.test('scanner: a snapshot that goes down in any one field is named; equal or growing ones are not', async (t) => {
  const names = ['input_tokens', 'cache_creation_tokens', 'cache_read_tokens', 'output_tokens'];
  names.forEach((name, k) => {
    const lower: [number, number, number, number] = [6, 6, 6, 6];
    lower[k] = 4;
    const { units, warnings } = scanEvents([started('a'), counts('a', [5, 5, 5, 5]), counts('a', [5, 5, 5, 5]), counts('a', [6, 6, 6, 6]), counts('a', lower), ended('a'), result('r')]);
    t.same(warnings, [`f:5: warning: usage_updated of turn a (thread ${TH}) goes down (${name} 6 -> 4): a reset? the last snapshot counts`], name);
    const turn = units.find((u) => u.kind === 'turn');
    t.same(turn === undefined ? undefined : [turn.input_tokens, turn.cache_creation_tokens, turn.cache_read_tokens, turn.output_tokens], lower.map(BigInt), `${name}: the last snapshot counts`);
  });
  const both = scanEvents([started('a'), counts('a', [5, 5, 5, 5]), counts('a', [4, 5, 5, 3]), ended('a'), result('r')]);
  t.same(both.warnings, [`f:3: warning: usage_updated of turn a (thread ${TH}) goes down (input_tokens 5 -> 4, output_tokens 5 -> 3): a reset? the last snapshot counts`]);
});

t.test('scanner: turns interleaved, and the same ids in the next run, each counted as their own', async (t) => {
  const { units, warnings } = scanEvents([
    started('a'),
    started('b'),
    counts('a', [1, 0, 0, 1]),
    counts('b', [2, 0, 0, 2]),
    counts('a', [3, 0, 0, 3]),
    counts('b', [4, 0, 0, 4]),
    ended('b'),
    // The last turn read before the run closes is the one the next run names again.
    ended('a'),
    result('r1'),
    // The next run reuses the turn ids (a resumed thread): a turn of its own, not the closed one.
    started('a'),
    counts('a', [7, 0, 0, 7]),
    ended('a'),
    result('r2'),
  ]);
  t.same(warnings, []);
  t.same(
    units.map((u) => [u.kind, u.kind === 'turn' ? u.turn_id : '', u.run_id, u.input_tokens, u.line]),
    [
      ['turn', 'a', 'r1', 3n, 1],
      ['turn', 'b', 'r1', 4n, 2],
      ['turn', 'a', 'r2', 7n, 10],
    ],
  );
});
