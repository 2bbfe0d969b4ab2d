/**
 * The shared runner every wuu-stream binary calls, re-exported from its parts
 * in lib/cli/ (kept so binaries, tools and tests import one name). A binary
 * only declares a {@link ToolSpec} and calls {@link runIfMain}.
 *
 * BAD-LINE POLICY and EXIT STATUS: see lib/cli/lines.ts and man/wuu-stream.7.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMain, settleProcess } from './cli/process.js';
import { run } from './cli/run.js';
import type { ToolSpec } from './cli/spec.js';

export * from './cli/index.js';

/**
 * Runs the spec when its binary is the program being executed. The module's
 * file must also be named after the tool: in the bundled wuu-stream every
 * tool's module shares the bundle's URL, and only the umbrella runs there.
 */
export function runIfMain(spec: ToolSpec, moduleUrl: string): void {
  if (isMain(moduleUrl) && path.parse(fileURLToPath(moduleUrl)).name === spec.name) settleProcess(spec.name, run(spec, { handleSignals: true }));
}
