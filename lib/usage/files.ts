/**
 * Scanning one named input file, as a worker thread or the serial loop does
 * it: the same reader and scanner as everywhere, messages collected in order
 * instead of written, so a parallel run can print them in file order.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { describeInputError } from '../runner.js';
import { fileTime } from './dates.js';
import { InputReader, type ScanPolicy } from './reader.js';
import { UsageScanner } from './scanner.js';
import type { UsageUnit } from './types.js';

/** What scanning one input produced. */
export interface FileScan {
  /** Messages for stderr in order (without the program name). */
  messages: string[];
  units: UsageUnit[];
  badLines: number;
  /** The input could not be read (exit status 2). */
  unreadable: boolean;
  /** A bad line under --strict stopped it: nothing after it counts. */
  stopped: boolean;
}

/** Something that can stop a scan early (a signal). */
export interface Interrupt {
  interrupted: boolean;
  /** Called with the stream being read, so a signal can end it at once. */
  current?: { destroy(): void } | undefined;
}

/**
 * Scans one input file. `interrupt.interrupted` ends it early: the units
 * read so far count, without a "killed" warning (the reader, not the
 * producer, stopped).
 */
export async function scanFile(name: string, policy: ScanPolicy, interrupt: Interrupt = { interrupted: false }, timeOfFile: (file: string) => string | null = fileTime): Promise<FileScan> {
  const messages: string[] = [];
  const result: FileScan = { messages, units: [], badLines: 0, unreadable: false, stopped: false };
  const scanner = new UsageScanner(name, (m) => messages.push(m), timeOfFile);
  const reader = new InputReader(name, policy, scanner, (m) => messages.push(m));
  const source = fs.createReadStream(name, { highWaterMark: 1 << 20 });
  let input: NodeJS.ReadableStream = source;
  if (name.endsWith('.gz')) {
    const gunzip = zlib.createGunzip();
    source.on('error', (err: Error) => gunzip.destroy(err));
    input = source.pipe(gunzip);
  }
  interrupt.current = source;
  try {
    for await (const chunk of input) {
      reader.push(chunk as Buffer);
      if (reader.stopped || interrupt.interrupted) break;
    }
  } catch (err) {
    if (!interrupt.interrupted) {
      messages.push(`${name}: ${describeInputError(err as NodeJS.ErrnoException)}`);
      result.unreadable = true;
      return result;
    }
  } finally {
    interrupt.current = undefined;
    source.destroy();
  }
  result.badLines = reader.badLines;
  result.stopped = reader.stopped;
  if (reader.stopped) return result;
  if (!interrupt.interrupted) reader.end();
  result.badLines = reader.badLines;
  result.stopped = reader.stopped;
  if (!reader.stopped) result.units = scanner.finish(interrupt.interrupted);
  return result;
}
