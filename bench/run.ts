/**
 * `npm run bench`: generates a seeded stream in the producer's format (200 MB
 * by default, cached in bench/out/), then measures, in the same run:
 *  - start-up: every binary's --version against `node -e 0`;
 *  - the reference loops of bench/reference.ts (pipe floor, byte-level needle
 *    loop, usage-lines loop, parse-every-line loop, one-regex walk loop, the
 *    byte validator) and jq when installed;
 *  - every case of bench/cases/: its time over its reference's, with the target;
 *  - peak RSS of every streaming tool on a stream with 8 MiB lines.
 * Options: --quick (a 20 MB stream, fewer repeats: about a minute), --mb N,
 * --only TEXT (cases whose name contains TEXT), --runs N (best of N).
 * Exit status 1 when a case misses a target. Timings never go in tests.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateFile } from './generate.js';
import type { BenchCase } from './types.js';

const here = path.dirname(fileURLToPath(import.meta.url)); // dist/bench
const root = path.resolve(here, '..', '..');
const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const quick = args.includes('--quick');
const megabytes = Number(option('mb') ?? process.env.BENCH_MB ?? (quick ? 20 : 200));
const runs = Number(option('runs') ?? 3);
const only = option('only');
const node = process.execPath;
const bin = (name: string) => path.join(root, 'dist', 'bin', `${name}.js`);
const reference = path.join(here, 'reference.js');

interface Measure {
  seconds: number;
  rssMb: number;
  ok: boolean;
}

/** Runs a command with `input` on stdin (or none) and stdout to /dev/null; wall time and peak RSS. */
function measure(command: string[], input: string | undefined): Promise<Measure> {
  return new Promise((resolve, reject) => {
    const stdin = input === undefined ? 'ignore' : fs.openSync(input, 'r');
    const devnull = fs.openSync('/dev/null', 'w');
    const started = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', '%M', ...command], { stdio: [stdin, devnull, 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (typeof stdin === 'number') fs.closeSync(stdin);
      fs.closeSync(devnull);
      const rssKb = Number(stderr.trim().split('\n').pop());
      resolve({ seconds, rssMb: rssKb / 1024, ok: code === 0 || code === 1 });
    });
  });
}

/** Best time of `n` runs (the least disturbed by the rest of the machine), highest RSS. */
async function best(command: string[], input: string | undefined, n = runs): Promise<Measure> {
  let out: Measure = { seconds: Infinity, rssMb: 0, ok: true };
  for (let i = 0; i < n; i++) {
    const m = await measure(command, input);
    out = { seconds: Math.min(out.seconds, m.seconds), rssMb: Math.max(out.rssMb, m.rssMb), ok: out.ok && m.ok };
  }
  return out;
}

/** The first `megabytes` MB of `file`, cut at a line end (cached beside it). */
function sampleOf(file: string, sampleMb: number): string {
  const sample = file.replace(/\.jsonl$/, `.first${sampleMb}mb.jsonl`);
  if (!fs.existsSync(sample)) {
    const fd = fs.openSync(file, 'r');
    const buffer = Buffer.alloc(Math.ceil(sampleMb * 1e6));
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    fs.closeSync(fd);
    fs.writeFileSync(sample, buffer.subarray(0, buffer.lastIndexOf(0x0a, read - 1) + 1));
  }
  return sample;
}

async function loadCases(): Promise<BenchCase[]> {
  const dir = path.join(here, 'cases');
  const all: BenchCase[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.js')).sort()) {
    const mod = (await import(path.join(dir, file))) as { default: BenchCase[] };
    all.push(...mod.default);
  }
  return only ? all.filter((c) => c.name.includes(only)) : all;
}

const num = (n: number, digits = 2, width = 7) => (Number.isFinite(n) ? n.toFixed(digits) : '-').padStart(width);

function streamFile(name: string, mb: number, huge?: { hugeLineBytes: number; hugeEvery: number }): string {
  const outDir = path.join(root, 'bench', 'out');
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `${name}-${mb}mb-seed42-v2.jsonl`);
  if (!fs.existsSync(file)) {
    process.stderr.write(`generating ${path.relative(root, file)} ...\n`);
    generateFile(file, mb, 42, huge);
  }
  return file;
}

async function jqVersion(): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn('jq', ['--version']);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => resolve(code === 0 ? out.trim() : undefined));
  });
}

async function startup(): Promise<number> {
  const n = quick ? 5 : 10;
  const floor = await best([node, '-e', '0'], undefined, n);
  console.log(`start-up (best of ${n}): node -e 0 ${(floor.seconds * 1000).toFixed(0)} ms`);
  console.log('binary            --version ms   x node -e 0   target');
  let failed = 0;
  for (const name of ['wuu-filter', 'wuu-accumulate', 'wuu-turns', 'wuu-redact', 'wuu-usage', 'wuu-result', 'wuu-check', 'wuu-pretty', 'wuu-stream']) {
    if (only && !name.includes(only)) continue;
    const m = await best([node, bin(name), '--version'], undefined, n);
    const ratio = m.seconds / floor.seconds;
    const ok = ratio <= 1.25;
    if (!ok) failed++;
    console.log(`${name.padEnd(17)} ${num(m.seconds * 1000, 0, 12)} ${num(ratio, 2, 13)}   ${ok ? 'ok' : 'MISSED'} (<=1.25x)`);
  }
  return failed;
}

async function main(): Promise<number> {
  const stream = streamFile('stream', megabytes);
  const size = fs.statSync(stream).size / 1e6;
  const jq = await jqVersion();
  console.log(`stream: ${path.relative(root, stream)} (${size.toFixed(0)} MB), node ${process.version}, ${jq ?? 'jq not installed'}, best of ${runs}`);
  console.log('');
  let failed = await startup();
  console.log('');

  // Reference loops, each measured once per run and shared by the cases.
  const references = new Map<string, Measure>();
  const referenceOf = async (ref: string[]) => {
    const key = ref.join(' ');
    let m = references.get(key);
    if (m === undefined) {
      m = await best([node, reference, ...ref], stream);
      references.set(key, m);
    }
    return m;
  };
  const cases = await loadCases();
  for (const ref of [['pipe'], ...cases.flatMap((c) => (c.reference ? [c.reference] : []))]) await referenceOf(ref);
  console.log('reference loop                          MB/s');
  for (const [key, m] of references) console.log(`${key.slice(0, 36).padEnd(36)} ${num(size / m.seconds, 0, 7)}`);
  console.log('');

  console.log('case                            ours MB/s  ref MB/s  x ref time  target    x jq   peak MB  verdict');
  for (const c of cases) {
    const [tool, ...rest] = c.ours;
    const command = tool === '@reference' ? [node, reference, ...rest] : [node, bin(tool!), ...rest];
    const ours = await best(command, stream);
    const ref = c.reference ? await referenceOf(c.reference) : undefined;
    const ratio = ref ? ours.seconds / ref.seconds : NaN;
    let jqRatio = NaN;
    let jqOk = true;
    if (jq !== undefined && c.jqArgs !== undefined) {
      const jqInput = c.jqSampleMb === undefined ? stream : sampleOf(stream, c.jqSampleMb);
      const m = await measure(['jq', ...c.jqArgs], jqInput);
      jqOk = m.ok;
      jqRatio = size / ours.seconds / (fs.statSync(jqInput).size / 1e6 / m.seconds);
    }
    const misses: string[] = [];
    if (!ours.ok) misses.push('ours failed');
    if (c.maxRatio !== undefined && ratio > c.maxRatio) misses.push(`>${c.maxRatio}x ref`);
    if (c.minRatioVsJq !== undefined && jqRatio < c.minRatioVsJq) misses.push(`<${c.minRatioVsJq}x jq`);
    if (c.maxRssMb !== undefined && ours.rssMb > c.maxRssMb) misses.push(`>${c.maxRssMb} MB`);
    if (!jqOk) misses.push('jq failed');
    if (misses.length > 0) failed++;
    const target = c.maxRatio !== undefined ? `<=${c.maxRatio}` : '';
    const verdict = misses.length > 0 ? `MISSED: ${misses.join(', ')}` : target || c.minRatioVsJq || c.maxRssMb ? 'ok' : '';
    console.log(
      `${c.name.slice(0, 31).padEnd(31)} ${num(size / ours.seconds, 0, 9)} ${num(ref ? size / ref.seconds : NaN, 0, 9)} ${num(ratio, 2, 11)}  ${target.padEnd(7)} ${num(jqRatio, 1, 6)} ${num(ours.rssMb, 0, 9)}  ${verdict}`,
    );
    failed += await peers(c, ours, stream, size);
  }
  console.log('');
  failed += await bigLines();
  return failed > 0 ? 1 : 0;
}

/** A case's peers (bench/types.ts): their throughput and peak RSS, our time over theirs. */
async function peers(c: BenchCase, ours: Measure, stream: string, size: number): Promise<number> {
  let failed = 0;
  for (const peer of c.peers ?? []) {
    peer.setup?.();
    const m = await best(peer.command.map((a) => a.replace('{stream}', stream)), stream);
    const ratio = ours.seconds / m.seconds;
    const miss = !m.ok ? 'peer failed' : peer.maxRatio !== undefined && ratio > peer.maxRatio ? `MISSED: >${peer.maxRatio}x` : peer.maxRatio !== undefined ? 'ok' : '';
    if (miss !== '' && miss !== 'ok') failed++;
    console.log(`  vs ${peer.name.padEnd(27)} ${num(size / m.seconds, 0, 9)} MB/s, ${num(m.rssMb, 0, 4)} MB peak; ours ${num(ratio, 2, 4)}x its time ${peer.maxRatio !== undefined ? `(<=${peer.maxRatio}) ` : ''}${miss}`);
  }
  return failed;
}

/** Peak RSS of every streaming tool on a stream made mostly of 8 MiB lines: all under 150 MB. */
async function bigLines(): Promise<number> {
  const mb = quick ? 60 : 200;
  const file = streamFile('biglines', mb, { hugeLineBytes: 8 * 1024 * 1024, hugeEvery: 20 });
  console.log(`peak RSS on ${path.relative(root, file)} (${(fs.statSync(file).size / 1e6).toFixed(0)} MB, 8 MiB lines), limit 150 MB`);
  let failed = 0;
  const tools = [['wuu-filter'], ['wuu-filter', 'tool_*'], ['wuu-accumulate'], ['wuu-turns'], ['wuu-redact'], ['wuu-usage', '--json'], ['wuu-result'], ['wuu-check', '--quiet'], ['wuu-pretty', '--color', 'never']];
  const floor = await measure([node, reference, 'pipe'], file);
  console.log(`${'reference pipe'.padEnd(28)} ${num(floor.rssMb, 0, 6)} MB`);
  for (const [tool, ...rest] of tools) {
    if (only && !tool!.includes(only)) continue;
    const m = await measure([node, bin(tool!), ...rest], file);
    const ok = m.rssMb < 150;
    if (!ok) failed++;
    console.log(`${[tool, ...rest].join(' ').padEnd(28)} ${num(m.rssMb, 0, 6)} MB  ${ok ? 'ok' : 'MISSED'}`);
  }
  return failed;
}

main().then(
  (status) => {
    process.exitCode = status;
  },
  (err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  },
);
