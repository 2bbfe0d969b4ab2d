/**
 * wuu-check's byte-level road (lib/check/fields.ts, json-bytes.ts) against
 * the parsed road it replaces: the same problems, byte for byte, on producer
 * lines (which take the byte road) and on every kind of line that must fall
 * back to JSON.parse (escaped keys, duplicate keys, odd key order, nested
 * containers, whitespace, invalid JSON, lines cut across chunk boundaries).
 */
import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { spec as checkSpec } from '../bin/wuu-check.js';
import type { ToolSpec } from '../lib/cli/index.js';
import type { Core } from '../lib/core.js';
import { createCheck } from '../lib/check/index.js';
import { FieldReader, fieldsOfObject } from '../lib/check/fields.js';
import { containerEnd, flatContainerEnd, numberEnd, stringEnd, wordEnd } from '../lib/check/json-bytes.js';
import { plainKeyEnd } from '../lib/scan.js';
import { InvalidLineError, LineRecord, makeRecord, parseEventBytes, type Output } from '../lib/jsonl.js';
import { chunked, ROOT } from './helpers.js';
import { runIn } from './runner-harness.js';

/** The parsed road: the runner parses every line and the core sees plain objects (no bytes to read). */
function parsedRoad(core: Core): Core {
  return {
    ...core,
    needsParse: undefined,
    push: (rec, emit) => core.push(makeRecord(rec.event, rec), emit),
  };
}

const parsedSpec: ToolSpec = {
  ...checkSpec,
  create(ctx) {
    const made = checkSpec.create(ctx);
    if (!('core' in made)) throw new Error('wuu-check declares a core');
    return { ...made, core: parsedRoad(made.core) };
  },
};

const TH = '20260101-100000-0000';
const TU = `${TH}-turn-0001`;
const IT = `${TU}-item-1`;
const ids = `"thread_id":"${TH}","turn_id":"${TU}"`;

/** Producer-shaped lines (sorted keys, compact): each must take the byte road. */
const PRODUCER = [
  `{"cwd":"/w","model":"m","provider":"p",${ids.replace(`,"turn_id":"${TU}"`, '')},"type":"thread_started"}`,
  `{${ids},"type":"turn_started"}`,
  `{"delta":"a \\u003cb\\u003e \\"q\\" \\\\ \\n é €",${ids},"type":"agent_message_delta"}`,
  `{"cache_creation_tokens":2560,"cache_read_tokens":8192,"input_tokens":2264,"output_tokens":368,${ids},"type":"usage_updated"}`,
  `{"cache_creation_tokens":0,"cache_read_tokens":-0,"input_tokens":1.5e3,"output_tokens":12345678901234567890,${ids},"type":"usage_updated"}`,
  `{"arguments":"{\\"path\\":\\"a.ts\\"}","item_id":"${IT}","name":"read_file",${ids},"type":"tool_started"}`,
  `{"delta":"out","item_id":"${IT}",${ids},"type":"tool_output_delta"}`,
  `{"error":"","item_id":"${IT}","name":"read_file","status":"completed",${ids},"type":"tool_completed"}`,
  `{"awaiting_auto_continuation":false,"input_tokens":1,"output_tokens":2,${ids},"trace_path":"","type":"turn_completed"}`,
  `{"error":"","final_message":"done","run_id":"run-${TH}","status":"completed",${ids},"trace_path":"","type":"result"}`,
  `{"agent_id":"ag_1","agent_type":"x","status":"running",${ids.replace(`,"turn_id":"${TU}"`, '')},"type":"subagent_started"}`,
  `{"delta":null,"thread_id":7,"turn_id":true,"type":"agent_message_delta"}`,
  `{"type":"future_event"}`,
  `{}`.replace('}', '"type":"x"}'),
  // The type is read from the bytes too: escaped, non-ASCII, not last.
  `{${ids},"type":"turn\\u005fstarted"}`,
  `{"type":"tool_completed\\u0000","item_id":"${IT}",${ids}}`,
  `{"type":"é_event",${ids}}`,
];

/** Valid lines the walk leaves to JSON.parse or to the whole-line validator: same fields either way. */
const FALLBACK_VALID = [
  `{"thread\\u005fid":"${TH}","turn_id":"${TU}","type":"turn_started"}`,
  `{"typ\\u0065":"result","type":"result"}`,
  `{${ids},"todo":{"todos":[{"a":"}]"}]},"type":"todo_updated"}`,
  `{${ids},"todo":{},"type":"todo_updated"}`,
  `{"permissions":{"mode":"standard"},"type":"session_configured","x":[1,"]",{"y":2}]}`,
  `{"permissions":{"a":[]},${ids},"todo":["x",1,null],"type":"todo_updated"}`,
  `{"permissions":{"mode":"standard"},"type":"session_configured","x":[1,[2,{"y":"]"}]]}`,
  ` { "thread_id" : "${TH}" , "turn_id" : "${TU}" , "type" : "turn_started" } \r`,
  `{"type":"turn_started",${ids}}`,
  `{${ids},"thread_id":5,"type":"turn_started"}`,
  `{"thread_id":5,${ids},"type":"turn_started"}`,
  `{"type":7,"type":"agent_message_delta","delta":"d",${ids}}`,
  `{"__proto__":{"thread_id":"x"},${ids},"type":"turn_started"}`,
  `{"thread_id":"é\\u00e9\\ud800",${ids.replace(`"thread_id":"${TH}",`, '')},"type":"turn_started"}`,
  `{"run_id":"r\\u00e9","status":"weird\\u0007","type":"result"}`,
];

/** Lines that are not events: the byte road must throw what parsing throws. */
const INVALID = [
  `{${ids},"type":"turn_started",}`,
  `{${ids},"type":"turn_started"}x`,
  `{"input_tokens":01,${ids},"type":"usage_updated"}`,
  `{"input_tokens":1.,${ids},"type":"usage_updated"}`,
  `{"input_tokens":+1,${ids},"type":"usage_updated"}`,
  `{"input_tokens":1e,${ids},"type":"usage_updated"}`,
  `{"input_tokens":-,${ids},"type":"usage_updated"}`,
  `{"delta":"a\tb",${ids},"type":"agent_message_delta"}`,
  `{"delta":"a\\xb",${ids},"type":"agent_message_delta"}`,
  `{"delta":"a\\u12g4",${ids},"type":"agent_message_delta"}`,
  `{"delta":tru,${ids},"type":"agent_message_delta"}`,
  `{"delta":nul,${ids},"type":"agent_message_delta"}`,
  `{"delta":[1,}],${ids},"type":"agent_message_delta"}`,
  `{"delta":{"a":01},${ids},"type":"agent_message_delta"}`,
  `{${ids},"todo":{"a":1,},"type":"todo_updated"}`,
  `{${ids},"todo":[1 2],"type":"todo_updated"}`,
  `{${ids},"todo":["a\tb"],"type":"todo_updated"}`,
  `{${ids},"todo":{"a":[}],"type":"todo_updated"}`,
  `{"delta" "x",${ids},"type":"agent_message_delta"}`,
  `{"del\tta":"x",${ids},"type":"agent_message_delta"}`,
  `{"delta":"x" ${ids},"type":"agent_message_delta"}`,
  `{"delta":"x",${ids},"type":"agent_message_delta"`,
  `{"delta":"x",${ids},"type":"agent_message_delta"}}`,
  `[{"type":"x"}]`,
  `{"type":"x","type":5}`,
];

/** The problems one core writes for the given lines as records (one file). */
function problems(lines: string[], road: 'bytes' | 'object'): string {
  const core = createCheck({ json: true });
  const out: Output[] = [];
  const emit = (o: Output) => out.push(o);
  lines.forEach((text, i) => {
    const rec = new LineRecord(Buffer.from(text), 'f', i + 1);
    core.push(road === 'bytes' ? rec : makeRecord(rec.event, rec), emit);
  });
  core.endFile?.('f', emit);
  return out.join('');
}

t.test('producer lines take the byte road; the fields equal the parsed ones', async (t) => {
  const reader = new FieldReader();
  for (const text of PRODUCER) {
    const buf = Buffer.from(`xx${text}\nyy`);
    const event = JSON.parse(text) as Record<string, unknown>;
    const type = String(event.type);
    t.ok(reader.read(buf, 2, 2 + Buffer.byteLength(text)), `byte road: ${text}`);
    const parsed = fieldsOfObject(type, event);
    for (const key of ['type', 'thread', 'turn', 'item', 'usage'] as const) t.same(reader[key], parsed[key], `${key} of ${text}`);
    for (const name of ['thread_id', 'turn_id', 'delta', 'input_tokens', 'todo', 'nothing']) t.equal(reader.kindOf(name), parsed.kindOf(name), `kind of ${name}`);
  }
  t.same(reader.usage, undefined, 'usage only on usage_updated');
});

t.test('types are interned by their bytes, past the table of a thousand types too', async (t) => {
  const reader = new FieldReader();
  const line = (type: string) => Buffer.from(`{${ids},"type":"${type}"}`);
  const seen: string[] = [];
  for (let k = 0; k < 1100; k++) {
    const type = `type_${k}`;
    const buf = line(type);
    seen.push(reader.read(buf, 0, buf.length) ? reader.type : 'not read');
  }
  t.same(seen, Array.from({ length: 1100 }, (_, k) => `type_${k}`), 'every type read from its bytes');
  const again = line('type_7');
  reader.read(again, 0, again.length);
  t.equal(reader.type, seen[7], 'a type seen before is the same string');
  const late = line('type_1099');
  reader.read(late, 0, late.length);
  t.equal(reader.type, 'type_1099', 'a type past the table is read anew');
});

t.test('a repeated id comes back as the same string; a changed one is read anew', async (t) => {
  const reader = new FieldReader();
  const line = (turn: string) => Buffer.from(`{"thread_id":"${TH}","turn_id":"${turn}","type":"turn_started"}`);
  reader.read(line('a1'), 0, line('a1').length);
  t.equal(reader.turn, 'a1');
  reader.read(line('a2'), 0, line('a2').length);
  t.equal(reader.turn, 'a2');
  reader.read(line('b2'), 0, line('b2').length);
  t.equal(reader.turn, 'b2');
  reader.read(line('é'), 0, line('é').length);
  t.equal(reader.turn, 'é');
  const long = 'L'.repeat(300);
  reader.read(line(long), 0, line(long).length);
  t.equal(reader.turn, long);
  reader.read(line(long), 0, line(long).length);
  t.equal(reader.turn, long);
});

t.test('an id of the same length as the last is compared at every byte, word steps and tail', async (t) => {
  const reader = new FieldReader();
  const line = (item: string) => Buffer.from(`{"item_id":"${item}",${ids},"type":"tool_output_delta","delta":""}\n`);
  const base = 'abcdefghijk'; // 11 bytes: two words and a tail of three
  let last = base;
  for (let at = 0; at <= base.length; at++) {
    const item = at === base.length ? base : `${base.slice(0, at)}#${base.slice(at + 1)}`;
    for (const id of [item, base]) {
      const buf = line(id);
      t.ok(reader.read(buf, 0, buf.length - 1));
      t.equal(reader.item, id, `after ${last}`);
      last = id;
    }
  }
});

t.test('keys are matched whole: same length and first byte, longer, shorter, near misses', async (t) => {
  const reader = new FieldReader();
  // turn_id / type / thread_id share first bytes; "thread_ix" and "turn_ie" are near misses; a 70-byte key is no field.
  // The misses come last: matched by mistake, they would overwrite the real members.
  const text = `{"tool_name":6,"thread_id":"a","turn_id":"b","type":"turn_started","thread_ix":1,"turn_ie":2,"typf":0,"t":3,"":4,"${'k'.repeat(70)}":5}`;
  const buf = Buffer.from(`${text}\n`);
  t.ok(reader.read(buf, 0, text.length));
  t.same([reader.thread, reader.turn, reader.type], ['a', 'b', 'turn_started']);
  const parsed = fieldsOfObject('turn_started', JSON.parse(text) as object);
  // Names a rule reads have their kind; the others are not even looked up.
  for (const name of ['thread_id', 'turn_id', 'tool_name', 'item_id']) t.equal(reader.kindOf(name), parsed.kindOf(name), `kind of ${name}`);
  for (const name of ['thread_ix', 'turn_ie', 't', '', 'k'.repeat(70)]) t.equal(reader.kindOf(name), undefined, `no field ${JSON.stringify(name)}`);
  t.equal(reader.kindOf('tool_name'), 'number');
});

t.test('the walk leaves what it cannot prove to JSON.parse', async (t) => {
  const reader = new FieldReader();
  for (const text of INVALID) {
    const buf = Buffer.from(text);
    t.notOk(reader.read(buf, 0, buf.length), `not proven: ${text}`);
  }
  const escaped = Buffer.from(FALLBACK_VALID[0] ?? '');
  t.notOk(reader.read(escaped, 0, escaped.length), 'an escaped key');
  const typeless = Buffer.from('{"thread_id":"a"}');
  t.notOk(reader.read(typeless, 0, typeless.length), 'no string type member');
  const nested = Buffer.from(FALLBACK_VALID[2] ?? '');
  t.ok(reader.read(nested, 0, nested.length), 'a nested container proven by the whole-line validator');
  const empty = Buffer.from(' {} ');
  t.notOk(reader.read(empty, 0, empty.length), 'an empty object has no type');
});

t.test('a line followed by its newline (the fenced string skip) reads as the same line alone', async (t) => {
  const fenced = new FieldReader();
  const alone = new FieldReader();
  // String values at every offset against the eight-byte steps, escapes at
  // the edges, a string cut by the line's end, and bytes past the fence that
  // would end the string (a quote on the next line must not be read).
  const strings = ['', 'a', 'ab\\', '\\u003c', 'x'.repeat(7), 'y'.repeat(8), 'z'.repeat(9), `${'w'.repeat(15)}\\n`, 'é€😀', '\\"q\\"'];
  const lines = [
    ...PRODUCER,
    ...INVALID,
    ...strings.map((text) => `{"delta":"${text}",${ids},"type":"agent_message_delta"}`),
    `{${ids},"type":"agent_message_delta","delta":"cut`,
    `{${ids},"type":"agent_message_delta","delta":"cut\\`,
    `{${ids},"type":"agent_message_delta","delta":"cut\\u00`,
  ];
  for (const text of lines) {
    for (const next of ['', '"}', 'x"}' + ' '.repeat(16)]) {
      const buf = Buffer.from(`${text}\n${next}`);
      const end = Buffer.byteLength(text);
      const read = fenced.read(buf, 0, end);
      t.equal(read, alone.read(Buffer.from(text), 0, end), `same verdict: ${text} + ${JSON.stringify(next)}`);
      if (read) for (const key of ['type', 'thread', 'turn', 'item', 'usage'] as const) t.same(fenced[key], alone[key], `${key} of ${text}`);
    }
  }
});

t.test('both roads report the same problems, byte for byte', async (t) => {
  for (const lines of [PRODUCER, FALLBACK_VALID, [...PRODUCER, ...FALLBACK_VALID, ...PRODUCER]]) {
    t.equal(problems(lines, 'bytes'), problems(lines, 'object'));
  }
  t.match(problems(FALLBACK_VALID, 'bytes'), /wrong-type/, 'the table does find problems');
});

/** Items that start before their turn, twice, after their end, after the turn's end: found without a key when they follow each other. */
const ITEM_ORDER = [
  '{"cwd":"/w","model":"m","provider":"p","thread_id":"th","type":"thread_started"}',
  '{"arguments":"","item_id":"a","name":"x","thread_id":"th","turn_id":"t9","type":"tool_started"}',
  '{"thread_id":"th","turn_id":"t9","type":"turn_started"}',
  '{"arguments":"","item_id":"b","name":"x","thread_id":"th","turn_id":"t9","type":"tool_started"}',
  '{"arguments":"","item_id":"a","name":"x","thread_id":"th","turn_id":"t9","type":"tool_started"}',
  '{"delta":"d","item_id":"b","thread_id":"th","turn_id":"t9","type":"tool_output_delta"}',
  '{"error":"","item_id":"a","name":"x","status":"completed","thread_id":"th","turn_id":"t9","type":"tool_completed"}',
  '{"delta":"d","item_id":"a","thread_id":"th","turn_id":"t9","type":"tool_output_delta"}',
  '{"awaiting_auto_continuation":false,"input_tokens":1,"output_tokens":2,"thread_id":"th","trace_path":"","turn_id":"t9","type":"turn_completed"}',
  '{"error":"","item_id":"b","name":"x","status":"completed","thread_id":"th","turn_id":"t9","type":"tool_completed"}',
  '{"arguments":"","item_id":"c","name":"x","thread_id":"th","turn_id":"t9","type":"tool_started"}',
  '{"error":"","final_message":"","run_id":"r","status":"completed","thread_id":"th","trace_path":"","turn_id":"t9","type":"result"}',
];

t.test('tool items: each rule once, whichever turn they joined as they started', async (t) => {
  const expected = [
    'f:2: unknown-turn: tool_started for turn t9 of thread th, which never started',
    'f:5: tool-started-twice: tool item a already started at line 2',
    'f:8: tool-after-end: tool_output_delta for tool item a, which ended at line 7',
    'f:9: tool-not-ended: tool item b (started at line 4) never ended before its turn t9 completed',
    'f:10: ended-turn: tool_completed for turn t9, which ended at line 9 (turn_completed)',
    'f:10: tool-after-end: tool_completed for tool item b, which ended at line 9',
    'f:11: ended-turn: tool_started for turn t9, which ended at line 9 (turn_completed)',
  ];
  for (const road of ['bytes', 'object'] as const) {
    const core = createCheck();
    const out: Output[] = [];
    ITEM_ORDER.forEach((text, i) => {
      const rec = new LineRecord(Buffer.from(text), 'f', i + 1);
      core.push(road === 'bytes' ? rec : makeRecord(rec.event, rec), (o) => out.push(o));
    });
    t.equal(out.join(''), expected.map((l) => `${l}\n`).join(''), road);
  }
});

t.test('a line that is not an event throws what parsing it throws', async (t) => {
  for (const text of INVALID) {
    const parsed = parseEventBytes(Buffer.from(text));
    const core = createCheck();
    const out: Output[] = [];
    t.throws(() => core.push(new LineRecord(Buffer.from(text), 'f', 3), (o) => out.push(o)), new InvalidLineError('error' in parsed ? parsed.error : '', 'f', 3, Buffer.from(text)), text);
    t.same(out, [], 'nothing reported before the throw');
  }
});

t.test('json-bytes: each token judged as JSON.parse judges it', async (t) => {
  const judge = (text: string) => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  };
  const b = (text: string) => Buffer.from(`${text},`);
  for (const text of ['""', '"a"', '"\\"\\\\\\/\\b\\f\\n\\r\\t"', '"\\u00e9\\uD800"', '"é€\u{1F600}"', '"a\tb"', '"\\x"', '"\\u12"', '"\\u12g4"', '"abc', '"\\', '"\\u']) {
    const length = Buffer.byteLength(text);
    // Followed by a plain byte, by a newline (which fences the scan) and by nothing.
    for (const after of [',', '\n', '']) {
      t.equal(stringEnd(Buffer.from(`${text}${after}`), 0, length) === length, judge(text), `string ${JSON.stringify(text)} then ${JSON.stringify(after)}`);
    }
  }
  t.equal(stringEnd(Buffer.from('"abc"\n'), 0, 3), -1, 'a string that closes only past the end');
  for (const text of ['0', '-0', '12', '1.5', '1e5', '1E+5', '1e-5', '-1.5e300', '01', '1.', '.5', '+1', '-', '1e', '1e+', '-01', '1.5.5']) {
    const end = numberEnd(b(text), 0, text.length);
    t.equal(end === text.length, judge(text), `number ${text}`);
  }
  for (const text of ['true', 'false', 'null', 'tru', 'nul', 'fals', 'nulx', 'x']) {
    t.equal(wordEnd(b(text), 0, text.length) === text.length, judge(text), `word ${text}`);
  }
  t.equal(wordEnd(Buffer.from('true'), 0, 3), -1, 'a word cut by the end');
  t.equal(plainKeyEnd(Buffer.from('"type":'), 0, 7), 6);
  t.equal(plainKeyEnd(Buffer.from('"ty\\u0070e":'), 0, 12), -1, 'escaped key');
  t.equal(plainKeyEnd(Buffer.from('"type'), 0, 5), -1, 'cut key');
  t.equal(containerEnd(Buffer.from('{"a":["}",{"b":"\\"]"}]},'), 0, 24), 23);
  // Containers of scalars are judged in the walk; any container inside one is left undecided (-1).
  const flat = ['{}', '[]', '{ }', '[ ]', '{"a":1}', '{"mode":"standard"}', '[1,2,"x",true,null,false,-1.5e3]', '{"a" : 1 , "b" : "\\u00e9" }', '{"a\\"":1,"a\\"":2}', '["é"]'];
  const undecided = ['{"a":{}}', '[[]]', '{"a":[1]}', '[1,]', '{"a":1,}', '{"a"}', '{"a":}', '{,}', '[,1]', '[01]', '{"a":1 "b":2}', '[tru]', '[1', '{"a":1', '{"a":"x', '{1:2}', '{"a":1]', '[1}', '["a\tb"]'];
  for (const text of flat) {
    const length = Buffer.byteLength(text);
    t.ok(judge(text), `valid: ${text}`);
    for (const after of [',', '\n', '']) t.equal(flatContainerEnd(Buffer.from(`${text}${after}`), 0, length), length, `flat ${text} then ${JSON.stringify(after)}`);
    t.equal(flatContainerEnd(Buffer.from(`${text}\n`), 0, length - 1), -1, `flat ${text} cut by the end`);
  }
  for (const text of undecided) t.equal(flatContainerEnd(Buffer.from(`${text}\n}`), 0, Buffer.byteLength(text)), -1, `undecided: ${text}`);
  t.equal(containerEnd(Buffer.from('{"a":[1'), 0, 7), -1, 'unclosed');
  t.equal(containerEnd(Buffer.from('{"a":"x'), 0, 7), -1, 'cut string');
  t.equal(containerEnd(Buffer.from(`["${'\\"'.repeat(40)}"]`), 0, 84), 84, 'escaped quotes past the short prefix');
});

/** Fixture and example lines, each also bent in the ways that must fall back. */
function corpus(): Buffer {
  const files = [
    ...fs.readdirSync(path.join(ROOT, 'test/fixtures/check')).map((f) => path.join(ROOT, 'test/fixtures/check', f)),
    ...['run.jsonl', 'failed.jsonl', 'timeout.jsonl', 'busy.jsonl'].map((f) => path.join(ROOT, 'examples', f)),
  ];
  const lines = files.flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter((l) => l !== ''));
  const bends: Array<(l: string) => string> = [
    (l) => l,
    (l) => l.replace('"thread_id"', '"thread\\u005fid"'),
    (l) => l.replace(/^\{/, '{ ').replaceAll(',"', ' , "'),
    (l) => l.replace(/\}$/, ',"thread_id":5}'),
    (l) => l.replace(/^\{/, '{"item_id":"dup",'),
    (l) => l.replace(/:(\d+)/, ':0$1'),
    (l) => l.replace(/:"([^"]*)"/, ':"$1\\n\\u00e9"'),
    (l) => l.replace(/:"([^"]*)"/, ':"$1\t"'),
    (l) => l.replace(/:"([^"]*)"/, ':[1,{"a":"]"}]'),
    (l) => l.replace(/\}$/, ',}'),
    (l) => l.slice(0, Math.floor(l.length / 2)),
    (l) => l.replace(/"type":"([a-z_]*)"/, '"type":"$1","type":"future_x"'),
    (l) => l.replace(/"input_tokens":\d+/, '"input_tokens":"3"'),
    (l) => l.replace(/"output_tokens":\d+/, '"output_tokens":0'),
    (l) => '',
  ];
  const out = lines.map((l, i) => (bends[i % 7 === 0 ? (i >> 3) % bends.length : 0] ?? ((x: string) => x))(l));
  // Ends in a cut line (no newline), as a killed producer leaves it.
  return Buffer.from(`${out.join('\n')}\n${lines.slice(0, 5).join('\n')}\n${(lines[6] ?? '').slice(0, 30)}`);
}

t.test('runner: the byte road writes what the parsed road writes, in odd chunk sizes', async (t) => {
  const input = corpus();
  const expected = await runIn(parsedSpec, ['--json'], [input]);
  t.match(expected.stdout, /bad-line/);
  t.match(expected.stdout, /wrong-type/);
  t.match(expected.stdout, /cut-line/);
  for (const size of [1, 7, 61, 4096, input.length]) {
    const r = await runIn(checkSpec, ['--json'], chunked(input, size));
    t.equal(r.stdout, expected.stdout, `chunks of ${size}`);
    t.equal(r.stderr, expected.stderr, `chunks of ${size}: summary`);
    t.equal(r.code, expected.code);
  }
  const text = await runIn(checkSpec, [], chunked(input, 13));
  const textExpected = await runIn(parsedSpec, [], [input]);
  t.equal(text.stdout, textExpected.stdout, 'text output');
});
