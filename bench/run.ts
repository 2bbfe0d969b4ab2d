/**
 * `npm run bench`: one table, every case against its reference loop in the
 * same run. It generates seeded streams in the producer's wire format
 * (bench/generate.ts: sorted keys, Go escapes, real event mix; cached in
 * bench/out/): 100 MB of ordinary lines, and 200 MB made mostly of 8 MiB lines
 * for memory. For each case of bench/cases/ it runs our binary and its
 * reference loop (bench/reference.ts) alternately, N times each, and prints
 * the median of the paired time ratios (ours / reference), both throughputs
 * (medians), our peak RSS (the highest seen, from /usr/bin/time), jq's speed
 * against ours where jq does the same job, and the verdict against the
 * target. Below the table: the top entries of a `node --cpu-prof` profile of
 * each profiled case (where the time goes).
 *
 * Times are CPU time (user + system, from /usr/bin/time, 10 ms resolution):
 * on a machine shared with other work, wall time mostly measures the wait
 * for a core; --wall uses wall time instead.
 *
 * Options: --quick (20 MB and 60 MB streams, 3 runs: a few minutes), --mb N,
 * --runs N (paired runs per case, default 5), --only TEXT (cases whose name
 * contains TEXT), --no-profile, --no-jq, --wall. Exit status 1 when a case
 * misses a target. Timings never go in tests.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
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
const megabytes = Number(option('mb') ?? process.env.BENCH_MB ?? (quick ? 20 : 100));
const bigMegabytes = quick ? 60 : 200;
const runs = Number(option('runs') ?? (quick ? 3 : 5));
const only = option('only');
const profiling = !args.includes('--no-profile');
const useJq = !args.includes('--no-jq');
/** Time is CPU time (user + system) unless --wall: on a shared, loaded machine wall time measures the queue. */
const cpuTime = !args.includes('--wall');
const node = process.execPath;
const bin = (name: string) => path.join(root, 'dist', 'bin', `${name}.js`);
const reference = path.join(here, 'reference.js');

interface Measure {
  seconds: number;
  rssMb: number;
  ok: boolean;
}

/** Runs a command with `input` on stdin (or none) and stdout to /dev/null; wall time and peak RSS (MiB). */
function measure(command: string[], input: string | undefined, env?: NodeJS.ProcessEnv): Promise<Measure> {
  return new Promise((resolve, reject) => {
    const stdin = input === undefined ? 'ignore' : fs.openSync(input, 'r');
    const devnull = fs.openSync('/dev/null', 'w');
    const started = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', '%M %U %S', ...command], { stdio: [stdin, devnull, 'pipe'], env: env ?? process.env });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e9;
      if (typeof stdin === 'number') fs.closeSync(stdin);
      fs.closeSync(devnull);
      const [rssKb, user, system] = stderr.trim().split('\n').pop()!.split(' ').map(Number);
      // CPU time (user + system) is what a run costs; wall time on a shared
      // machine is mostly waiting for a core. Both are kept.
      resolve({ seconds: cpuTime ? user! + system! : wall, rssMb: rssKb! / 1024, ok: code === 0 || code === 1 || code === 7 });
    });
  });
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

interface Paired {
  ours: number;
  ref: number;
  ratio: number;
  rssMb: number;
  ok: boolean;
}

/** `n` interleaved runs of ours and the reference: medians of times and of the paired ratios. */
async function paired(ours: string[], ref: string[] | undefined, input: string | undefined, n: number): Promise<Paired> {
  const oursTimes: number[] = [];
  const refTimes: number[] = [];
  const ratios: number[] = [];
  let rssMb = 0;
  let ok = true;
  for (let i = 0; i < n; i++) {
    const a = await measure(ours, input);
    rssMb = Math.max(rssMb, a.rssMb);
    ok &&= a.ok;
    oursTimes.push(a.seconds);
    if (ref) {
      const b = await measure(ref, input);
      refTimes.push(b.seconds);
      ratios.push(a.seconds / b.seconds);
    }
  }
  return { ours: median(oursTimes), ref: ref ? median(refTimes) : NaN, ratio: ref ? median(ratios) : NaN, rssMb, ok };
}

/** The first `sampleMb` MB of `file`, cut at a line end (cached beside it). */
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
  const order = ['startup', 'filter', 'usage', 'accumulate', 'redact', 'memory'];
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .sort((a, b) => (order.indexOf(a.slice(0, -3)) + 1 || 99) - (order.indexOf(b.slice(0, -3)) + 1 || 99));
  const all: BenchCase[] = [];
  for (const file of files) {
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

/** A case's own input file (bench/out/NAME.jsonl), written when missing. */
function ownInput(input: { name: string; write: (file: string) => void }): string {
  const file = path.join(root, 'bench', 'out', `${input.name}.jsonl`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    process.stderr.write(`generating ${path.relative(root, file)} ...\n`);
    input.write(file);
  }
  return file;
}

async function jqVersion(): Promise<string | undefined> {
  if (!useJq) return undefined;
  return new Promise((resolve) => {
    const child = spawn('jq', ['--version']);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => resolve(code === 0 ? out.trim() : undefined));
  });
}

/** Our side of a case: a binary (or `@reference MODE` for a loop measured alone). */
const commandOf = (argv: string[]): string[] => {
  const [tool, ...rest] = argv;
  return tool === '@reference' ? [node, reference, ...rest] : [node, bin(tool!), ...rest];
};

/** The reference side: a loop of bench/reference.ts, or a whole command after `@cmd`. */
const referenceCommand = (argv: string[]): string[] => {
  const [first, ...rest] = argv;
  if (first === '@cmd') return rest[0] === 'node' ? [node, ...rest.slice(1)] : rest;
  return [node, reference, ...argv];
};

/** Top self-time entries of one `node --cpu-prof` run of `argv` on `input`. */
async function profile(argv: string[], input: string | undefined, top = 6): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-prof-'));
  try {
    const [nodePath, ...rest] = commandOf(argv);
    await measure([nodePath!, '--cpu-prof', '--cpu-prof-dir', dir, ...rest], input);
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (file === undefined) return ['(no profile written)'];
    interface ProfileNode {
      id: number;
      callFrame: { functionName: string; url: string; lineNumber: number };
    }
    const prof = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
    const byId = new Map(prof.nodes.map((n) => [n.id, n]));
    const self = new Map<string, number>();
    let total = 0;
    prof.samples.forEach((id, i) => {
      const frame = byId.get(id)!.callFrame;
      const where = frame.url ? ` ${frame.url.replace(/^file:\/\//, '').replace(`${root}/`, '')}:${frame.lineNumber + 1}` : '';
      const key = `${frame.functionName || '(anonymous)'}${where}`;
      const dt = prof.timeDeltas[i] ?? 0;
      total += dt;
      self.set(key, (self.get(key) ?? 0) + dt);
    });
    return [...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, us]) => `${num((100 * us) / total, 1, 5)}%  ${key}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const cases = await loadCases();
  const stream = streamFile('stream', megabytes);
  const size = fs.statSync(stream).size / 1e6;
  const needsBig = cases.some((c) => c.input === 'biglines');
  const big = needsBig ? streamFile('biglines', bigMegabytes, { hugeLineBytes: 8 * 1024 * 1024, hugeEvery: 20 }) : undefined;
  const bigSize = big ? fs.statSync(big).size / 1e6 : 0;
  const jq = await jqVersion();
  console.log(
    `streams: ${path.relative(root, stream)} (${size.toFixed(0)} MB)${big ? `, ${path.relative(root, big)} (${bigSize.toFixed(0)} MB, 8 MiB lines)` : ''}`,
  );
  console.log(
    `node ${process.version}, ${jq ?? 'no jq'}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}; ${cpuTime ? 'CPU' : 'wall'} time, medians of ${runs} paired runs (ours, reference, ours, ...)`,
  );
  console.log('');
  const header = `${'case'.padEnd(30)} ${'ms'.padStart(6)} ${'MB/s'.padStart(6)}  ${'reference'.padEnd(16)} ${'MB/s'.padStart(6)} ${'x ref'.padStart(6)}  ${'target'.padEnd(7)} ${'x jq'.padStart(5)} ${'MiB'.padStart(5)}  verdict`;
  console.log(header);
  console.log('-'.repeat(header.length + 10));
  let failed = 0;
  const profiles: Array<[string, string[]]> = [];
  for (const c of cases) {
    const own = typeof c.input === 'object' ? ownInput(c.input) : undefined;
    const input = own ?? (c.input === 'none' ? undefined : c.input === 'biglines' ? big : stream);
    const mb = own !== undefined ? fs.statSync(own).size / 1e6 : c.input === 'none' ? NaN : c.input === 'biglines' ? bigSize : size;
    const n = c.input === 'none' ? runs * 2 : c.input === 'biglines' ? 1 : runs;
    const ours = commandOf(c.ours);
    const ref = c.reference ? referenceCommand(c.reference) : undefined;
    const m = await paired(ours, ref, input, n);
    let jqRatio = NaN;
    let jqOk = true;
    if (jq !== undefined && c.jqArgs !== undefined && input !== undefined) {
      const jqInput = c.jqSampleMb === undefined ? input : sampleOf(input, c.jqSampleMb);
      const j = await measure(['jq', ...c.jqArgs], jqInput);
      jqOk = j.ok;
      jqRatio = mb / m.ours / (fs.statSync(jqInput).size / 1e6 / j.seconds);
    }
    const misses: string[] = [];
    if (!m.ok) misses.push('ours failed');
    if (c.maxRatio !== undefined && !(m.ratio <= c.maxRatio)) misses.push(`>${c.maxRatio}x ref`);
    if (c.minRatioVsJq !== undefined && jqRatio < c.minRatioVsJq) misses.push(`<${c.minRatioVsJq}x jq`);
    if (c.maxRssMb !== undefined && m.rssMb >= c.maxRssMb) misses.push(`>=${c.maxRssMb} MiB`);
    if (!jqOk) misses.push('jq failed');
    if (misses.length > 0) failed++;
    const targets = [c.maxRatio !== undefined ? `<=${c.maxRatio}` : '', c.maxRssMb !== undefined ? `<${c.maxRssMb}MiB` : ''].filter(Boolean);
    const verdict = misses.length > 0 ? `MISSED: ${misses.join(', ')}` : targets.length > 0 || c.minRatioVsJq ? 'ok' : '';
    const refName = c.reference ? (c.reference[0] === '@cmd' ? c.reference.slice(1).join(' ') : c.reference.join(' ')) : '';
    console.log(
      `${c.name.slice(0, 30).padEnd(30)} ${num(m.ours * 1000, 0, 6)} ${num(mb / m.ours, 0, 6)}  ${refName.slice(0, 16).padEnd(16)} ${num(mb / m.ref, 0, 6)} ${num(m.ratio, 2, 6)}  ${(c.maxRatio !== undefined ? `<=${c.maxRatio}` : '').padEnd(7)} ${num(jqRatio, 1, 5)} ${num(m.rssMb, 0, 5)}  ${verdict}`,
    );
    failed += await peers(c, ours, input, mb, n);
    if (profiling && c.profile) profiles.push([c.name, await profile(c.ours, input)]);
  }
  if (profiles.length > 0) {
    console.log('');
    console.log('where the time goes (node --cpu-prof, self time, top entries):');
    for (const [name, lines] of profiles) {
      console.log(`  ${name}`);
      for (const line of lines) console.log(`    ${line}`);
    }
  }
  return failed > 0 ? 1 : 0;
}

/**
 * A case's peers (bench/types.ts): other tools doing the same job (secretlint
 * for wuu-redact), paired with ours on the same stream in the same run.
 */
async function peers(c: BenchCase, ours: string[], input: string | undefined, mb: number, n: number): Promise<number> {
  let failed = 0;
  if (input === undefined) return 0;
  for (const peer of c.peers ?? []) {
    peer.setup?.();
    const m = await paired(ours, peer.command.map((a) => a.replace('{stream}', input)), input, n);
    const miss = !m.ok ? 'MISSED: ours failed' : peer.maxRatio !== undefined && !(m.ratio <= peer.maxRatio) ? `MISSED: >${peer.maxRatio}x ${peer.name}` : peer.maxRatio !== undefined ? 'ok' : '';
    if (miss.startsWith('MISSED')) failed++;
    const target = peer.maxRatio !== undefined ? `<=${peer.maxRatio}` : '';
    console.log(`${`  vs ${peer.name}`.slice(0, 30).padEnd(30)} ${num(m.ours * 1000, 0, 6)} ${num(mb / m.ours, 0, 6)}  ${peer.name.slice(0, 16).padEnd(16)} ${num(mb / m.ref, 0, 6)} ${num(m.ratio, 2, 6)}  ${target.padEnd(7)} ${''.padStart(5)} ${num(m.rssMb, 0, 5)}  ${miss}`);
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
