import t from 'tap';
import fc from 'fast-check';
import { isJsonObject, looksLikeObject, topLevelString, topLevelStringSpan } from '../lib/scan.js';
import { isJsonEvent, typeValueAt } from '../lib/validate.js';
import { TypeSniffer } from '../lib/type-sniff.js';
import { FC_SEED, parsesAsObject } from './helpers.js';

const cases: Array<[string, string | undefined, string]> = [
  ['{"type":"tool_started"}', 'tool_started', 'plain'],
  ['{"a":{"type":"nested"},"type":"top"}', 'top', 'nested object with its own type key comes first'],
  ['{"a":[{"type":"x"}],"type":"top"}', 'top', 'nested array'],
  ['{"todo":{"type":"list"}}', undefined, 'only a nested type: absent at top level'],
  ['{ "type" : "spaced" }', 'spaced', 'whitespace around tokens'],
  ['{"\\u0074ype":"escaped_key"}', 'escaped_key', 'escaped key'],
  ['{"type":"tool\\u005fstarted"}', 'tool_started', 'escaped value'],
  ['{"x":"he said \\"type\\":\\"fake\\"","type":"real"}', 'real', 'quoted lookalike inside a string'],
  ['{"x":"a\\\\","type":"after_backslash"}', 'after_backslash', 'string ending in an escaped backslash'],
  ['{"type":"a","type":"b"}', 'b', 'duplicate key: the last one, as JSON.parse'],
  ['{"type":"b","x":1,"type":"a","y":2}', undefined, 'duplicate key not last: unsure'],
  ['{"type":1}', undefined, 'non-string type'],
  ['{"type":"cut', undefined, 'cut off in the value'],
  ['{"type":"ok"', undefined, 'object never closed'],
  ['{"type":"ok"} trailing', undefined, 'garbage after the object'],
  ['["type","x"]', undefined, 'not an object'],
  ['', undefined, 'empty'],
  ['{"delta":"}{","type":"braces_in_string"}', 'braces_in_string', 'braces inside strings do not count'],
  ['{"type":"ok"}\r', 'ok', 'CR before the newline is whitespace'],
];

for (const [line, expected, name] of cases) {
  t.equal(topLevelString(Buffer.from(line), 'type'), expected, name);
}

t.test('agrees with JSON.parse on sorted Go-style lines', async (t) => {
  const events = [
    { delta: 'x"type":"fake"', type: 'agent_message_delta' },
    { permissions: { mode: 'auto', type: 'inner' }, type: 'session_configured' },
    { todo: [{ type: 'a' }, { type: 'b' }], type: 'todo_updated' },
  ];
  for (const event of events) {
    t.equal(topLevelString(Buffer.from(JSON.stringify(event)), 'type'), event.type);
  }
});

t.test('the last-member shortcut never disagrees with JSON.parse', async (t) => {
  const lines = [
    '{"a":"x","type":"last"}',
    '{"a":"x\\",\\"type\\":\\"fake"}',
    '{"my\\"type":"fake"}',
    '{"a":{"b":1,"type":"inner"}}',
    '{"a":["type","x"],"type":"t"}',
    '{"type":"first","type":"second"}',
    '{"type":"a\\"b"}',
    '{"x":1,"type":"t"}  ',
    '{"x":"\\\\","type":"t"}',
  ];
  for (const line of lines) {
    const parsed = JSON.parse(line) as { type?: unknown };
    const expected = typeof parsed.type === 'string' ? parsed.type : undefined;
    const got = topLevelString(Buffer.from(line), 'type');
    if (got !== undefined) t.equal(got, expected, line);
    else t.pass(`${line}: unsure, falls back to a parse`);
  }
  t.equal(topLevelString(Buffer.from('{"a":{"b":1,"type":"inner"}}'), 'type'), undefined, 'nested last member is not top level');
  t.equal(topLevelString(Buffer.from('xx{"type":"t"}yy'), 'type', 2, 14), 't', 'offsets');
});

t.test('topLevelStringSpan: the quotes of a top-level string value, JSON.parse as the oracle', async (t) => {
  const lines = [
    '{"arguments":"{\\"delta\\":\\"no\\"}","delta":"a\\nb \\u003c","item_id":"i","type":"command_output_delta"}',
    '{"delta":"first","type":"t"}',
    '{"a":{"delta":"inner"},"delta":"outer"}',
    '{"a":["delta","x"],"delta":"y"}',
    '{"d\\u0065lta":"escaped key"}',
    '  {"x":1,"delta":"\\\\"}  ',
  ];
  for (const line of lines) {
    const span = topLevelStringSpan(Buffer.from(line), 'delta');
    t.ok(span, line);
    if (span === undefined) continue;
    const [open, close] = span;
    t.equal(JSON.parse(line.slice(open, close + 1)), (JSON.parse(line) as { delta: string }).delta, line);
  }
  const unsure = [
    '{"delta":"a","delta":"b"}', // a duplicate: JSON.parse keeps the last one
    '{"a":{"delta":"inner"}}', // nested only
    '{"delta":1}', // not a string
    '{"delta":"cut', // cut off
    '{"delta":"x"} y', // text after the object
    '["delta","x"]', // not an object
  ];
  for (const line of unsure) t.equal(topLevelStringSpan(Buffer.from(line), 'delta'), undefined, line);
  t.same(topLevelStringSpan(Buffer.from('xx{"delta":"t"}yy'), 'delta', 2, 15), [11, 13], 'offsets');
});

t.test('looksLikeObject: the shape check for unread lines', async (t) => {
  const table: Array<[string, boolean]> = [
    ['{"type":"a"}', true],
    ['  {"type":"a"}\r', true],
    ['', false],
    ['   ', false],
    ['not json', false],
    ['[1,2]', false],
    ['{"type":"cut', false],
    ['{', false],
    ['{}', true],
  ];
  for (const [line, expected] of table) t.equal(looksLikeObject(Buffer.from(line)), expected, JSON.stringify(line));
});

t.test('isJsonObject: valid and invalid lines, JSON.parse as the oracle', async (t) => {
  const table: Array<[string | Buffer, boolean]> = [
    ['{}', true],
    [' { } ', true],
    ['{"type":"tool_started"}', true],
    ['{"type":"x"}\r', true],
    ['{"a":NaN,"type":"tool_started"}', false],
    ['{"a":Infinity,"type":"t"}', false],
    ['{"a":-Infinity,"type":"t"}', false],
    ['{"type":"x",}', false],
    ['{"type":"x"}{"type":"y"}', false],
    ['{"type":"x"} {"type":"y"}', false],
    ['{"type":5}', true],
    ['{"a":[1,2,]}', false],
    ['{"a":[,1]}', false],
    ['{"a":[1 2]}', false],
    ['{"a" "b"}', false],
    ['{"a":}', false],
    ['{:1}', false],
    ['{a:1}', false],
    ["{'a':1}", false],
    ['{"a":1', false],
    ['{"a":"unterminated}', false],
    ['[1,2]', false],
    ['"str"', false],
    ['1', false],
    ['', false],
    ['   ', false],
    ['{"n":0}', true],
    ['{"n":-0}', true],
    ['{"n":01}', false],
    ['{"n":-01}', false],
    ['{"n":1.}', false],
    ['{"n":.5}', false],
    ['{"n":1.5e}', false],
    ['{"n":1.5e+}', false],
    ['{"n":1.5e+3}', true],
    ['{"n":1E-7}', true],
    ['{"n":1e400}', true],
    ['{"n":+1}', false],
    ['{"n":-}', false],
    ['{"n":0x10}', false],
    ['{"n":12345678901234567890123}', true],
    ['{"b":true,"c":false,"d":null}', true],
    ['{"b":tru}', false],
    ['{"b":True}', false],
    ['{"b":nul}', false],
    ['{"b":nulll}', false],
    ['{"s":"\\u00e9\\n\\t\\"\\\\\\/\\b\\f\\r"}', true],
    ['{"s":"\\ud800"}', true],
    ['{"s":"\\u12"}', false],
    ['{"s":"\\u12G4"}', false],
    ['{"s":"\\x41"}', false],
    ['{"s":"\\a"}', false],
    ['{"s":"\\\'"}', false],
    ['{"s":"tab\there"}', false],
    ['{"s":"nul\u0000"}', false],
    ['{"s":"del\u007f"}', true],
    ['{"s":"é😀\u2028"}', true],
    [Buffer.concat([Buffer.from('{"s":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]), true],
    [Buffer.concat([Buffer.from('{"s":1'), Buffer.from([0xc2, 0xa0]), Buffer.from('}')]), false],
    ['{"a":{"b":{"c":[{"d":[]}]}}}', true],
    ['{"a":{"b":{"c":[{"d":[]}]}}', false],
    ['{"a":{"b":]}', false],
    ['{"a":[}', false],
    ['{"a":{]}', false],
    ['{"a" : [ 1 , { "b" : null } ] }', true],
    ['{"a":1}\n', true],
    ['{"a":1}\u000b', false],
    ['{"a":1}}', false],
    ['{"a":1}]', false],
    ['{"a":1,"a":2}', true],
    ['\ufeff{"a":1}', false],
  ];
  for (const [line, expected] of table) {
    const bytes = Buffer.isBuffer(line) ? line : Buffer.from(line);
    t.equal(parsesAsObject(bytes), expected, `oracle agrees with the table: ${JSON.stringify(bytes.toString('latin1'))}`);
    t.equal(isJsonObject(bytes), expected, JSON.stringify(bytes.toString('latin1')));
  }
});

t.test('isJsonObject: offsets, deep nesting without recursion', async (t) => {
  const inside = Buffer.from('xx{"type":"a"}yy');
  t.equal(isJsonObject(inside, 2, 14), true);
  t.equal(isJsonObject(inside, 2, 13), false, 'cut one byte short');
  t.equal(isJsonObject(inside, 1, 14), false, 'one byte of garbage before');
  const deep = Buffer.from(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
  t.equal(isJsonObject(deep), true, '100,000 levels');
  t.equal(isJsonObject(deep.subarray(0, deep.length - 2)), false, 'unbalanced');
  const deepObjects = Buffer.from(`${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`);
  t.equal(isJsonObject(deepObjects), true, '50,000 nested objects');
});

/** JSON.parse's verdict on "a valid event": an object with a string top-level type. */
function parsesAsEvent(bytes: Buffer): boolean {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { type?: unknown }).type === 'string';
  } catch {
    return false;
  }
}

t.test('isJsonEvent: a valid object with a string top-level type, in the same pass', async (t) => {
  const table: Array<[string, boolean, number | 'string']> = [
    ['{"type":"tool_started"}', true, 'string'],
    ['{"a":1,"type" : "x"}', true, 'string'],
    ['{ "type"\t:\t"x" }'.replace(/\\t/g, '\t'), true, 'string'],
    ['{"type":5}', false, -1],
    ['{"type":null}', false, -1],
    ['{"type":{"type":"x"}}', false, -1],
    ['{"a":{"type":"x"}}', false, -1],
    ['{"a":[{"type":"x"}]}', false, -1],
    ['{}', false, -1],
    ['{"type":"a","type":5}', false, -1],
    ['{"type":5,"type":"a"}', true, 'string'],
    ['{"xtype":"a"}', false, -1],
    ['{"typex":"a"}', false, -1],
    ['{"\\u0074ype":"a"}', false, -2],
    ['{"\\"type":"a"}', false, -2],
    ['{"a":{"\\u0074ype":"a"},"type":"b"}', true, 'string'],
    ['{"type":"x"', false, -1],
    ['{"type":"a\\"b"}', true, 'string'],
  ];
  for (const [text, expected, at] of table) {
    const bytes = Buffer.from(text);
    // An escaped key spelling is "not proven" (-2), whatever JSON.parse decodes it to.
    if (at !== -2) t.equal(parsesAsEvent(bytes), expected, `oracle: ${text}`);
    t.equal(isJsonEvent(bytes), expected, text);
    if (isJsonObject(bytes)) {
      if (at === 'string') t.equal(bytes[typeValueAt], 0x22, `${text}: type value at a quote`);
      else t.equal(typeValueAt, at, `${text}: typeValueAt`);
    }
  }
  // Escaped key spellings are left to JSON.parse: isJsonEvent never says yes to a line that is not one.
  t.equal(parsesAsEvent(Buffer.from('{"\\u0074ype":"a"}')), true);
});

t.test('isJsonObject agrees with JSON.parse on random JSON, mutated', async (t) => {
  // Valid objects, then the same bytes with one byte changed, dropped or doubled.
  const alphabet = ['{', '}', '[', ']', ',', ':', '"', '\\', 'u', '0', '1', '-', '.', 'e', '+', 'a', 't', 'n', ' ', '\t', '\u0001', '\u00e9', 'x'];
  fc.assert(
    fc.property(fc.object({ maxDepth: 4, withNullPrototype: false }), fc.nat(), fc.constantFrom(...alphabet), fc.constantFrom('replace', 'insert', 'delete'), (value, where, byte, how) => {
      const text = JSON.stringify(value);
      const good = Buffer.from(text);
      if (isJsonObject(good) !== true) return false;
      const at = where % (good.length + 1);
      const insert = Buffer.from(byte);
      const mutated =
        how === 'delete'
          ? Buffer.concat([good.subarray(0, at), good.subarray(at + 1)])
          : Buffer.concat([good.subarray(0, at), insert, good.subarray(how === 'replace' ? at + 1 : at)]);
      return isJsonObject(mutated) === parsesAsObject(mutated);
    }),
    { seed: FC_SEED, numRuns: 3000 },
  );
  t.pass('3,000 random objects and mutations agree with JSON.parse');
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 30 }), (body) => {
      const bytes = Buffer.from(`{${body}}`);
      if (isJsonEvent(bytes) && !parsesAsEvent(bytes)) return false;
      return isJsonObject(bytes) === parsesAsObject(bytes);
    }),
    { seed: FC_SEED, numRuns: 5000 },
  );
  t.pass('5,000 random byte soups agree with JSON.parse');
});

t.test('TypeSniffer: the tail type, interned by its bytes, or undefined', async (t) => {
  const sniffer = new TypeSniffer();
  const line = (text: string) => Buffer.from(`xx${text}yy`);
  const sniff = (text: string) => sniffer.sniff(line(text), 2, Buffer.byteLength(text) + 2);
  const first = sniff('{"a":1,"type":"tool_started"}');
  t.equal(first, 'tool_started');
  t.equal(sniff('{"b":"c","type":"tool_started"} '), first, 'the same bytes give the same string');
  t.equal(sniff('{"type":"x"}'), 'x');
  t.equal(sniff('{"type":""}'), '');
  t.equal(sniff('{"type":"x","a":1}'), undefined, 'type not last');
  t.equal(sniff('{"type":"té"}'), undefined, 'not plain ASCII');
  t.equal(sniff('{"type":"a\tb"}'), undefined, 'an escape');
  t.equal(sniff('{"type":"ab"}'), undefined, 'a control byte');
  t.equal(sniff(`{"type":"${'x'.repeat(65)}"}`), undefined, 'longer than any type');
  t.equal(sniff('{"xtype":"a"}'), undefined);
  // Past its table size it still answers, without keeping more.
  for (let i = 0; i < 1100; i++) t.equal(sniff(`{"type":"t${i}"}`), `t${i}`, `type ${i}`);
  t.equal(sniff('{"type":"t1099"}'), 't1099');
});
