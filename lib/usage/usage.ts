/**
 * The usage core for programmatic use: an object-mode stream (or a runner
 * core) that takes events and writes the report at the end, built on the
 * same scanner, ledger and report as the command line.
 */
import type { Transform } from 'node:stream';
import { coreStream, type Core } from '../core.js';
import { fileTime } from './dates.js';
import { UsageLedger } from './ledger.js';
import { renderUsage, type RenderOptions } from './render.js';
import { UsageScanner, type TimeOfFile } from './scanner.js';
import { USAGE_TYPES, type Warn } from './types.js';

/** Options of {@link createUsage}. */
export interface UsageOptions extends RenderOptions {
  /** Receives warnings (anomalies), formatted `FILE:LINE: warning: ...`. Default: none. */
  warn?: Warn;
  /** The time of a file whose runs have no timestamp or dated session id (a string is taken as its mtime). Default: its mtime. */
  timeOfFile?: TimeOfFile;
}

/**
 * The usage core: reads only session/thread, turn_*, usage_updated,
 * subagent_* and result events; writes the report at the end. Anomalies go
 * to `options.warn`; they do not change the exit status.
 */
export function createUsage(options: UsageOptions = {}): Core {
  const warn = options.warn ?? (() => {});
  const ledger = new UsageLedger(warn);
  let scanner: UsageScanner | undefined;
  return {
    needsParse: (type) => USAGE_TYPES.has(type),
    push(rec) {
      if (scanner === undefined || scanner.file !== rec.file) scanner = new UsageScanner(rec.file, warn, options.timeOfFile ?? fileTime);
      if (USAGE_TYPES.has(rec.type)) scanner.push(rec.type, rec.event as unknown as Record<string, unknown>, rec.line, rec.raw);
      else scanner.seen(rec.line);
    },
    endFile() {
      if (scanner !== undefined) ledger.add(scanner.finish());
      scanner = undefined;
    },
    end(emit) {
      if (scanner !== undefined) ledger.add(scanner.finish());
      scanner = undefined;
      emit(renderUsage(ledger.units(), { ...options, warn }));
    },
    // A bad line has nothing to pass on.
    invalid() {},
  };
}

/** Object-mode stream version of {@link createUsage}: events in, the report (text) out. */
export function usage(options: UsageOptions = {}): Transform {
  return coreStream(createUsage(options));
}
