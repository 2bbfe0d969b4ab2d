/**
 * The process around a run: which module is the program, signal handlers,
 * and turning a promised status into the exit status.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { escapeControls } from '../text.js';
import { MAIN_BUNDLE } from './early-answer.js';
import { fifoReleases } from './inputs.js';

/** The signals a run ends on, with their exit statuses (128 + number). */
export const SIGNAL_STATUS: Readonly<Record<'SIGHUP' | 'SIGINT' | 'SIGTERM', number>> = Object.freeze({ SIGHUP: 129, SIGINT: 130, SIGTERM: 143 });

/** Installs handlers for SIGHUP, SIGINT and SIGTERM; returns their removal. */
export function onTerminatingSignals(handler: (signal: NodeJS.Signals) => void): () => void {
  const signals = Object.keys(SIGNAL_STATUS) as NodeJS.Signals[];
  for (const signal of signals) process.on(signal, handler);
  return () => {
    for (const signal of signals) process.off(signal, handler);
  };
}

/**
 * Whether the module at `moduleUrl` is the script node was started with, or
 * the bundle that script's start-up entry loaded for it (lib/cli/early-answer.ts
 * names it in a global: the entry, not the bundle, is argv[1]).
 */
export function isMain(moduleUrl: string): boolean {
  if ((globalThis as Record<symbol, unknown>)[MAIN_BUNDLE] === moduleUrl) return true;
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return fs.realpathSync(script) === fs.realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/**
 * Turns a main's promised status into the process exit status (never
 * process.exit while output is pending). After a signal the process exits as
 * soon as stdout has drained and a FIFO open still pending in the thread pool
 * (a FIFO nobody writes to) has been released (lib/cli/inputs.ts). A crash is reported in one line, without a
 * stack trace (WUU_DEBUG=1 shows it), with status 70 (EX_SOFTWARE).
 */
export function settleProcess(name: string, main: Promise<number>): void {
  main.then(
    (status) => {
      process.exitCode = status;
      if (Object.values(SIGNAL_STATUS).includes(status)) {
        // Not before a FIFO open left pending in the thread pool is released: exit would wait on it forever.
        const exit = () => void fifoReleases().then(() => process.exit(status));
        if (process.stdout.writableLength === 0) setImmediate(exit);
        else process.stdout.write('', exit);
      }
    },
    (err: unknown) => {
      const detail = err instanceof Error ? (process.env.WUU_DEBUG ? (err.stack ?? err.message) : err.message) : String(err);
      process.stderr.write(`${name}: internal error: ${escapeControls(detail)}\n`);
      process.exitCode = 70;
    },
  );
}
