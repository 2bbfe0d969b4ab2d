/**
 * validEventLines (lib/validate.ts): a chunk's whole lines proven valid
 * events in one loop, the identity filter's fast path. The oracle is the
 * per-line check, isJsonEvent, itself checked against JSON.parse in
 * test/scan.test.ts: for every run of lines, the offset returned is just past
 * the last line before the first one isJsonEvent rejects (or that is over the
 * cap), and linesValidated counts the lines before it.
 */
import t, { type Test } from 'tap';
import fc from 'fast-check';
import { isJsonEvent, linesValidated, validEventLines } from '../lib/validate.js';
import { FC_SEED } from './helpers.js';

/** What validEventLines must answer for `lines` (each without its newline), by the per-line oracle. */
function expected(lines: Buffer[], cap: number): { offset: number; count: number } {
  let offset = 0;
  let count = 0;
  for (const line of lines) {
    if (line.includes(0x0a) || line.length > cap || !isJsonEvent(line)) break;
    offset += line.length + 1;
    count++;
  }
  return { offset, count };
}

function check(t: Test, lines: Buffer[], cap = 1 << 30, label = ''): void {
  const body = Buffer.concat(lines.flatMap((line) => [line, Buffer.from('\n')]));
  const want = expected(lines, cap);
  // At an offset inside a bigger buffer, with bytes before and after the span.
  const framed = Buffer.concat([Buffer.from('xx\n'), body, Buffer.from('{"tail"')]);
  const got = validEventLines(framed, 3, 3 + body.length, cap);
  t.same({ offset: got - 3, count: linesValidated }, want, label || JSON.stringify(body.toString('latin1')).slice(0, 200));
}

const EDGES: Array<string | Buffer> = [
  '{"type":"tool_started"}',
  ' {"type":"x"} ',
  '{"type":"x"}\r',
  '\t{"type" : "x" }\t',
  '{"a":1,"type":"x"}',
  '{"type":"x","a":[1,{"b":null}],"c":true,"d":false}',
  '{"s":"\\u00e9\\n\\t\\"\\\\\\/\\b\\f\\r","type":"x"}',
  '{"s":"\\ud83d\\ude00 \\u003cb\\u003e","type":"x"}',
  '{"n":-0,"m":1e5,"o":1.5E-3,"p":-12.25e+10,"type":"x"}',
  '{"n":01,"type":"x"}',
  '{"n":-01,"type":"x"}',
  '{"n":1.,"type":"x"}',
  '{"n":.5,"type":"x"}',
  '{"n":1e,"type":"x"}',
  '{"n":+1,"type":"x"}',
  '{"n":NaN,"type":"x"}',
  '{"s":"\\u12","type":"x"}',
  '{"s":"\\u12G4","type":"x"}',
  '{"s":"\\x41","type":"x"}',
  '{"s":"\\","type":"x"}',
  '{"s":"tab\there","type":"x"}',
  '{"s":"nul\u0000","type":"x"}',
  '{"s":"del\u007f é😀","type":"x"}',
  Buffer.concat([Buffer.from('{"s":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x80, 0x80]), Buffer.from('","type":"x"}')]),
  // After a value string, the next key is read in one step: its edges.
  '{"a":"x","b":1,"type":"t"}',
  '{"a":"x","type":"t","type":5}',
  '{"a":"x","type":5,"type":"t"}',
  '{"a":"x","ty\\u0070e":"t"}',
  '{"a":"x","type" :"t"}',
  '{"a":"x","typ":"t"}',
  '{"a":"x","types":"t"}',
  '{"a":"x","ty\tpe":"t"}',
  '{"a":["x","type","y"],"type":"t"}',
  '{"a":["x","type":"y"],"type":"t"}',
  '{"a":"x","b"}',
  '{"a":"x","b":}',
  '{"a":"x","b":,"type":"t"}',
  '{"a":"x","":"y","type":"t"}',
  '{"a":"x","b":{"c":"d","type":"t"}}',
  '{"o":{"a":"x","type":"t"},"type":"u"}',
  '{"a":"x","b":"y"}',
  '{"a":"x","type":"t"',
  '{"a":"x","type":"t",}',
  '{"a":"x",',
  '{"type":5}',
  '{"type":null}',
  '{"type":"a","type":5}',
  '{"type":5,"type":"a"}',
  '{"a":{"type":"x"}}',
  '{"\\u0074ype":"x"}',
  '{"xtype":"a"}',
  '{"typex":"a"}',
  '{}',
  '[1,2]',
  '"type"',
  '',
  '   ',
  '{"type":"x"} x',
  '{"type":"x"}{"type":"y"}',
  '{"type":"x",}',
  '{"type":"x"',
  '{"type":"x"}}',
  '{"a":[}',
  '\ufeff{"type":"x"}',
  `{"deep":${'['.repeat(3000)}${']'.repeat(3000)},"type":"x"}`,
  `{"deep":${'['.repeat(3000)}${']'.repeat(2999)},"type":"x"}`,
  `${'{"a":'.repeat(2000)}{"type":"x"}${'}'.repeat(2000)}`.replace(/^\{"a":/, '{"type":"y","a":'),
];

t.test('every edge line alone, after a good line, and before one', async (t) => {
  const good = Buffer.from('{"thread_id":"t","type":"thread_started"}');
  for (const edge of EDGES) {
    const line = Buffer.isBuffer(edge) ? edge : Buffer.from(edge);
    check(t, [line]);
    check(t, [good, line, good]);
    check(t, [good, good, line]);
  }
});

t.test('string text read four bytes a step: a special byte at every position of every length', async (t) => {
  // Quote-free lengths 0..19, with a byte that ends plain text (or one that does not) at each position.
  const specials = [0x22, 0x5c, 0x00, 0x09, 0x1f, 0x20, 0x7f, 0x80, 0xff, 0x21, 0x5b, 0x5d];
  let cases = 0;
  for (let length = 0; length < 20; length++) {
    for (let at = 0; at < Math.max(length, 1); at++) {
      for (const special of specials) {
        const text = Buffer.alloc(length, 0x61);
        if (length > 0) text[at] = special;
        for (const lead of ['', ' ', '  ', '   ']) {
          const line = Buffer.concat([Buffer.from(`${lead}{"s":"`), text, Buffer.from('","type":"x"}')]);
          check(t, [line, Buffer.from('{"type":"y"}')], 1 << 30, `${lead.length} ${length} ${at} ${special}`);
          cases++;
        }
      }
    }
  }
  t.ok(cases > 1000);
});

t.test('the line cap: a line over maxLineBytes stops the run', async (t) => {
  const short = Buffer.from('{"type":"x"}'); // 12 bytes
  const long = Buffer.from('{"type":"xxxxxxx"}'); // 18 bytes
  check(t, [short, long, short], 12);
  check(t, [short, long, short], 17);
  check(t, [short, long, short], 18);
  const body = Buffer.from(`${short}\n${long}\n`);
  t.equal(validEventLines(body, 0, body.length, 17), 13);
  t.equal(linesValidated, 1);
});

t.test('spans that do not end in a newline, or are empty, prove nothing', async (t) => {
  const body = Buffer.from('{"type":"x"}\n{"type":"y"}');
  t.equal(validEventLines(body, 0, body.length, 1 << 30), 0);
  t.equal(linesValidated, 0);
  t.equal(validEventLines(body, 5, 5, 1 << 30), 5);
  t.equal(linesValidated, 0);
  t.equal(validEventLines(body, 0, 13, 1 << 30), 13, 'the first line alone');
  t.equal(linesValidated, 1);
});

t.test('random events and mutations agree with the per-line check', async (t) => {
  const alphabet = ['{', '}', '[', ']', ',', ':', '"', '\\', 'u', '0', '1', '-', '.', 'e', '+', 'a', 't', 'n', ' ', '\t', '\r', '\n', '\u0001', '\u00e9', 'x'];
  fc.assert(
    fc.property(
      fc.array(fc.object({ maxDepth: 3, withNullPrototype: false }), { minLength: 1, maxLength: 5 }),
      fc.nat(),
      fc.nat(),
      fc.constantFrom(...alphabet),
      fc.constantFrom('replace', 'insert', 'delete', 'none'),
      (values, which, where, byte, how) => {
        const lines = values.map((value) => Buffer.from(JSON.stringify({ ...value, type: 'x' })));
        const k = which % lines.length;
        const line = lines[k] ?? Buffer.alloc(0);
        const at = where % (line.length + 1);
        if (how !== 'none') {
          lines[k] = how === 'delete' ? Buffer.concat([line.subarray(0, at), line.subarray(at + 1)]) : Buffer.concat([line.subarray(0, at), Buffer.from(byte), line.subarray(how === 'replace' ? at + 1 : at)]);
        }
        // A newline put into a line splits it: split it the same way for the oracle.
        const split = Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));
        const parts: Buffer[] = [];
        let from = 0;
        for (let nl = split.indexOf(0x0a); nl >= 0; nl = split.indexOf(0x0a, from)) {
          parts.push(split.subarray(from, nl));
          from = nl + 1;
        }
        const want = expected(parts, 1 << 30);
        const got = validEventLines(split, 0, split.length, 1 << 30);
        return got === want.offset && linesValidated === want.count;
      },
    ),
    { seed: FC_SEED, numRuns: 3000 },
  );
  t.pass('3,000 random runs of lines agree');
});
