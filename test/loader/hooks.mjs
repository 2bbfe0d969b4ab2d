/**
 * Module hooks that let the test processes import our TypeScript directly
 * (registered by test/loader/import.mjs, which package.json "tap" gives every
 * test process through node-arg). They replace tap's @tapjs/typescript plugin
 * (ts-node), which loaded the TypeScript compiler into each of the 49 test
 * processes and each wuu-usage -j worker thread they start, at 2-3 s of CPU
 * apiece.
 *
 * No type check here (`npm run typecheck` is that step). Code that coverage
 * measures (lib/, bin/, bench/) is transpiled by TypeScript's transpileModule,
 * as ts-node did: the library API that test/pack.test.ts imports is tsc's
 * dist/lib, and coverage merges a function only when every process maps it
 * to the same source position (esbuild maps `export function f` one column
 * off from tsc, which counted every function twice: functions 97.7% -> 84.5%).
 * Test files are not measured and go through esbuild. Output is cached by
 * content (node_modules/.cache/wuu-test-ts; test/loader/transpile.mjs), and
 * `npm test` fills the cache before tap starts (test/loader/warm.mjs, which
 * says why that matters for coverage), so a compiler loads only on a miss.
 *
 * The source map is inline; Node (--enable-source-maps, set by tap) and tap's
 * coverage report read it. The transpiled source is handed down the chain
 * (nextLoad with `source`), not returned directly: tap's process-info hook,
 * registered before this one, must see the final JavaScript and its source
 * map comment, or coverage of the file is lost.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TS, transpile } from './transpile.mjs';

/**
 * NodeNext imports name the emitted file (`./x.js`); in the sources that file
 * is `./x.ts`. A specifier that resolves as written wins (dist/, node_modules).
 */
export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const parent = context.parentURL;
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || parent === undefined || !/^(\.{1,2}\/|\/|file:)/.test(specifier) || !/\.[cm]?js$/.test(specifier)) throw error;
    const url = new URL(specifier.replace(/js$/, 'ts'), parent);
    if (url.protocol !== 'file:' || !existsSync(fileURLToPath(url))) throw error;
    return { url: url.href, shortCircuit: true };
  }
}

export async function load(url, context, nextLoad) {
  const match = url.startsWith('file:') ? TS.exec(new URL(url).pathname) : null;
  if (match === null) return nextLoad(url, context);
  const format = match[1] === 'c' ? 'commonjs' : 'module';
  return nextLoad(url, { ...context, format, source: await transpile(fileURLToPath(url), format) });
}
