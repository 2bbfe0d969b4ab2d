/**
 * `npm run bench`: generates a seeded stream (200 MB by default, cached in
 * bench/out/), then runs every case of bench/cases/ against jq and a raw Node
 * loop in the same run, and prints throughput, ratios and peak memory.
 * Options: --mb N (stream size), --only TEXT (cases whose name contains TEXT).
 * Exit status 1 when a case misses a target its issue sets.
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
const megabytes = Number(option('mb') ?? process.env.BENCH_MB ?? 200);
const only = option('only');

interface Measure {
  seconds: number;
  rssMb: number;
  ok: boolean;
}

/** Runs a command with the stream on stdin and stdout to /dev/null; wall time and peak RSS. */
function measure(command: string[], input: string): Promise<Measure> {
  return new Promise((resolve, reject) => {
    const stdin = fs.openSync(input, 'r');
    const devnull = fs.openSync('/dev/null', 'w');
    const started = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', '%M', ...command], { stdio: [stdin, devnull, 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      fs.closeSync(stdin);
      fs.closeSync(devnull);
      const rssKb = Number(stderr.trim().split('\n').pop());
      resolve({ seconds, rssMb: rssKb / 1024, ok: code === 0 || code === 1 });
    });
  });
}

/** The first `megabytes` MB of `file`, cut at a line end (cached beside it). */
function sampleOf(file: string, megabytes: number): string {
  const sample = file.replace(/\.jsonl$/, `.first${megabytes}mb.jsonl`);
  if (!fs.existsSync(sample)) {
    const fd = fs.openSync(file, 'r');
    const buffer = Buffer.alloc(Math.ceil(megabytes * 1e6));
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

const fmt = (n: number, digits = 1) => n.toFixed(digits).padStart(7);

async function main(): Promise<number> {
  const outDir = path.join(root, 'bench', 'out');
  fs.mkdirSync(outDir, { recursive: true });
  const stream = path.join(outDir, `stream-${megabytes}mb-seed42.jsonl`);
  if (!fs.existsSync(stream)) {
    process.stderr.write(`generating ${stream} ...\n`);
    generateFile(stream, megabytes);
  }
  const size = fs.statSync(stream).size / 1e6;
  const node = process.execPath;
  const bin = (name: string) => path.join(root, 'dist', 'bin', `${name}.js`);

  console.log(`stream: ${path.relative(root, stream)} (${size.toFixed(0)} MB), node ${process.version}, ${(await jqVersion())}`);
  const loop = await measure([node, path.join(here, 'node-loop.js')], stream);
  console.log(`raw Node loop (JSON.parse+stringify per line): ${fmt(size / loop.seconds)} MB/s`);
  const cases = await loadCases();
  const regexLoop = cases.some((c) => c.maxTimeVsRegexLoop !== undefined) ? await measure([node, path.join(here, 'node-regex-loop.js')], stream) : undefined;
  if (regexLoop) console.log(`one-regex Node walk loop (parse, walk, replace, stringify): ${fmt(size / regexLoop.seconds)} MB/s, peak ${regexLoop.rssMb.toFixed(0)} MB`);
  console.log('');
  console.log('case                           ours MB/s  jq MB/s  x jq   x node  peak MB  target');
  let failed = 0;
  for (const c of cases) {
    const [tool, ...rest] = c.ours;
    const ours = await measure([node, bin(tool!), ...rest], stream);
    const jqInput = c.jqSampleMb === undefined ? stream : sampleOf(stream, c.jqSampleMb);
    const jqSize = fs.statSync(jqInput).size / 1e6;
    const jq = await measure(['jq', ...c.jqArgs], jqInput);
    // Throughputs, so a jq run on a sample compares fairly.
    const jqRate = jqSize / jq.seconds;
    const ratio = size / ours.seconds / jqRate;
    const vsNode = loop.seconds / ours.seconds;
    const misses: string[] = [];
    if (!ours.ok) misses.push('ours failed');
    if (c.minRatioVsJq !== undefined && ratio < c.minRatioVsJq) misses.push(`<${c.minRatioVsJq}x jq`);
    if (c.maxRssMb !== undefined && ours.rssMb > c.maxRssMb) misses.push(`>${c.maxRssMb} MB`);
    if (!jq.ok) misses.push('jq failed');
    const vsRegex = regexLoop ? ours.seconds / regexLoop.seconds : undefined;
    if (c.maxTimeVsRegexLoop !== undefined && vsRegex !== undefined && vsRegex > c.maxTimeVsRegexLoop) misses.push(`>${c.maxTimeVsRegexLoop}x regex-loop time`);
    const target = [
      c.minRatioVsJq ? `>=${c.minRatioVsJq}x jq` : '',
      c.maxRssMb ? `<${c.maxRssMb} MB` : '',
      c.maxTimeVsRegexLoop !== undefined && vsRegex !== undefined ? `time ${vsRegex.toFixed(2)}x regex-loop <=${c.maxTimeVsRegexLoop}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    const verdict = target === '' && misses.length === 0 ? '' : misses.length === 0 ? `ok (${target})` : `MISSED: ${misses.join(', ')}`;
    if (misses.length > 0) failed++;
    const sampled = c.jqSampleMb === undefined ? '' : ` (jq on a ${jqSize.toFixed(0)} MB sample)`;
    console.log(`${c.name.padEnd(30)} ${fmt(size / ours.seconds)}  ${fmt(jqRate, 2)} ${fmt(ratio, 2)} ${fmt(vsNode, 2)} ${fmt(ours.rssMb, 0)}  ${verdict}${sampled}`);
  }
  return failed > 0 ? 1 : 0;
}

async function jqVersion(): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('jq', ['--version']);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', () => resolve('jq missing'));
    child.on('close', () => resolve(out.trim()));
  });
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
