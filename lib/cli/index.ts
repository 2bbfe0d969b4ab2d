/**
 * The process layer every wuu-stream binary shares. See the modules:
 * args (options), inputs (files, directories, gzip, stdin), follow (-f),
 * lines (the line policy), sink (output), process (signals, exit), run (the loop).
 */
export { COMMON_FLAGS, COMMON_HELP, EXIT, Flags, parseArgs, UsageError, type FlagSpec, type ParsedArgs } from './args.js';
export { describeInputError, displayName, expandInput, inputBytes, isGzip, listInputs, openRaw, type InputEntry } from './inputs.js';
export { followFile, FOLLOW_POLL_MS } from './follow.js';
export { BAD_STREAK, BadLineLog, judgeBadLine, type BadLinePolicy, type BadLineVerdict } from './policy.js';
export { isMain, onTerminatingSignals, settleProcess, SIGNAL_STATUS } from './process.js';
export { FOLLOW_GRACE_MS, run, type RunOptions } from './run.js';
export { describeWriteError, OutputSink, stdoutWasClosed } from './sink.js';
export type { ToolContext, ToolIO, ToolRun, ToolSpec } from './spec.js';
export { packageVersion } from './version.js';
