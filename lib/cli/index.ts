/**
 * The process layer (the shell) every wuu-stream binary shares; binaries import
 * it from here. See the modules: main (runIfMain), args (options, EXIT),
 * inputs (files, directories, gzip, stdin), follow (-f), policy (the bad-line
 * policy), sink (output), process (signals, exit), run (the loop),
 * oversize-stream (lines over the cap handed to a core), umbrella (`wuu-stream TOOL`).
 * Only the shell and bin/ touch the process, the file system and child processes.
 */
export { COMMON_FLAGS, COMMON_HELP, EXIT, Flags, parseArgs, UsageError, type FlagSpec, type ParsedArgs } from './args.js';
export { describeInputError, displayName, expandInput, inputBytes, isGzip, listInputs, openRaw, type InputEntry } from './inputs.js';
export { followFile, FOLLOW_POLL_MS } from './follow.js';
export { BAD_STREAK, BadLineLog, judgeBadLine, type BadLinePolicy, type BadLineVerdict } from './policy.js';
export { runIfMain } from './main.js';
export { isMain, onTerminatingSignals, settleProcess, SIGNAL_STATUS } from './process.js';
export { FOLLOW_GRACE_MS, run, type RunOptions } from './run.js';
export { describeWriteError, OutputSink, SideOutput, stdoutWasClosed } from './sink.js';
export type { ToolContext, ToolIO, ToolRun, ToolSpec } from './spec.js';
export { packageVersion } from './version.js';
