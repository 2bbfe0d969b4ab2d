/**
 * The run: parse arguments, answer --help/--version, then one named step
 * each: the input loop, the follow session, driving the core, the exit
 * status, each in the file its name says.
 *
 * `run()` is safe to call in-process (tests): it never touches
 * process.exitCode, installs signal handlers only when asked, and takes its
 * streams and environment from the options.
 */
import type { Readable, Writable } from 'node:stream';
import { DEFAULT_MAX_LINE_BYTES } from '../jsonl.js';
import { escapeControls } from '../text.js';
import { COMMON_HELP, EXIT, parseArgs, UsageError, type ParsedArgs } from './args.js';
import { driveCore } from './drive-core.js';
import { exitStatus } from './exit-status.js';
import { FOLLOW_GRACE_MS } from './follow-session.js';
import { inputLoop } from './input-loop.js';
import { BadLineLog } from './policy.js';
import { onTerminatingSignals } from './process.js';
import type { RunState } from './run-state.js';
import { describeWriteError, OutputSink, stdoutWasClosed, syncStdoutFd } from './sink.js';
import type { ToolRun, ToolSpec } from './spec.js';
import { packageVersion } from './version.js';

/** Options for {@link run}; the defaults are the real process. */
export interface RunOptions {
  argv?: string[];
  stdin?: Readable;
  stdout?: Writable;
  stderr?: Writable;
  env?: NodeJS.ProcessEnv;
  /** Listen for SIGHUP/SIGINT/SIGTERM (off for in-process tests). */
  handleSignals?: boolean;
  /** Stop the run as a signal would (in-process tests of interruption). */
  signal?: AbortSignal;
  /** How long follow mode keeps reading after a `result` event (ms). */
  followGraceMs?: number;
  /**
   * Whether `stdout` is done with a written buffer once it has no write
   * pending (it copies, or hands the bytes to the OS), so read buffers may
   * be used again: true for process.stdout, false by default for any other
   * stream (one that keeps the chunks it is given would see them change).
   */
  stdoutCopies?: boolean;
  /**
   * Bytes per read of a regular file into reused buffers (Core.keepsNoBytes);
   * default 1 MiB. In-process tests read in odd sizes, so that lines,
   * escapes and characters straddle reads.
   */
  readBytes?: number;
}

export { FOLLOW_GRACE_MS };

/** What a run is to do once its arguments are read: answer and stop, or run the tool. */
type Setup = { status: number } | { parsed: ParsedArgs; toolRun: ToolRun; maxLineBytes: number };

/**
 * Runs a tool as a process would, in named steps: read the arguments (or
 * answer --help/--version), listen for signals, run the tool's own main or
 * drive its core over the inputs (lib/cli/drive-core.ts, reading them through
 * lib/cli/input-loop.ts, ending followed inputs after their result by
 * lib/cli/follow-session.ts), and work out the exit status
 * (lib/cli/exit-status.ts).
 */
export async function run(spec: ToolSpec, options: RunOptions = {}): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  stderr.on('error', () => {}); // a closed stderr must not crash the run
  const warn = (message: string) => {
    stderr.write(`${spec.name}: ${escapeControls(message)}\n`);
  };
  const sink = new OutputSink(stdout);
  sink.closedAtStart = stdout === process.stdout && stdoutWasClosed();
  sink.copies = options.stdoutCopies ?? stdout === process.stdout;
  if (stdout === process.stdout && !sink.closedAtStart) sink.syncFd = syncStdoutFd(process.stdout.isTTY === true);

  const state: RunState = { bad: new BadLineLog(warn), unreadable: 0, stopped: false, signal: undefined };
  const setup = await setUp(spec, options, sink, warn, () => state.signal !== undefined);
  if ('status' in setup) return setup.status;
  const { parsed, toolRun, maxLineBytes } = setup;

  const signals = listenForSignals(state, options);
  try {
    const follow = parsed.flags.bool('follow');
    const loop = inputLoop({ state, sink, stdin: options.stdin ?? process.stdin, warn, interrupted: signals.interrupted, follow, graceMs: options.followGraceMs ?? FOLLOW_GRACE_MS });
    const toolStatus =
      'main' in toolRun
        ? await toolRun.main({
            write: (text) => sink.write(text),
            warn,
            interrupted: signals.interrupted,
            readInputs: (names, onChunk, onEnd) => loop.read(names, onChunk, undefined, onEnd),
            follow,
            resultSeen: () => loop.session?.resultSeen(),
          })
        : await driveCore({
            core: toolRun.core,
            inputs: toolRun.inputs ?? parsed.positionals,
            strict: parsed.flags.bool('strict'),
            passInvalid: parsed.flags.bool('pass-invalid'),
            follow,
            maxLineBytes,
            readBytes: options.readBytes,
            state,
            sink,
            loop,
            warn,
          });
    return exitStatus(state, toolStatus, sink.failure, warn);
  } finally {
    signals.remove();
  }
}

/** Reads the arguments and creates the tool; answers --help, --version and usage errors itself. */
async function setUp(spec: ToolSpec, options: RunOptions, sink: OutputSink, warn: (message: string) => void, interrupted: () => boolean): Promise<Setup> {
  const stderr = options.stderr ?? process.stderr;
  const stdout = options.stdout ?? process.stdout;
  try {
    const parsed = parseArgs(spec, options.argv ?? process.argv.slice(2));
    if (parsed.flags.bool('help') || parsed.flags.bool('version')) {
      await sink.write(parsed.flags.bool('help') ? `${spec.usage.trimEnd()}\n\n${COMMON_HELP}\n` : `${spec.name} ${packageVersion()}\n`);
      await sink.settle();
      if (sink.failure === undefined) return { status: EXIT.OK };
      warn(`write error: ${describeWriteError(sink.failure)}`);
      return { status: EXIT.BAD_DATA };
    }
    if (parsed.flags.bool('strict') && parsed.flags.bool('pass-invalid')) {
      throw new UsageError('--strict and --pass-invalid exclude each other');
    }
    const maxLineBytes = parsed.flags.int('max-line-bytes', { min: 1, size: true }) ?? DEFAULT_MAX_LINE_BYTES;
    const toolRun = spec.create({
      flags: parsed.flags,
      positionals: parsed.positionals,
      prog: spec.name,
      warn,
      stdoutIsTTY: Boolean((stdout as { isTTY?: boolean }).isTTY),
      env: options.env ?? process.env,
      interrupted,
    });
    return { parsed, toolRun, maxLineBytes };
  } catch (err) {
    if (err instanceof UsageError) {
      warn(err.message);
      stderr.write(`Try '${spec.name} --help' for more information.\n`);
      return { status: EXIT.USAGE };
    }
    // A tool's set-up failed on what the user gave (a rules file, a pattern): say why, no stack.
    warn(err instanceof Error ? err.message : String(err));
    return { status: EXIT.USAGE };
  }
}

/** A signal (or the caller's abort) stops the run: it is noted in `state` and aborts `interrupted`. */
function listenForSignals(state: RunState, options: RunOptions): { interrupted: AbortSignal; remove(): void } {
  const interrupted = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (state.signal !== undefined) return;
    state.signal = signal;
    state.stopped = true;
    interrupted.abort(signal);
  };
  const removeHandlers = options.handleSignals ? onTerminatingSignals(onSignal) : undefined;
  const external = options.signal;
  const onExternal = () => onSignal('SIGINT');
  if (external?.aborted) onExternal();
  external?.addEventListener('abort', onExternal);
  return {
    interrupted: interrupted.signal,
    remove() {
      removeHandlers?.();
      external?.removeEventListener('abort', onExternal);
    },
  };
}
