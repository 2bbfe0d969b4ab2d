/**
 * The shared runner every wuu-stream binary calls, re-exported from its parts
 * in lib/cli/ (kept so binaries, tools and tests import one name). A binary
 * only declares a {@link ToolSpec} and calls {@link runIfMain}.
 *
 * BAD-LINE POLICY and EXIT STATUS: see lib/cli/lines.ts and man/wuu-stream.7.
 */
import { isMain, settleProcess } from './cli/process.js';
import { run } from './cli/run.js';
import type { ToolSpec } from './cli/spec.js';

export * from './cli/index.js';

/** Runs the spec when its binary is the program being executed. */
export function runIfMain(spec: ToolSpec, moduleUrl: string): void {
  if (isMain(moduleUrl)) settleProcess(spec.name, run(spec, { handleSignals: true }));
}
