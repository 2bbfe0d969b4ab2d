/**
 * Prices: `wuu-usage examples/` on a terminal shows dollars for the models the
 * examples use, checked against the price library's own API (calcPrice) on
 * the raw counts read here independently; --pricing overrides; an unknown
 * model is `unknown` with one warning, never $0.
 */
import t from 'tap';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { calcPrice } from '@pydantic/genai-prices';
import { ROOT } from './helpers.js';
import { goLine, tmpDir, usageRun } from './usage-gen.js';

interface Counts {
  model: string;
  provider: string;
  tok: [number, number, number, number]; // input (uncached), cache write, cache read, output
}

/** Reads the examples the simple way: last snapshot per root turn (else turn_completed), last report per agent. */
function rawCounts(files: string[]): Map<string, Counts> {
  const units = new Map<string, Counts>();
  for (const file of files) {
    let model = '';
    let provider = '';
    const roots = new Set<string>();
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      let e: Record<string, unknown>;
      try {
        e = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      const n = (k: string) => (typeof e[k] === 'number' ? (e[k] as number) : 0);
      const tok: Counts['tok'] = [n('input_tokens'), n('cache_creation_tokens'), n('cache_read_tokens'), n('output_tokens')];
      if (e.type === 'session_configured') {
        model = String(e.model);
        provider = String(e.provider);
      } else if (String(e.type).startsWith('thread_')) {
        model = String(e.model) || model;
        provider = String(e.provider) || provider;
        roots.add(String(e.thread_id));
      } else if (e.type === 'usage_updated' && roots.has(String(e.thread_id))) {
        units.set(`t/${e.thread_id}/${e.turn_id}`, { model, provider, tok });
      } else if (e.type === 'turn_completed' && roots.has(String(e.thread_id)) && !units.has(`t/${e.thread_id}/${e.turn_id}`)) {
        units.set(`t/${e.thread_id}/${e.turn_id}`, { model, provider, tok: [tok[0], 0, 0, tok[3]] });
      } else if (String(e.type).startsWith('subagent_')) {
        units.set(`a/${e.agent_id}`, { model, provider, tok });
      }
    }
  }
  return units;
}

/** Cost per model by calcPrice, or null when the library does not know it. */
function libraryCosts(units: Map<string, Counts>): Map<string, number | null> {
  const out = new Map<string, number | null>();
  for (const u of units.values()) {
    const [input, write, read, output] = u.tok;
    const price = calcPrice({ input_tokens: input + write + read, cache_write_tokens: write, cache_read_tokens: read, output_tokens: output }, u.model, { providerId: u.provider });
    const before = out.get(u.model);
    out.set(u.model, price === null || before === null ? null : (before ?? 0) + price.total_price);
  }
  return out;
}

/** Dollars with the table's decimals (one precision per table: the fewest that show its smallest cost). */
const dollars = (usd: number, decimals: number) => `$${usd.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })}`;

t.test('wuu-usage examples/ on a terminal: dollars for the examples models, as calcPrice computes them', async (t) => {
  const dir = path.join(ROOT, 'examples');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => path.join(dir, f));
  const expected = libraryCosts(rawCounts(files));
  t.ok([...expected.values()].some((v) => v !== null && v > 0), 'the examples use models the library prices');
  const table = await usageRun(['-j', '1', dir], { tty: true, env: { NO_COLOR: '1' } });
  t.match(table.stdout, /COST/);
  t.match(table.stdout, /\$\d/, 'dollars on the terminal');
  const byModel = await usageRun(['-j', '1', '--by', 'model', '--table', dir]);
  for (const [model, usd] of expected) {
    const rows = byModel.stdout.split('\n').filter((l) => l.startsWith(`${model} `));
    t.ok(rows.length > 0, `a row for ${model}`);
    const cost = rows.map((l) => l.trim().split(/\s+/).at(-1));
    if (usd === null) {
      t.same(cost, cost.map(() => 'unknown'), `${model}: unknown, never $0`);
      t.match(byModel.stderr, `no price for model`);
      continue;
    }
    // main + subagent rows of a model add up to the library's figure (rounded per row for display).
    const json = await usageRun(['-j', '1', '--by', 'model', '--json', dir]);
    const sum = json.stdout
      .split('\n')
      .filter((l) => l.includes('"kind":"row"') && l.includes(`"model":${JSON.stringify(model)}`))
      .reduce((s, l) => s + Number((JSON.parse(l) as { cost_usd: number }).cost_usd), 0);
    t.ok(Math.abs(sum - usd) < 1e-9, `${model}: ${sum} = calcPrice ${usd}`);
    const decimals = /\$[\d,]+\.(\d+)/.exec(byModel.stdout)?.[1]?.length ?? 2;
    t.ok(decimals >= 2 && decimals <= 6, `${decimals} decimals`);
    if (rows.length === 1) t.equal(cost[0], dollars(usd, decimals), `${model} shown with the table's decimals`);
  }
});

t.test('--pricing overrides the built-in price; unknown models warn once, never $0', async (t) => {
  const dir = tmpDir();
  const file = path.join(dir, 'run.jsonl');
  const lines = [
    goLine({ type: 'session_configured', model: 'gpt-5', provider: 'openai', protocol_version: 'wuu-app-server/v0.1', permissions: { mode: 'standard' } }),
    goLine({ type: 'thread_started', thread_id: 'th', model: 'gpt-5', provider: 'openai', cwd: '/w' }),
    goLine({ type: 'turn_started', thread_id: 'th', turn_id: 'th-turn-0001' }),
    goLine({ type: 'usage_updated', thread_id: 'th', turn_id: 'th-turn-0001', input_tokens: 1_000_000, cache_creation_tokens: 0, cache_read_tokens: 1_000_000, output_tokens: 1_000_000 }),
    goLine({ type: 'turn_completed', thread_id: 'th', turn_id: 'th-turn-0001', input_tokens: 1_000_000, output_tokens: 1_000_000 }),
    goLine({ type: 'result', thread_id: 'th', turn_id: 'th-turn-0001', run_id: 'run-th', status: 'completed', final_message: '' }),
  ];
  fs.writeFileSync(file, lines.join('\n') + '\n');
  const builtin = calcPrice({ input_tokens: 2_000_000, cache_read_tokens: 1_000_000, output_tokens: 1_000_000 }, 'gpt-5', { providerId: 'openai' })!.total_price;
  const json = await usageRun(['--json', file]);
  t.equal(JSON.parse(json.stdout.trim().split('\n').at(-1)!).cost_usd, Number(builtin.toFixed(9)));
  const pricing = path.join(dir, 'pricing.json');
  fs.writeFileSync(pricing, JSON.stringify({ 'openai/gpt-5': { input: 1, output: 2, cache_write: 0, cache_read: 0.5 } }));
  const own = await usageRun(['--json', '--pricing', pricing, file]);
  t.equal(JSON.parse(own.stdout.trim().split('\n').at(-1)!).cost_usd, 3.5);
  const unknown = lines.join('\n').replaceAll('gpt-5', 'no-such-model-xyz') + '\n';
  const r = await usageRun(['--table'], { stdin: unknown + unknown.replaceAll('"th', '"th2') });
  t.match(r.stdout, /TOTAL\s.*\sunknown\n/);
  t.notMatch(r.stdout, /\$0\.00/);
  t.equal(r.stderr.match(/no price for model/g)?.length, 1, 'one warning');
  t.match(r.stderr, 'wuu-usage: warning: no price for model openai/no-such-model-xyz');
});

t.test('prices tiered by prompt size are exact and agree with calcPrice on both sides of the tier', async (t) => {
  const { Pricer } = await import('../lib/usage/prices.js');
  const pricer = new Pricer();
  for (const [provider, model] of [
    ['anthropic', 'claude-sonnet-4-5'],
    ['google', 'gemini-2.5-pro'],
    ['openai', 'gpt-5'],
  ] as const) {
    for (const [input, write, read, output] of <[number, number, number, number][]>[
      [1000, 0, 0, 10],
      [150_000, 20_000, 60_000, 900],
      [300_000, 50_000, 100_000, 10],
    ]) {
      const unit = { kind: 'turn', provider, model, input_tokens: BigInt(input), cache_creation_tokens: BigInt(write), cache_read_tokens: BigInt(read), output_tokens: BigInt(output) } as Parameters<typeof pricer.cost>[0];
      const ours = Number(pricer.cost(unit)) / 1e15;
      const lib = calcPrice({ input_tokens: input + write + read, cache_write_tokens: write, cache_read_tokens: read, output_tokens: output }, model, { providerId: provider })!.total_price;
      t.ok(Math.abs(ours - lib) < 1e-12, `${model} prompt ${input + write + read}: ${ours} = ${lib}`);
    }
  }
});

t.test('the price library loaded with a code cache is the library: same prices; a cache of another source, a damaged or a missing one changes nothing', async (t) => {
  const { cacheFileData, cacheFor, compileCommonJs, GENAI_PRICES, loadGenaiPrices } = await import('../lib/usage/genai-load.js');
  const { createRequire } = await import('node:module');
  const { pathToFileURL } = await import('node:url');
  const dir = tmpDir();
  const from = pathToFileURL(path.join(ROOT, 'lib', 'usage', 'prices.ts'));
  const file = createRequire(from).resolve(GENAI_PRICES);
  const source = fs.readFileSync(file);
  const good = path.join(dir, 'good.cache');
  fs.writeFileSync(good, cacheFileData(source, compileCommonJs(file, source)));
  // Whether V8 takes a cache shows only in a fresh process (a second compile of the same source in one process is served from V8's own compilation cache).
  const taken = (cache: string) =>
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import fs from 'node:fs'; import { cacheFor, compileCommonJs } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'dist', 'lib', 'usage', 'genai-load.js')).href)};
         const source = fs.readFileSync(${JSON.stringify(file)});
         process.stdout.write(String(!compileCommonJs(${JSON.stringify(file)}, source, cacheFor(source, fs.readFileSync(${JSON.stringify(cache)}))).cachedDataRejected));`,
      ],
      { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    );
  t.equal(taken(good), 'true', 'V8 takes the cache made for this source');
  // V8 checks only the length: a source of the same length is told apart by the digest.
  const other = Buffer.from(source);
  other[other.length - 2] = 0x20;
  t.equal(cacheFor(other, fs.readFileSync(good)), undefined, 'the cache of another source of the same length is not used');
  const damaged = path.join(dir, 'damaged.cache');
  fs.writeFileSync(damaged, Buffer.concat([fs.readFileSync(good).subarray(0, 32), Buffer.from('not a code cache')]));
  t.equal(taken(damaged), 'false', 'V8 refuses damaged data (and compiles the source)');
  const short = path.join(dir, 'short.cache');
  fs.writeFileSync(short, Buffer.from('x'));
  const usage = { input_tokens: 12345, cache_read_tokens: 2000, cache_write_tokens: 300, output_tokens: 678 };
  type Lib = typeof import('@pydantic/genai-prices');
  const price = (lib: Pick<Lib, 'calcPrice'>, model: string, providerId?: string) => {
    const r = lib.calcPrice(usage, model, providerId === undefined ? {} : { providerId });
    return r === null ? null : [r.total_price, r.provider.id, r.model.id, JSON.stringify(r.model_price)];
  };
  for (const cache of [good, damaged, short, path.join(dir, 'missing.cache'), undefined]) {
    const lib = loadGenaiPrices<Lib>(from, cache === undefined ? undefined : pathToFileURL(cache));
    for (const [model, provider] of [['gpt-5', 'openai'], ['claude-sonnet-4', undefined], ['no-such-model', undefined]] as const) {
      t.same(price(lib, model, provider), price({ calcPrice }, model, provider), `${path.basename(cache ?? 'no cache')}: ${model}`);
    }
  }
});
