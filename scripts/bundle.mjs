/**
 * `npm run build`, second step: ships each binary as one bundled ES module
 * (dist/bin/NAME.js, with its source map), so a run loads one file instead of
 * thirty to a hundred and twenty modules: start-up is most of a short run.
 * tsc has already written dist/ (the library API in dist/lib, the types); the
 * bundles replace tsc's dist/bin/*.js. Each bundle also exports the runner's
 * `run`, so an in-process test drives the bundle's own copy of the runner.
 *
 * The package version is compiled in (__WUU_VERSION__): a bundle does not sit
 * where lib/cli/version.ts would look for package.json. Dependencies loaded
 * lazily through createRequire (jsonpath-plus, re2js, genai-prices) stay
 * outside the bundle and load only when a run needs them.
 */
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const names = fs.readdirSync(path.join(root, 'bin')).filter((f) => /^wuu-.*\.ts$/.test(f)).map((f) => f.slice(0, -3));

/**
 * Our modules have no import-time side effects: a module whose exports a
 * binary does not use is left out (wuu-check's programmatic checkBytes and
 * its through2/readable-stream, 190 KB a binary would load for nothing).
 */
const pureLib = {
  name: 'pure-lib',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData === 'pure-lib' || !args.resolveDir.startsWith(path.join(root, 'lib'))) return undefined;
      const resolved = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, pluginData: 'pure-lib' });
      if (resolved.errors.length > 0) return undefined;
      return { path: resolved.path, sideEffects: false };
    });
  },
};

/**
 * The entry of a bundle: the binary plus the runner's `run`. A real file (in
 * dist/, not shipped), so that coverage can map the bundle back to sources.
 */
function entry(name) {
  const dir = path.join(root, 'dist', 'bundle-entries');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.ts`);
  fs.writeFileSync(file, `export * from '../../bin/${name}.js';\nexport { run } from '../../lib/cli/run.js';\n`);
  return file;
}

await Promise.all(
  names.map((name) =>
    build({
      entryPoints: [entry(name)],
      outfile: path.join(root, 'dist', 'bin', `${name}.js`),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: true,
      sourcesContent: true,
      logLevel: 'warning',
      plugins: [pureLib],
      // Dependencies stay in node_modules: a bundle holds only our code, so its
      // source map names only our sources (tap drops coverage of a file that
      // maps to anything under node_modules).
      packages: 'external',
      banner: { js: '#!/usr/bin/env node' },
      define: { __WUU_VERSION__: JSON.stringify(pkg.version), __WUU_BUNDLE__: 'true' },
    }),
  ),
);
for (const name of names) fs.chmodSync(path.join(root, 'dist', 'bin', `${name}.js`), 0o755);
