/**
 * The generator itself: every scenario and example is encoded the way the
 * producer writes (checked line by line against the rules of
 * WIRE-FORMAT-REFERENCE.md section 1, independently of lib/import/encode.ts), examples/
 * is in sync with its definitions, and `wuu-filter` with no selector
 * reproduces each stream byte for byte.
 */
import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers.js';
import { spec as filterSpec } from '../../bin/wuu-filter.js';
import { SCENARIOS } from './scenarios.js';
import { EXAMPLES } from './examples.js';
import { goJson, struct } from '../../lib/import/encode.js';
import { runTool } from './harness.js';

/** Checks one line against the encoding rules; returns what is wrong. */
function encodingProblems(line: string): string[] {
  const problems: string[] = [];
  if (/[<>&\u2028\u2029]/.test(line)) problems.push('raw < > & U+2028 U+2029');
  if (/[\u0000-\u001f]/.test(line)) problems.push('raw control byte');
  if (/\\u00[0-9a-f]*[A-F]/.test(line)) problems.push('uppercase \\u hex');
  if (/\\u000[89acd]|\\u0009|\\u0022|\\u005c/.test(line)) problems.push('\\u escape where Go writes a short one');
  if (/\\\//.test(line)) problems.push('escaped /');
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return [...problems, 'not JSON'];
  }
  const keys = Object.keys(event);
  const sorted = [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  if (keys.join() !== sorted.join()) problems.push(`top-level keys not sorted: ${keys.join()}`);
  if (JSON.stringify(event).length !== line.length - countEscapes(line)) problems.push('not compact');
  return problems;
}

/** Bytes that JSON.stringify writes shorter (Go's \u003c etc. are 6 chars for 1). */
function countEscapes(line: string): number {
  let extra = 0;
  for (const m of line.matchAll(/\\u(003c|003e|0026|2028|2029)/g)) extra += m[0].length - 1;
  for (const m of line.matchAll(/\\u00(0[0-7bef]|1[0-9a-f])/g)) extra += m[0].length - 6;
  return extra;
}

t.test('Go encoding rules', async (t) => {
  t.equal(goJson({ b: 1, a: '<&>\u2028\u2029\n\t\u0007\u007f/é😀' }), '{"a":"\\u003c\\u0026\\u003e\\u2028\\u2029\\n\\t\\u0007\u007f/é😀","b":1}');
  t.equal(goJson({ z: struct({ mode: 'standard', b: 2, a: 1 }) }), '{"z":{"mode":"standard","b":2,"a":1}}', 'structs keep their field order');
  t.equal(goJson([1e21, 1e-7, 0.5, 3]), '[1e+21,1e-7,0.5,3]', "Go's shortest floats");
  t.equal(goJson({ s: 'a\ud800b' }), '{"s":"a\ufffdb"}', 'invalid text arrives as a raw U+FFFD');
});

for (const s of SCENARIOS) {
  t.test(`scenario ${s.name}: encoded like the producer`, async (t) => {
    const lines = s.text.split('\n');
    const last = lines.pop()!;
    t.equal(last === '', !s.expected.cut, s.expected.cut ? 'ends mid-line' : 'ends with a newline');
    for (const [i, line] of lines.entries()) t.same(encodingProblems(line), [], `line ${i + 1}`);
    const types = lines.map((l) => (JSON.parse(l) as { type: string }).type);
    t.equal(types.filter((x) => x === 'result').length, s.expected.result.count, 'result lines');
  });
}

t.test('examples/ match their definitions', async (t) => {
  for (const [name, make] of Object.entries(EXAMPLES)) {
    t.equal(fs.readFileSync(path.join(ROOT, 'examples', name), 'utf8'), make(), `${name} (npm run examples rewrites it)`);
  }
  for (const [name, make] of Object.entries(EXAMPLES)) {
    if (!name.endsWith('.jsonl')) continue;
    const lines = make().split('\n');
    if (lines.at(-1) !== '') lines.pop();
    for (const [i, line] of lines.entries()) if (line !== '') t.same(encodingProblems(line), [], `${name}:${i + 1}`);
  }
});

t.test('wuu-filter with no selector reproduces every stream byte for byte', async (t) => {
  for (const s of SCENARIOS) {
    const whole = s.expected.cut ? s.text.slice(0, s.text.lastIndexOf('\n') + 1) : s.text;
    for (const chunk of [7, 65536]) {
      const r = await runTool(filterSpec, [], whole, chunk);
      t.equal(r.code, 0, `${s.name}: exit 0`);
      t.equal(r.stdout, whole, `${s.name}: identical (chunks of ${chunk})`);
    }
    if (s.expected.cut) {
      const r = await runTool(filterSpec, ['--pass-invalid'], s.text);
      t.equal(r.stdout, s.text, `${s.name}: --pass-invalid keeps the cut line as it came`, { todo: 'byte-exact --pass-invalid belongs to the filter/runner work (issue 12)' });
    }
  }
});
