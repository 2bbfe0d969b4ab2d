/**
 * The entry every tool binary ends with: a binary only declares a
 * {@link ToolSpec} and calls {@link runIfMain}, which runs it through the
 * shared runner (lib/cli/run.ts) when that binary is the program executed.
 *
 * BAD-LINE POLICY: lib/cli/policy.ts. EXIT STATUS: EXIT in lib/cli/args.ts, man/wuu-stream.7.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMain, settleProcess } from './process.js';
import { run } from './run.js';
import type { ToolSpec } from './spec.js';

/**
 * Runs the spec when its binary is the program being executed. The module's
 * file must also be named after the tool: in the bundled wuu-stream every
 * tool's module shares the bundle's URL, and only the umbrella runs there.
 */
export function runIfMain(spec: ToolSpec, moduleUrl: string): void {
  if (isMain(moduleUrl) && path.parse(fileURLToPath(moduleUrl)).name === spec.name) settleProcess(spec.name, run(spec, { handleSignals: true }));
}
