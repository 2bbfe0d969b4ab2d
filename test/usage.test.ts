import t from 'tap';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from '../lib/core.js';
import { LineRecord, makeRecord } from '../lib/jsonl.js';
import {
  buildReport,
  createUsage,
  parsePricing,
  parseUnitLine,
  renderUsage,
  UsageLedger,
  UsageScanner,
  usage,
  type UsageUnit,
} from '../lib/usage.js';
import { chunked, example, jsonl, pipeThrough, readExample, ROOT, runBin, runShell } from './helpers.js';

const RUN = readExample('run.jsonl');
const EXAMPLES = ['failed.jsonl', 'killed.jsonl', 'run.jsonl', 'structured.jsonl', 'timeout.jsonl'];
const dayOf = (file: string) => fs.statSync(path.join(ROOT, file)).mtime.toISOString().slice(0, 10);

// ------------------------------------------------------------------ oracle

type Four = [number, number, number, number];
interface Oracle {
  turns: number;
  agents: number;
  main: Four;
  subagents: Four;
  models: Record<string, Four>;
  units: Record<string, Four>;
}

/** Runs the committed jq oracle (jq 1.6) over event files. */
function oracle(files: string[]): Oracle {
  const out = execFileSync('/usr/bin/jq', ['-n', '-R', '-c', '-f', path.join(ROOT, 'test', 'usage-oracle.jq'), ...files], { encoding: 'utf8' });
  return JSON.parse(out) as Oracle;
}

const four = (o: Record<string, unknown>): Four => [
  o.input_tokens as number,
  o.output_tokens as number,
  o.cache_creation_tokens as number,
  o.cache_read_tokens as number,
];

/** Our --json output, reshaped like the oracle's. */
function ours(jsonText: string): Oracle {
  const lines = jsonl(jsonText);
  const total = lines.find((l) => l.kind === 'total')!;
  const units: Record<string, Four> = {};
  for (const l of lines) {
    if (l.kind === 'turn') units[`turn:${l.thread_id}/${l.turn_id}`] = four(l);
    if (l.kind === 'agent') units[`agent:${l.thread_id}/${l.agent_id}`] = four(l);
  }
  const models: Record<string, Four> = {};
  for (const l of lines) {
    if (l.kind !== 'turn') continue;
    const m = (models[l.model as string] ??= [0, 0, 0, 0]);
    four(l).forEach((v, i) => (m[i] += v));
  }
  return {
    turns: total.turns as number,
    agents: (total.subagents as Record<string, unknown>).agents as number,
    main: four(total),
    subagents: four(total.subagents as Record<string, unknown>),
    models,
    units,
  };
}

// --------------------------------------------------------------- generator

function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function goLine(event: Record<string, unknown>): string {
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(event).sort()) sorted[key] = event[key];
  return JSON.stringify(sorted).replace(/[<>&]/g, (ch) => `\\u00${ch.charCodeAt(0).toString(16)}`);
}

/**
 * A seeded stream of several runs: cumulative snapshots (with occasional
 * resets), turn_completed repeating the counts, turns without snapshot,
 * failed and interrupted turns, interleaved subagents with cumulative
 * reports, bash twins whose output mentions token fields, thread_resumed
 * with another model, and killed runs (no result, sometimes a cut line).
 */
function generate(seed: number, runs: number): string {
  const random = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const lines: string[] = [];
  const emit = (e: Record<string, unknown>) => lines.push(goLine(e));
  for (let r = 0; r < runs; r++) {
    const thread = `th_${seed}_${r}`;
    const model = pick(['m-a', 'm-b', 'm-c']);
    emit({ type: 'session_configured', model, provider: 'p', protocol_version: '1', permissions: { mode: 'auto' } });
    if (random() < 0.3) emit({ type: 'thread_resumed', thread_id: thread, model: pick(['m-a', 'm-d']), provider: 'p', cwd: '/w' });
    else emit({ type: 'thread_started', thread_id: thread, model, provider: 'p', cwd: '/w' });
    const agents: Array<{ id: string; tok: Four }> = [];
    const killed = random() < 0.2;
    const turns = int(1, 4);
    for (let u = 0; u < turns; u++) {
      const scope = { thread_id: thread, turn_id: `tu_${u}` };
      emit({ type: 'turn_started', ...scope });
      let snap: Four = [int(100, 2000), int(1, 50), 0, 0];
      snap[2] = int(0, Math.floor(snap[0] / 3));
      snap[3] = int(0, Math.floor(snap[0] / 3));
      const snapshots = int(0, 4);
      let last: Four | undefined;
      for (let s = 0; s < snapshots; s++) {
        const item = `it_${r}_${u}_${s}`;
        const args = JSON.stringify({ command: 'echo "input_tokens":999' });
        emit({ type: 'tool_started', ...scope, item_id: item, name: 'bash', arguments: args });
        emit({ type: 'command_started', ...scope, item_id: item, name: 'bash', arguments: args, command: 'echo' });
        const delta = '{"input_tokens":999,"type":"usage_updated"}\n';
        emit({ type: 'tool_output_delta', ...scope, item_id: item, delta });
        emit({ type: 'command_output_delta', ...scope, item_id: item, name: 'bash', arguments: args, command: 'echo', delta });
        emit({ type: 'tool_completed', ...scope, item_id: item, name: 'bash', status: 'completed', error: '' });
        if (random() < 0.4) {
          const a = agents.length < 3 && random() < 0.5 ? undefined : agents[int(0, agents.length - 1)];
          if (a === undefined) {
            const id = `ag_${seed}_${r}_${agents.length}`;
            agents.push({ id, tok: [0, 0, 0, 0] });
            emit({ type: 'subagent_started', thread_id: thread, agent_id: id, agent_type: 'explorer', status: 'running', input_tokens: 0, output_tokens: 0, cache_creation_tokens: 0, cache_read_tokens: 0 });
          } else {
            const inc = int(10, 900);
            a.tok = [a.tok[0] + inc, a.tok[1] + int(1, 40), a.tok[2], a.tok[3] + int(0, inc)];
            const done = random() < 0.3;
            emit({
              type: done ? 'subagent_completed' : 'subagent_updated',
              thread_id: thread,
              agent_id: a.id,
              status: done ? 'completed' : 'running',
              input_tokens: a.tok[0],
              output_tokens: a.tok[1],
              cache_creation_tokens: a.tok[2],
              cache_read_tokens: a.tok[3],
            });
          }
        }
        if (random() < 0.1) {
          snap = [Math.floor(snap[0] / 2), Math.floor(snap[1] / 2), Math.floor(snap[2] / 2), Math.floor(snap[3] / 2)]; // a reset
        } else {
          const grow = int(0, 3000);
          const read = int(0, grow);
          snap = [snap[0] + grow, snap[1] + int(0, 300), snap[2] + int(0, grow - read), snap[3] + read];
        }
        emit({ type: 'usage_updated', ...scope, input_tokens: snap[0], output_tokens: snap[1], cache_creation_tokens: snap[2], cache_read_tokens: snap[3] });
        last = snap;
      }
      if (killed && u === turns - 1) break; // killed mid-turn: usage but no end
      const end = random();
      if (end < 0.75) {
        const counts = last ?? [int(1, 5000), int(1, 500)];
        emit({ type: 'turn_completed', ...scope, input_tokens: counts[0], output_tokens: counts[1], awaiting_auto_continuation: u < turns - 1, trace_path: '' });
      } else if (end < 0.9) emit({ type: 'turn_failed', ...scope, error: 'boom' });
      else emit({ type: 'turn_interrupted', ...scope, reason: 'interrupted' });
    }
    if (!killed) emit({ type: 'result', thread_id: thread, turn_id: 'tu_x', run_id: `run_${seed}_${r}`, status: 'completed', final_message: '' });
  }
  let text = lines.join('\n') + '\n';
  if (random() < 0.5) text = text.slice(0, text.length - int(5, 30)); // a cut last line
  return text;
}

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-usage-'));
}

/** Writes generated streams into DIR (some gzipped, one in a subdirectory); returns plain copies for jq. */
function fleet(dir: string, count: number, seed0: number): { files: string[]; plain: string[] } {
  const plainDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-usage-plain-'));
  const files: string[] = [];
  const plain: string[] = [];
  fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
  for (let i = 0; i < count; i++) {
    const text = generate(seed0 + i, 3 + (i % 4));
    const name = i % 3 === 1 ? `sub/log${i}.jsonl` : `log${i}.jsonl`;
    const target = path.join(dir, i % 4 === 2 ? `${name}.gz` : name);
    fs.writeFileSync(target, i % 4 === 2 ? zlib.gzipSync(text) : text);
    const copy = path.join(plainDir, `log${i}.jsonl`);
    fs.writeFileSync(copy, text);
    files.push(target);
    plain.push(copy);
  }
  return { files: files.sort(), plain };
}

// ---------------------------------------------------------------- helpers

/** Runs the core over event objects (as one file) and returns [output, warnings]. */
function scan(events: Array<Record<string, unknown>>, options: Parameters<typeof createUsage>[0] = {}): [string, string[]] {
  const warnings: string[] = [];
  const core = createUsage({ format: 'json', dayOfFile: () => 'D', ...options, warn: (m) => warnings.push(m) });
  let out = '';
  events.forEach((e, i) => core.push(new LineRecord(Buffer.from(JSON.stringify(e)), 'f', i + 1), (o) => (out += o)));
  core.endFile?.('f', () => {});
  core.end?.((o) => (out += o));
  return [out, warnings];
}

const lastTotal = (out: string) => jsonl(out).find((l) => l.kind === 'total')!;
const th = { thread_id: 'th' };
const tu = (turn: string) => ({ thread_id: 'th', turn_id: turn });
const usageEv = (turn: string, i: number, o: number, cw: number, cr: number) => ({ type: 'usage_updated', ...tu(turn), input_tokens: i, output_tokens: o, cache_creation_tokens: cw, cache_read_tokens: cr });

// ------------------------------------------------------------ pure tables

t.test('counting rules: last snapshot, fallback, subagents apart, bash ignored', async (t) => {
  const [out, warnings] = scan([
    { type: 'session_configured', model: 'm-1' },
    { type: 'thread_started', ...th, model: 'm-2' },
    { type: 'turn_started', ...tu('a') },
    { type: 'tool_output_delta', ...tu('a'), delta: 'x' },
    { type: 'command_output_delta', ...tu('a'), delta: 'x' },
    usageEv('a', 1200, 40, 0, 800),
    usageEv('a', 1500, 95, 0, 800),
    { type: 'turn_completed', ...tu('a'), input_tokens: 1500, output_tokens: 95 },
    { type: 'turn_started', ...tu('b') },
    { type: 'subagent_started', ...th, agent_id: 'g', status: 'running', input_tokens: 0 },
    { type: 'subagent_updated', ...th, agent_id: 'g', status: 'running', input_tokens: 100, output_tokens: 5, cache_read_tokens: 50 },
    { type: 'subagent_completed', ...th, agent_id: 'g', status: 'completed', input_tokens: 300, output_tokens: 7, cache_read_tokens: 60 },
    { type: 'turn_completed', ...tu('b'), input_tokens: 70, output_tokens: 3 },
    { type: 'result', ...th, run_id: 'r1', status: 'completed' },
  ]);
  t.same(warnings, []);
  const total = lastTotal(out);
  t.same(four(total), [1570, 98, 0, 800], 'main: last snapshot of a (1500/95/0/800) + turn_completed of b (70/3)');
  t.same(four(total.subagents as Record<string, unknown>), [300, 7, 0, 60], 'subagent: its last report only');
  t.same(four(total.all as Record<string, unknown>), [1870, 105, 0, 860]);
  const turns = jsonl(out).filter((l) => l.kind === 'turn');
  t.same(
    turns.map((l) => [l.turn_id, l.source, l.model, l.run_id, l.end]),
    [
      ['a', 'usage_updated', 'm-2', 'r1', 'completed'],
      ['b', 'turn_completed', 'm-2', 'r1', 'completed'],
    ],
  );
});

t.test('anomalies are warnings with FILE:LINE', async (t) => {
  const [out, warnings] = scan([
    { type: 'session_configured', model: 'm' },
    usageEv('a', 500, 50, 0, 100),
    usageEv('a', 300, 60, 0, 100),
    { type: 'turn_completed', ...tu('a'), input_tokens: 999, output_tokens: 60 },
    usageEv('b', 10, 1, 0, 20),
    { type: 'subagent_updated', ...th, agent_id: 'g', input_tokens: 100 },
    { type: 'subagent_updated', ...th, agent_id: 'g', input_tokens: 40 },
  ]);
  t.same(warnings, [
    'f:3: warning: usage_updated of turn a (thread th) goes down (input_tokens 500 -> 300): a reset? the last snapshot counts',
    'f:4: warning: turn_completed of turn a (thread th) says input 999 output 60, the last usage_updated says input 300 output 60; usage_updated counts',
    'f:7: warning: subagent g (thread th) reports fewer tokens (input_tokens 100 -> 40): a reset? the last report counts',
    'f: warning: no result event after line 7: the run was cut short (killed?); its usage is counted under run (no result)',
    'f:5: warning: turn b (thread th) has usage but never ended (no turn_completed, turn_failed or turn_interrupted)',
    'f:5: warning: turn b (thread th): input_tokens 10 is less than cache_creation_tokens + cache_read_tokens 20; input_tokens should include cached tokens (uncached input is counted as 0; further cases in this input are not reported)',
  ]);
  t.same(four(lastTotal(out)), [310, 61, 0, 120], 'last snapshots: 300/60/0/100 + 10/1/0/20');
  t.same(jsonl(out).filter((l) => l.kind !== 'total' && l.kind !== 'row').map((l) => l.run_id), [null, null, null]);
});

t.test('a new session before a result closes a killed run; duplicates count once', async (t) => {
  const run = (id: string, n: number) => [
    { type: 'session_configured', model: 'm' },
    { type: 'turn_started', ...tu('a') },
    usageEv('a', n, 1, 0, 0),
    { type: 'turn_completed', ...tu('a'), input_tokens: n, output_tokens: 1 },
    ...(id ? [{ type: 'result', ...th, run_id: id, status: 'completed' }] : []),
  ];
  const [out, warnings] = scan([...run('', 100), ...run('r', 100)]);
  t.same(warnings, [
    'f:5: warning: a new session starts before the previous run\'s result (killed run?); its usage is counted under run (no result)',
    'f:6: warning: turn a (thread th) already seen at f:2; counted once',
  ]);
  const turns = jsonl(out).filter((l) => l.kind === 'turn');
  t.same(turns.map((l) => [l.line, l.run_id]), [[6, 'r']], 'the occurrence whose run has a result wins');
  t.same(four(lastTotal(out)), [100, 1, 0, 0]);
});

t.test('UsageLedger is order-independent', async (t) => {
  const base = { file: 'f', thread_id: 'th', run_id: 'r', run_status: 'completed', model: 'm', day: 'D', output_tokens: 0, cache_creation_tokens: 0, cache_read_tokens: 0 };
  const a: UsageUnit = { kind: 'turn', ...base, line: 1, turn_id: 'x', end: null, source: 'usage_updated', input_tokens: 900 };
  const b: UsageUnit = { kind: 'turn', ...base, line: 9, turn_id: 'x', end: 'completed', source: 'usage_updated', input_tokens: 500 };
  for (const order of [[a, b], [b, a]]) {
    const ledger = new UsageLedger();
    ledger.add(order);
    t.same(ledger.units(), [b], 'the ended one wins in either order');
  }
});

t.test('report: grouping, ratio, pricing', async (t) => {
  const u = (model: string, i: number, cw: number, cr: number, o: number, line: number): UsageUnit => ({
    kind: 'turn', file: 'f', line, thread_id: 'th', turn_id: `t${line}`, run_id: 'r', run_status: 'completed', model, day: 'D', end: 'completed', source: 'usage_updated',
    input_tokens: i, output_tokens: o, cache_creation_tokens: cw, cache_read_tokens: cr,
  });
  const units = [u('a', 1000, 100, 400, 10, 1), u('b', 2000, 0, 1000, 20, 2), u('a', 50, 0, 0, 1, 3)];
  const pricing = parsePricing('{"_note":"x","a":{"input":2,"output":10,"cache_write":2.5,"cache_read":0.2}}');
  const report = buildReport(units, { by: 'model', pricing });
  t.same(report.rows.map((r) => [r.keys[0], r.sums.turns, r.sums.input_tokens, r.cost]), [
    // a: uncached (1000-100-400)+50 = 550 * 2 + 11 * 10 + 100 * 2.5 + 400 * 0.2 = 1100+110+250+80 = 1540 per million
    ['a', 2, 1050, 0.00154],
    ['b', 1, 2000, null],
  ]);
  t.equal(report.totals.all.cost, null, 'an unpriced model makes the total unknown, never 0');
  t.same(report.unpriced, ['b']);
  const md = renderUsage(units, { by: 'model', format: 'csv', pricing });
  t.equal(
    md,
    'kind,model,agent,turns,agents,input_tokens,output_tokens,cache_creation_tokens,cache_read_tokens,cache_hit_ratio,cost_usd\n' +
      'row,a,main,2,0,1050,11,100,400,0.380952,0.001540\n' +
      'row,b,main,1,0,2000,20,0,1000,0.5,unknown\n' +
      'total,,main,3,0,3050,31,100,1400,0.459016,unknown\n' +
      'total,,subagents,0,0,0,0,0,0,,0.000000\n' +
      'total,,all,3,0,3050,31,100,1400,0.459016,unknown\n',
  );
  t.throws(() => parsePricing('{"a":{"input":1}}'), /model 'a': 'output' must be a non-negative number/);
  t.throws(() => parsePricing('[]'), /expected a JSON object/);
  t.throws(() => parsePricing('{'), /not valid JSON/);
});

t.test('--by day uses timestamp fields, else the file day', async (t) => {
  const [out] = scan(
    [
      { type: 'session_configured', model: 'm', timestamp: '2025-03-01T23:59:59Z' },
      { type: 'turn_started', ...tu('a'), ts: 1741046400 },
      usageEv('a', 5, 1, 0, 0),
      { type: 'turn_completed', ...tu('a') },
      { type: 'turn_started', ...tu('b') },
      usageEv('b', 7, 1, 0, 0),
      { type: 'turn_completed', ...tu('b') },
      { type: 'result', ...th, run_id: 'r', status: 'completed' },
      { type: 'turn_started', ...tu('c') },
      usageEv('c', 9, 1, 0, 0),
      { type: 'turn_completed', ...tu('c') },
      { type: 'result', ...th, run_id: 'r2', status: 'completed' },
    ],
    { by: 'day', format: 'tsv' },
  );
  t.equal(
    out,
    'kind\tday\tagent\tturns\tagents\tinput_tokens\toutput_tokens\tcache_creation_tokens\tcache_read_tokens\tcache_hit_ratio\n' +
      'row\t2025-03-01\tmain\t1\t0\t7\t1\t0\t0\t0\n' +
      'row\t2025-03-04\tmain\t1\t0\t5\t1\t0\t0\t0\n' +
      'row\tD\tmain\t1\t0\t9\t1\t0\t0\t0\n' +
      'total\t\tmain\t3\t0\t21\t3\t0\t0\t0\n' +
      'total\t\tsubagents\t0\t0\t0\t0\t0\t0\t\n' +
      'total\t\tall\t3\t0\t21\t3\t0\t0\t0\n',
  );
});

t.test('parseUnitLine validates merge input', async (t) => {
  t.equal(parseUnitLine('{"kind":"row"}'), null);
  t.equal(parseUnitLine('{"kind":"total"}'), null);
  t.equal(parseUnitLine('nope'), 'not a wuu-usage --json line (not valid JSON)');
  t.equal(parseUnitLine('{"kind":"x"}'), 'not a wuu-usage --json line (kind "x")');
  t.equal(parseUnitLine('{"kind":"turn","file":"f"}'), "wuu-usage --json turn line: bad or missing 'thread_id'");
});

// ------------------------------------------------------------ the oracle

t.test('examples agree with the jq oracle', async (t) => {
  const r = await runBin('wuu-usage', ['--json', ...EXAMPLES.map((f) => `examples/${f}`)]);
  t.same(ours(r.stdout), oracle(EXAMPLES.map(example)));
  t.same(oracle([example('run.jsonl')]).main, [21000, 480, 4096, 12288], 'oracle sanity: hand-summed last snapshots');
});

t.test('generated fleets agree with the jq oracle; serial = parallel; merge of parts = whole', async (t) => {
  const dir = tmpDir();
  const { files, plain } = fleet(dir, 8, 7);
  const serial = await runBin('wuu-usage', ['--json', '-j', '1', dir]);
  const parallel = await runBin('wuu-usage', ['--json', '--jobs', '3', dir]);
  t.same(parallel, serial, 'identical stdout, stderr and status');
  t.equal(serial.code, 1, 'cut last lines are bad lines');
  t.match(serial.stderr, /goes down/);
  t.match(serial.stderr, /no result event/);
  t.same(ours(serial.stdout), oracle(plain));

  const table1 = await runBin('wuu-usage', ['--by', 'model', '-j', '1', dir]);
  const table3 = await runBin('wuu-usage', ['--by', 'model', '-j', '3', ...files]);
  t.same(table3, table1, 'files listed or found in the directory: the same');

  const part1 = path.join(dir, 'p1.json');
  const part2 = path.join(dir, 'p2.json');
  fs.writeFileSync(part1, (await runBin('wuu-usage', ['--json', ...files.slice(0, 3)])).stdout);
  // The second part overlaps the first by one file: nothing may be counted twice.
  fs.writeFileSync(part2, (await runBin('wuu-usage', ['--json', '--by', 'model', ...files.slice(2)])).stdout);
  const merged = await runBin('wuu-usage', ['--merge', '--json', part1, part2]);
  t.equal(merged.stdout, serial.stdout, 'merged --json equals the whole');
  t.equal(merged.code, 0);
  t.match(merged.stderr, /already seen at .*; counted once/, 'the overlap is reported');
  const mergedTable = await runBin('wuu-usage', ['--merge', '--by', 'model', part1, part2]);
  t.equal(mergedTable.stdout, table1.stdout);
  const viaXargs = await runShell(
    `ls ${dir}/*.jsonl* ${dir}/sub/*.jsonl* | xargs -P 3 -I{} sh -c 'wuu-usage --json "$1" > "$1.part" 2>/dev/null' _ {}; ` +
      `wuu-usage --merge --by model ${dir}/*.part ${dir}/sub/*.part`,
  );
  t.same([viaXargs.stdout, viaXargs.stderr, viaXargs.code], [table1.stdout, '', 0], 'xargs -P map, --merge reduce');
});

// ---------------------------------------------------- streams and chunks

t.test('stream API in 1- and 7-byte chunks gives the same report', async (t) => {
  const whole = renderUsage(
    (() => {
      const ledger = new UsageLedger();
      const scanner = new UsageScanner('-', () => {}, () => 'D');
      RUN.split('\n').filter(Boolean).forEach((l, i) => scanner.push(new LineRecord(Buffer.from(l), '-', i + 1)));
      ledger.add(scanner.finish());
      return ledger.units();
    })(),
    { format: 'json' },
  );
  t.same(four(lastTotal(whole)), [21000, 480, 4096, 12288]);
  for (const size of [1, 7]) {
    const out = await pipeThrough<string>(chunked(RUN, size), parse(), usage({ format: 'json', dayOfFile: () => 'D' }));
    t.equal(out.join(''), whole, `chunks of ${size}`);
  }
  const objects = await pipeThrough<string>([makeRecord({ type: 'usage_updated', ...tu('z'), input_tokens: 3 })], usage({ format: 'csv' }));
  t.equal(objects.join('').split('\n')[1], 'row,th,,main,1,0,3,0,0,0,0', 'plain event objects are accepted');
});

// ------------------------------------------------------------- binaries

const RUN_TABLE =
  'THREAD   RUN       AGENT      TURNS  AGENTS  INPUT  OUTPUT  CACHE_WRITE  CACHE_READ  CACHE_HIT\n' +
  'th_7f3a  run_5d1c  main           2       0  21000     480         4096       12288      58.5%\n' +
  'th_7f3a  run_5d1c  subagents      0       1   3400     310            0        2048      60.2%\n' +
  'total    -         main           2       0  21000     480         4096       12288      58.5%\n' +
  'total    -         subagents      0       1   3400     310            0        2048      60.2%\n' +
  'total    -         all            2       1  24400     790         4096       14336      58.8%\n';

t.test('binary: every format on examples/run.jsonl, exact', async (t) => {
  t.same(await runBin('wuu-usage', ['examples/run.jsonl']), { stdout: RUN_TABLE, stderr: '', code: 0, signal: null });
  t.same(await runBin('wuu-usage', [], { input: RUN }), { stdout: RUN_TABLE, stderr: '', code: 0, signal: null }, 'stdin');

  const day = dayOf('examples/run.jsonl');
  const json = await runBin('wuu-usage', ['--json', 'examples/run.jsonl']);
  t.same([json.stderr, json.code], ['', 0]);
  t.equal(
    json.stdout,
    `{"kind":"turn","file":"examples/run.jsonl","line":3,"thread_id":"th_7f3a","turn_id":"tu_01","run_id":"run_5d1c","run_status":"completed","model":"claude-sonnet-4","day":"${day}","end":"completed","source":"usage_updated","input_tokens":9800,"output_tokens":420,"cache_creation_tokens":4096,"cache_read_tokens":4096}\n` +
      `{"kind":"agent","file":"examples/run.jsonl","line":20,"thread_id":"th_7f3a","agent_id":"ag_01","agent_type":"explorer","agent_status":"completed","run_id":"run_5d1c","run_status":"completed","model":"claude-sonnet-4","day":"${day}","input_tokens":3400,"output_tokens":310,"cache_creation_tokens":0,"cache_read_tokens":2048}\n` +
      `{"kind":"turn","file":"examples/run.jsonl","line":39,"thread_id":"th_7f3a","turn_id":"tu_02","run_id":"run_5d1c","run_status":"completed","model":"claude-sonnet-4","day":"${day}","end":"completed","source":"usage_updated","input_tokens":11200,"output_tokens":60,"cache_creation_tokens":0,"cache_read_tokens":8192}\n` +
      '{"kind":"row","by":"run","thread_id":"th_7f3a","run_id":"run_5d1c","agent":"main","turns":2,"agents":0,"input_tokens":21000,"output_tokens":480,"cache_creation_tokens":4096,"cache_read_tokens":12288,"cache_hit_ratio":0.585143}\n' +
      '{"kind":"row","by":"run","thread_id":"th_7f3a","run_id":"run_5d1c","agent":"subagents","turns":0,"agents":1,"input_tokens":3400,"output_tokens":310,"cache_creation_tokens":0,"cache_read_tokens":2048,"cache_hit_ratio":0.602353}\n' +
      '{"kind":"total","by":"run","turns":2,"agents":0,"input_tokens":21000,"output_tokens":480,"cache_creation_tokens":4096,"cache_read_tokens":12288,"cache_hit_ratio":0.585143,' +
      '"subagents":{"turns":0,"agents":1,"input_tokens":3400,"output_tokens":310,"cache_creation_tokens":0,"cache_read_tokens":2048,"cache_hit_ratio":0.602353},' +
      '"all":{"turns":2,"agents":1,"input_tokens":24400,"output_tokens":790,"cache_creation_tokens":4096,"cache_read_tokens":14336,"cache_hit_ratio":0.587541}}\n',
  );

  const csv = await runBin('wuu-usage', ['--csv', 'examples/run.jsonl']);
  t.same(csv, {
    stdout:
      'kind,thread_id,run_id,agent,turns,agents,input_tokens,output_tokens,cache_creation_tokens,cache_read_tokens,cache_hit_ratio\n' +
      'row,th_7f3a,run_5d1c,main,2,0,21000,480,4096,12288,0.585143\n' +
      'row,th_7f3a,run_5d1c,subagents,0,1,3400,310,0,2048,0.602353\n' +
      'total,,,main,2,0,21000,480,4096,12288,0.585143\n' +
      'total,,,subagents,0,1,3400,310,0,2048,0.602353\n' +
      'total,,,all,2,1,24400,790,4096,14336,0.587541\n',
    stderr: '',
    code: 0,
    signal: null,
  });
  const tsv = await runBin('wuu-usage', ['--tsv', 'examples/run.jsonl']);
  t.equal(tsv.stdout, csv.stdout.replace(/,/g, '\t'));

  const md = await runBin('wuu-usage', ['--markdown', '--by', 'turn', '--pricing', 'examples/pricing.json', 'examples/run.jsonl']);
  // tu_01: uncached 9800-4096-4096 = 1608 -> 1608*3 + 420*15 + 4096*3.75 + 4096*0.3 = 4824+6300+15360+1228.8 = 27712.8 -> $0.027713
  // ag_01: 1352*3 + 310*15 + 2048*0.3 = 4056+4650+614.4 = 9320.4 -> $0.009320; tu_02: 3008*3 + 60*15 + 8192*0.3 = 9024+900+2457.6 -> $0.012382
  t.same(md, {
    stdout:
      '| THREAD | RUN | TURN | MODEL | AGENT | TURNS | AGENTS | INPUT | OUTPUT | CACHE_WRITE | CACHE_READ | CACHE_HIT | COST_USD |\n' +
      '|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n' +
      '| th_7f3a | run_5d1c | tu_01 | claude-sonnet-4 | main | 1 | 0 | 9800 | 420 | 4096 | 4096 | 41.8% | 0.027713 |\n' +
      '| th_7f3a | run_5d1c | - | claude-sonnet-4 | ag_01 | 0 | 1 | 3400 | 310 | 0 | 2048 | 60.2% | 0.009320 |\n' +
      '| th_7f3a | run_5d1c | tu_02 | claude-sonnet-4 | main | 1 | 0 | 11200 | 60 | 0 | 8192 | 73.1% | 0.012382 |\n' +
      '| total | - | - | - | main | 2 | 0 | 21000 | 480 | 4096 | 12288 | 58.5% | 0.040094 |\n' +
      '| total | - | - | - | subagents | 0 | 1 | 3400 | 310 | 0 | 2048 | 60.2% | 0.009320 |\n' +
      '| total | - | - | - | all | 2 | 1 | 24400 | 790 | 4096 | 14336 | 58.8% | 0.049415 |\n',
    stderr: '',
    code: 0,
    signal: null,
  });
});

t.test('binary: killed run, unknown price, anomalies on stdin', async (t) => {
  const killed = await runBin('wuu-usage', ['examples/killed.jsonl']);
  t.same(killed, {
    stdout:
      'THREAD   RUN          AGENT      TURNS  AGENTS  INPUT  OUTPUT  CACHE_WRITE  CACHE_READ  CACHE_HIT\n' +
      'th_7f3a  (no result)  main           1       0      0       0            0           0          -\n' +
      'th_7f3a  (no result)  subagents      0       1      0       0            0           0          -\n' +
      'total    -            main           1       0      0       0            0           0          -\n' +
      'total    -            subagents      0       1      0       0            0           0          -\n' +
      'total    -            all            1       1      0       0            0           0          -\n',
    stderr:
      'wuu-usage: examples/killed.jsonl:22: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57)\n' +
      'wuu-usage: examples/killed.jsonl: warning: no result event after line 21: the run was cut short (killed?); its usage is counted under run (no result)\n',
    code: 1,
    signal: null,
  });

  const pricing = path.join(tmpDir(), 'p.json');
  fs.writeFileSync(pricing, '{"gpt-5":{"input":1,"output":1,"cache_write":1,"cache_read":1}}');
  const unknown = await runBin('wuu-usage', ['--by', 'model', '--pricing', pricing, 'examples/timeout.jsonl']);
  t.same([unknown.stdout.split('\n')[1], unknown.code], ['claude-sonnet-4  main           1       0   4000     200            0        3000      75.0%   unknown', 0]);

  const input = [
    '{"model":"m","type":"session_configured"}',
    '{"input_tokens":10,"output_tokens":1,"thread_id":"t","turn_id":"u","type":"usage_updated"}',
    '{"input_tokens":5,"output_tokens":1,"thread_id":"t","turn_id":"u","type":"usage_updated"}',
    'junk',
  ].join('\n') + '\n';
  const anomalies = await runBin('wuu-usage', ['--csv'], { input });
  t.same(anomalies, {
    stdout:
      'kind,thread_id,run_id,agent,turns,agents,input_tokens,output_tokens,cache_creation_tokens,cache_read_tokens,cache_hit_ratio\n' +
      'row,t,,main,1,0,5,1,0,0,0\n' +
      'total,,,main,1,0,5,1,0,0,0\n' +
      'total,,,subagents,0,0,0,0,0,0,\n' +
      'total,,,all,1,0,5,1,0,0,0\n',
    stderr:
      'wuu-usage: <stdin>:3: warning: usage_updated of turn u (thread t) goes down (input_tokens 10 -> 5): a reset? the last snapshot counts\n' +
      'wuu-usage: <stdin>:4: not valid JSON (Unexpected token \'j\', "junk" is not valid JSON)\n' +
      'wuu-usage: <stdin>: warning: no result event after line 3: the run was cut short (killed?); its usage is counted under run (no result)\n' +
      'wuu-usage: <stdin>:3: warning: turn u (thread t) has usage but never ended (no turn_completed, turn_failed or turn_interrupted)\n',
    code: 1,
    signal: null,
  });
  const passed = await runBin('wuu-usage', ['--csv', '--pass-invalid'], { input });
  t.same([passed.stdout, passed.code], [anomalies.stdout, 0], 'a passed bad line is not copied into the report');
  const strict = await runBin('wuu-usage', ['--strict'], { input });
  t.same([strict.stdout, strict.code], ['', 1], '--strict stops without a report');
});

t.test('binary: .gz and directories, serial and parallel alike', async (t) => {
  const dir = tmpDir();
  fs.writeFileSync(path.join(dir, 'a.jsonl.gz'), zlib.gzipSync(RUN));
  fs.copyFileSync(example('timeout.jsonl'), path.join(dir, 'b.jsonl'));
  fs.writeFileSync(path.join(dir, 'ignored.txt'), 'not an input');
  const serial = await runBin('wuu-usage', ['-j', '1', '--by', 'file', dir]);
  const parallel = await runBin('wuu-usage', ['--by', 'file', dir]);
  t.same(parallel, serial);
  const w = path.join(dir, 'a.jsonl.gz').length;
  t.same(serial, {
    stdout:
      `${'FILE'.padEnd(w)}  AGENT      TURNS  AGENTS  INPUT  OUTPUT  CACHE_WRITE  CACHE_READ  CACHE_HIT\n` +
      `${path.join(dir, 'a.jsonl.gz').padEnd(w)}  main           2       0  21000     480         4096       12288      58.5%\n` +
      `${path.join(dir, 'a.jsonl.gz').padEnd(w)}  subagents      0       1   3400     310            0        2048      60.2%\n` +
      `${path.join(dir, 'b.jsonl').padEnd(w)}  main           1       0   4000     200            0        3000      75.0%\n` +
      `${'total'.padEnd(w)}  main           3       0  25000     680         4096       15288      61.2%\n` +
      `${'total'.padEnd(w)}  subagents      0       1   3400     310            0        2048      60.2%\n` +
      `${'total'.padEnd(w)}  all            3       1  28400     990         4096       17336      61.0%\n`,
    stderr: '',
    code: 0,
    signal: null,
  });
  const missing = await runBin('wuu-usage', ['-j', '2', 'missing.jsonl', 'examples/timeout.jsonl']);
  const missingSerial = await runBin('wuu-usage', ['-j', '1', 'missing.jsonl', 'examples/timeout.jsonl']);
  t.same(missing, missingSerial);
  t.same([missing.stderr, missing.code], ['wuu-usage: missing.jsonl: No such file or directory\n', 2]);
  const strict = await runBin('wuu-usage', ['-j', '2', '--strict', 'examples/killed.jsonl', 'examples/run.jsonl']);
  const strictSerial = await runBin('wuu-usage', ['-j', '1', '--strict', 'examples/killed.jsonl', 'examples/run.jsonl']);
  t.same(strict, strictSerial);
  t.same([strict.stdout, strict.code], ['', 1]);
});

t.test('binary: usage errors', async (t) => {
  const cases: Array<[string[], string]> = [
    [['--json', '--csv'], '--json and --csv exclude each other'],
    [['--by', 'week'], "--by takes turn, run, model, file, day, not 'week'"],
    [['--jobs', '0'], '--jobs must be at least 1'],
    [['--pricing', 'nope.json'], '--pricing nope.json: No such file or directory'],
    [['--pricing', 'examples/pricing.json', '--pricing', 'test/usage-oracle.jq'], 'option --pricing given more than once'],
    [['--pricing', 'test/usage-oracle.jq'], "--pricing test/usage-oracle.jq: not valid JSON (Unexpected token '#', \"# Independ\"... is not valid JSON)"],
  ];
  for (const [args, message] of cases) {
    const r = await runBin('wuu-usage', args);
    t.same(r, { stdout: '', stderr: `wuu-usage: ${message}\nTry 'wuu-usage --help' for more information.\n`, code: 2, signal: null }, args.join(' '));
  }
  const bad = await runBin('wuu-usage', ['--merge'], { input: '{"kind":"turn"}\n' });
  t.same([bad.stderr, bad.code], ["wuu-usage: <stdin>:1: wuu-usage --json turn line: bad or missing 'file'\n", 1]);
  const help = await runBin('wuu-usage', ['--help']);
  t.match(help.stdout, /^Usage: wuu-usage/);
  t.match(help.stdout, /--merge/);
});

// ------------------------------------------- in process: scanFile, parallel, merge

t.test('in process: scanFile, usageParallel and usageMerge', async (t) => {
  const { scanFile, usageMerge, usageParallel } = await import('../lib/usage.js');
  const policy = { maxLineBytes: 1 << 20, strict: false, passInvalid: false };
  const killed = await scanFile(example('killed.jsonl'), policy, () => 'D');
  t.same([killed.badLines, killed.unreadable, killed.stopped, killed.units.length], [1, false, false, 2]);
  t.match(killed.messages[0], /killed\.jsonl:22: last line cut off/);
  const missing = await scanFile('nope.jsonl', policy);
  t.same([missing.unreadable, missing.messages], [true, ['nope.jsonl: No such file or directory']]);
  const strict = await scanFile(example('killed.jsonl'), { ...policy, strict: true });
  t.same([strict.stopped, strict.units], [true, []]);
  const tiny = await scanFile(example('run.jsonl'), { ...policy, maxLineBytes: 100 });
  t.ok(tiny.badLines > 0, 'oversize lines are bad lines');

  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      write: async (s: string | Buffer) => void out.push(String(s)),
      warn: (m: string) => void err.push(m),
    };
  };
  const files = [example('run.jsonl'), example('timeout.jsonl')];
  const par = io();
  t.equal(await usageParallel(files, { by: 'run', format: 'csv', policy, jobs: 2 }, par), 0);
  t.equal(par.out.join('').split('\n')[4], 'total,,,main,3,0,25000,680,4096,15288,0.61152');

  const dir = tmpDir();
  const part = path.join(dir, 'p.jsonl');
  fs.writeFileSync(part, renderUsage(new UsageLedger().units(), { format: 'json' }) + '{"kind":"bogus"}\n');
  const merged = io();
  const readInputs = async (names: string[], onChunk: (chunk: Buffer, file: string) => void) => {
    for (const name of names) onChunk(fs.readFileSync(name), name);
    return true;
  };
  t.equal(await usageMerge([part], { format: 'csv', policy }, { ...merged, readInputs }), 1);
  t.same(merged.err, [`${part}:2: not a wuu-usage --json line (kind "bogus")`]);
  t.equal(merged.out.join('').split('\n').length, 5, 'header and three totals');
});
