/**
 * The entry every tool binary ends with: a binary only declares a
 * {@link ToolSpec} and calls {@link runIfMain}, which runs it through the
 * shared runner (lib/cli/run.ts) when that binary is the program executed.
 *
 * BAD-LINE POLICY: lib/cli/policy.ts. EXIT STATUS: EXIT in lib/cli/args.ts, man/wuu-stream.7.
 */
import { isMain, settleProcess } from './process.js';
import { run } from './run.js';
import type { ToolSpec } from './spec.js';

/** Runs the spec when its binary is the program being executed. */
export function runIfMain(spec: ToolSpec, moduleUrl: string): void {
  if (isMain(moduleUrl)) settleProcess(spec.name, run(spec, { handleSignals: true }));
}
