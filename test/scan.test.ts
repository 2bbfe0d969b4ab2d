import t from 'tap';
import { looksLikeObject, topLevelString } from '../lib/scan.js';

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
