/**
 * ts-node's transpiler for the test run (tsconfig.tap.json, which tap's
 * TypeScript plugin picks before tsconfig.test.json): esbuild's transform
 * instead of TypeScript's transpileModule. Every test file is its own process
 * and imports most of lib/ from source, so each of them transpiles the tree
 * again; with TypeScript that took some 4 s of CPU per process (measured with
 * the whole library imported), with esbuild a small fraction of it. Types are
 * checked once, by `npm run typecheck`, before tap runs; the emitted code is
 * the same per-file, type-erasing transform (ES2022 class fields, ESM) with a
 * source map, which coverage maps back to the .ts lines.
 */
'use strict';
const esbuild = require('esbuild');

/** @param {{ service: { config: { options: { target?: number } } }, nodeModuleEmitKind?: string }} options */
exports.create = function create(options) {
  const format = options.nodeModuleEmitKind === 'nodecjs' ? 'cjs' : 'esm';
  return {
    transpile(input, { fileName }) {
      const { code, map } = esbuild.transformSync(input, {
        loader: fileName.endsWith('x') ? 'tsx' : 'ts',
        format,
        target: 'es2022',
        sourcemap: 'external',
        sourcefile: fileName,
        // What tsc would do for these sources: ES2022 target, so class fields are defined.
        tsconfigRaw: { compilerOptions: { target: 'ES2022', useDefineForClassFields: true } },
      });
      return { outputText: code, sourceMapText: map };
    },
  };
};
