/**
 * The runner's per-line fast path (lib/cli/drive-core.ts): lines a core
 * drops by type (Core.wants) and lines it copies as they came (Core.copies)
 * are dealt with from their bytes, with no record and no call to push. The
 * oracle is the same core with both hooks taken away, which sends every line
 * the general way (a record, a parse when needed, push): outputs, messages
 * and exit statuses must be identical, whatever the chunk sizes the input
 * arrives in (lines cut across chunks go the general way too).
 */
import { Writable } from 'node:stream';
import t from 'tap';
import { OutputSink, type ToolSpec } from '../lib/cli/index.js';
import type { Core } from '../lib/core.js';
import { createFilter } from '../lib/filter/index.js';
import { isJsonObject } from '../lib/validate.js';
import { spec as filter } from '../bin/wuu-filter.js';
import { runIn } from './runner-harness.js';

/** wuu-filter with the fast path's hooks removed: every line goes through push. */
const generalOnly: ToolSpec = {
  ...filter,
  create(context) {
    const made = filter.create(context);
    if (!('core' in made)) throw new Error('wuu-filter has a core');
    const { wants: _wants, copies: _copies, ...rest } = made.core;
    const core: Core = { ...rest, push: made.core.push.bind(made.core) };
    return { ...made, core };
  },
};

const LINES = [
  '{"item_id":"i1","name":"bash","type":"tool_started"}',
  '{"delta":"a \\u003cb\\u003e \\\\ \\" \\n \\t \\/ \\ud83d\\ude00","type":"tool_output_delta"}',
  '{"type":"tool_completed","status":"completed"}', // odd key order: type first
  '{"type":"agent_message_delta","delta":"x","type":"tool_started"}', // duplicate key: the last wins
  '{"\\u0074ype":"tool_started","x":1}', // the key spelled with an escape
  '{"a":[1,2,{"b":null}],"n":-1.5e+3,"t":true,"f":false,"type":"tool_failed"}',
  '{"x":1,"type":"tool_started",}', // a trailing comma: invalid
  '{"x":NaN,"type":"tool_started"}', // not JSON
  '{"x":01,"type":"tool_started"}', // a leading zero
  '{"x":"raw\ttab","type":"tool_started"}', // a raw control byte in a string
  '{"x":"\\q","type":"tool_started"}', // a bad escape
  '{"x":1}', // no type
  '{"type":7}', // a type that is no string
  '["type","tool_started"]', // not an object
  '',
  '   ',
  '{"type":"tool_started"} x', // trailing garbage
  '  {"type":"tool_started"}  ', // surrounding spaces: valid
  '{"type":"tool_started"}\r', // a CRLF line end
  '{"nested":{"type":"tool_started"},"type":"message"}',
  '{"s":"ünïcødé \u00e9","type":"tool_started"}',
  '{"thread_id":"t","type":"thread_started"}',
  '{"ok":true,"type":"result"}',
  // Long lines, held across chunks: dropped by the type at their tail, or joined.
  `{"delta":"${'z'.repeat(300)}","type":"command_output_delta"}`,
  `{"delta":"${'z'.repeat(300)}\\ttab raw:\t","type":"command_output_delta"}`,
  `{"delta":"${'z'.repeat(300)}","type":"tool_output_delta"}`,
  `{"delta":"${'z'.repeat(300)}\\u00","type":"tool_output_delta"}`,
  `   ${'z'.repeat(300)}","type":"command_output_delta"}`,
  // The type not last: typed by a validating pass, or left to the general way.
  '{"type":"tool_\\u0073tarted","x":1}', // an escape in the type
  '{"type":"tool_\u00e9","x":1}', // not ASCII
  `{"type":"tool_${'t'.repeat(70)}","x":1}`, // longer than any type
  '{"type":"tool_started","x":[1,{"type":"no"}]}',
  '{"type":"command_output_delta","x":1}',
  '{"type":"tool_started","x":01}', // invalid
];

function chunked(bytes: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

const ARGVS = [[], ['--max-line-bytes', '60'], ['tool_*'], ['-v', 'tool_*'], ['--keep-result', 'tool_started'], ['tool', 'result'], ['--count', 'tool_*']];

t.test('fast path and general path agree, line by line, in any chunk sizes', async (t) => {
  for (const ending of ['\n', '']) {
    const input = Buffer.from(`${LINES.join('\n')}${ending}`);
    for (const argv of ARGVS) {
      const expected = await runIn(generalOnly, argv, input);
      t.ok(expected.stderr.length > 0, 'the bad lines are reported');
      for (const size of [1, 2, 3, 7, 13, 64, 100, 301, input.length]) {
        const got = await runIn(filter, argv, chunked(input, size));
        t.same(got, expected, `${argv.join(' ') || '(identity)'}, chunks of ${size}${ending ? '' : ', no final newline'}`);
      }
    }
  }
});

t.test('more distinct types than the sniffer keeps: the same answers past its table', async (t) => {
  const lines: string[] = [];
  for (let i = 0; i < 1100; i++) lines.push(`{"n":${i},"type":"tool_t${i}"}`, `{"type":"t${i}","n":${i}}`, `{"n":${i},"type":"x${i}"}`);
  const input = Buffer.from(`${lines.join('\n')}\n`);
  for (const argv of [['tool_*'], ['-v', 'tool_*'], ['--keep-result', 't1*']]) {
    const expected = await runIn(generalOnly, argv, input);
    t.ok(expected.stdout.length > 0);
    t.same(await runIn(filter, argv, chunked(input, 4096)), expected, argv.join(' '));
  }
});

t.test('what the fast path writes and reports', async (t) => {
  const input = `${LINES.join('\n')}\n`;
  const r = await runIn(filter, ['tool_started'], input);
  t.equal(
    r.stdout,
    [
      '{"item_id":"i1","name":"bash","type":"tool_started"}',
      '{"type":"agent_message_delta","delta":"x","type":"tool_started"}',
      '{"\\u0074ype":"tool_started","x":1}',
      '  {"type":"tool_started"}  ',
      '{"type":"tool_started"}\r',
      '{"s":"ünïcødé \u00e9","type":"tool_started"}',
      '{"type":"tool_\\u0073tarted","x":1}',
      '{"type":"tool_started","x":[1,{"type":"no"}]}',
      '',
    ].join('\n'),
    'kept lines byte for byte, only valid events of the type',
  );
  t.equal(r.code, 1, 'bad lines make exit 1');
  for (const line of [7, 8, 9, 10, 11, 17]) t.match(r.stderr, new RegExp(`^wuu-filter: <stdin>:${line}: not valid JSON`, 'm'), `line ${line} reported`);
  // Lines of types the filter drops are not validated: nothing said of line 3's neighbours.
  const identity = await runIn(filter, [], input);
  t.match(identity.stderr, /<stdin>:12: no "type" field/);
  t.match(identity.stderr, /<stdin>:13: "type" is a number, not a string/);
  t.match(identity.stderr, /<stdin>:14: not a JSON object \(an array\)/);
  t.match(identity.stderr, /<stdin>:15: blank line/);
});

t.test('a filter core says what it copies', async (t) => {
  t.equal(createFilter().copies, true, 'identity: every line');
  const typed = createFilter({ selectors: ['tool_*'] }).copies;
  t.type(typed, 'function');
  t.equal(createFilter({ selectors: ['tool_*'], count: true }).copies, undefined, '--count writes counts, not lines');
  t.equal(createFilter({ threads: ['t'] }).copies, undefined, 'a content condition reads the line');
  t.equal(createFilter({ where: ['$.x'] }).copies, undefined);
});

t.test('OutputSink.writeParts: big pieces as they are, small ones joined, with backpressure', async (t) => {
  const written: Buffer[] = [];
  const slow = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk);
      setImmediate(done);
    },
  });
  const sink = new OutputSink(slow);
  const big = Buffer.alloc(40 * 1024, 0x61);
  const parts = [Buffer.from('a\n'), Buffer.from('b\n'), big, Buffer.alloc(0), Buffer.from('c\n'), big, Buffer.from('d\n')];
  await sink.writeParts(parts);
  await sink.writeParts([]);
  await sink.settle();
  t.same(Buffer.concat(written), Buffer.concat(parts), 'every byte, in order');
  t.ok(written.includes(big), 'a big piece is written as the same buffer, not a copy');
  t.equal(written.filter((w) => w.length > 0).length, 5, 'small neighbours joined: a\\nb\\n, big, c\\n, big, d\\n');
  const closed = new OutputSink(new Writable({ write: (_c, _e, done) => done() }));
  closed.closedAtStart = true;
  await closed.writeParts([Buffer.from('x\n')]);
  t.equal(closed.failure?.code, 'EBADF', 'a stdout closed at start fails the first write');
  await closed.writeParts([Buffer.from('y\n')]);
  t.equal(closed.closed, true);
});

t.test('isJsonObject on a line inside a chunk: the byte after it does not change the verdict', async (t) => {
  const parsesAsObject = (text: string): boolean => {
    try {
      const value: unknown = JSON.parse(text);
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    } catch {
      return false;
    }
  };
  const lines = [...LINES, '{"a":"unterminated', '{"unterminated', '{"a":"x\\', '{"a":"x\\u00', '{"k":"v"}', '{"a":"' + 'y'.repeat(300) + '"}'];
  for (const line of lines) {
    const expected = parsesAsObject(line);
    // After the line: a newline (ends string text), a quote, a backslash, a plain byte, or nothing.
    for (const after of ['\n{"more":1}', '"', '\\', 'x"}', '']) {
      const bytes = Buffer.from(`${line}${after}`);
      const end = Buffer.byteLength(line);
      t.equal(isJsonObject(bytes, 0, end), expected, `${JSON.stringify(line)} followed by ${JSON.stringify(after)}`);
      t.equal(isJsonObject(Buffer.from(`##${line}${after}`), 2, end + 2), expected, 'at an offset');
    }
  }
});
