/**
 * THE in-process harness: runs a tool spec through the runner's `run()` with
 * in-memory stdin, stdout and stderr, and gives back the exact bytes written
 * and the exit status, without spawning node. Every test that runs a tool in
 * this process goes through here (helpers.ts `runBin` included, for the built
 * binaries), so the way a test feeds a tool and reads its output is written
 * once. Spawn only when the process itself is the point (pipes, signals,
 * terminals, live input, peak memory): helpers.ts `spawnBin`, `runShell`.
 */
import { PassThrough, Readable, Writable } from 'node:stream';
import { run, type RunOptions, type ToolSpec } from '../lib/cli/index.js';
import type { Core } from '../lib/core.js';

export interface Ran {
  stdout: string;
  stdoutBytes: Buffer;
  stderr: string;
  code: number;
}

/** A stdout or stderr that keeps everything written to it; `isTTY` as asked (a terminal or a pipe). */
export class Capture extends PassThrough {
  readonly chunks: Buffer[] = [];
  constructor(readonly isTTY = false) {
    super();
    this.on('data', (c: Buffer) => this.chunks.push(c));
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
  text(): string {
    return this.bytes().toString('utf8');
  }
}

/** What stdin gets: bytes (one chunk), chunks in the given sizes, or any stream. */
export type Input = Buffer | string | Buffer[] | Readable;

/** Options of {@link runIn}: the runner's own, plus `tty` for a stdout that is a terminal. */
export interface RunInOptions extends RunOptions {
  /** stdout is a terminal (`isTTY`); ignored when `stdout` is given. */
  tty?: boolean;
}

/** The stdin stream for `input`. */
export function stdinOf(input: Input): Readable {
  if (input instanceof Readable) return input;
  const chunks = Array.isArray(input) ? input : [Buffer.from(input)];
  return Readable.from(chunks.filter((c) => c.length > 0), { objectMode: false });
}

/**
 * Runs any `run(spec, options)` (the source runner, or the built one for
 * helpers.ts `runBin`) with captured output; a throw becomes exit 70 and an
 * "internal error" on stderr, as the process would show it.
 */
export async function runCaptured<S>(
  runner: (spec: S, options: RunOptions) => Promise<number>,
  spec: S,
  argv: string[],
  input: Input = '',
  options: RunInOptions = {},
): Promise<Ran> {
  const { tty, ...runOptions } = options;
  const stdout = new Capture(tty ?? false);
  const stderr = new Capture();
  let code: number;
  try {
    code = await runner(spec, { argv, stdin: stdinOf(input), stdout, stderr, env: { NO_COLOR: '1' }, ...runOptions });
  } catch (err) {
    const name = (spec as { name?: string }).name ?? 'tool';
    stderr.write(`${name}: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    code = 70;
  }
  // Let 'data' events of the last writes land.
  await new Promise((resolve) => setImmediate(resolve));
  const stdoutBytes = stdout.bytes();
  return { stdout: stdoutBytes.toString(), stdoutBytes, stderr: stderr.text(), code };
}

/** Runs `spec` with argv and stdin (bytes, or chunks in odd sizes); resolves with everything it wrote. */
export function runIn(spec: ToolSpec, argv: string[], input: Input = '', options: RunInOptions = {}): Promise<Ran> {
  return runCaptured(run, spec, argv, input, options);
}

/** A stdout that fails every write with `code` (ENOSPC for /dev/full, EPIPE for a closed pipe). */
export function failingStdout(code: string): Writable {
  return new Writable({
    write(_chunk, _encoding, done) {
      done(Object.assign(new Error(`${code}: write failed`), { code }));
    },
  });
}

/**
 * A stdout that copies what it is given, at once or only when the write
 * completes a turn later (a slow pipe: the runner's read buffers are still
 * held at its next read). For the tests of reused read buffers.
 */
export function copyingStdout(slow: boolean): Writable & { bytes(): Buffer } {
  const out: Buffer[] = [];
  const stream = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, done) {
      if (!slow) {
        out.push(Buffer.from(chunk));
        done();
        return;
      }
      setImmediate(() => {
        out.push(Buffer.from(chunk));
        done();
      });
    },
  });
  return Object.assign(stream, { bytes: () => Buffer.concat(out) });
}

/** The core with its proof taken away (no `proves`, `copies` or `passLines`): every line parsed and read the general way, the path before issue 20. */
export function withoutProof(spec: ToolSpec): ToolSpec {
  return {
    ...spec,
    create(ctx) {
      const made = spec.create(ctx);
      if (!('core' in made)) throw new Error(`${spec.name} declares a core`);
      const core: Core = new Proxy(made.core, {
        get(target, prop) {
          if (prop === 'proves' || prop === 'copies' || prop === 'passLines') return undefined;
          const value: unknown = Reflect.get(target, prop);
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      return { ...made, core };
    },
  };
}
