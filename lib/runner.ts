/**
 * The one module that owns the process for every wuu-stream binary:
 * arguments, --help/--version, inputs (files, directories, .gz, stdin),
 * the bad-line policy, output with backpressure, EPIPE, signals and the
 * exit status. A binary only declares a {@link ToolSpec} and calls
 * {@link runIfMain}.
 *
 * BAD-LINE POLICY (the same for every binary; see man/wuu-stream.7):
 * a line that is blank, not JSON, not a JSON object, has no string "type",
 * is longer than --max-line-bytes, or is a last line cut off without a
 * newline is reported on stderr as `PROG: FILE:LINE: message`. Then:
 *   default          skip it, keep going, exit 1 at the end;
 *   --strict         stop at the first one, exit 1;
 *   --pass-invalid   hand it on unchanged (the tool decides how; most copy
 *                    it through), keep going, exit 0.
 *
 * EXIT STATUS: 0 ok; 1 bad data or a failed check; 2 usage error or an
 * unreadable input; a tool may define more; 130/143 after SIGINT/SIGTERM.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type { Readable, Writable } from 'node:stream';
import minimist from 'minimist';
import { parseNothing, type Core, type Emit, type OversizeLine } from './core.js';
import { looksLikeObject } from './scan.js';
import { DEFAULT_MAX_LINE_BYTES, InvalidLineError, LineRecord, LineSplitter, OutputBatch, lineBytes, type Line, type OversizeSink, type Output } from './jsonl.js';

/** Exit statuses shared by every binary. */
export const EXIT = Object.freeze({ OK: 0, BAD_DATA: 1, USAGE: 2, SIGINT: 130, SIGTERM: 143 });

/** A usage error: reported with a pointer to --help, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Which flags a tool takes, in minimist's terms. */
export interface FlagSpec {
  /** Flags that take a value. Every one is parsed as a string. */
  string?: string[];
  /** Flags that take no value. */
  boolean?: string[];
  /** Short or alternative names: alias -> canonical. */
  alias?: Record<string, string>;
  /** Value flags that may be given several times. Others keep their last value. */
  repeatable?: string[];
  /** Defaults, e.g. `{ 'default-rules': true }` for a boolean that `--no-default-rules` turns off. */
  defaults?: Record<string, boolean | string>;
}

/** Typed access to the parsed flags. */
export class Flags {
  constructor(
    private readonly values: Record<string, unknown>,
    private readonly repeatable: ReadonlySet<string>,
  ) {}

  /** True when the flag was given at all. */
  has(name: string): boolean {
    return this.values[name] !== undefined && this.values[name] !== false;
  }

  bool(name: string): boolean {
    return this.values[name] === true;
  }

  /** The last value of a value flag. */
  string(name: string): string | undefined {
    const value = this.values[name];
    if (value === undefined) return undefined;
    if (Array.isArray(value)) return String(value[value.length - 1]);
    return String(value);
  }

  /** All values of a repeatable flag (also split on commas when `split`). */
  list(name: string, split = false): string[] {
    const value = this.values[name];
    if (value === undefined) return [];
    const all = (Array.isArray(value) ? value : [value]).map(String);
    return split ? all.flatMap((v) => v.split(',')).filter((v) => v !== '') : all;
  }

  /** An integer flag with bounds; sizes accept K, M, G suffixes (powers of 1024). */
  int(name: string, options: { min?: number; max?: number; size?: boolean } = {}): number | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    const match = /^(\d+)([kmg]i?b?)?$/i.exec(text.trim());
    const suffix = match?.[2]?.[0]?.toLowerCase();
    if (!match || (suffix !== undefined && !options.size)) {
      throw new UsageError(`--${name} takes a whole number${options.size ? ' (K, M, G suffixes allowed)' : ''}, not '${text}'`);
    }
    const scale = suffix === 'k' ? 1024 : suffix === 'm' ? 1024 ** 2 : suffix === 'g' ? 1024 ** 3 : 1;
    const value = Number(match[1]) * scale;
    if (options.min !== undefined && value < options.min) throw new UsageError(`--${name} must be at least ${options.min}`);
    if (options.max !== undefined && value > options.max) throw new UsageError(`--${name} must be at most ${options.max}`);
    return value;
  }

  /** Whether `name` may be given more than once. */
  isRepeatable(name: string): boolean {
    return this.repeatable.has(name);
  }
}

/** What a tool's `create` receives. */
export interface ToolContext {
  flags: Flags;
  /** Positional arguments, in order. */
  positionals: string[];
  /** Program name, for messages. */
  prog: string;
  /** Writes `PROG: message` to stderr. */
  warn(message: string): void;
  /** Whether stdout is a terminal. */
  stdoutIsTTY: boolean;
  env: NodeJS.ProcessEnv;
}

/** What a tool's `create` returns: a core over the inputs, or its own main. */
export type ToolRun =
  | {
      core: Core;
      /** Input names; default: the positionals; empty means stdin. */
      inputs?: string[];
    }
  | {
      /** A mode that is not one pass over a stream (merging summaries, completion scripts). */
      main(io: ToolIO): Promise<number>;
    };

/** Process I/O handed to a custom main. */
export interface ToolIO {
  write(text: string | Buffer): Promise<void>;
  warn(message: string): void;
  readInputs(names: string[], onChunk: (chunk: Buffer, file: string) => void): Promise<boolean>;
}

/** Everything a binary declares. */
export interface ToolSpec {
  /** Program name, such as `wuu-filter`. */
  name: string;
  /** One line for listings. */
  summary: string;
  /** The help text: synopsis, description and the tool's own options. */
  usage: string;
  flags?: FlagSpec;
  /** Input options that make no sense for the tool are hidden from its help. */
  create(ctx: ToolContext): ToolRun;
}

/** The options every binary shares, appended to each help text. */
export const COMMON_HELP = `Input and bad-line policy (every wuu-stream tool):
  FILE ...               inputs in order; '-' or none reads stdin; a directory
                         means its *.jsonl and *.jsonl.gz files; .gz is decompressed
  --strict               stop at the first bad line (exit 1)
  --pass-invalid         hand bad lines on unchanged instead of skipping them
  --max-line-bytes N     longest line accepted (default 32M; K, M, G suffixes)
  -h, --help             show this help and exit
  --version              print the version and exit
A bad line is reported on stderr as PROG: FILE:LINE: message.
Exit status: 0 ok, 1 bad data or failed check, 2 usage error or unreadable input.`;

const COMMON_FLAGS: Required<Pick<FlagSpec, 'string' | 'boolean' | 'alias'>> = {
  string: ['max-line-bytes'],
  boolean: ['help', 'version', 'strict', 'pass-invalid'],
  alias: { h: 'help' },
};

/** Reads this package's version from its package.json (from lib/ or dist/lib/). */
export function packageVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      const pkg = JSON.parse(fs.readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'wuu-stream' && pkg.version) return pkg.version;
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}

interface ParsedArgs {
  flags: Flags;
  positionals: string[];
}

/** Parses argv for a spec: every value flag is a string, unknown flags are refused. */
export function parseArgs(spec: ToolSpec, argv: string[]): ParsedArgs {
  const own = spec.flags ?? {};
  const stringFlags = [...COMMON_FLAGS.string, ...(own.string ?? [])];
  const booleanFlags = [...COMMON_FLAGS.boolean, ...(own.boolean ?? [])];
  const alias = { ...COMMON_FLAGS.alias, ...(own.alias ?? {}) };
  const known = new Set([...stringFlags, ...booleanFlags, ...Object.keys(alias)]);
  const unknown: string[] = [];

  // minimist quietly gives '' to a value flag with no value; find those first.
  const takesValue = new Set([...stringFlags, ...Object.keys(alias).filter((a) => stringFlags.includes(alias[a]!))]);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    const name = /^--?([^=]+)$/.exec(arg)?.[1];
    if (name === undefined || !takesValue.has(name)) continue;
    const next = argv[i + 1];
    if (next === undefined || (next.startsWith('-') && next !== '-')) {
      throw new UsageError(`option ${arg} needs a value`);
    }
    i++;
  }

  const parsed = minimist(argv, {
    string: stringFlags,
    boolean: booleanFlags,
    alias,
    default: own.defaults ?? {},
    '--': true,
    unknown: (arg: string) => {
      if (arg.startsWith('-') && arg !== '-') {
        const name = arg.replace(/^--?(no-)?/, '').replace(/=.*$/, '');
        if (!known.has(name)) unknown.push(arg.replace(/=.*$/, ''));
        return known.has(name);
      }
      return true;
    },
  });
  if (unknown.length > 0) throw new UsageError(`unknown option ${unknown[0]}`);

  const repeatable = new Set(own.repeatable ?? []);
  for (const name of stringFlags) {
    const value: unknown = parsed[name];
    // A flag given twice is an array; only repeatable ones may be.
    if (Array.isArray(value) && !repeatable.has(name)) parsed[name] = value[value.length - 1];
  }
  // minimist defaults booleans to false and expands short clusters; keep canonical names only.
  for (const [short] of Object.entries(alias)) delete parsed[short];
  const positionals = [...parsed._.map(String), ...((parsed['--'] as string[] | undefined) ?? [])];
  delete (parsed as Record<string, unknown>)._;
  delete (parsed as Record<string, unknown>)['--'];
  return { flags: new Flags(parsed, repeatable), positionals };
}

/** Writes to stdout with backpressure; a closed pipe (EPIPE) ends output quietly. */
class OutputSink {
  closed = false;
  failure: Error | undefined;
  private waiters: Array<() => void> = [];

  constructor(private readonly stream: Writable) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') this.failure = err;
      this.close();
    });
    stream.on('close', () => this.close());
    stream.on('drain', () => this.wake());
  }

  private close(): void {
    this.closed = true;
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  async write(data: string | Buffer): Promise<void> {
    if (this.closed || data.length === 0) return;
    if (!this.stream.write(data)) {
      await new Promise<void>((resolve) => {
        if (this.closed) resolve();
        else this.waiters.push(resolve);
      });
    }
  }
}

/** Lists the inputs a name stands for: itself, or a directory's *.jsonl(.gz) files, sorted. */
export function expandInput(name: string): string[] {
  if (name === '-') return [name];
  let stat: fs.Stats;
  try {
    stat = fs.statSync(name);
  } catch {
    return [name]; // the open reports the error
  }
  if (!stat.isDirectory()) return [name];
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.jsonl(\.gz)?$/.test(entry.name)) found.push(full);
    }
  };
  walk(name);
  return found;
}

/** Why an input could not be read, in the words of `cat` and `grep`. */
export function describeInputError(err: NodeJS.ErrnoException): string {
  if (err.code === undefined && err.message) return err.message;
  switch (err.code) {
    case 'ENOENT':
      return 'No such file or directory';
    case 'EACCES':
      return 'Permission denied';
    case 'EISDIR':
      return 'Is a directory';
    default:
      return err.message;
  }
}

/** The display name of an input in messages. */
export function displayName(name: string): string {
  return name === '-' ? '<stdin>' : name;
}

interface RunState {
  badLines: number;
  unreadable: number;
  stopped: boolean;
  signal: NodeJS.Signals | undefined;
  current: Readable | undefined;
}

/**
 * stdin redirected from a file (`< run.jsonl`) is read in 1 MiB chunks like a
 * named file, instead of the 64 KiB reads of process.stdin; pipes and
 * terminals are read as they come, so a live producer is seen at once.
 */
function stdinStream(stdin: Readable): Readable {
  if (stdin !== process.stdin) return stdin;
  try {
    if (fs.fstatSync(0).isFile()) return fs.createReadStream('', { fd: 0, highWaterMark: 1 << 20, autoClose: false });
  } catch {
    // fall back to process.stdin
  }
  return stdin;
}

/** Opens one input as a byte stream (stdin for '-', gunzip for .gz). */
function openInput(name: string, stdin: Readable): Readable {
  const source = name === '-' ? stdinStream(stdin) : fs.createReadStream(name, { highWaterMark: 1 << 20 });
  if (!name.endsWith('.gz')) return source;
  const gunzip = zlib.createGunzip();
  source.on('error', (err: Error) => gunzip.destroy(err));
  return source.pipe(gunzip);
}

/** Options for {@link run}; the defaults are the real process. */
export interface RunOptions {
  argv?: string[];
  stdin?: Readable;
  stdout?: Writable;
  stderr?: Writable;
  env?: NodeJS.ProcessEnv;
  /** Listen for SIGINT/SIGTERM (off for in-process tests). */
  handleSignals?: boolean;
}

/**
 * Runs a tool as a process: parses arguments, streams the inputs through its
 * core and returns the exit status (also set on `process.exitCode` by
 * {@link runIfMain}).
 */
export async function run(spec: ToolSpec, options: RunOptions = {}): Promise<number> {
  const argv = options.argv ?? process.argv.slice(2);
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const env = options.env ?? process.env;
  const warn = (message: string) => {
    stderr.write(`${spec.name}: ${message}\n`);
  };
  const usageFailure = (message: string) => {
    warn(message);
    stderr.write(`Try '${spec.name} --help' for more information.\n`);
    return EXIT.USAGE;
  };

  let parsed: ParsedArgs;
  let toolRun: ToolRun;
  let maxLineBytes: number;
  try {
    parsed = parseArgs(spec, argv);
    if (parsed.flags.bool('help')) {
      stdout.write(`${spec.usage.trimEnd()}\n\n${COMMON_HELP}\n`);
      return EXIT.OK;
    }
    if (parsed.flags.bool('version')) {
      stdout.write(`${spec.name} ${packageVersion()}\n`);
      return EXIT.OK;
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
    });
  } catch (err) {
    if (err instanceof UsageError) return usageFailure(err.message);
    throw err;
  }

  const sink = new OutputSink(stdout);
  const state: RunState = { badLines: 0, unreadable: 0, stopped: false, signal: undefined, current: undefined };
  const onSignal = (signal: NodeJS.Signals) => {
    if (state.signal !== undefined) return;
    state.signal = signal;
    state.stopped = true;
    state.current?.destroy();
  };
  if (options.handleSignals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }

  const readInputs = async (
    names: string[],
    onChunk: (chunk: Buffer, file: string) => void | Promise<void>,
    onStart?: (file: string) => void,
    onEnd?: (file: string) => void | Promise<void>,
  ) => {
    const expanded = (names.length === 0 ? ['-'] : names).flatMap(expandInput);
    for (const name of expanded) {
      if (state.stopped || sink.closed) break;
      const file = displayName(name);
      const input = openInput(name, stdin);
      state.current = input;
      onStart?.(file);
      try {
        for await (const chunk of input) {
          await onChunk(chunk as Buffer, file);
          if (state.stopped || sink.closed) break;
        }
      } catch (err) {
        if (state.signal === undefined && !sink.closed) {
          const e = err as NodeJS.ErrnoException;
          warn(`${file}: ${describeInputError(e)}`);
          state.unreadable++;
          continue;
        }
      } finally {
        state.current = undefined;
        if (name !== '-') input.destroy();
      }
      if (onEnd && !sink.closed && !(state.stopped && state.signal === undefined)) await onEnd(file);
    }
    return !state.stopped;
  };

  try {
    if ('main' in toolRun) {
      const status = await toolRun.main({
        write: (text) => sink.write(text),
        warn,
        readInputs: (names, onChunk) => readInputs(names, onChunk),
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

    const reportBad = (file: string, line: Line, message: string) => {
      state.badLines++;
      warn(`${file}:${line.line}: ${message}`);
      if (strict) state.stopped = true;
    };
    const passBad = (raw: Buffer, where: { file: string; line: number }) => {
      if (core.invalid) core.invalid(raw, emit, where);
      else batch.addBytes(raw);
    };

    // A core that reports bad lines itself (wuu-check) gets every one of them.
    const handOver = (file: string, line: Line, message: string, raw: Buffer): boolean => {
      if (!core.badLine) return false;
      core.badLine({ file, line: line.line, message, terminated: line.terminated, raw }, emit);
      if (strict) state.stopped = true;
      return true;
    };

    // Lines over --max-line-bytes stream through core.oversize when the core
    // has one; the lines after such a line wait for it (input order is kept).
    const deferred: Array<() => Promise<void>> = [];
    let oversizeFile = '-';
    let oversizeLine: OversizeLine | undefined;
    const oversizeSink: OversizeSink | undefined = core.oversize && {
      start: (lineNo, held) => {
        const copies = held.map((b) => Buffer.from(b));
        deferred.push(async () => {
          oversizeLine = core.oversize!({ file: oversizeFile, line: lineNo }, emit);
          for (const piece of copies) await oversizeLine.write(piece);
        });
      },
      data: (piece) => {
        const copy = Buffer.from(piece);
        deferred.push(async () => {
          await oversizeLine!.write(copy);
          await flush();
        });
      },
      end: () => {
        const file = oversizeFile;
        deferred.push(async () => {
          const error = await oversizeLine!.end();
          oversizeLine = undefined;
          if (error !== undefined) warn(`${file}: ${error}`);
          if (error !== undefined) state.badLines++;
        });
      },
    };
    const drain = async () => {
      for (let op = deferred.shift(); op !== undefined && !state.stopped; op = deferred.shift()) await op();
      deferred.length = 0;
    };

    const handleLine = (file: string) => (line: Line) => {
      if (state.stopped || line.streamed) return;
      if (deferred.length > 0) {
        const copy: Line = { ...line, source: Buffer.from(lineBytes(line)), start: 0 };
        copy.end = copy.source.length;
        deferred.push(async () => handleLineNow(file, copy));
        return;
      }
      handleLineNow(file, line);
    };
    const handleLineNow = (file: string, line: Line) => {
      readLine(file, line, {
        maxLineBytes,
        needsParse,
        push: (rec) => core.push(rec, emit),
        bad: (reason, raw) => {
          if (handOver(file, line, reason, raw)) return;
          if (passInvalid && line.oversizeBytes === undefined) {
            warn(`${file}:${line.line}: ${badLineMessage(line, reason)}`);
            passBad(raw, { file, line: line.line });
          } else {
            reportBad(file, line, badLineMessage(line, reason));
          }
        },
      });
    };

    let splitter = new LineSplitter(maxLineBytes, oversizeSink);
    await readInputs(
      inputs,
      async (chunk, file) => {
        oversizeFile = file;
        splitter.push(chunk, handleLine(file));
        await drain();
        await flush();
      },
      () => {
        splitter = new LineSplitter(maxLineBytes, oversizeSink);
      },
      async (file) => {
        oversizeFile = file;
        splitter.end(handleLine(file));
        await drain();
        if (!state.stopped || state.signal !== undefined) core.endFile?.(file, emit);
        await flush();
      },
    );
    // A bad line under --strict stops everything; otherwise flush what is open.
    if (!(state.stopped && state.signal === undefined)) core.end?.(emit);
    await flush();
    return finish(core.status?.() ?? 0);
  } finally {
    if (options.handleSignals) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  }

  function finish(toolStatus: number): number {
    if (sink.failure) {
      warn(`write error: ${sink.failure.message}`);
      return EXIT.BAD_DATA;
    }
    if (state.signal !== undefined) return state.signal === 'SIGINT' ? EXIT.SIGINT : EXIT.SIGTERM;
    if (state.unreadable > 0) return EXIT.USAGE;
    if (toolStatus !== 0) return toolStatus;
    if (state.badLines > 0) return EXIT.BAD_DATA;
    return EXIT.OK;
  }
}

/** What {@link readLine} does with a line. */
export interface LineHandler {
  maxLineBytes: number;
  /** The core's choice of lines to parse (undefined: all; parseNothing: none). */
  needsParse?: Core['needsParse'];
  /** A line that is an event. */
  push(rec: LineRecord): void;
  /** A line that is not: why (without the cut-off prefix), and its bytes (empty when oversize). */
  bad(reason: string, raw: Buffer): void;
}

/**
 * The shared reading rules for one line, used by the runner and by wuu-usage's
 * worker threads alike: the size cap, lazy or full parsing as the core asks,
 * and events too deeply nested for the engine (RangeError) counted as bad data.
 */
export function readLine(file: string, line: Line, handler: LineHandler): void {
  if (line.oversizeBytes !== undefined) {
    handler.bad(`line of ${line.oversizeBytes} bytes exceeds --max-line-bytes ${handler.maxLineBytes}; dropped`, Buffer.alloc(0));
    return;
  }
  const rec = new LineRecord(line.source, file, line.line, line.start, line.end);
  const { needsParse } = handler;
  try {
    if (needsParse === parseNothing) {
      if (!looksLikeObject(line.source, line.start, line.end)) rec.validate();
    } else if (needsParse === undefined || needsParse(rec.type)) {
      rec.validate();
    }
    handler.push(rec);
  } catch (caught) {
    // An event nested too deeply for the engine's recursion (JSON.stringify
    // of 10,000 levels) is bad data for this tool, not a crash.
    const err =
      caught instanceof RangeError ? new InvalidLineError(`cannot process this event: ${caught.message}`, file, line.line, rec.raw) : caught;
    if (!(err instanceof InvalidLineError)) throw err;
    handler.bad(err.message, rec.raw);
  }
}

/** A bad line's message as reported: a last line without newline says it was cut off. */
export function badLineMessage(line: Line, reason: string): string {
  return line.terminated || line.oversizeBytes !== undefined ? reason : `last line cut off (no newline at end of input): ${reason}`;
}

/** Whether the module at `moduleUrl` is the script node was started with. */
export function isMain(moduleUrl: string): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return fs.realpathSync(script) === fs.realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/** Runs the spec when its binary is the program being executed. */
export function runIfMain(spec: ToolSpec, moduleUrl: string): void {
  if (isMain(moduleUrl)) settleProcess(spec.name, run(spec, { handleSignals: true }));
}

/**
 * Turns a main's promised status into the process exit status (never
 * process.exit, so pending output is flushed); a crash is reported as an
 * internal error with status 70 (EX_SOFTWARE).
 */
export function settleProcess(name: string, main: Promise<number>): void {
  main.then(
    (status) => {
      process.exitCode = status;
    },
    (err: unknown) => {
      process.stderr.write(`${name}: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 70;
    },
  );
}
