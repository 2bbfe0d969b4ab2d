/**
 * Issue 19: no function in lib/ over ~120 lines without a one-line reason in
 * a comment. Every function, method, accessor, constructor and arrow
 * function with a body is measured from the line its declaration starts on
 * to the line of its closing brace, read with the TypeScript compiler's own
 * parser (not a regex: template literals, regexes and nested functions are
 * what a parser is for). A longer one passes only when the line right above
 * it says why: `// long: <reason>`.
 */
import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ROOT } from './helpers.js';

/** Longest function, in lines, that needs no reason. */
export const MAX_FUNCTION_LINES = 120;
/** The reason a longer function gives, on the line right above it. */
const REASON = /^\s*\/\/\s*long:\s*\S/;

export interface LongFunction {
  name: string;
  /** 1-based line the function starts on. */
  line: number;
  lines: number;
}

/** The name a function is known by: its own, or that of the variable, property or member it is assigned to. */
function nameOf(node: ts.SignatureDeclaration, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name !== undefined) return node.name.getText(source);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name !== undefined) {
    return parent.name.getText(source);
  }
  return '(anonymous)';
}

/** The functions of one source over `limit` lines that give no reason, in source order. */
export function longFunctions(fileName: string, text: string, limit = MAX_FUNCTION_LINES): LongFunction[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lines = text.split('\n');
  const found: LongFunction[] = [];
  // An explicit stack, not recursion: the walk is over the syntax tree of any file.
  const stack: ts.Node[] = [source];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === undefined) break;
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const length = last - first + 1;
      if (length > limit && !REASON.test(lines[first - 1] ?? '')) found.push({ name: nameOf(node, source), line: first + 1, lines: length });
    }
    const children: ts.Node[] = [];
    ts.forEachChild(node, (child) => {
      children.push(child);
    });
    for (let k = children.length - 1; k >= 0; k--) stack.push(children[k] as ts.Node);
  }
  return found;
}

/** Every .ts file below `dir` (repository-relative), sorted. */
function tsFiles(dir: string): string[] {
  const out: string[] = [];
  const pending = [dir];
  while (pending.length > 0) {
    const at = pending.pop();
    if (at === undefined) break;
    for (const entry of fs.readdirSync(path.join(ROOT, at), { withFileTypes: true })) {
      const rel = path.join(at, entry.name);
      if (entry.isDirectory()) pending.push(rel);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(rel);
    }
  }
  return out.sort();
}

/** A synthetic function of `bodyLines` + 2 lines (signature and closing brace). */
function fn(head: string, bodyLines: number, close = '}'): string {
  return [head, ...Array.from({ length: bodyLines }, (_, k) => `  const v${k} = ${k};`), close].join('\n');
}

t.test('longFunctions: a planted long function fails, a reason or a shorter one passes', async (t) => {
  const at = MAX_FUNCTION_LINES;
  const table: Array<[string, string, Array<[string, number]>]> = [
    ['exactly the limit', fn('function ok() {', at - 2), []],
    ['one line over', fn('function planted() {', at - 1), [['planted', 1]]],
    ['with a reason above', `// long: one table the reader wants in one place\n${fn('function told() {', at + 40)}`, []],
    ['a reason word without a reason', `// long:\n${fn('function bare() {', at + 40)}`, [['bare', 2]]],
    ['a reason two lines above does not count', `// long: far away\n\n${fn('function far() {', at + 40)}`, [['far', 3]]],
    ['a doc comment is no reason', `/** long: not this way */\n${fn('function doc() {', at + 40)}`, [['doc', 2]]],
    ['an arrow function in a const', fn('export const arrow = (a: number) => {', at), [['arrow', 1]]],
    ['a method, a constructor and an accessor', ['class Big {', fn('  method(): void {', at), fn('  constructor() {', at), fn('  get size(): number {', at, '  return 1; }'), '}'].join('\n'), [['method', 2], ['constructor', at + 4], ['size', 2 * at + 6]]],
    ['a function expression in an object', ['const o = {', fn('  handler: function () {', at, '},'), '};'].join('\n'), [['handler', 2]]],
    ['a nested long function is found inside a long one', fn('function outer() {', at, fn('  const inner = () => {', at, '  };\n}')), [['outer', 1], ['inner', at + 2]]],
    ['an anonymous callback', `run(${fn('() => {', at, '});')}`, [['(anonymous)', 1]]],
    ['template text and regexes do not confuse it', fn('function tricky() {\n  const s = `}\n}`;\n  const r = /}/;', at), [['tricky', 1]]],
    ['an overload signature has no body', 'function sig(a: string): void;\n' + fn('function sig(a: unknown) {', 10), []],
  ];
  for (const [label, source, want] of table) {
    const got = longFunctions('synthetic.ts', source).map((f): [string, number] => [f.name, f.line]);
    t.same(got, want, label);
  }
  t.same(longFunctions('x.ts', fn('function f() {', 30), 20), [{ name: 'f', line: 1, lines: 32 }], 'the limit is a parameter');
});

t.test(`no function in lib/ over ${MAX_FUNCTION_LINES} lines without a reason`, async (t) => {
  const files = tsFiles('lib');
  t.ok(files.length > 50, 'lib/ was read');
  const offenders: string[] = [];
  for (const file of files) {
    for (const f of longFunctions(file, fs.readFileSync(path.join(ROOT, file), 'utf8'))) {
      offenders.push(`${file}:${f.line} ${f.name} (${f.lines} lines): split it by concern, or say why above it with // long: <reason>`);
    }
  }
  t.same(offenders, []);
});
