import t from 'tap';
import { topLevelString } from '../lib/scan.js';

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
  ['{"type":"a","type":"b"}', undefined, 'duplicate key: unsure'],
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
