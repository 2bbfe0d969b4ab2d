/**
 * `npm test` runs this after the build and before tap: it transpiles every
 * TypeScript file the test processes may load (lib, bin, bench, test) into the
 * loader's cache, so no test process ever transpiles.
 *
 * Why: with a cold cache, test processes that transpiled the same files at the
 * same time (tap runs two at once) left merged coverage with functions at
 * their JavaScript lines instead of their TypeScript lines, each counted a
 * second time (3 test files from a cold cache: 943 functions, warm: 764, the
 * same as ts-node); one process filling the cache first gives every process
 * the same mapped code. It also takes the compilers out of the test processes.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TS, transpile } from './transpile.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Every .ts/.mts/.cts file under a directory, without recursion into node_modules. */
function* tsFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') yield* tsFiles(file);
    } else if (TS.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      yield file;
    }
  }
}

let count = 0;
for (const dir of ['lib', 'bin', 'bench', 'test']) {
  for (const file of tsFiles(path.join(root, dir))) {
    const kind = TS.exec(file)?.[1];
    await transpile(file, kind === 'c' ? 'commonjs' : 'module');
    count += 1;
  }
}
if (process.argv.includes('--verbose')) console.log(`warm: ${count} TypeScript files in the test loader's cache`);
