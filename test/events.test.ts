/**
 * The token convention of lib/events.ts, which wuu-usage, wuu-turns,
 * wuu-pretty, wuu-check and wuu-import all take from there: the field names,
 * the prompt total and the cache-hit ratio, for wire numbers and for exact
 * bigint sums.
 */
import t from 'tap';
import { cacheHitRatio, eventFields, exactCacheHitRatio, field, isEvent, isObject, promptTokens, tokensOf, TOKEN_FIELDS, WIRE_TOKEN_FIELDS, type Tokens, type WuuEvent } from '../lib/events.js';
import { usageOf as turnUsageOf } from '../lib/turns/record.js';
import { ParsedFields } from '../lib/accumulate/wire.js';
import { describeUsage } from '../lib/pretty/token-usage.js';

const n = (input: number, write: number, read: number, output: number): Tokens => ({
  input_tokens: input,
  cache_creation_tokens: write,
  cache_read_tokens: read,
  output_tokens: output,
});
const b = (input: bigint, write: bigint, read: bigint, output: bigint): Tokens<bigint> => ({
  input_tokens: input,
  cache_creation_tokens: write,
  cache_read_tokens: read,
  output_tokens: output,
});

t.test('the field lists: one set of names, report order and the wire table order', async (t) => {
  t.same([...TOKEN_FIELDS], ['input_tokens', 'cache_creation_tokens', 'cache_read_tokens', 'output_tokens']);
  t.same([...WIRE_TOKEN_FIELDS], ['input_tokens', 'output_tokens', 'cache_creation_tokens', 'cache_read_tokens']);
  t.same([...TOKEN_FIELDS].sort(), [...WIRE_TOKEN_FIELDS].sort());
  t.ok(Object.isFrozen(TOKEN_FIELDS) && Object.isFrozen(WIRE_TOKEN_FIELDS), 'shared lists cannot be changed by a caller');
});

t.test('promptTokens: uncached input + cache write + cache read, never output', async (t) => {
  t.equal(promptTokens(n(400, 100, 800, 40)), 1300);
  t.equal(promptTokens(n(0, 0, 0, 99)), 0);
  t.equal(promptTokens(b(400n, 100n, 800n, 40n)), 1300n);
  // Exact beyond 2^53, where numbers would round.
  t.equal(promptTokens(b(2n ** 60n, 1n, 1n, 0n)), 2n ** 60n + 2n);
});

t.test('cacheHitRatio: cache read / prompt; null for an empty prompt', async (t) => {
  t.equal(cacheHitRatio(n(400, 0, 800, 40)), 800 / 1200);
  t.equal(cacheHitRatio(n(1, 1, 1, 0)), 1 / 3, 'not truncated');
  t.equal(cacheHitRatio(n(10, 0, 0, 5)), 0);
  t.equal(cacheHitRatio(n(0, 0, 0, 5)), null, 'output alone is no prompt');
});

t.test('exactCacheHitRatio: truncated to 1e-9 at every magnitude', async (t) => {
  t.equal(exactCacheHitRatio(b(0n, 0n, 0n, 7n)), null);
  t.equal(exactCacheHitRatio(b(1n, 1n, 1n, 0n)), 0.333333333, 'small sums: in doubles');
  t.equal(exactCacheHitRatio(b(2n ** 60n, 2n ** 60n, 2n ** 60n, 0n)), 0.333333333, 'huge sums: in BigInt, the same figure');
  t.equal(exactCacheHitRatio(b(0n, 0n, 5n, 0n)), 1);
  // The boundary between the two ways of computing it gives the same digits on both sides.
  const edge = BigInt(Math.floor(Number.MAX_SAFE_INTEGER / 1e9));
  t.equal(exactCacheHitRatio(b(edge - 1n, 0n, 1n, 0n)), Math.floor(1e9 / Number(edge)) / 1e9);
  t.equal(exactCacheHitRatio(b(edge, 0n, 1n, 0n)), Number(1_000_000_000n / (edge + 1n)) / 1e9);
});

t.test('the tools read one event the same way', async (t) => {
  const event = { type: 'usage_updated', thread_id: 'th', turn_id: 'tu', input_tokens: 9800, cache_creation_tokens: 4096, cache_read_tokens: 4096, output_tokens: 420 };
  const turn = turnUsageOf(new ParsedFields(event));
  t.same(turn, { input_tokens: 9800, cache_creation_tokens: 4096, cache_read_tokens: 4096, prompt_tokens: 17992, output_tokens: 420, cache_hit: 4096 / 17992 });
  t.same(Object.keys(turn), ['input_tokens', 'cache_creation_tokens', 'cache_read_tokens', 'prompt_tokens', 'output_tokens', 'cache_hit'], 'wuu-turns key order');
  const tokens = tokensOf(event);
  t.equal(promptTokens(tokens), turn.prompt_tokens);
  t.equal(cacheHitRatio(tokens), turn.cache_hit);
  t.equal(describeUsage(tokens), 'prompt 17,992 (9,800 uncached + 4,096 cache write + 4,096 cache read, 22.8% cache hit) · output 420');
  t.equal(describeUsage(tokensOf({ input_tokens: 3000, output_tokens: 90 })), 'prompt 3,000 · output 90');
});

t.test('tokensOf: own finite numbers, anything else 0', async (t) => {
  t.same(tokensOf({ type: 'turn_completed', input_tokens: 10, output_tokens: 2 }), { input_tokens: 10, cache_creation_tokens: 0, cache_read_tokens: 0, output_tokens: 2 });
  t.same(tokensOf({ input_tokens: '10', cache_creation_tokens: null, cache_read_tokens: Number.NaN, output_tokens: Number.POSITIVE_INFINITY }), {
    input_tokens: 0,
    cache_creation_tokens: 0,
    cache_read_tokens: 0,
    output_tokens: 0,
  });
  t.same(tokensOf(Object.create({ input_tokens: 5 }) as Record<string, unknown>), { input_tokens: 0, cache_creation_tokens: 0, cache_read_tokens: 0, output_tokens: 0 }, 'an inherited counter is not read');
});

t.test('isObject: what a JSON object parses to, nothing else', async (t) => {
  t.equal(isObject({}), true);
  t.equal(isObject({ type: 'x' }), true);
  for (const value of [null, undefined, [], [1], 'text', 1, true]) t.equal(isObject(value), false, JSON.stringify(value) ?? 'undefined');
  t.equal(isEvent({ type: 'x' }), true);
  t.equal(isEvent({ type: 1 }), false);
  t.equal(isEvent(['type']), false);
});

t.test('eventFields and field read any event by name, own fields only', async (t) => {
  const event: WuuEvent = JSON.parse('{"type":"tool_started","name":"bash","__proto__":{"x":1}}');
  t.equal(eventFields(event).name, 'bash');
  t.equal(field(event, 'name'), 'bash');
  t.equal(field(event, 'constructor'), undefined, 'an inherited member is no field');
  t.same(field(event, '__proto__'), { x: 1 }, 'a JSON key named __proto__ is an own field');
});
