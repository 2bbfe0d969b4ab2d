/**
 * The transpiler behind test/loader/hooks.mjs, shared with test/loader/warm.mjs,
 * which fills the cache before tap starts (see warm.mjs for why).
 */
import crypto from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'wuu-test-ts');
export const TS = /\.([cm]?)ts$/;

/** The compiler options esbuild honours (target, class fields and the like), from the repo's tsconfig.json. */
const { compilerOptions } = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8'));
const require = createRequire(import.meta.url);
const version = (name) => JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
const optionsKey = JSON.stringify([version('esbuild'), version('typescript'), compilerOptions]);
const TESTS = path.join(ROOT, 'test') + path.sep;

/** esbuild and the TypeScript compiler, loaded on the first cache miss that needs them. */
let esbuild;
let typescript;

/** The JavaScript of a .ts file, from the cache or transpiled. */
export async function transpile(file, format) {
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

