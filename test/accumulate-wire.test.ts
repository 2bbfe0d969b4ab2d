/**
 * The byte-level field reader of wuu-accumulate and wuu-turns (issue 20):
 * tables against JSON.parse for the lines it reads and for every fall-back,
 * and both tools over streams whose lines take each path, fed in odd chunk
 * sizes, against the same events written so that every line is parsed.
 */
import t from 'tap';
import { spec as accumulateSpec } from '../bin/wuu-accumulate.js';
import { spec as turnsSpec } from '../bin/wuu-turns.js';
import { FieldReader } from '../lib/accumulate/read.js';
import { decodeLiteral, key, literalBytes, MAX_MEMBERS, ParsedFields, WireFields } from '../lib/accumulate/wire.js';
import { CappedText, OldestFirst, TurnKeys } from '../lib/accumulate/units.js';
import { feedTrailer, feedTrailerAscii, feedTrailerJson } from '../lib/accumulate/accumulator.js';
import { exitCodeOf, OutputTrailer } from '../lib/exit-code.js';
import { InvalidLineError, LineRecord } from '../lib/jsonl.js';
import { goJson } from '../bench/generate.js';
import { chunked, chunkedAtEdges } from './helpers.js';
import { runIn } from './runner-harness.js';

const KEYS = ['delta', 'thread_id', 'turn_id', 'item_id', 'type', 'n', 'todo', 'ok', 'none', 'name', 'a', 'b', 'absent', '__proto__'];
const own = (o: Record<string, unknown>, k: string) => (Object.hasOwn(o, k) ? o[k] : undefined);

/** A record for `line` inside a larger buffer (as the runner hands views into a chunk). */
function recordOf(line: string): LineRecord {
  const pad = Buffer.from('\\\\"x"\n');
  const body = Buffer.from(line);
  const source = Buffer.concat([pad, body, Buffer.from('\n{"delta":"\\u0041"}')]);
  return new LineRecord(source, 'wire', 1, pad.length, pad.length + body.length);
}

t.test('WireFields.read: every value as JSON.parse gives it, whatever the key order, duplicates or escapes', async (t) => {
  const lines = [
    goJson({ delta: 'a <b> & c\n\t"q" \\ \u2028 é 😀', thread_id: 'th', turn_id: 'tu', item_id: 'it', type: 'tool_output_delta' }),
    '{"type":"x","turn_id":"b","thread_id":"a"}',
    '{"a":"first","b":1,"a":"second","type":"x"}',
    '{"n":0,"ok":true,"none":null,"type":"x"}',
    '{"n":-0,"type":"x"}',
    '{"n":-12,"b":1.5,"a":1e21,"type":"x"}',
    '{"n":123456789012345678901,"b":-1.25E-7,"type":"x"}',
    '{"todo":{"todos":[{"content":"a } ] \\" {","status":"x"}],"explanation":null},"type":"todo_updated"}',
    '{"todo":[1,[2,[3]],{"a":[]}],"type":"x"}',
    '{"name":"","delta":"","type":"x"}',
    '{"__proto__":"p","type":"x"}',
    '{"delta":"\\ud83d\\ude00 \\ud800 \\/ \\b\\f\\r","type":"x"}',
    '{"delta":"caf\u00e9 \u4e2d","type":"x"}',
    '{}',
    '{"ok":false,"type":"x"}',
  ];
  for (const line of lines) {
    const wire = new WireFields();
    t.ok(wire.read(recordOf(line)), `read line ${lines.indexOf(line)}`);
    const parsed = JSON.parse(line) as Record<string, unknown>;
    for (const name of KEYS) {
      const field = key(name);
      const where = `${name} of line ${lines.indexOf(line)}`;
      t.same(wire.value(field), own(parsed, name), where);
      const value = own(parsed, name);
      t.equal(wire.string(field), typeof value === 'string' ? value : undefined, `string ${where}`);
      if (Object.is(value, -0)) t.ok(Object.is(wire.value(field), -0), '-0 stays -0');
    }
  }
});

t.test('WireFields.read refuses what it cannot read exactly; FieldReader then reads the parsed event', async (t) => {
  const refused = [
    '{"a": "spaced","type":"x"}',
    ' {"a":"x","type":"x"}',
    '{"a":"x","type":"x"} ',
    '{"\\u0061":"escaped key","type":"x"}',
    '{"a":"x","type":"x",}',
    '{"a":"x" ,"type":"x"}',
    '{"a":01,"type":"x"}',
    '{"a":1.,"type":"x"}',
    '{"a":1e,"type":"x"}',
    '{"a":-,"type":"x"}',
    '{"a":tru,"type":"x"}',
    '{"a":"cut',
    '{"a":{"b":1,"type":"x"}',
    '["type","x"]',
    '{"a"}',
    '{"a":"x"',
    'x',
    '{',
    `{${Array.from({ length: MAX_MEMBERS + 1 }, (_, i) => `"k${i}":${i}`).join(',')},"type":"x"}`,
  ];
  for (const line of refused) {
    t.notOk(new WireFields().read(recordOf(line)), `refused: ${line.slice(0, 60)}`);
    const reader = new FieldReader();
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = JSON.parse(line) as Record<string, unknown>;
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || typeof parsed !== 'object' || Array.isArray(parsed) || typeof parsed.type !== 'string') {
      t.throws(() => reader.all(recordOf(line)), InvalidLineError, `a bad line is reported: ${line.slice(0, 40)}`);
      continue;
    }
    const fields = reader.all(recordOf(line));
    t.ok(fields instanceof ParsedFields, 'read from the parsed event');
    t.same(fields.value(key('a')), own(parsed, 'a'));
    t.equal(fields.string(key('type')), 'x');
  }
  t.same(new FieldReader().all({ type: 'x', event: { type: 'x', a: 1 }, file: '-', line: 1 }).value(key('a')), 1, 'a built record is read from its event');
});

t.test('a value that does not decode is taken from the parsed event, which reports a bad line', async (t) => {
  const bad = ['{"delta":"bad \\x escape","type":"x"}', '{"delta":"raw \u0001 control","type":"x"}', '{"todo":{"a":},"type":"x"}'];
  for (const line of bad) {
    const wire = new WireFields();
    t.ok(wire.read(recordOf(line)), 'located');
    t.throws(() => (line.includes('todo') ? wire.value(key('todo')) : wire.string(key('delta'))), InvalidLineError, line);
  }
});

t.test('WireFields.readTail: the plain string members at the end, or a refusal', async (t) => {
  const ids = [key('thread_id'), key('turn_id'), key('item_id')];
  const tail = new WireFields();
  const line = goJson({ arguments: '{"x":"\\"}', delta: 'out "quoted" \\', item_id: 'it-1', name: 'bash', thread_id: 'th', turn_id: 'tu', type: 'command_output_delta' });
  t.ok(tail.readTail(recordOf(line), ids));
  t.same([tail.string(ids[0]!), tail.string(ids[1]!), tail.string(ids[2]!), tail.string(key('type'))], ['th', 'tu', 'it-1', 'command_output_delta']);
  t.equal(tail.string(key('arguments')), undefined, 'members before the last asked for are not read');

  t.ok(tail.readTail(recordOf('{"thread_id":"a","turn_id":"b","turn_id":"c","type":"x"}'), ids), 'the start reached: every member read');
  t.equal(tail.string(ids[1]!), 'c', 'a repeated key: the last, as JSON.parse');
  t.equal(tail.string(ids[2]!), undefined, 'absent');
  const refusals = [
    '{"thread_id":"a","turn_id":"b\\"c","type":"x"}',
    '{"thread_id":"a","turn_id":1,"type":"x"}',
    '{"thread_id":"a","turn_id":"b","type":"x"} ',
    '{"thread_id":"a", "turn_id":"b","type":"x"}',
    'x"thread_id":"a","turn_id":"b","type":"x"}',
    '{"thread_id":"a","turn_id":"b","type":"x\\u0041"}',
  ];
  for (const refused of refusals) t.notOk(new WireFields().readTail(recordOf(refused), ids), refused);
  // FieldReader.some falls back to the whole line.
  const some = new FieldReader().some(recordOf('{"thread_id":"a","turn_id":1,"type":"x"}'), ids);
  t.equal(some.value(ids[1]!), 1);
  t.equal(some.string(ids[0]!), 'a');
});

t.test('literalBytes counts decoded UTF-8 bytes without decoding; decodeLiteral reads only the literal', async (t) => {
  const texts = ['', 'plain', 'a\nb\tc "q" \\ / <>&', '\u2028\u2029', 'é中😀', '\u0000\u001f\u007f', 'x'.repeat(3000) + '\n'];
  for (const text of texts) {
    const literal = Buffer.from(goJson(text));
    // Names in hex: a raw U+2028 would break the TAP line.
    t.equal(literalBytes(literal, 0, literal.length - 1), Buffer.byteLength(text), `bytes of ${Buffer.from(text).subarray(0, 12).toString('hex')}`);
    t.equal(decodeLiteral(literal, 0, literal.length - 1), text, `text of ${Buffer.from(text).subarray(0, 12).toString('hex')}`);
  }
  const escapes: Array<[string, string]> = [
    ['"\\ud83d\\ude00"', '😀'],
    ['"\\ud800x"', '\ud800x'],
    ['"\\udc00"', '\udc00'],
    ['"\\ud800\\u0041"', '\ud800A'],
    ['"\\u00e9\\u0800\\u07FF"', 'é\u0800\u07ff'],
    ['"\\/\\b\\f\\r"', '/\b\f\r'],
  ];
  for (const [literal, text] of escapes) {
    const bytes = Buffer.from(literal);
    t.equal(literalBytes(bytes, 0, bytes.length - 1), Buffer.byteLength(text), literal);
  }
  for (const bad of ['"\\x"', '"\\u12"', '"\\u12G4"', '"\\']) {
    const bytes = Buffer.from(`${bad}"`);
    t.equal(literalBytes(bytes, 0, bytes.length - 1), undefined, `bad escape ${bad}`);
  }
  const mixed = Buffer.from('"caf\\u00e9 \u00e9"');
  t.equal(literalBytes(mixed, 0, mixed.length - 1), Buffer.byteLength('café é'), 'non-ASCII bytes: decoded and measured');
  const invalid = Buffer.from('"raw \u0001"');
  t.equal(decodeLiteral(invalid, 0, invalid.length - 1), undefined, 'a raw control character is no JSON text');
  const followed = Buffer.from('"plain" and then \\ a backslash');
  t.equal(decodeLiteral(followed, 0, 6), 'plain', 'a backslash after the literal is not its business');
});

t.test('Key.recall hands back the same string while the bytes repeat', async (t) => {
  const id = key('turn_id', true);
  const a = Buffer.from('"th-turn-0001" "th-turn-0002" "th-turn-0001"');
  const first = id.recall(a, 0, 13);
  t.equal(first, 'th-turn-0001');
  t.equal(id.recall(a, 30, 43), first);
  t.equal(id.recall(a, 15, 28), 'th-turn-0002');
  t.equal(id.recall(Buffer.from('"a\\q"'), 0, 4), undefined, 'an escape that is no JSON text');
  const wire = new WireFields();
  wire.read(recordOf('{"turn_id":"x","type":"t"}'));
  t.equal(wire.string(id), 'x');
});

t.test('TurnKeys and OldestFirst.evictWhile', async (t) => {
  const keys = new TurnKeys();
  const k = keys.of('a', 'b');
  t.equal(keys.of('a', 'b'), k);
  t.not(keys.of('a', 'c'), k);
  const order = new OldestFirst();
  const live = new Set(['1', '2', '3', '4']);
  for (const key of live) order.push(key);
  live.delete('1');
  const evicted: string[] = [];
  order.evictWhile(() => live.size > 1, (key) => live.has(key), (key) => {
    evicted.push(key);
    live.delete(key);
  });
  t.same(evicted, ['2', '3'], 'oldest live keys first, dead ones skipped');
  order.evictWhile(() => true, (key) => live.has(key), (key) => live.delete(key));
  t.same([...live], [], 'stops when no live key is left');
});

/** One run whose lines take every path: producer lines, escapes, other key order, duplicates, spaces, numbers in the tail. */
function mixedRun(): { compact: string[]; spaced: string[] } {
  const events: Array<Record<string, unknown>> = [
    { type: 'thread_started', thread_id: 'th', model: 'm', provider: 'p', cwd: '/' },
    { type: 'turn_started', thread_id: 'th', turn_id: 'tu' },
    { type: 'agent_message_delta', thread_id: 'th', turn_id: 'tu', delta: 'Hello <b> & "you"\n' },
    { type: 'agent_message_delta', thread_id: 'th', turn_id: 'tu', delta: 'caf\u00e9 😀 \u2028' },
    { type: 'tool_started', thread_id: 'th', turn_id: 'tu', item_id: 'i1', name: 'bash', arguments: '{"command":"ls \\"a\\""}' },
    { type: 'command_started', thread_id: 'th', turn_id: 'tu', item_id: 'i1', name: 'bash', arguments: '{"command":"ls"}', command: 'ls', process_id: 7 },
    { type: 'tool_output_delta', thread_id: 'th', turn_id: 'tu', item_id: 'i1', delta: 'a\tb\n"q" \\ é\nExit code 2\n' },
    { type: 'command_output_delta', thread_id: 'th', turn_id: 'tu', item_id: 'i1', delta: 'a\tb\n"q" \\ é\nExit code 2\n' },
    { type: 'tool_output_delta', thread_id: 'th', turn_id: 'tu', item_id: 'i1', delta: `${'y'.repeat(70_000)}\nExit code 3\n \n` },
    { type: 'tool_completed', thread_id: 'th', turn_id: 'tu', item_id: 'i1', name: 'bash', status: 'completed', error: '' },
    { type: 'command_completed', thread_id: 'th', turn_id: 'tu', item_id: 'i1', name: 'bash', status: 'completed', error: '' },
    { type: 'command_started', thread_id: 'th', turn_id: 'tu', item_id: 'c2', name: 'bash', arguments: '{}', command: 'pwd', process_id: 'p9' },
    { type: 'command_output_delta', thread_id: 'th', turn_id: 'tu', item_id: 'c2', delta: '/home\n' },
    { type: 'command_completed', thread_id: 'th', turn_id: 'tu', item_id: 'c2', name: 'bash', status: 'failed', error: 'x' },
    { type: 'tool_started', thread_id: 'th', turn_id: 'tu', item_id: 'i3', name: 'edit_file', arguments: '{"path":"a' },
    { type: 'tool_removed', thread_id: 'th', turn_id: 'tu', item_id: 'i3' },
    { type: 'usage_updated', thread_id: 'th', turn_id: 'tu', input_tokens: 10, output_tokens: 5, cache_creation_tokens: 2, cache_read_tokens: 3 },
    { type: 'todo_updated', thread_id: 'th', turn_id: 'tu', todo: { todos: [{ content: 'x } "y"', status: 'pending' }] } },
    { type: 'file_changed', thread_id: 'th', turn_id: 'tu', item_id: 'i1', path: '/a <b>', move_path: '', workspace_revision: 3 },
    { type: 'request_context', thread_id: 'th', turn_id: 'tu', step_index: 0, tool_count: 9 },
    { type: 'agent_message_final', thread_id: 'th', turn_id: 'tu', message: 'Hello <b> & "you"\ncaf\u00e9 😀 \u2028' },
    { type: 'turn_completed', thread_id: 'th', turn_id: 'tu', input_tokens: 10, output_tokens: 5, trace_path: '/t', awaiting_auto_continuation: false },
    { type: 'turn_started', thread_id: 'th', turn_id: 'tu2' },
    { type: 'agent_message_delta', thread_id: 'th', turn_id: 'tu2', delta: 'open' },
    { type: 'tool_output_delta', thread_id: 'th', turn_id: 'tu2', item_id: 'i9', delta: 'no start\n' },
    { type: 'turn_failed', thread_id: 'th', turn_id: 'tu2', error: 'boom' },
    { type: 'result', status: 'completed', thread_id: 'th', turn_id: 'tu2', run_id: 'r', final_message: 'done', trace_path: '/t' },
  ];
  const compact = events.map((event, i) => {
    // Every third line in another shape: reversed key order, or a duplicate key the last of which counts.
    if (i % 3 === 1) return JSON.stringify(Object.fromEntries(Object.entries(event).reverse()));
    if (i % 3 === 2 && typeof event.turn_id === 'string') return goJson(event).replace('{', `{"turn_id":"decoy",`);
    return goJson(event);
  });
  const spaced = events.map((event) => JSON.stringify(event, null, 1).replace(/\n/g, ''));
  return { compact, spaced };
}

/** The records a tool built (not the lines it passed through), parsed. */
function built(stdout: string, types: string[]): unknown[] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((event) => types.includes(String(event.type)));
}

t.test('chunkedAtEdges: the same bytes, cut as chunked cuts them outside long runs of one byte', async (t) => {
  const text = `${mixedRun().compact.join('\n')}\n`;
  const bytes = Buffer.from(text);
  const run = bytes.indexOf('y'.repeat(1000));
  const runEnd = bytes.lastIndexOf('y') + 1;
  for (const size of [1, 7]) {
    const chunks = chunkedAtEdges(text, size);
    t.ok(Buffer.concat(chunks).equals(bytes), `chunks of ${size}: the same bytes`);
    const cuts = new Set<number>();
    let at = 0;
    for (const chunk of chunks) cuts.add((at += chunk.length));
    const missed = [];
    for (let cut = size; cut < bytes.length; cut += size) if ((cut <= run || cut >= runEnd) && !cuts.has(cut)) missed.push(cut);
    t.same(missed, [], `chunks of ${size}: every cut of chunked(text, ${size}) before and after the run`);
    t.ok(chunks.length < bytes.length / size / 4, `chunks of ${size}: ${chunks.length}, the run's middle in few`);
  }
  t.same(chunkedAtEdges(text, 64), chunked(text, 64), 'chunks of 64 or more: as chunked');
});

t.test('both tools build the same records from lines read at byte level as from parsed ones, in any chunk size', async (t) => {
  const { compact, spaced } = mixedRun();
  const cases: Array<[typeof accumulateSpec, string[], string[]]> = [
    [accumulateSpec, [], ['agent_message', 'tool_call', 'tool_removed']],
    [accumulateSpec, ['--max-output-bytes', '8', '--check', '--keep-removed'], ['agent_message', 'tool_call', 'tool_removed']],
    [turnsSpec, ['--only-turns'], ['turn']],
    [turnsSpec, ['--keep-removed'], ['turn']],
  ];
  for (const [spec, args, types] of cases) {
    const slow = await runIn(spec, args, `${spaced.join('\n')}\n`);
    const expected = built(slow.stdout, types);
    t.ok(expected.length >= 2, `${spec.name} ${args.join(' ')} built records`);
    // Chunk edges at every byte (and every 7th, 64th) of every line, escapes and UTF-8 sequences
    // included; inside the 70 000-byte run of one letter only near its ends (chunkedAtEdges).
    for (const size of [1, 7, 64, 1 << 16]) {
      const fast = await runIn(spec, args, chunkedAtEdges(`${compact.join('\n')}\n`, size));
      t.same(built(fast.stdout, types), expected, `${spec.name} ${args.join(' ')}, chunks of ${size}`);
      t.equal(fast.code, slow.code);
      t.equal(fast.stderr, slow.stderr);
    }
  }
});

t.test('bad lines among the pieces are reported as before and build nothing, in any chunk size', async (t) => {
  const { compact } = mixedRun();
  const bad = [
    '{"delta":"x","thread_id":"th","turn_id":"tu","type":"agent_message_delta",}',
    '{"delta":"bad \\x","thread_id":"th","turn_id":"tu","type":"agent_message_delta"}',
    '{"delta":"x","item_id":"i1","thread_id":"th","turn_id":"tu","type":"tool_output_delta"',
    '{"delta":"x","item_id":"i1","thread_id":"th","turn_id":"tu","type":"tool_output_delta"}}',
  ];
  const input = [...compact.slice(0, 4), ...bad, ...compact.slice(4)];
  for (const spec of [accumulateSpec, turnsSpec]) {
    const clean = await runIn(spec, [], `${compact.join('\n')}\n`);
    for (const size of [1, 13, 1 << 16]) {
      const r = await runIn(spec, [], chunkedAtEdges(`${input.join('\n')}\n`, size));
      t.equal(r.code, 1, `${spec.name}: bad lines count`);
      t.equal(r.stderr.split('\n').filter((line) => line.includes('not valid JSON')).length, 4, `${spec.name}: each reported (chunks of ${size})`);
      t.equal(r.stdout, clean.stdout, `${spec.name}: the output is that of the clean stream`);
    }
  }
});

t.test('CappedText.appendAscii keeps what append keeps, from bytes', async (t) => {
  const pieces = ['ab', 'c'.repeat(40), 'd', 'e'.repeat(7), '', 'f'.repeat(100), 'gh'];
  for (const cap of [1, 2, 5, 16, 64, 1000]) {
    for (let start = 0; start < pieces.length; start++) {
      const text = new CappedText(cap);
      const bytes = new CappedText(cap);
      for (const piece of [...pieces.slice(start), ...pieces.slice(0, start)]) {
        text.append(piece);
        bytes.appendAscii(Buffer.from(`[${piece}]`).subarray(1, piece.length + 1));
        t.same(bytes.result(), text.result(), `cap ${cap}, from piece ${start}`);
        t.equal(bytes.bytes, text.bytes);
      }
    }
  }
});

t.test('a long piece feeds the trailer by its end alone, as appending all of it would', async (t) => {
  const bodies = ['x'.repeat(5000), `${'x'.repeat(3000)}\nExit code 2`, `${'a\n'.repeat(2000)}Exit code 1\n\t \n`, `${'z'.repeat(1500)}\n${'w'.repeat(1200)}`, ' '.repeat(4000), `short\nExit code 4${' '.repeat(3000)}`, `${'q'.repeat(2048)}\n`];
  for (const [i, body] of bodies.entries()) {
    for (const before of ['', 'earlier output\nExit code 9\n']) {
      const whole = new OutputTrailer();
      const fed = new OutputTrailer();
      const ascii = new OutputTrailer();
      for (const trailer of [whole, fed, ascii]) trailer.append(before);
      whole.append(body);
      feedTrailer(fed, body);
      feedTrailerAscii(ascii, Buffer.from(body));
      for (const trailer of [fed, ascii]) {
        t.same(trailer.lastLines(2), whole.lastLines(2), `body ${i}, ${before === '' ? 'first' : 'after output'}`);
        t.equal(exitCodeOf(trailer, 'completed'), exitCodeOf(whole, 'completed'));
        // The next piece sees the same state.
        trailer.append('then\nExit code 5\n');
      }
      whole.append('then\nExit code 5\n');
      t.same(fed.lastLines(2), whole.lastLines(2));
      t.same(ascii.lastLines(2), whole.lastLines(2));
    }
  }
});

t.test('a kept output settles a fresh trailer from its literal\'s end as feeding its whole text would, for the last read', async (t) => {
  let seed = 5;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  // Lines of every length (window edges: 1024, 2048), blank runs, status lines, escapes, non-ASCII, lone surrogates.
  const words = ['x', 'Exit code 2', 'Exit code -1', '  Exit code 3', 'Running in background as process 7', 'The sandbox blocked a write outside the workspace boundary', 'é😀', '\ud800', '\udc00', '<&>"\\', '\u001b[0m', '\t', ' ', '\r'];
  const blanks = ['', ' ', '\n', '\n\n', ' \t\r\n', ' '.repeat(600), '\n'.repeat(300)];
  const wrong: string[] = [];
  let cheap = 0;
  for (let i = 0; i < 3000; i++) {
    const lines: string[] = [];
    const count = random(6);
    for (let j = 0; j < count; j++) {
      const long = random(5) === 0 ? 'y'.repeat([200, 500, 1000, 1023, 1024, 1025, 2047, 2048, 2049, 3000][random(10)] ?? 0) : '';
      const parts = Array.from({ length: random(5) }, () => words[random(words.length)] ?? '');
      lines.push(long + parts.join(random(2) === 0 ? ' ' : ''));
    }
    const text = lines.join('\n') + (blanks[random(blanks.length)] ?? '');
    const whole = new OutputTrailer();
    feedTrailer(whole, text);
    const fed = new OutputTrailer();
    const literal = Buffer.from(JSON.stringify(text));
    feedTrailerJson(fed, literal);
    if (literal.length > 512 && fed.lastLines(99).length <= 2) cheap++;
    for (const status of ['completed', 'failed']) {
      if (exitCodeOf(fed, status) !== exitCodeOf(whole, status)) wrong.push(`exit code (${status}): ${JSON.stringify(text)}`);
    }
    if (JSON.stringify(fed.lastLines(2)) !== JSON.stringify(whole.lastLines(2)) || fed.seen !== whole.seen) wrong.push(`last lines: ${JSON.stringify(text)}`);
  }
  t.same(wrong, [], 'the same exit code, last two lines and sight of text');
  t.ok(cheap > 100, `settled from the end alone: ${cheap}`);
});
