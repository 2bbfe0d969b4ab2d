/**
 * checkBytes: the whole check on raw bytes, bad lines included, for
 * programmatic use (the binary goes through the shared runner instead).
 */
import type { Transform } from 'node:stream';
import through2 from 'through2';
import type { Emit } from '../core.js';
import { DEFAULT_MAX_LINE_BYTES, LineRecord, LineSplitter, lineBytes, type Line } from '../jsonl.js';
import { createCheck, type CheckOptions } from '../check.js';

/** Options of {@link checkBytes}. */
export interface CheckBytesOptions extends CheckOptions {
  /** Name used in problems. Default `-`. */
  file?: string;
  /** Longest accepted line. Default 32 MiB. */
  maxLineBytes?: number;
}

/**
 * Bytes in, problem lines (strings) out: the whole check, bad lines included,
 * as `wuu-check` does it for one input file.
 */
export function checkBytes(options: CheckBytesOptions = {}): Transform {
  const file = options.file ?? '-';
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const core = createCheck(options);
  const splitter = new LineSplitter(maxLineBytes);
  let stream: Transform;
  const emit: Emit = (out) => {
    stream.push(out);
  };
  const onLine = (line: Line) => {
    const bad = (message: string, raw: Buffer) =>
      core.badLine({ file, line: line.line, message, terminated: line.terminated, raw }, emit);
    if (line.oversizeBytes !== undefined) {
      bad(`line of ${line.oversizeBytes} bytes exceeds the maximum line size ${maxLineBytes}; dropped`, Buffer.alloc(0));
      return;
    }
    const bytes = lineBytes(line);
    const rec = new LineRecord(bytes, file, line.line);
    try {
      rec.validate();
    } catch (err) {
      bad((err as Error).message, bytes);
      return;
    }
    core.push(rec, emit);
  };
  stream = through2(
    { writableObjectMode: false, readableObjectMode: true },
    function transform(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void) {
      try {
        splitter.push(chunk, onLine);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
    function flush(done: (err?: Error | null) => void) {
      try {
        splitter.end(onLine);
        core.endFile?.(file, emit);
        core.end?.(emit);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  );
  return stream;
}
