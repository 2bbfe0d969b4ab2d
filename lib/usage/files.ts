/**
 * Scanning one named input file, as a worker thread or the serial loop does
 * it: the same reader and scanner as everywhere, messages collected in order
 * instead of written, so a parallel run can print them in file order.
 */
import fs from 'node:fs';
import net from 'node:net';
import type { Readable } from 'node:stream';
import { describeInputError, inputBytes, releaseFifoOpen } from '../cli/inputs.js';
import { fileTime } from './dates.js';
import { InputReader, type BadLineReport, type ScanPolicy } from './reader.js';
import { UsageScanner, type TimeOfFile } from './scanner.js';
import type { UsageUnit } from './types.js';

/**
 * Opens a named input. A FIFO (or socket) is read through a non-blocking
 * pipe handle, not the thread pool: a worker thread blocked in read() on an
 * idle FIFO could not be stopped by a signal.
 */
function openSource(name: string): Promise<Readable> {
  return new Promise((resolve, reject) => {
    fs.open(name, 'r', (err, fd) => {
      if (err) return reject(err);
      fs.fstat(fd, (statErr, stat) => {
        if (statErr) {
          fs.close(fd, () => reject(statErr));
          return;
        }
        if (stat.isDirectory()) {
          fs.close(fd, () => reject(Object.assign(new Error('Is a directory'), { code: 'EISDIR' })));
          return;
        }
        if (stat.isFIFO() || stat.isSocket()) resolve(new net.Socket({ fd, readable: true, writable: false }));
        else resolve(fs.createReadStream('', { fd, highWaterMark: 1 << 20 }));
      });
    });
  });
}

/** A counted bad line, recorded by a worker for the flood rule: file, line, message, fresh (see BadLineReport). */
export type BadLineEntry = [string, number, string, boolean];

/** What scanning one input produced. */
export interface FileScan {
  /** Messages for stderr in order (without the program name); counted bad lines as entries for the flood rule. */
  messages: Array<string | BadLineEntry>;
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
  timeOfFile: TimeOfFile = fileTime,
  bad?: BadLineReport,
): Promise<FileScan> {
  const messages: FileScan['messages'] = [];
  const result: FileScan = { messages, units: [], badLines: 0, unreadable: false, stopped: false };
  // Serially, messages are written as they come (a live pipe sees them at once); a worker collects them.
  const message = say ?? ((m: string) => messages.push(m));
  const report: BadLineReport = bad ?? ((file, line, text, fresh) => messages.push([file, line, text, fresh]));
  const scanner = new UsageScanner(name, policy.quiet ? () => {} : message, timeOfFile);
  const reader = new InputReader(name, policy, scanner, message, report);
  let damage: string | undefined;
  let read = false;
  // Gzip is decided by the magic bytes, as in the runner. While the open is
  // pending (a FIFO with no writer blocks it), a signal releases it.
  let source: Readable | undefined;
  try {
    const opening = openSource(name);
    interrupt.current = { destroy: () => releaseFifoOpen(name, opening.catch(() => undefined)) };
    if (interrupt.interrupted) interrupt.current.destroy();
    source = await opening;
    interrupt.current = source;
    if (interrupt.interrupted) source.destroy();
    for await (const chunk of inputBytes(source as AsyncIterable<Buffer>)) {
      read = true;
      reader.push(chunk);
      if (reader.stopped || interrupt.interrupted) break;
    }
  } catch (err) {
    if (!interrupt.interrupted) {
      damage = describeInputError(err as NodeJS.ErrnoException);
      // Failed before a byte (missing, unreadable): nothing to finish.
      if (!read) {
        message(`${name}: ${damage}`);
        result.unreadable = true;
        return result;
      }
    }
  } finally {
    interrupt.current = undefined;
    source?.destroy();
  }
  result.badLines = reader.badLines;
  result.stopped = reader.stopped;
  if (reader.stopped) return result;
  if (!interrupt.interrupted) reader.end();
  result.badLines = reader.badLines;
  result.stopped = reader.stopped;
  if (!reader.stopped) result.units = scanner.finish(interrupt.interrupted);
  if (damage !== undefined) {
    // A damaged input (a cut .gz, trailing garbage) gives everything it holds, then the damage is named, as in the runner.
    message(`${name}: ${damage}`);
    result.unreadable = true;
  }
  return result;
}
