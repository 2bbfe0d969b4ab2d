/**
 * The run loop: parse arguments, answer --help/--version, open the inputs in
 * order, split them into lines under the line policy, hand events to the
 * core, write its output with backpressure, and work out the exit status.
 *
 * `run()` is safe to call in-process (tests): it never touches
 * process.exitCode, installs signal handlers only when asked, and takes its
 * streams and environment from the options.
 */
import type { Readable, Writable } from 'node:stream';
import type { Emit } from '../core.js';
import { badLineMessage, DEFAULT_MAX_LINE_BYTES, LineSplitter, oversizeReason, OutputBatch, readLine, type Line, type Output } from '../jsonl.js';
import { topLevelString } from '../scan.js';
import { escapeControls } from '../text.js';
import { COMMON_HELP, EXIT, parseArgs, UsageError, type ParsedArgs } from './args.js';
import { followFile } from './follow.js';
import { abandonRaw, describeInputError, displayName, inputBytes, listInputs, openRaw } from './inputs.js';
import { BadLineLog, judgeBadLine, type BadLinePolicy } from './policy.js';
import { onTerminatingSignals, SIGNAL_STATUS } from './process.js';
import { describeWriteError, OutputSink, stdoutWasClosed } from './sink.js';
import type { ToolRun, ToolSpec } from './spec.js';
import { packageVersion } from './version.js';
import { oversizeStreamer } from './oversize-stream.js';

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
}

/** How long `--follow` keeps reading after a `result` (a racing second `result` is still read). */
export const FOLLOW_GRACE_MS = 500;

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

interface RunState {
  bad: BadLineLog;
  unreadable: number;
  stopped: boolean;
  signal: NodeJS.Signals | undefined;
}

/**
 * Runs a tool as a process would: parses arguments, streams the inputs
 * through its core and returns the exit status.
 */
export async function run(spec: ToolSpec, options: RunOptions = {}): Promise<number> {
  const argv = options.argv ?? process.argv.slice(2);
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const env = options.env ?? process.env;
  stderr.on('error', () => {}); // a closed stderr must not crash the run
  const warn = (message: string) => {
    stderr.write(`${spec.name}: ${escapeControls(message)}\n`);
  };
  const usageFailure = (message: string) => {
    warn(message);
    stderr.write(`Try '${spec.name} --help' for more information.\n`);
    return EXIT.USAGE;
  };
  const sink = new OutputSink(stdout);
  sink.closedAtStart = stdout === process.stdout && stdoutWasClosed();
  const writeFailure = (): number | undefined => {
    if (sink.failure === undefined) return undefined;
    warn(`write error: ${describeWriteError(sink.failure)}`);
    return EXIT.BAD_DATA;
  };

  const state: RunState = { bad: new BadLineLog(warn), unreadable: 0, stopped: false, signal: undefined };
  let parsed: ParsedArgs;
  let toolRun: ToolRun;
  let maxLineBytes: number;
  try {
    parsed = parseArgs(spec, argv);
    if (parsed.flags.bool('help') || parsed.flags.bool('version')) {
      await sink.write(parsed.flags.bool('help') ? `${spec.usage.trimEnd()}\n\n${COMMON_HELP}\n` : `${spec.name} ${packageVersion()}\n`);
      await sink.settle();
      return writeFailure() ?? EXIT.OK;
    }
    if (parsed.flags.bool('strict') && parsed.flags.bool('pass-invalid')) {
      throw new UsageError('--strict and --pass-invalid exclude each other');
    }
    maxLineBytes = parsed.flags.int('max-line-bytes', { min: 1, size: true }) ?? DEFAULT_MAX_LINE_BYTES;
    toolRun = spec.create({
      flags: parsed.flags,
      positionals: parsed.positionals,
      prog: spec.name,
      warn,
      stdoutIsTTY: Boolean((stdout as { isTTY?: boolean }).isTTY),
      env,
      interrupted: () => state.signal !== undefined,
    });
  } catch (err) {
    if (err instanceof UsageError) return usageFailure(err.message);
    // A tool's set-up failed on what the user gave (a rules file, a pattern): say why, no stack.
    warn(err instanceof Error ? err.message : String(err));
    return EXIT.USAGE;
  }

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

  const follow = parsed.flags.bool('follow');
  const graceMs = options.followGraceMs ?? FOLLOW_GRACE_MS;
  /** The input being read, when follow mode may end it after a result. */
  let endAfterResult: (() => void) | undefined;

  const readInputs = async (
    names: string[],
    onChunk: (chunk: Buffer, file: string) => void | Promise<void>,
    onStart?: (file: string) => void,
    onEnd?: (file: string, damage: string | undefined) => void | Promise<void>,
    onWaiting?: (file: string) => Promise<void>,
  ): Promise<boolean> => {
    const entries = (names.length === 0 ? ['-'] : names).flatMap(listInputs);
    for (const entry of entries) {
      if (state.stopped || sink.closed) break;
      const file = displayName(entry.name);
      if (entry.error !== undefined) {
        warn(`${file}: ${entry.error}`);
        state.unreadable++;
        continue;
      }
      if (entry.name === '-' && stdin === process.stdin && process.stdin.isTTY) {
        warn("reading a 'wuu exec --json' stream from the terminal (Ctrl-D ends it); name a FILE or pipe one in");
      }
      const stop = new AbortController();
      const onInterrupt = () => stop.abort();
      interrupted.signal.addEventListener('abort', onInterrupt);
      let graceTimer: NodeJS.Timeout | undefined;
      endAfterResult = follow
        ? () => {
            clearTimeout(graceTimer);
            graceTimer = setTimeout(() => stop.abort(), graceMs);
          }
        : undefined;
      const raw = follow && entry.name !== '-' ? undefined : openRaw(entry.name, stdin);
      raw?.on('error', () => {}); // surfaced through the iterator
      const source: AsyncIterable<Buffer> = raw ?? followFile(entry.name, stop.signal, onWaiting && (() => onWaiting(file)));
      const it = inputBytes(source)[Symbol.asyncIterator]();
      const stopped = new Promise<'stop'>((resolve) => {
        if (stop.signal.aborted) resolve('stop');
        stop.signal.addEventListener('abort', () => resolve('stop'));
      });
      onStart?.(file);
      let damage: string | undefined;
      let opened = false;
      try {
        for (;;) {
          const next = await Promise.race([it.next(), stopped]);
          if (next === 'stop' || next.done) break;
          opened = true;
          await onChunk(next.value, file);
          if (state.stopped || sink.closed) break;
        }
      } catch (err) {
        if (state.signal === undefined && !sink.closed) damage = describeInputError(err as NodeJS.ErrnoException);
      } finally {
        clearTimeout(graceTimer);
        endAfterResult = undefined;
        interrupted.signal.removeEventListener('abort', onInterrupt);
        stop.abort();
        if (raw !== undefined && entry.name !== '-') abandonRaw(raw, entry.name);
        // A pipe that stays open (`tail -f run.jsonl | wuu-result -f`) would keep
        // the process alive after follow mode ended the input: let go of it.
        else if (raw !== undefined && follow && !raw.readableEnded) raw.destroy();
        void it.return?.(undefined).catch(() => undefined);
      }
      // An input that failed before giving a byte was never opened: no end-of-file handling.
      const read = opened || damage === undefined;
      if (read && onEnd && !sink.closed && !(state.stopped && state.signal === undefined)) await onEnd(file, damage);
      if (damage !== undefined) {
        // Reported after what could be read was processed (a cut .gz still gives its lines).
        warn(`${file}: ${damage}`);
        state.unreadable++;
      }
    }
    return !state.stopped;
  };

  try {
    if ('main' in toolRun) {
      const status = await toolRun.main({
        write: (text) => sink.write(text),
        warn,
        interrupted: interrupted.signal,
        readInputs: (names, onChunk, onEnd) => readInputs(names, onChunk, undefined, onEnd),
        follow,
        resultSeen: () => endAfterResult?.(),
      });
      return finish(status);
    }
    const { core } = toolRun;
    const inputs = toolRun.inputs ?? parsed.positionals;
    const strict = parsed.flags.bool('strict');
    const passInvalid = parsed.flags.bool('pass-invalid');
    // --strict promises every line is checked, so it turns lazy parsing off.
    const needsParse = strict ? undefined : core.needsParse;

    // Outputs of one input chunk are written together: one write per chunk
    // keeps throughput high, and a live pipe still sees each event at once
    // because a chunk is whatever the producer has written so far.
    const batch = new OutputBatch();
    const emit: Emit = (out: Output) => batch.add(out);
    const flush = async () => {
      const data = batch.take();
      if (data !== undefined) await sink.write(data);
    };

    const policy: BadLinePolicy = { strict, passInvalid };
    const handleBad = (file: string, line: Line, reason: string, raw: Buffer) => {
      if (core.seeBadLine?.({ file, line: line.line, message: reason, terminated: line.terminated, raw }, emit) === true) return;
      if (core.badLine) {
        // A core that reports bad lines itself (wuu-check) gets every one of them.
        core.badLine({ file, line: line.line, message: reason, terminated: line.terminated, raw }, emit);
      } else if (judgeBadLine(policy, line) === 'pass') {
        warn(`${file}:${line.line}: ${badLineMessage(line, reason)}`);
        if (!line.terminated) batch.markUnterminated(raw);
        if (core.invalid) core.invalid(raw, emit, { file, line: line.line });
        else batch.addBytes(raw, line.terminated);
        return;
      } else {
        state.bad.bad(file, line.line, badLineMessage(line, reason));
      }
      if (strict) state.stopped = true;
    };

    // --pass-invalid is byte-exact: a leading byte order mark comes out as it came.
    let bomPending = false;
    const handleLine = (file: string) => (line: Line) => {
      if (state.stopped) return;
      if (bomPending) {
        bomPending = false;
        if (splitter.sawBom) batch.addRaw(UTF8_BOM);
      }
      if (endAfterResult !== undefined && line.oversizeBytes === undefined) {
        const type = topLevelString(line.source, 'type', line.start, line.end);
        if (type === 'result' || (type !== undefined && core.endsRun?.(type) === true)) endAfterResult();
      }
      readLine(file, line, {
        maxLineBytes,
        needsParse,
        push: (rec) => {
          state.bad.good();
          if (passInvalid && !line.terminated) batch.markUnterminated(line.source);
          core.push(rec, emit);
        },
        bad: (reason, raw) => handleBad(file, line, reason, raw),
      });
    };

    let splitter = new LineSplitter(maxLineBytes);
    let file = '-';
    const streamer = core.oversize ? oversizeStreamer(core.oversize.bind(core), () => file, emit, flush) : undefined;
    const reportOversize = (lineNo: number, bytes: number, terminated: boolean, reason?: string) =>
      handleBad(file, { source: Buffer.alloc(0), start: 0, end: 0, line: lineNo, terminated, oversizeBytes: bytes }, reason ?? oversizeReason(bytes, maxLineBytes), Buffer.alloc(0));
    await readInputs(
      inputs,
      async (chunk, name) => {
        let rest = chunk;
        for (;;) {
          const used = splitter.push(rest, handleLine(name));
          await flush();
          if (streamer) await streamer.settle(reportOversize);
          if (used >= rest.length) break;
          rest = rest.subarray(used);
        }
      },
      (name) => {
        file = name;
        splitter = new LineSplitter(maxLineBytes);
        splitter.streamOversize = streamer?.lines;
        bomPending = passInvalid;
      },
      async (name) => {
        splitter.end(handleLine(name));
        if (streamer) await streamer.settle(reportOversize);
        if (!state.stopped || state.signal !== undefined) core.endFile?.(name, emit);
        await flush();
      },
      core.waiting &&
        (async (name) => {
          core.waiting!(name, emit);
          await flush();
        }),
    );
    // A bad line under --strict stops everything; otherwise flush what is open.
    if (!(state.stopped && state.signal === undefined)) core.end?.(emit);
    await flush();
    return finish(core.status?.() ?? 0);
  } finally {
    removeHandlers?.();
    external?.removeEventListener('abort', onExternal);
  }

  function finish(toolStatus: number): number {
    const summary = state.bad.summary();
    if (summary !== undefined) warn(summary);
    const failed = writeFailure();
    if (failed !== undefined) return failed;
    if (state.signal !== undefined) return SIGNAL_STATUS[state.signal as keyof typeof SIGNAL_STATUS] ?? EXIT.SIGTERM;
    if (state.unreadable > 0) return EXIT.USAGE;
    if (toolStatus !== 0) return toolStatus;
    if (state.bad.count > 0) return EXIT.BAD_DATA;
    return EXIT.OK;
  }
}
