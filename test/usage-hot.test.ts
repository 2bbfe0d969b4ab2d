/**
 * The per-event and per-unit shortcuts of wuu-usage (token counts read by
 * name, the JSON text of the last thread id, run id and time kept, the last
 * price route kept): each must give exactly what the general code gives, on
 * the producer's case and on every case that must leave the shortcut.
 */
import t from 'tap';
import { unitJson } from '../lib/usage/ledger.js';
import { parsePricing, Pricer } from '../lib/usage/prices.js';
import { readTokens, tokenValue, type TokenField } from '../lib/usage/tokens.js';
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

t.test('unit lines: the kept JSON text of the last thread id, run id and time never leaks into the next unit', async (t) => {
  const threads = ['t1', 't1', 't2', 't1', 'q"\\\u0001', '', 'q"\\\u0001', 't1'];
  const runs = [null, 'r1', 'r1', null, 'r"2', 'r"2', '', null];
  const times = [null, '2026-01-02T03:04:05Z', null, null, '2026-01-02T03:04:05', '2026-01-02T03:04:05', null, 'x"y'];
  threads.forEach((thread, i) => {
    const u = unit(i, thread, runs[i] ?? null, times[i] ?? null);
    const line = JSON.parse(unitJson(u)) as Record<string, unknown>;
    t.same([line.thread_id, line.run_id, line.time, line.turn_id], [u.thread_id, u.run_id, u.time, `u${i}`], `unit ${i}`);
  });
  // An agent and a run unit share the kept texts with turns.
  const agent: UsageUnit = { ...unit(9, 't9', 'r9', null), kind: 'agent', agent_id: 'a', agent_type: '', agent_status: 'completed', source: 'report' };
  const run: UsageUnit = { kind: 'run', file: 'f', line: 10, thread_id: 't9', run_id: null, run_status: null, provider: 'p', model: 'm', time: null, date_source: null, input_tokens: 0n, cache_creation_tokens: 0n, cache_read_tokens: 0n, output_tokens: 0n };
  t.same((JSON.parse(unitJson(agent)) as Record<string, unknown>).run_id, 'r9');
  const runLine = JSON.parse(unitJson(run)) as Record<string, unknown>;
  t.same([runLine.thread_id, runLine.run_id, runLine.time], ['t9', null, null]);
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
