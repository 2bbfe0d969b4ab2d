/**
 * What a binary declares ({@link ToolSpec}) and what the runner hands its
 * `create` ({@link ToolContext}) or a custom main ({@link ToolIO}).
 */
import type { Core } from '../core.js';
import type { Flags, FlagSpec } from './args.js';

/** What a tool's `create` receives. */
export interface ToolContext {
  flags: Flags;
  /** Positional arguments, in order. */
  positionals: string[];
  /** Program name, for messages. */
  prog: string;
  /** Writes `PROG: message` to stderr (control characters escaped). */
  warn(message: string): void;
  /** Whether stdout is a terminal. */
  stdoutIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  /**
   * Whether a signal (SIGINT, SIGTERM, SIGHUP) stopped the run. Cores ask at
   * their end: input that stopped because this tool was stopped is not a
   * killed producer, and must not be reported as one.
   */
  interrupted(): boolean;
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
  /**
   * Aborted when a signal stops the run (its reason is the signal's name).
   * The runner owns the signal handlers; a custom main only listens here.
   */
  interrupted: AbortSignal;
  /**
   * Reads inputs as the runner does (directories, gzip, stdin, errors
   * reported); false when the run was stopped (signal, closed output).
   */
  readInputs(
    names: string[],
    onChunk: (chunk: Buffer, file: string) => void | Promise<void>,
    /** After an input that was read (also when its damage is reported next): end-of-file handling. */
    onEnd?: (file: string, damage: string | undefined) => void | Promise<void>,
  ): Promise<boolean>;
  /** Whether -f (follow) was given: readInputs follows each FILE as it grows. */
  follow?: boolean;
  /** Follow mode: the run's `result` was read; the input ends after the runner's grace period. */
  resultSeen?: () => void;
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
  create(ctx: ToolContext): ToolRun;
}
