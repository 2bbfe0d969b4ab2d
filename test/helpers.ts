/**
 * Shared test helpers: run a built binary (in this process by default, or
 * spawned when a real process is the point) and capture everything, feed
 * bytes into streams in odd chunk sizes, read example files.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, type Transform } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RunOptions } from '../lib/cli/index.js';
import { runCaptured } from './runner-harness.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Absolute path of a built binary (tests run after `npm run build`). */
export function binPath(name: string): string {
  return path.join(ROOT, 'dist', 'bin', `${name}.js`);
}

/** Absolute path of a file in examples/. */
export function example(name: string): string {
  return path.join(ROOT, 'examples', name);
}

/** Contents of a file in examples/. */
export function readExample(name: string): string {
  return fs.readFileSync(example(name), 'utf8');
}

export interface BinResult {
  stdout: string;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Options of {@link runBin} and {@link spawnBin}. */
export interface BinOptions {
  input?: string | Buffer;
  env?: NodeJS.ProcessEnv;
  /** Working directory; relative paths in args are resolved against it. Default: the repo root. */
  cwd?: string;
  /**
   * Leave the child's stdin open after writing `input`, as `tail -f FILE |`
   * does: the child must end by itself (follow mode after a result).
   */
  keepStdinOpen?: boolean;
}

interface BinModule {
  spec?: unknown;
  main?: (options: RunOptions) => Promise<number>;
  /** A bundled binary's own runner (scripts/bundle.mjs). */
  run?: RunnerModule['run'];
}

interface RunnerModule {
  run(spec: unknown, options: RunOptions): Promise<number>;
}

/**
 * Runs dist/bin/NAME.js in this process through the shared harness
 * (runner-harness.ts `runCaptured`): its exported `spec` through the built
 * runner's `run` (or the umbrella's exported `main`), with stdin from
 * `input`, stdout/stderr collected, no signal handlers, and the same exit
 * status a process would have (70 and "internal error" for a crash). Much
 * faster than a process; use {@link spawnBin} when the test is about the
 * process itself (pipes, signals, terminals, live input, another cwd).
 */
export async function runBin(name: string, args: string[], options: BinOptions = {}): Promise<BinResult> {
  if (options.cwd !== undefined && path.resolve(options.cwd) !== process.cwd()) return spawnBin(name, args, options);
  // The bundle itself: dist/bin/NAME.js is its start-up entry, which exports nothing (scripts/bundle.mjs).
  const bin = (await import(pathToFileURL(path.join(ROOT, 'dist', 'bundle', `${name}.js`)).href)) as BinModule;
  const runner =
    bin.main !== undefined
      ? (_spec: unknown, runOptions: RunOptions) => bin.main!(runOptions)
      : // A bundle carries its own runner (its records are its own classes); tsc output shares dist/lib's.
        bin.run !== undefined
        ? bin.run
        : ((await import(pathToFileURL(path.join(ROOT, 'dist', 'lib', 'cli', 'index.js')).href)) as RunnerModule).run;
  const r = await runCaptured(runner, bin.spec ?? { name }, args, options.input ?? '', {
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    handleSignals: false,
  });
  return { stdout: r.stdout, stderr: r.stderr, code: r.code, signal: null };
}

/**
 * NODE_OPTIONS without tap's process tracking (@tapjs/processinfo), for a
 * spawned program whose code this suite covers in process (or that is not
 * ours, as npm): the tracker loads into every child and adds a part of Node's
 * own start-up to it (a `--version` under tap: 0.27-0.39 s of CPU tracked,
 * 0.27 s untracked), and what such a spawn proves is a fact about the
 * process (its exit status, its first module, its pipes), not coverage.
 */
export function untracked(): NodeJS.ProcessEnv {
  const options = (process.env.NODE_OPTIONS ?? '').split(/\s+/).filter((o) => o !== '' && !o.includes('@tapjs/processinfo'));
  return { NODE_OPTIONS: options.join(' ') };
}

/** Runs `node dist/bin/NAME.js ARGS` as a real process with optional stdin; resolves when it exits. */
export function spawnBin(name: string, args: string[], options: BinOptions = {}): Promise<BinResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath(name), ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), code, signal }),
    );
    child.stdin.on('error', () => {}); // the child may exit before reading everything
    if (options.keepStdinOpen) child.stdin.write(options.input ?? '');
    else child.stdin.end(options.input ?? '');
    // An open stdin is closed once the child is gone (else our pipe keeps the test alive).
    child.on('exit', () => child.stdin.destroy());
  });
}

/** Runs a shell pipeline (bash -o pipefail) in the repo root with dist/bin on PATH. */
export function runShell(script: string, options: { env?: NodeJS.ProcessEnv } = {}): Promise<BinResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-o', 'pipefail', '-c', script], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', PATH: `${binDir()}:${process.env.PATH}`, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), code, signal }),
    );
  });
}

/**
 * A directory of executable wrappers named like the installed binaries
 * (wuu-filter, ...), so docs examples run exactly as a user types them.
 */
export function binDir(): string {
  const dir = path.join(ROOT, 'dist', 'test-bin');
  fs.mkdirSync(dir, { recursive: true });
  for (const file of fs.readdirSync(path.join(ROOT, 'dist', 'bin'))) {
    if (!file.endsWith('.js')) continue;
    const name = file.slice(0, -3);
    const wrapper = path.join(dir, name);
    const body = `#!/bin/sh\nexec "${process.execPath}" "${path.join(ROOT, 'dist', 'bin', file)}" "$@"\n`;
    if (!fs.existsSync(wrapper) || fs.readFileSync(wrapper, 'utf8') !== body) {
      fs.writeFileSync(wrapper, body, { mode: 0o755 });
    }
  }
  return dir;
}

/** Splits bytes into chunks of `size` (the last may be shorter). */
export function chunked(data: Buffer | string, size: number): Buffer[] {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

/**
 * Splits bytes into chunks of `size` as {@link chunked} does, except inside
 * a run of one repeated byte longer than `4 * edge`, when `size` is under
 * `edge`: there the chunks are of `size` in the run's first and last `edge`
 * bytes or so only, and of 4099 bytes (an odd size) in its middle. Every escape,
 * UTF-8 sequence, key, value and line boundary is still cut as
 * `chunked(data, size)` cuts it; a 70 000-byte run of one letter in 1-byte
 * chunks costs about 150 chunks instead of 70 000 (the most of a test
 * file's time), and its middle is still fed across chunks.
 */
export function chunkedAtEdges(data: Buffer | string, size: number, edge = 64): Buffer[] {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data);
  if (size >= edge) return chunked(bytes, size);
  const chunks: Buffer[] = [];
  let at = 0;
  while (at < bytes.length) {
    let runEnd = at + 1;
    while (runEnd < bytes.length && bytes[runEnd] === bytes[at]) runEnd++;
    if (runEnd - at > 4 * edge) {
      // The run's head in chunks of `size`, its middle in larger ones; then on from its tail,
      // both ends at multiples of `size` (as `at` is), so every later cut is chunked's.
      const headEnd = at + Math.ceil(edge / size) * size;
      const tailStart = runEnd - edge - ((runEnd - edge) % size);
      for (const chunk of chunked(bytes.subarray(at, headEnd), size)) chunks.push(chunk);
      for (const chunk of chunked(bytes.subarray(headEnd, tailStart), 4099)) chunks.push(chunk);
      at = tailStart;
    } else {
      chunks.push(bytes.subarray(at, at + size));
      at += size;
    }
  }
  return chunks;
}

/** Writes `chunks` into a pipeline of streams and collects every output object. */
export async function pipeThrough<T = unknown>(chunks: Array<Buffer | object>, ...streams: Transform[]): Promise<T[]> {
  let current: NodeJS.ReadableStream = Readable.from(chunks, { objectMode: true });
  for (const stream of streams) current = current.pipe(stream);
  const out: T[] = [];
  for await (const item of current as AsyncIterable<T>) out.push(item);
  return out;
}

/** Parses JSONL text into objects (throws on a bad line: tests want exactness). */
export function jsonl(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The `## NAME` section of README.md, heading included, up to the next `## ` heading. */
export function readmeSection(name: string): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^(?=## )/m).find((part) => part.startsWith(`## ${name}\n`));
  if (section === undefined) throw new Error(`README.md has no '## ${name}' section`);
  return section;
}

/** The fast-check seed: fixed, so CI is repeatable; FC_SEED=<n> explores other inputs. */
export const FC_SEED = Number(process.env.FC_SEED ?? 20261202);

/** A binary fed by hand, line by line, as a live producer would (for `tail -f` style tests). */
export interface LiveProcess {
  /** Writes to its stdin now. */
  write(text: string): void;
  /**
   * The next complete stdout line, or 'TIMEOUT' after `ms`. What a live test proves is that the
   * line comes while stdin is still open, not how fast: the wait is long (30 s) because a process
   * started under coverage on a loaded 2-core runner took over 5 s to answer its first line.
   */
  nextLine(ms?: number): Promise<string>;
  /** Every stdout line so far. */
  lines: string[];
  /** Closes stdin and resolves with the exit status. */
  end(): Promise<number | null>;
}

/** Spawns `node dist/bin/NAME.js ARGS` for a live-pipe test. */
export function liveProcess(name: string, args: string[] = []): LiveProcess {
  const child = spawn(process.execPath, [binPath(name), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const queued: string[] = [];
  let waiting: ((line: string) => void) | undefined;
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let at;
    while ((at = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      lines.push(line);
      if (waiting) {
        const wake = waiting;
        waiting = undefined;
        wake(line);
      } else {
        queued.push(line);
      }
    }
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    lines,
    write: (text) => child.stdin.write(text),
    nextLine: (ms = 30_000) => {
      const ready = queued.shift();
      if (ready !== undefined) return Promise.resolve(ready);
      return new Promise<string>((resolve) => {
        const timer = setTimeout(() => {
          waiting = undefined;
          resolve('TIMEOUT');
        }, ms);
        waiting = (line) => {
          clearTimeout(timer);
          resolve(line);
        };
      });
    },
    end: () => {
      child.stdin.end();
      return closed;
    },
  };
}

/** The oracle of the byte-level readers: whether JSON.parse of the line decoded as UTF-8 (as the runner reads it) gives an object. */
export function parsesAsObject(bytes: Buffer): boolean {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
