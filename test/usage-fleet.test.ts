/**
 * Fleets: the documented map-reduce recipe (files split over workers with
 * `xargs -P`, partial `--json` outputs combined by `--merge`) equals one
 * serial run digit for digit, beyond 2^53 too; DuckDB computes the same
 * totals from `--csv` and `--json`; `-j N` and `-j 1` print partial totals on
 * a signal without blaming the producer. Spawned: pipes, xargs, signals.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { binPath, runShell, untracked } from './helpers.js';
import { fs, goLine, tmpDir, usageRun } from './usage-gen.js';

const BIG = 9_007_199_254_740_993n; // 2^53 + 1

/** A run with exact (possibly huge) counts, written like the producer. */
function bigRun(k: number): string {
  const th = `th_${k}`;
  const turn = `${th}-turn-0001`;
  const n = (x: bigint) => x.toString();
  const huge = k % 7 === 0;
  const input = huge ? BIG + BigInt(k) : BigInt(1000 + k);
  const lines = [
    goLine({ type: 'session_configured', model: k % 2 ? 'gpt-5' : 'claude-sonnet-4-5', provider: k % 2 ? 'openai' : 'anthropic', protocol_version: 'wuu-app-server/v0.1', permissions: { mode: 'standard' } }),
    goLine({ type: 'thread_started', thread_id: th, model: k % 2 ? 'gpt-5' : 'claude-sonnet-4-5', provider: k % 2 ? 'openai' : 'anthropic', cwd: '/w', timestamp: `2026-11-${String(1 + (k % 28)).padStart(2, '0')}T10:00:00Z` }),
    goLine({ type: 'turn_started', thread_id: th, turn_id: turn }),
    `{"cache_creation_tokens":${k},"cache_read_tokens":${n(huge ? BIG * 2n : 500n)},"input_tokens":${n(input)},"output_tokens":${10 + k},"thread_id":"${th}","turn_id":"${turn}","type":"usage_updated"}`,
    goLine({ type: 'subagent_completed', thread_id: th, agent_id: `ag_${k}`, agent_type: 'explorer', status: 'completed', input_tokens: k, cache_creation_tokens: 0, cache_read_tokens: 0, output_tokens: 1 }),
    `{"awaiting_auto_continuation":false,"input_tokens":${n(input)},"output_tokens":${10 + k},"thread_id":"${th}","trace_path":"","turn_id":"${turn}","type":"turn_completed"}`,
    goLine({ type: 'result', status: 'completed', thread_id: th, turn_id: turn, run_id: `run-${th}`, final_message: '', trace_path: '' }),
  ];
  return lines.join('\n') + '\n';
}

const root = tmpDir();
const runs = path.join(root, 'runs');
fs.mkdirSync(runs);
for (let k = 0; k < 120; k++) fs.writeFileSync(path.join(runs, `run${String(k).padStart(3, '0')}.jsonl`), bigRun(k));

t.test('the xargs -P recipe equals one serial run, digit for digit, beyond 2^53', async (t) => {
  // What the recipe proves is a fact about processes and shells (xargs, files, --merge of their
  // outputs); wuu-usage's code is covered in process (usage*.test.ts), so these run without tap's
  // tracker, which every process and every -j worker thread would load again.
  const env = untracked();
  const serial = await runShell(`wuu-usage --json -j 1 ${runs}/`, { env });
  t.equal(serial.code, 0, serial.stderr);
  t.match(serial.stdout, /"input_tokens":90071992547\d+/, 'exact digits beyond 2^53');
  const recipe = [
    `cd ${root} && mkdir -p parts`,
    `ls runs/*.jsonl | xargs -P4 -n 25 sh -c 'wuu-usage --json "$@" > "$(mktemp parts/part.XXXXXX)"' sh`,
    'wuu-usage --merge --json parts/',
  ].join(' && ');
  // --merge of a directory reads its *.jsonl files only: name parts accordingly.
  const merged = await runShell(recipe.replace('parts/part.XXXXXX', 'parts/part.XXXXXX.jsonl').replace('--merge --json parts/', '--merge --json parts/*'), { env });
  t.equal(merged.code, 0, merged.stderr);
  t.equal(merged.stderr, '');
  t.equal(merged.stdout, serial.stdout.replaceAll(`"file":"${runs}/`, '"file":"runs/'), 'identical, every unit, row and total');
  const total = merged.stdout.trim().split('\n').at(-1)!;
  let expected = 0n;
  for (let k = 0; k < 120; k++) expected += k % 7 === 0 ? BIG + BigInt(k) : BigInt(1000 + k);
  t.match(total, `"input_tokens":${expected},`, 'the exact sum');
  const csvSerial = await runShell(`wuu-usage --csv --by model -j 1 ${runs}/`, { env });
  const csvMerged = await runShell(`cd ${root} && wuu-usage --merge --csv --by model parts/*`, { env });
  t.equal(csvMerged.stdout, csvSerial.stdout, '--csv too');
});

t.test('DuckDB: totals computed with SQL from --csv and --json equal wuu-usage totals', async (t) => {
  // A fleet within DuckDB's BIGINT (64-bit) range: beyond 2^53, below 2^63.
  const out = path.join(root, 'duck');
  fs.mkdirSync(out);
  const json = await usageRun(['--json', '-j', '1', '--by', 'day,model', runs]);
  const csv = await usageRun(['--csv', '-j', '1', '--by', 'day,model', runs]);
  fs.writeFileSync(path.join(out, 'usage.jsonl'), json.stdout);
  fs.writeFileSync(path.join(out, 'usage.csv'), csv.stdout);
  const total = JSON.parse(json.stdout.trim().split('\n').at(-1)!.replace(/:(\d{16,})/g, ':"$1"')) as Record<string, Record<string, string>>;
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    const fromCsv = await con.runAndReadAll(
      `SELECT sum(input_tokens)::VARCHAR AS input, sum(cache_read_tokens)::VARCHAR AS cache_read, sum(output_tokens)::VARCHAR AS output, sum(cost_usd::DECIMAL(38,15))::VARCHAR AS cost
       FROM read_csv('${path.join(out, 'usage.csv')}', header = true, all_varchar = true,
         columns = {'kind':'VARCHAR','day':'VARCHAR','model':'VARCHAR','agent':'VARCHAR','turns':'BIGINT','agents':'BIGINT','input_tokens':'HUGEINT','cache_creation_tokens':'HUGEINT','cache_read_tokens':'HUGEINT','prompt_tokens':'HUGEINT','output_tokens':'HUGEINT','cache_hit_ratio':'VARCHAR','cost_usd':'VARCHAR','date_source':'VARCHAR'})
       WHERE kind = 'row'`,
    );
    const c = fromCsv.getRowObjectsJson()[0]!;
    t.equal(c.input, total.all!.input_tokens, 'CSV: input');
    t.equal(c.cache_read, total.all!.cache_read_tokens, 'CSV: cache read');
    t.equal(String(c.output), String(total.all!.output_tokens), 'CSV: output');
    const fromJson = await con.runAndReadAll(
      `SELECT sum(input_tokens)::VARCHAR AS input, sum(output_tokens)::VARCHAR AS output, count(*) AS units
       FROM read_json('${path.join(out, 'usage.jsonl')}', format = 'newline_delimited', columns = {'kind':'VARCHAR','input_tokens':'HUGEINT','output_tokens':'HUGEINT'})
       WHERE kind IN ('turn', 'agent')`,
    );
    const j = fromJson.getRowObjectsJson()[0]!;
    t.equal(j.input, total.all!.input_tokens, 'JSON units: input');
    t.equal(String(j.output), String(total.all!.output_tokens), 'JSON units: output');
    t.equal(Number(j.units), 240, 'one line per turn and subagent');
    const cost = await con.runAndReadAll(
      `SELECT sum(cost_usd)::VARCHAR AS cost FROM read_json('${path.join(out, 'usage.jsonl')}', format = 'newline_delimited', columns = {'kind':'VARCHAR','cost_usd':'DECIMAL(38,15)'}) WHERE kind IN ('turn', 'agent')`,
    );
    t.equal(Number(cost.getRowObjectsJson()[0]!.cost), Number(total.all!.cost_usd), 'JSON units: cost');
  } finally {
    con.closeSync();
    db.closeSync();
  }
});

/** Resolves once `pid` has a handler installed for `signal` (SigCgt in /proc). */
async function handles(pid: number, signal: number): Promise<void> {
  for (;;) {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const mask = BigInt(`0x${/SigCgt:\s*([0-9a-f]+)/.exec(status)![1]}`);
    if ((mask >> BigInt(signal - 1)) & 1n) return;
    await new Promise((r) => setImmediate(r));
  }
}

/** Spawns wuu-usage; resolves `ready` when stderr contains `marker`. */
function start(args: string[], marker: string) {
  const child = spawn(process.execPath, [binPath('wuu-usage'), ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c));
  let wake: () => void;
  const ready = new Promise<void>((r) => (wake = r));
  child.stderr.on('data', (c: Buffer) => {
    stderr += c;
    if (stderr.includes(marker)) wake();
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((r) => child.on('close', (code) => r({ code, stdout, stderr })));
  return { child, ready, done };
}

const ODD = '{"cache_creation_tokens":0,"cache_read_tokens":0,"input_tokens":-1,"output_tokens":0,"thread_id":"th_0","turn_id":"th_0-turn-0001","type":"usage_updated"}\n';

t.test('-j 1: SIGINT prints the totals read so far, without "killed"', { timeout: 30_000 }, async (t) => {
  const partial = bigRun(3).split('\n').slice(0, 4).join('\n') + '\n';
  const p = start(['--json', '--no-cost', '-j', '1'], 'warning');
  p.child.stdin.write(partial + ODD);
  await p.ready;
  await handles(p.child.pid!, 2);
  p.child.kill('SIGINT');
  const r = await p.done;
  t.equal(r.code, 130);
  t.match(r.stdout, /"kind":"total".*"input_tokens":1003,/, 'the partial run counts');
  t.notMatch(r.stderr, /killed/);
  p.child.stdin.destroy();
});

t.test('-j 2: SIGTERM prints the partial totals of the files done, without "killed"', { timeout: 30_000 }, async (t) => {
  const dir = tmpDir();
  const first = path.join(dir, 'a.jsonl');
  fs.writeFileSync(first, bigRun(5).replace('"output_tokens":1,', '"output_tokens":-1,'));
  const fifo = path.join(dir, 'b.jsonl');
  execFileSync('mkfifo', [fifo]);
  const p = start(['--json', '--no-cost', '-j', '2', first, fifo], 'a.jsonl:5: warning');
  const writer = await fs.promises.open(fifo, 'w'); // resolves once a worker opened it
  await writer.write(bigRun(6).split('\n').slice(0, 4).join('\n') + '\n');
  await p.ready; // a.jsonl is done and merged: its messages were printed
  await handles(p.child.pid!, 15);
  p.child.kill('SIGTERM');
  const r = await p.done;
  await writer.close();
  t.equal(r.code, 143);
  t.match(r.stdout, /"kind":"total".*"input_tokens":1005,/, 'the file done counts');
  t.notMatch(r.stderr, /killed/);
});
