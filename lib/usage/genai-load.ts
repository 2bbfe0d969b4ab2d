/**
 * Loading the built-in price library (`@pydantic/genai-prices`, 480 KB of
 * CommonJS: its price data is one literal) with a V8 code cache, when the
 * build wrote one (dist/bundle/genai-prices.cache, scripts/bundle.mjs): the
 * compile of that file was a third of its load, and every priced report
 * pays the load. The module is compiled as Node compiles CommonJS (the same
 * wrapper and arguments) with the cache given to V8.
 *
 * The cache file is the SHA-256 of the source it was made from, then V8's
 * data. V8 itself checks only the source's length (and its own version and
 * flags, compiling afresh when they differ): a cache is used only for the
 * very source it was made from, so another version of the library is
 * compiled from its own text. Without a cache file (the library from tsc's
 * dist/lib, tests) it is an ordinary require.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type vm from 'node:vm';

/** node:crypto and node:vm, loaded when a cache is used: not at the start of every run. */
const builtin = createRequire(import.meta.url);
const sha256 = (data: Buffer): Buffer => (builtin('node:crypto') as typeof import('node:crypto')).createHash('sha256').update(data).digest();

export const GENAI_PRICES = '@pydantic/genai-prices';

/** Bytes of the source digest at the head of a cache file. */
const DIGEST_BYTES = 32;

/** A CommonJS module's source as Node wraps it: a function of (exports, require, module, __filename, __dirname). */
export function wrapCommonJs(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
}

/** The compiled wrapper of a CommonJS module's source, with `cachedData` for V8 when given. */
export function compileCommonJs(file: string, source: Buffer, cachedData?: Buffer): vm.Script {
  const { Script } = builtin('node:vm') as typeof vm;
  return new Script(wrapCommonJs(source.toString('utf8')), { filename: file, cachedData });
}

/** Runs a compiled CommonJS wrapper as the module at `file`; returns its exports. */
export function runCommonJs(script: vm.Script, file: string, require: NodeJS.Require): unknown {
  const module = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;
  wrapper.call(module.exports, module.exports, require, module, file, path.dirname(file));
  return module.exports;
}

/** A cache file's content: the source's digest, then the script's code cache (made after it ran, so that it holds the functions compiled since). */
export function cacheFileData(source: Buffer, script: vm.Script): Buffer {
  return Buffer.concat([sha256(source), script.createCachedData()]);
}

/** V8's data of a cache file made from `source`; undefined when it was made from another source (or is too short). */
export function cacheFor(source: Buffer, file: Buffer): Buffer | undefined {
  if (file.length <= DIGEST_BYTES) return undefined;
  return sha256(source).equals(file.subarray(0, DIGEST_BYTES)) ? file.subarray(DIGEST_BYTES) : undefined;
}

/**
 * The library's exports: compiled with the code cache at `cacheFile` when
 * it can be read and was made from the installed source, else required.
 * `from` is the URL resolution starts from.
 */
export function loadGenaiPrices<T>(from: string | URL, cacheFile: URL | undefined): T {
  const require = createRequire(from);
  let cache: Buffer | undefined;
  if (cacheFile !== undefined) {
    try {
      cache = fs.readFileSync(cacheFile);
    } catch {
      // No cache (an install without it): the ordinary require below.
    }
  }
  if (cache === undefined) return require(GENAI_PRICES) as T;
  const file = require.resolve(GENAI_PRICES);
  const source = fs.readFileSync(file);
  const data = cacheFor(source, cache);
  if (data === undefined) return require(GENAI_PRICES) as T;
  // The module's own require resolves from its file, as Node's would (the library has no require today).
  return runCommonJs(compileCommonJs(file, source, data), file, createRequire(file)) as T;
}
