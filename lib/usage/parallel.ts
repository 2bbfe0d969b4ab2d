/**
 * Running wuu-usage over inputs: serially, or on worker threads (`-j N`,
 * loaded only then). Both use the same per-file scan (files.ts) and the same
 * ledger, and print each file's messages in file order, so stdout, stderr
 * and the exit status do not depend on N. SIGINT, SIGTERM and SIGHUP stop
 * the reading; the report of what was read so far is still written (partial
 * totals), with the signal's exit status.
 */
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { SIGNAL_STATUS } from '../cli/process.js';
import { displayName, listInputs } from '../cli/inputs.js';
import { BadLineLog } from '../cli/policy.js';
import type { ToolIO } from '../cli/spec.js';
import { escapeControls } from '../text.js';
import { fileTime } from './dates.js';
import { scanFile, type FileScan, type Interrupt } from './files.js';
import { UsageLedger } from './ledger.js';
import { InputReader, type BadLineReport, type ScanPolicy } from './reader.js';
import { renderUsage, type RenderOptions } from './render.js';
import { UsageScanner } from './scanner.js';
import type { UsageUnit } from './types.js';

/** Options of {@link usageMain}. */
export interface UsageRunOptions extends RenderOptions {
  policy: ScanPolicy;
  /** Worker threads; capped by the number of files (default: the usable CPUs). */
  jobs?: number;
}

/** Default number of worker threads: the usable CPUs. */
export function defaultJobs(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}

type WorkerReply = { index: number; result: FileScan } | { index: number; error: string };

/** Set by scripts/bundle.mjs in the bundled binaries (dist/bin/*.js); undefined elsewhere. */
declare const __WUU_BUNDLE__: boolean | undefined;

/**
 * The worker module next to this one (.ts when run from source under a
 * TypeScript loader); from a bundled binary in dist/bin, tsc's dist/lib copy.
 */
function workerUrl(): URL {
  if (typeof __WUU_BUNDLE__ === 'boolean') return new URL('../lib/usage/worker.js', import.meta.url);
  return new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url);
}

/**
 * Reads one input through the runner (stdin, and every input under -f:
 * the runner follows a growing file, waits for one that does not exist
 * yet, and ends the input after the run's `result`). End-of-file handling
 * runs before a damaged input's damage is reported, as for every tool.
 */
async function scanThroughRunner(io: ToolIO, name: string, policy: ScanPolicy, interrupt: Interrupt, say: (m: string) => void, report: BadLineReport): Promise<FileScan> {
  const messages: string[] = [];
  let scanner: UsageScanner | undefined;
  let reader: InputReader | undefined;
  let units: UsageUnit[] = [];
  const open = (file: string) => {
    if (reader !== undefined && scanner !== undefined) return { scanner, reader };
    scanner = new UsageScanner(file, policy.quiet ? () => {} : say, name === '-' ? () => ({ time: new Date().toISOString(), source: 'now' }) : fileTime);
    scanner.onResult = io.resultSeen;
    reader = new InputReader(file, policy, scanner, say, report);
    return { scanner, reader };
  };
  const going = await io.readInputs(
    [name],
    (chunk, file) => open(file).reader.push(chunk),
    (file) => {
      // The runner calls this at the end of an input that gave bytes (or none, cleanly); not after a signal's stop.
      const o = open(file);
      if (!io.interrupted.aborted) o.reader.end();
      if (!o.reader.stopped) units = o.scanner.finish(io.interrupted.aborted);
    },
  );
  if (!going) interrupt.interrupted = true;
  if (reader === undefined) return { messages, units: [], badLines: 0, unreadable: false, stopped: false };
  const stopped = reader.stopped;
  return { messages, units: stopped ? [] : units, badLines: reader.badLines, unreadable: false, stopped };
}

/** Scans `files` on worker threads, handing each result to `take` in file order. */
async function scanParallel(files: readonly string[], jobs: number, policy: ScanPolicy, interrupt: Interrupt & { wake?: () => void }, take: (r: FileScan) => boolean): Promise<void> {
  const { Worker: WorkerClass } = await import('node:worker_threads');
  const results: Array<FileScan | undefined> = new Array(files.length);
  let printed = 0;
  let assigned = 0;
  let going = true;
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      interrupt.wake = resolve;
      const drain = () => {
        while (printed < files.length && going) {
          const result = results[printed];
          if (result === undefined) return;
          results[printed] = undefined;
          going = take(result);
          printed++;
        }
        resolve();
      };
      const assign = (worker: Worker) => {
        if (assigned < files.length && going && !interrupt.interrupted) worker.postMessage({ index: assigned, name: files[assigned++] });
      };
      for (let i = 0; i < jobs; i++) {
        const worker = new WorkerClass(workerUrl(), { workerData: policy });
        workers.push(worker);
        worker.on('message', (reply: WorkerReply) => {
          if ('error' in reply) {
            reject(new Error(`worker failed on ${files[reply.index]}: ${reply.error}`));
            return;
          }
          results[reply.index] = reply.result;
          drain();
          assign(worker);
        });
        worker.on('error', reject);
        assign(worker);
      }
    });
  } finally {
    interrupt.wake = undefined;
    if (interrupt.interrupted) {
      // A worker may be blocked in a read that never returns (a FIFO whose
      // writer is idle): do not wait for it, and let the process exit without it.
      for (const w of workers) {
        w.unref();
        void w.terminate();
      }
    } else {
      await Promise.all(workers.map((w) => w.terminate()));
    }
  }
}

/**
 * Reads the inputs and writes the report. Returns the exit status: the
 * signal's when interrupted, 2 when an input was unreadable, 1 for bad
 * lines, else 0.
 */
export async function usageMain(names: readonly string[], options: UsageRunOptions, io: ToolIO): Promise<number> {
  const warn = (m: string) => io.warn(escapeControls(m));
  // -q: no warnings; bad lines, unreadable inputs and the flood summary are errors and still shown.
  const note = options.policy.quiet ? () => {} : warn;
  // The one flood rule of every tool (lib/cli/policy.ts): 20 bad lines in a row listed, then a count.
  const flood = new BadLineLog(warn);
  const report: BadLineReport = (file, line, text, fresh) => {
    if (fresh) flood.good();
    flood.bad(file, line, text);
  };
  let unreadable = 0;
  const files: string[] = [];
  for (const entry of (names.length === 0 ? ['-'] : names).flatMap(listInputs)) {
    if (entry.error === undefined) files.push(entry.name);
    else {
      // A directory with nothing to read, an unreadable subdirectory: said, like every tool (exit 2).
      warn(`${displayName(entry.name)}: ${entry.error}`);
      unreadable++;
    }
  }
  const ledger = new UsageLedger(note);
  let badLines = 0;
  let stopped = false;
  let read = 0;
  const interrupt: Interrupt & { signal?: string; wake?: () => void } = { interrupted: false };
  // The runner owns the signal handlers (installed before this main runs, so
  // an early signal is not lost); its abort carries the signal's name.
  const onSignal = () => {
    interrupt.interrupted = true;
    interrupt.signal ??= String(io.interrupted.reason);
    interrupt.current?.destroy();
    interrupt.wake?.();
  };
  const take = (result: FileScan): boolean => {
    for (const message of result.messages) {
      if (typeof message === 'string') warn(message);
      else report(...message);
    }
    badLines += result.badLines;
    if (result.unreadable) unreadable++;
    if (!result.unreadable || result.units.length > 0) read++;
    if (result.stopped) stopped = true;
    else ledger.add(result.units);
    return !stopped;
  };
  if (io.interrupted.aborted) onSignal();
  io.interrupted.addEventListener('abort', onSignal);
  try {
    const jobs = Math.max(1, Math.min(options.jobs ?? defaultJobs(), files.length));
    if (jobs > 1 && !files.includes('-') && !io.follow) {
      await scanParallel(files, jobs, options.policy, interrupt, take);
    } else {
      for (const name of files) {
        if (stopped || interrupt.interrupted) break;
        const result =
          name === '-' || io.follow ? await scanThroughRunner(io, name, options.policy, interrupt, warn, report) : await scanFile(name, options.policy, interrupt, warn, fileTime, report);
        take(result);
      }
    }
  } finally {
    io.interrupted.removeEventListener('abort', onSignal);
  }
  const summary = () => {
    const text = flood.summary();
    if (text !== undefined) warn(text);
  };
  if (stopped) {
    summary();
    return unreadable > 0 ? 2 : 1;
  }
  // Nothing could be read at all: no report of nothing (like every other tool), only the reasons.
  if (read > 0 || unreadable === 0) await io.write(renderUsage(ledger.units(), { ...options, warn: note }));
  summary();
  if (interrupt.signal !== undefined) return SIGNAL_STATUS[interrupt.signal as keyof typeof SIGNAL_STATUS] ?? SIGNAL_STATUS.SIGTERM;
  return unreadable > 0 ? 2 : badLines > 0 ? 1 : 0;
}
