/**
 * The layering of lib/ and bin/, read from the import statements of every
 * .ts file (a regex over import/export-from lines and dynamic imports):
 *
 *   base   lib/*.ts: framing (jsonl), events, scan, text, threads, where,
 *          jsonpath, suggest, and the Core contract (core.ts)
 *   tools  lib/<tool>/: one folder per tool, index.ts re-exports only
 *   api    lib/index.ts: the public API (base and tools, never the shell)
 *   shell  lib/cli/: the process (args, inputs, bad-line policy, exit codes)
 *   bin    bin/: one declared spec per binary
 *
 * A file imports only from its own layer or lower ones; no import circles;
 * the process, the file system and child processes only in the shell and
 * bin/ (with the exceptions below, each with its reason); every tool folder
 * has the same shape.
 */
import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './helpers.js';

/** A module graph: file (repository-relative) to the files it imports. */
export type Graph = Map<string, string[]>;

/**
 * The first import circle found, as a path that starts and ends at the same
 * file, or undefined. Iterative depth-first search (no recursion on a
 * data-sized graph), each node's imports in order.
 */
export function findCycle(graph: Graph): string[] | undefined {
  const DONE = 2;
  const ON_PATH = 1;
  const state = new Map<string, number>();
  for (const start of [...graph.keys()].sort()) {
    if (state.has(start)) continue;
    const stack: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    state.set(start, ON_PATH);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const edges = graph.get(top.node) ?? [];
      if (top.next >= edges.length) {
        state.set(top.node, DONE);
        stack.pop();
        continue;
      }
      const to = edges[top.next++]!;
      const seen = state.get(to);
      if (seen === ON_PATH) {
        const from = stack.findIndex((frame) => frame.node === to);
        return [...stack.slice(from).map((frame) => frame.node), to];
      }
      if (seen === undefined) {
        state.set(to, ON_PATH);
        stack.push({ node: to, next: 0 });
      }
    }
  }
  return undefined;
}

/** Every import specifier of a TypeScript source, static and dynamic, type-only included. */
export function importsOf(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s[^;'"]*?\bfrom\s*'([^']+)'/gms,
    /^\s*import\s*'([^']+)'/gm,
    /\bimport\s*\(\s*'([^']+)'\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) found.push(m[1]!);
  return found;
}

/** The source without comments, for the `process.` scan (a doc comment may mention `process.env`). */
function codeOf(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

function listTs(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listTs(rel));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out.sort();
}

const FILES = [...listTs('lib'), ...listTs('bin')];
const SOURCES = new Map(FILES.map((f) => [f, fs.readFileSync(path.join(ROOT, f), 'utf8')]));

/** Relative imports resolved to repository paths (`./x.js` is `./x.ts`); packages and node: modules as named. */
function resolve(from: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  return path.posix.normalize(path.posix.join(path.posix.dirname(from), spec.replace(/\.js$/, '.ts')));
}

const GRAPH: Graph = new Map(FILES.map((f) => [f, importsOf(SOURCES.get(f)!).map((s) => resolve(f, s))]));
const localGraph: Graph = new Map([...GRAPH].map(([f, to]) => [f, to.filter((x) => SOURCES.has(x))]));

/** The base modules at the library root; a tool is a folder, never a root file. */
const BASE = ['core', 'events', 'exit-code', 'jsonl', 'jsonpath', 're2', 'scan', 'suggest', 'text', 'threads', 'type-sniff', 'validate', 'where'].map((n) => `lib/${n}.ts`);

type Layer = { rank: number; name: string };
function layerOf(file: string): Layer {
  if (file.startsWith('bin/')) return { rank: 3, name: 'bin' };
  if (file.startsWith('lib/cli/')) return { rank: 2, name: 'shell' };
  if (file === 'lib/index.ts') return { rank: 2, name: 'api' };
  if (/^lib\/[^/]+\//.test(file)) return { rank: 1, name: 'tools' };
  return { rank: 0, name: 'base' };
}

/**
 * Imports that go up a layer, each with its reason. wuu-usage has its own
 * main (serial or on worker threads, and --merge) that the runner calls with
 * a ToolIO: it reads files itself, so it applies the shell's input handling
 * and bad-line policy. Moving that main into lib/cli/ is the next step.
 */
const UPWARD_ALLOWED: Record<string, string> = {
  'lib/usage/reader.ts -> lib/cli/policy.ts': "wuu-usage's reader applies the runner's one bad-line policy",
  'lib/usage/merge.ts -> lib/cli/policy.ts': 'wuu-usage --merge applies the bad-line policy to its inputs',
  'lib/usage/merge.ts -> lib/cli/inputs.ts': 'wuu-usage --merge expands its inputs as the runner does',
  'lib/usage/merge.ts -> lib/cli/spec.ts': "wuu-usage --merge is a custom main, given the runner's ToolIO",
  'lib/usage/parallel.ts -> lib/cli/inputs.ts': "wuu-usage's main expands its inputs as the runner does",
  'lib/usage/parallel.ts -> lib/cli/spec.ts': "wuu-usage's main is a custom main, given the runner's ToolIO",
  'lib/usage/parallel.ts -> lib/cli/policy.ts': "wuu-usage's main applies the runner's one bad-line flood rule to every file, -j workers too",
  'lib/usage/parallel.ts -> lib/cli/process.ts': "wuu-usage's main reports a signal with the runner's exit status",
  'lib/usage/files.ts -> lib/cli/inputs.ts': "wuu-usage's workers open inputs (gzip, FIFOs) as the runner does",
};

/** Modules that own the process, the file system, sockets or threads. */
const PROCESS_MODULES = new Set(['fs', 'fs/promises', 'child_process', 'net', 'worker_threads', 'tty', 'cluster']);

/** Files outside the shell and bin/ that touch the process, each with its reason. */
const PROCESS_ALLOWED: Record<string, string> = {
  'lib/usage/files.ts': "wuu-usage's workers open and read each input themselves (off the main thread)",
  'lib/usage/parallel.ts': 'wuu-usage --jobs starts worker threads',
  'lib/usage/worker.ts': "a wuu-usage worker thread's entry point",
  'lib/usage/dates.ts': "a file's modification time dates a stream without timestamps (--since/--until by file)",
  'lib/usage/genai-load.ts': "loading the price library reads its source and the bundle's code cache of it (what require reads, with V8's cache)",
  'lib/redact/stored-tables.ts': "wuu-redact reads the default rules' tables the build stored (dist/lib/redact/redact-tables.bin) instead of building them at start-up",
};

t.test('the checker finds a planted circle and reports it as a path', async (t) => {
  const planted: Graph = new Map([
    ['lib/a.ts', ['lib/b.ts']],
    ['lib/b.ts', ['lib/c.ts', 'lib/d.ts']],
    ['lib/c.ts', []],
    ['lib/d.ts', ['lib/a.ts']],
  ]);
  t.same(findCycle(planted), ['lib/a.ts', 'lib/b.ts', 'lib/d.ts', 'lib/a.ts']);
  t.same(findCycle(new Map([['x', ['x']]])), ['x', 'x'], 'a file that imports itself');
  planted.set('lib/d.ts', []);
  t.equal(findCycle(planted), undefined, 'no circle once the back edge is gone');
  const diamond: Graph = new Map([
    ['a', ['b', 'c']],
    ['b', ['d']],
    ['c', ['d']],
    ['d', []],
  ]);
  t.equal(findCycle(diamond), undefined, 'a shared dependency is not a circle');
});

t.test('the import reader sees every kind of import', async (t) => {
  const source = [
    "import fs from 'node:fs';",
    "import type { A } from './a.js';",
    'import {',
    '  b,',
    '  type C,',
    "} from '../b.js';",
    "export { d } from './d.js';",
    "export * from './e.js';",
    "import './side.js';",
    "const w = await import('node:worker_threads');",
    "// import { no } from './comment.js' is not an import",
    "const s = 'from \\'./string.js\\'';",
  ].join('\n');
  t.same(importsOf(source).sort(), ['../b.js', './a.js', './d.js', './e.js', './side.js', 'node:fs', 'node:worker_threads'].sort());
  t.equal(resolve('lib/x/y.ts', '../b.js'), 'lib/b.ts');
  t.equal(resolve('lib/x/y.ts', 'node:fs'), 'node:fs');
});

t.test('lib/ and bin/ were read', async (t) => {
  t.ok(FILES.length > 50, `${FILES.length} files`);
  for (const file of ['lib/core.ts', 'lib/jsonl.ts', 'lib/cli/run.ts', 'lib/cli/policy.ts', 'bin/wuu-filter.ts']) t.ok(SOURCES.has(file), file);
  t.ok(GRAPH.get('lib/cli/run.ts')!.includes('lib/jsonl.ts'), 'the runner imports the framing');
});

t.test('no import circles in lib/ and bin/', async (t) => {
  const cycle = findCycle(localGraph);
  t.equal(cycle?.join(' -> '), undefined, 'import circle');
});

t.test('every import resolves to a file or a package', async (t) => {
  for (const [file, targets] of GRAPH) {
    for (const target of targets) {
      if (target.startsWith('lib/') || target.startsWith('bin/')) t.ok(SOURCES.has(target), `${file} imports ${target}`);
    }
  }
});

t.test('no import from a lower layer to a higher one', async (t) => {
  const upward: string[] = [];
  for (const [file, targets] of localGraph) {
    const from = layerOf(file);
    for (const target of targets) {
      const to = layerOf(target);
      const ok = to.rank < from.rank || to.name === from.name;
      if (!ok && UPWARD_ALLOWED[`${file} -> ${target}`] === undefined) upward.push(`${file} (${from.name}) -> ${target} (${to.name})`);
    }
  }
  t.same(upward, [], 'imports against the layering');
  for (const edge of Object.keys(UPWARD_ALLOWED)) {
    const [file, target] = edge.split(' -> ') as [string, string];
    t.ok(localGraph.get(file)?.includes(target), `allowlisted ${edge} still exists (drop it from the list once gone)`);
  }
});

t.test('the process, the file system and child processes only in lib/cli/ and bin/', async (t) => {
  const touching = new Map<string, string[]>();
  for (const [file, source] of SOURCES) {
    const layer = layerOf(file).name;
    if (layer === 'shell' || layer === 'bin') continue;
    const why: string[] = [];
    for (const spec of importsOf(source)) {
      if (PROCESS_MODULES.has(spec.replace(/^node:/, ''))) why.push(spec);
    }
    if (/(?<![\w.$])process\s*[.[]/.test(codeOf(source))) why.push('process.');
    if (why.length > 0) touching.set(file, why);
  }
  const unexpected = [...touching].filter(([file]) => PROCESS_ALLOWED[file] === undefined).map(([file, why]) => `${file}: ${why.join(', ')}`);
  t.same(unexpected, [], 'process access below the shell');
  for (const file of Object.keys(PROCESS_ALLOWED)) t.ok(touching.has(file), `allowlisted ${file} still touches the process (drop it once gone)`);
});

t.test('the library root holds only the base modules and the public API', async (t) => {
  const root = FILES.filter((f) => /^lib\/[^/]+\.ts$/.test(f));
  t.same(root, [...BASE, 'lib/index.ts'].sort());
});

/** The statements of an index.ts that are not `export ... from './file.js'` (comments dropped). */
function nonReexports(source: string): string[] {
  return codeOf(source)
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
    .filter((s) => !/^export\s+(\*|(type\s+)?\{[^}]*\})\s+from\s+'\.\/[^']+\.js'$/s.test(s));
}

t.test('the index checker rejects anything but re-exports', async (t) => {
  t.same(nonReexports("/** doc */\nexport * from './a.js';\nexport { b, type C } from './b.js';\nexport type { D } from './d.js';\n"), []);
  t.same(nonReexports("export * from './a.js';\nexport const q = 1;\nimport { z } from './z.js';\n"), ['export const q = 1', "import { z } from './z.js'"]);
  t.same(nonReexports("export { x } from '../x.js';"), ["export { x } from '../x.js'"], 'a re-export from outside the folder');
});

t.test('lib/cli/index.ts only re-exports, and no shell file imports it', async (t) => {
  t.same(nonReexports(SOURCES.get('lib/cli/index.ts')!), []);
  for (const file of FILES.filter((f) => f.startsWith('lib/cli/') && f !== 'lib/cli/index.ts')) {
    t.notOk(localGraph.get(file)!.includes('lib/cli/index.ts'), `${file} does not import lib/cli/index.ts`);
  }
});

t.test('distinct files have distinct names (index.ts aside)', async (t) => {
  const seen = new Map<string, string[]>();
  for (const file of FILES) {
    const base = path.posix.basename(file);
    if (base === 'index.ts') continue;
    seen.set(base, [...(seen.get(base) ?? []), file]);
  }
  const clashes = [...seen.values()].filter((files) => files.length > 1).map((files) => files.join(' and '));
  t.same(clashes, [], 'two files with one name');
});

t.test('every tool folder has the same shape', async (t) => {
  const folders = [...new Set(FILES.filter((f) => /^lib\/[^/]+\//.test(f)).map((f) => f.split('/')[1]!))].filter((d) => d !== 'cli');
  t.same(folders.sort(), ['accumulate', 'check', 'filter', 'import', 'pretty', 'redact', 'result', 'turns', 'usage']);
  for (const tool of folders) {
    const index = `lib/${tool}/index.ts`;
    t.ok(SOURCES.has(index), `${index} exists`);
    t.ok(SOURCES.has(`lib/${tool}/${tool}.ts`), `lib/${tool}/${tool}.ts holds the tool`);
    // index.ts: comments and `export ... from './file.js'` statements, nothing else.
    t.same(nonReexports(SOURCES.get(index) ?? ''), [], `${index} only re-exports`);
    for (const file of FILES.filter((f) => f.startsWith(`lib/${tool}/`) && f !== index)) {
      t.notOk(localGraph.get(file)!.includes(index), `${file} does not import its own index`);
    }
  }
});
