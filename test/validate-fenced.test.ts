/**
 * The fenced reader (lib/validate.ts fencedObject): what proves lines on the
 * fast path. It must never accept what the table machine rejects, and must
 * accept all the table machine accepts except the two cases it leaves to it
 * (a raw newline in the span, a top-level key spelled with escapes, which
 * the table machine marks with typeValueAt -2). The table machine is
 * isJsonObject on a span with no fence after it (end = the buffer's end),
 * itself held to JSON.parse here (the oracle: an object or not). Where both
 * accept, they must agree on where the top-level type's string starts.
 */
import t from 'tap';
import fc from 'fast-check';
import { fencedObject, fencedSkip, fencedStringEnd, isFenced, isJsonObject, typeValueAt } from '../lib/validate.js';
import { stringEnd } from '../lib/check/json-bytes.js';
import { generateStream, prng } from '../bench/generate.js';
import { FC_SEED, parsesAsObject } from './helpers.js';

/** Fences: a newline (the case on the fast path) and two other control bytes. */
const FENCES = [0x0a, 0x00, 0x1f];

/**
 * Every way `line` may be judged, and what is wrong with them: '' when all
 * agree as they must, else a description. `oracle` adds JSON.parse.
 */
function disagreement(line: Buffer, oracle = true): string {
  const table = isJsonObject(line);
  const tableType = typeValueAt;
  if (oracle && table !== parsesAsObject(line)) return `table ${table}, JSON.parse ${!table}`;
  const leftToTable = line.includes(0x0a) || (table && tableType === -2);
  for (const fence of FENCES) {
    // At an offset, with bytes after the fence that would be valid if read.
    for (const [before, after] of [
      ['', ''],
      ['##', '{"more":"bytes after the fence"}'],
    ] as const) {
      const framed = Buffer.concat([Buffer.from(before), line, Buffer.from([fence]), Buffer.from(after)]);
      const start = before.length;
      const end = start + line.length;
      const fenced = fencedObject(framed, start, end);
      if (fenced !== (table && !leftToTable)) return `fence ${fence}, offset ${start}: fenced ${fenced}, table ${table}`;
      if (fenced && (typeValueAt < 0 ? typeValueAt : typeValueAt - start) !== tableType) return `fence ${fence}: type at ${typeValueAt - start}, table says ${tableType}`;
      const combined = isJsonObject(framed, start, end);
      if (combined !== table) return `fence ${fence}: isJsonObject fenced ${combined}, table ${table}`;
    }
  }
  return '';
}

/** The lines of `lines` that are judged wrongly, with what is wrong. */
function wrongs(lines: Array<string | Buffer>, oracle = true): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const bytes = Buffer.isBuffer(line) ? line : Buffer.from(line);
    const wrong = disagreement(bytes, oracle);
    if (wrong !== '') out.push(`${JSON.stringify(bytes.toString('latin1')).slice(0, 120)}: ${wrong}`);
  }
  return out;
}

const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

t.test('every JSON edge: the fenced reader, the table machine and JSON.parse agree', async (t) => {
  const edges: Array<string | Buffer> = [
    // Objects, whitespace, structure.
    '{}',
    ' { } ',
    '\t{\t}\r',
    '{"a":1}\n',
    '\n{"a":1}',
    '{"a":\n1}',
    '{"a" : [ 1 , { "b" : null } , [ ] , { } ] }',
    '{"a":{"b":{"c":[{"d":[]}]}}}',
    '{"a":{"b":{"c":[{"d":[]}]}}',
    '{"a":{"b":]}',
    '{"a":[}',
    '{"a":{]}',
    '{"a":[1,2,]}',
    '{"a":[,1]}',
    '{"a":[1 2]}',
    '{"a" "b"}',
    '{"a":}',
    '{"a"}',
    '{:1}',
    '{a:1}',
    "{'a':1}",
    '{"a":1',
    '{"a":1,}',
    '{,"a":1}',
    '{"a":1,,"b":2}',
    '[1,2]',
    '[]',
    '"str"',
    '1',
    'true',
    '',
    '   ',
    '{',
    '}',
    // Trailing garbage.
    '{"a":1}}',
    '{"a":1}]',
    '{"a":1},',
    '{"a":1} x',
    '{"a":1}{"b":2}',
    '{"a":1} {"b":2}',
    '{"a":1}\u000b',
    '\ufeff{"a":1}',
    // Numbers.
    '{"n":0}',
    '{"n":-0}',
    '{"n":0.0}',
    '{"n":01}',
    '{"n":-01}',
    '{"n":00}',
    '{"n":1.}',
    '{"n":.5}',
    '{"n":-.5}',
    '{"n":1.5e}',
    '{"n":1.5e+}',
    '{"n":1.5e-}',
    '{"n":1.5e+3}',
    '{"n":1E-7}',
    '{"n":1e400}',
    '{"n":1.5e3.5}',
    '{"n":1e5e5}',
    '{"n":+1}',
    '{"n":-}',
    '{"n":--1}',
    '{"n":0x10}',
    '{"n":12345678901234567890123}',
    '{"n":NaN}',
    '{"n":Infinity}',
    '{"n":-Infinity}',
    '{"n":[0,-1,2.5,3e2,-4E-2]}',
    '{"n":1 }',
    '{"n":1\t}',
    // Words.
    '{"b":true,"c":false,"d":null}',
    '{"b":tru}',
    '{"b":True}',
    '{"b":fals}',
    '{"b":nul}',
    '{"b":nulll}',
    '{"b":truex}',
    '{"b":[true,false,null]}',
    // Escapes and surrogates.
    '{"s":"\\u00e9\\n\\t\\"\\\\\\/\\b\\f\\r"}',
    '{"s":"\\ud800"}',
    '{"s":"\\udc00\\ud800"}',
    '{"s":"\\ud83d\\ude00"}',
    '{"s":"\\uDBFF\\uDFFF"}',
    '{"s":"\\u003c\\u003e\\u0026\\u2028"}',
    '{"s":"\\u12"}',
    '{"s":"\\u12G4"}',
    '{"s":"\\u"}',
    '{"s":"\\U0041"}',
    '{"s":"\\x41"}',
    '{"s":"\\a"}',
    '{"s":"\\\'"}',
    '{"s":"\\0"}',
    '{"s":"\\"}',
    '{"s":"\\\\"}',
    '{"s":"a\\',
    '{"s":"a\\u00',
    // Control bytes (and DEL, which is text).
    '{"s":"tab\there"}',
    '{"s":"nul\u0000"}',
    '{"s":"cr\rhere"}',
    '{"s":"unit\u001fsep"}',
    '{"s":"del\u007f"}',
    '{"s\u0001":1}',
    // UTF-8: JSON.parse decodes invalid sequences to U+FFFD, so they are text.
    '{"s":"é😀\u2028"}',
    bytes('{"s":"', [0xff, 0xfe, 0xc3], '"}'),
    bytes('{"s":"', [0xc0, 0xaf], '"}'), // an overlong '/'
    bytes('{"s":"', [0xe0, 0x80, 0xaf], '"}'), // an overlong '/' in three bytes
    bytes('{"s":"', [0xc0, 0xa2], '"}'), // an overlong quote: still no quote
    bytes('{"s":"', [0xc1, 0x9c], '"}'), // an overlong backslash
    bytes('{"s":"', [0xed, 0xa0, 0x80], '"}'), // a surrogate encoded in UTF-8
    bytes('{"s":"', [0xf4, 0x90, 0x80, 0x80], '"}'), // past U+10FFFF
    bytes('{"s":"', [0xe2, 0x82], '"}'), // cut short before the quote
    bytes('{"', [0xe9], '":1}'),
    bytes('{"s":1', [0xc2, 0xa0], '}'), // a no-break space is no whitespace
    bytes('{"s":"', [0xa2, 0xdc, 0x80, 0x9f], '"}'), // quote, backslash and control bits under a high bit
    // The top-level type: where its string starts, escaped key spellings left to the table.
    '{"type":"tool_started"}',
    '{"a":1,"type" : "x"}',
    '{ "type"\t:\t"x" }',
    '{"type":5}',
    '{"type":null}',
    '{"type":{"type":"x"}}',
    '{"a":{"type":"x"}}',
    '{"a":[{"type":"x"}]}',
    '{"type":"a","type":5}',
    '{"type":5,"type":"a"}',
    '{"type":"a","b":1}',
    '{"xtype":"a"}',
    '{"typex":"a"}',
    '{"typ":"a"}',
    '{"\\u0074ype":"a"}',
    '{"\\"type":"a"}',
    '{"ty\\npe":"a"}',
    '{"a\\n":"x","type":"b"}',
    '{"a":{"\\u0074ype":"a"},"type":"b"}',
    '{"a":{"k\\"ey":1}}',
    '{"type":"x"',
    '{"type":"a\\"b"}',
    '{"type":"x","a":"x","type":"t"}',
    '{"type":"x"}{"type":"y"}',
    // Deep nesting: an explicit stack, no recursion.
    `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    `{"a":${'['.repeat(100_000)}${']'.repeat(99_999)}}`,
    `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`,
    `${'{"a":'.repeat(50_000)}1${'}'.repeat(49_999)}`,
    `{"a":${'[{"b":'.repeat(20_000)}"x"${'}]'.repeat(20_000)},"type":"deep"}`,
    `{"a":${'[{"b":'.repeat(20_000)}"x"${']}'.repeat(20_000)},"type":"deep"}`,
  ];
  t.same(wrongs(edges), []);
});

t.test('string text at every position of eight-byte steps: a special byte, an escape, the buffer end', async (t) => {
  const specials = [0x22, 0x5c, 0x00, 0x09, 0x0a, 0x1f, 0x20, 0x7f, 0x80, 0xa2, 0xdc, 0xff, 0x21, 0x5b, 0x5d];
  const escapes = ['\\n', '\\"', '\\\\', '\\u003c', '\\uD83D\\uDE00', '\\u12', '\\q'];
  const lines: Buffer[] = [];
  for (let length = 0; length <= 24; length++) {
    for (let at = 0; at < Math.max(length, 1); at++) {
      const inserts: Buffer[] = [...specials.map((b) => Buffer.from([b])), ...escapes.map((e) => Buffer.from(e))];
      for (const insert of inserts) {
        const text = Buffer.alloc(length, 0x61);
        const body = length === 0 ? insert : Buffer.concat([text.subarray(0, at), insert, text.subarray(at + 1)]);
        // As a value and as a key, at two alignments of the line.
        lines.push(bytes('{"s":"', [...body], '","type":"x"}'));
        lines.push(bytes(' {"', [...body], '":1}'));
      }
    }
  }
  t.same(wrongs(lines), []);
  // The last eight bytes of a buffer: the line ends right before the buffer's last byte, its fence.
  const tail: string[] = [];
  for (let length = 0; length <= 20; length++) {
    const line = Buffer.from(`{"s":"${'b'.repeat(length)}"}`);
    for (let cut = 1; cut <= line.length; cut++) {
      const span = line.subarray(0, cut);
      const framed = Buffer.concat([span, Buffer.from('\n')]);
      const table = isJsonObject(span);
      if (fencedObject(framed, 0, span.length) !== table) tail.push(span.toString());
    }
  }
  t.same(tail, [], 'lines cut at every byte, fenced by the buffer\'s last byte');
});

t.test('producer lines with seeded random mutations', async (t) => {
  const lines: Buffer[] = [];
  generateStream({ bytes: 150_000, seed: 7, write: (line) => lines.push(Buffer.from(line.slice(0, -1))) });
  const random = prng(FC_SEED);
  const alphabet = [...'{}[],:"\\u01-.e+atn x', '\t', '\r', '\n', '\u0001', '\u00e9'].map((ch) => Buffer.from(ch));
  alphabet.push(Buffer.from([0xff]), Buffer.from([0xc0, 0xaf]));
  const mutated: Buffer[] = [];
  for (const line of lines) {
    mutated.push(line);
    for (let k = 0; k < 3; k++) {
      const at = Math.floor(random() * (line.length + 1));
      const insert = alphabet[Math.floor(random() * alphabet.length)]!;
      const how = Math.floor(random() * 3);
      mutated.push(how === 0 ? Buffer.concat([line.subarray(0, at), line.subarray(at + 1)]) : Buffer.concat([line.subarray(0, at), insert, line.subarray(how === 1 ? at + 1 : at)]));
    }
  }
  t.ok(lines.length > 200, `${lines.length} lines`);
  t.same(wrongs(mutated), []);
});

t.test('random JSON, mutated, and random byte soups', async (t) => {
  const alphabet = ['{', '}', '[', ']', ',', ':', '"', '\\', 'u', '0', '1', '-', '.', 'e', 'E', '+', 'a', 't', 'y', 'p', 'n', ' ', '\t', '\r', '\n', '\u0001', '\u00e9', 'x'];
  fc.assert(
    fc.property(fc.object({ maxDepth: 4, withNullPrototype: false }), fc.nat(), fc.constantFrom(...alphabet), fc.constantFrom('replace', 'insert', 'delete', 'none'), (value, where, byte, how) => {
      const good = Buffer.from(JSON.stringify({ ...value, type: 't' }));
      const at = where % (good.length + 1);
      const line =
        how === 'none'
          ? good
          : how === 'delete'
            ? Buffer.concat([good.subarray(0, at), good.subarray(at + 1)])
            : Buffer.concat([good.subarray(0, at), Buffer.from(byte), good.subarray(how === 'replace' ? at + 1 : at)]);
      return disagreement(line) === '';
    }),
    { seed: FC_SEED, numRuns: 1500 },
  );
  t.pass('1,500 random objects and mutations agree');
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 30 }), (body) => disagreement(Buffer.from(`{${body}}`)) === ''),
    { seed: FC_SEED, numRuns: 3000 },
  );
  t.pass('3,000 random byte soups agree');
});

t.test('fencedStringEnd (the skip shared with wuu-check) ends a string where the bounded skip does', async (t) => {
  const texts = ['', 'a', 'x'.repeat(7), 'y'.repeat(8), 'z'.repeat(9), '\\n', '\\u003c>', '\\"', 'é€', '\\', '\\u00', '\\x', 'a\tb', 'cut'];
  for (const text of texts) {
    for (const close of ['"', '']) {
      // At every offset against the eight-byte steps, with bytes past the fence that would end a string.
      for (let pad = 0; pad < 8; pad++) {
        const line = `${' '.repeat(pad)}"${text}${close}`;
        const end = Buffer.byteLength(line);
        const buf = Buffer.from(`${line}\n"x"${' '.repeat(9)}`);
        t.ok(isFenced(buf, end));
        t.equal(fencedStringEnd(buf, fencedSkip(buf), pad + 1), stringEnd(buf, pad, end), JSON.stringify(line));
      }
    }
  }
  t.notOk(isFenced(Buffer.from('"a"'), 3), 'the end of the buffer is no fence');
  t.notOk(isFenced(Buffer.from('"a"\t'), 3), 'a tab is no fence');
});
