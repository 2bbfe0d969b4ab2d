/**
 * `npm run build`, second step: ships each binary as one bundled ES module
 * (dist/bundle/NAME.js, with its source map), so a run loads one file instead
 * of thirty to a hundred and twenty modules: start-up is most of a short run.
 * tsc has already written dist/ (the library API in dist/lib, the types); the
 * start-up entries below replace tsc's dist/bin/*.js. Each bundle also exports
 * the runner's `run`, so an in-process test drives the bundle's own copy of
 * the runner.
 *
 * The package version is compiled in (__WUU_VERSION__): a bundle does not sit
 * where lib/cli/version.ts would look for package.json.
 *
 * Start-up: dist/bin/NAME.js is a small entry (lib/cli/early-answer.ts) that
 * answers `--version`, `--help` and `-h` before loading anything, from the
 * text the bundle's own runner printed for them here at build time (so the
 * answers cannot drift from the runner's); every other run loads the bundle,
 * dist/bundle/NAME.js (same file name: runIfMain matches a tool by it; the
 * same depth as dist/bin, since bundled code finds files relative to itself,
 * such as wuu-usage's dist/lib/usage/worker.js). Dependencies loaded
 * lazily through createRequire (jsonpath-plus, re2js, genai-prices) stay
 * outside the bundle and load only when a run needs them.
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const names = fs.readdirSync(path.join(root, 'bin')).filter((f) => /^wuu-.*\.ts$/.test(f)).map((f) => f.slice(0, -3));

/**
 * wuu-redact's default tables (lib/redact/stored-tables.ts), stored as bytes
 * beside the engine in dist/lib/redact (bundles find them from dist/bundle):
 * a run reads them instead of building them at start-up.
 */
{
  const { defaultTablesBytes } = await import(pathToFileURL(path.join(root, 'dist', 'lib', 'redact', 'engine.js')).href);
  fs.writeFileSync(path.join(root, 'dist', 'lib', 'redact', 'redact-tables.bin'), defaultTablesBytes());
}

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

const bundleFile = (name) => path.join(root, 'dist', 'bundle', `${name}.js`);
const results = await Promise.all(
  names.map((name) =>
    build({
      entryPoints: [entry(name)],
      outfile: bundleFile(name),
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

/** A Writable that keeps what is written. */
function capture() {
  const chunks = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** What the bundle's runner prints for each early flag (only clean answers: status 0, nothing on stderr). */
async function answersOf(name) {
  const mod = await import(pathToFileURL(bundleFile(name)).href);
  const answers = {};
  for (const flag of ['--version', '--help', '-h']) {
    const out = capture();
    const err = capture();
    const options = { argv: [flag], stdin: Readable.from([]), stdout: out.stream, stderr: err.stream, env: {}, handleSignals: false };
    const status = typeof mod.main === 'function' ? await mod.main(options) : await mod.run(mod.spec, options);
    if (status === 0 && err.text() === '' && out.text() !== '') answers[flag] = out.text();
  }
  return answers;
}

/**
 * The start-up entry of a binary: early answers, else the bundle. CommonJS
 * (dist/bin/package.json says so; dist/bundle/ is a module, as the package is): Node
 * starts a CommonJS file about as fast as `node -e 0`, an ES module a tenth
 * slower. Nothing is exported: in-process tests import the bundle itself.
 */
function startEntry(name, answers) {
  const dir = path.join(root, 'dist', 'bundle-entries');
  const file = path.join(dir, `${name}.start.ts`);
  // --help and -h print the same text: write it once.
  const texts = [...new Set(Object.values(answers))];
  const table = Object.entries(answers).map(([flag, text]) => `${JSON.stringify(flag)}: texts[${texts.indexOf(text)}]`);
  fs.writeFileSync(
    file,
    `import { answerEarly, MAIN_BUNDLE } from '../../lib/cli/early-answer.js';
declare const require: { main: unknown; (id: 'node:url'): typeof import('node:url') };
declare const module: unknown;
declare const __dirname: string;
if (require.main === module) {
  const texts: string[] = ${JSON.stringify(texts)};
  if (!answerEarly(process.argv.slice(2), { ${table.join(', ')} })) {
    // The bundle runs as the program (isMain in lib/cli/process.ts reads this global).
    const url = require('node:url').pathToFileURL(\`\${__dirname}/../bundle/${name}.js\`).href;
    (globalThis as Record<symbol, unknown>)[MAIN_BUNDLE] = url;
    void import(url);
  }
}
`,
  );
  return file;
}

await Promise.all(
  names.map(async (name) => {
    await build({
      entryPoints: [startEntry(name, await answersOf(name))],
      outfile: path.join(root, 'dist', 'bin', `${name}.js`),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      sourcemap: true,
      sourcesContent: true,
      logLevel: 'warning',
      packages: 'external',
      banner: { js: '#!/usr/bin/env node' },
    });
  }),
);
fs.writeFileSync(path.join(root, 'dist', 'bin', 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);

/**
 * The V8 code cache of the price library (lib/usage/genai-load.ts), written
 * by a fresh node (no NODE_OPTIONS: V8 refuses a cache made under other
 * flags) that compiles it as wuu-usage does, runs it and prices a few
 * models, so that the functions a report calls are in the cache too.
 */
function writeGenaiCache() {
  const load = pathToFileURL(path.join(root, 'dist', 'lib', 'usage', 'genai-load.js')).href;
  const out = path.join(root, 'dist', 'bundle', 'genai-prices.cache');
  const script = `
    import fs from 'node:fs';
    import { createRequire } from 'node:module';
    import { GENAI_PRICES, cacheFileData, compileCommonJs, runCommonJs } from ${JSON.stringify(load)};
    const require = createRequire(${JSON.stringify(pathToFileURL(path.join(root, 'dist', 'bundle', 'x.js')).href)});
    const file = require.resolve(GENAI_PRICES);
    const source = fs.readFileSync(file);
    const compiled = compileCommonJs(file, source);
    const lib = runCommonJs(compiled, file, require);
    for (const [model, providerId] of [['gpt-5', 'openai'], ['gpt-5', undefined], ['claude-sonnet-4', 'anthropic'], ['claude-sonnet-4', 'p'], ['gemini-2.5-pro', undefined]]) {
      try {
        lib.calcPrice({ input_tokens: 1000, cache_read_tokens: 100, cache_write_tokens: 10, output_tokens: 100 }, model, providerId === undefined ? {} : { providerId });
      } catch {}
    }
    fs.writeFileSync(${JSON.stringify(out)}, cacheFileData(source, compiled));
  `;
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, stdio: 'inherit' });
}
writeGenaiCache();
for (const name of names) {
  fs.chmodSync(path.join(root, 'dist', 'bin', `${name}.js`), 0o755);
  fs.chmodSync(bundleFile(name), 0o755);
}
