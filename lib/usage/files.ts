/**
 * Scanning one named input file, as a worker thread or the serial loop does
 * it: the same reader and scanner as everywhere, messages collected in order
 * instead of written, so a parallel run can print them in file order.
 */
import type { Readable } from 'node:stream';
import { abandonRaw, describeInputError, inputBytes, openRaw } from '../cli/inputs.js';
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
 * Scans one input file; messages go to `say` at once, or are collected.
 * `interrupt.interrupted` ends it early: the units
 * read so far count, without a "killed" warning (the reader, not the
 * producer, stopped).
 */
export async function scanFile(
  name: string,
  policy: ScanPolicy,
  interrupt: Interrupt = { interrupted: false },
  say?: (message: string) => void,
  timeOfFile: (file: string) => string | null = fileTime,
): Promise<FileScan> {
  const messages: string[] = [];
  const result: FileScan = { messages, units: [], badLines: 0, unreadable: false, stopped: false };
  // Serially, messages are written as they come (a live pipe sees them at once); a worker collects them.
  const message = say ?? ((m: string) => messages.push(m));
  const scanner = new UsageScanner(name, message, timeOfFile);
  const reader = new InputReader(name, policy, scanner, message);
  // The runner's opener: gzip by its magic bytes, and a FIFO whose open is
  // still pending (no writer) is released when a signal ends the scan.
  let raw: Readable | undefined;
  try {
    const opened = openRaw(name, process.stdin);
    raw = opened;
    interrupt.current = { destroy: () => abandonRaw(opened, name) };
    if (interrupt.interrupted) abandonRaw(opened, name);
    for await (const chunk of inputBytes(raw as AsyncIterable<Buffer>)) {
      reader.push(chunk);
      if (reader.stopped || interrupt.interrupted) break;
    }
  } catch (err) {
    if (!interrupt.interrupted) {
      message(`${name}: ${describeInputError(err as NodeJS.ErrnoException)}`);
      result.unreadable = true;
      return result;
    }
  } finally {
    interrupt.current = undefined;
    if (raw !== undefined) abandonRaw(raw, name);
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
