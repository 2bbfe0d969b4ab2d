/**
 * Runs a binary's spec in-process on a stream (the runner's injected I/O),
 * for the producer-scenario tests.
 */
import { PassThrough, Readable } from 'node:stream';
import { run, type ToolSpec } from '../../lib/cli/index.js';

/** What a tool wrote and its exit status. */
export interface ToolRunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `spec` with `argv` on `input` (stdin), fed in chunks of `chunk` bytes. */
export async function runTool(spec: ToolSpec, argv: string[], input: string, chunk = 65536): Promise<ToolRunResult> {
  const bytes = Buffer.from(input);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += chunk) chunks.push(bytes.subarray(at, at + chunk));
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const code = await run(spec, { argv, stdin: Readable.from(chunks, { objectMode: false }), stdout, stderr, env: { NO_COLOR: '1' } });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

/** JSONL text to objects (a cut last line is skipped). */
export function records(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
