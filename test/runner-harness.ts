/**
 * In-process runs of a tool spec for the runner's tests: the exact stdout,
 * stderr and exit status, without spawning node.
 */
import { PassThrough, Readable, Writable } from 'node:stream';
import { run, type RunOptions, type ToolSpec } from '../lib/cli/index.js';

export interface Ran {
  stdout: string;
  stdoutBytes: Buffer;
  stderr: string;
  code: number;
}

/** Runs `spec` with argv and stdin chunks; resolves with everything it wrote. */
export async function runIn(spec: ToolSpec, argv: string[], input: Buffer | string | Buffer[] = '', options: RunOptions = {}): Promise<Ran> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const chunks = Array.isArray(input) ? input : [Buffer.from(input)];
  const code = await run(spec, { argv, stdin: Readable.from(chunks, { objectMode: false }), stdout, stderr, env: { NO_COLOR: '1' }, ...options });
  const stdoutBytes = Buffer.concat(out);
  return { stdout: stdoutBytes.toString(), stdoutBytes, stderr: Buffer.concat(err).toString(), code };
}

/** A stdout that fails every write with `code` (ENOSPC for /dev/full, EPIPE for a closed pipe). */
export function failingStdout(code: string): Writable {
  return new Writable({
    write(_chunk, _encoding, done) {
      done(Object.assign(new Error(`${code}: write failed`), { code }));
    },
  });
}
