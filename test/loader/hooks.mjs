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
 * content (node_modules/.cache/wuu-test-ts), so the compiler is loaded only
 * on a miss: after the first few test processes, almost never.
 *
 * The source map is inline; Node (--enable-source-maps, set by tap) and tap's
 * coverage report read it. The transpiled source is handed down the chain
 * (nextLoad with `source`), not returned directly: tap's process-info hook,
 * registered before this one, must see the final JavaScript and its source
 * map comment, or coverage of the file is lost.
 */
import crypto from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'wuu-test-ts');
const TS = /\.([cm]?)ts$/;

/** The compiler options esbuild honours (target, class fields and the like), from the repo's tsconfig.json. */
const { compilerOptions } = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8'));
const require = createRequire(import.meta.url);
const version = (name) => JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
const optionsKey = JSON.stringify([version('esbuild'), version('typescript'), compilerOptions]);
const TESTS = path.join(ROOT, 'test') + path.sep;

/** esbuild and the TypeScript compiler, loaded on the first cache miss that needs them. */
let esbuild;
let typescript;

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

/** The JavaScript of a .ts file, from the cache or transpiled. */
async function transpile(file, format) {
  const source = readFileSync(file, 'utf8');
  const key = crypto.createHash('sha256').update(optionsKey).update('\0').update(file).update('\0').update(format).update('\0').update(source).digest('hex');
  const cached = path.join(CACHE, `${key}.js`);
  try {
    return readFileSync(cached, 'utf8');
  } catch {
    // not cached yet
  }
  const code = file.startsWith(TESTS) ? await withEsbuild(source, file, format) : withTypeScript(source, file, format);
  // Written whole, then renamed: a process reading it in parallel sees all of it or nothing.
  mkdirSync(CACHE, { recursive: true });
  const temp = `${cached}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  writeFileSync(temp, code);
  renameSync(temp, cached);
  return code;
}

/** A test file: esbuild. */
async function withEsbuild(source, file, format) {
  esbuild ??= await import('esbuild');
  const { code } = await esbuild.transform(source, {
    loader: 'ts',
    format: format === 'module' ? 'esm' : 'cjs',
    target: 'node20',
    platform: 'node',
    sourcemap: 'inline',
    sourcefile: file,
    tsconfigRaw: { compilerOptions },
  });
  return code;
}

/** Measured code: TypeScript's own transpiler, so that it maps as tsc's dist/ does. */
function withTypeScript(source, file, format) {
  typescript ??= require('typescript');
  const ts = typescript;
  const { outputText, sourceMapText } = ts.transpileModule(source, {
    fileName: file,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: format === 'module' ? ts.ModuleKind.ES2022 : ts.ModuleKind.CommonJS,
      esModuleInterop: true,
      sourceMap: true,
      inlineSources: false,
      declaration: false,
    },
  });
  const map = JSON.parse(sourceMapText);
  map.sources = [file];
  delete map.sourceRoot;
  const body = outputText.replace(/\/\/# sourceMappingURL=\S+\s*$/, '');
  return `${body}//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}\n`;
}

export async function load(url, context, nextLoad) {
  const match = url.startsWith('file:') ? TS.exec(new URL(url).pathname) : null;
  if (match === null) return nextLoad(url, context);
  const format = match[1] === 'c' ? 'commonjs' : 'module';
  return nextLoad(url, { ...context, format, source: await transpile(fileURLToPath(url), format) });
}
