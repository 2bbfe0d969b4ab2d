/**
 * Tool arguments written from their bytes (lib/accumulate/raw-arguments.ts,
 * issue 20): whatever canonicalJson accepts must be exactly what
 * JSON.stringify(JSON.parse(text)) writes, the writer's members exactly what
 * the parsed path serializes, and wuu-accumulate must write the same bytes
 * over lines with arguments of every kind (mutated byte by byte too) as the
 * core with its proof taken away, fed in odd chunk sizes.
 */
import { isUtf8 } from 'node:buffer';
import t from 'tap';
import { spec as accumulateSpec } from '../bin/wuu-accumulate.js';
import { ArgumentsWriter, canonicalJson, MAX_DEPTH } from '../lib/accumulate/raw-arguments.js';
import { goJson } from '../bench/generate.js';
import { chunked } from './helpers.js';
import { runIn, withoutProof } from './runner-harness.js';

/** A text for a test's name: ASCII only (a raw U+2028 would cut the TAP line). */
function shown(text: string): string {
  return JSON.stringify(text).replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** What JSON.stringify(JSON.parse(text)) writes, or undefined when it throws. */
function roundTrip(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return undefined;
  }
}

const ACCEPTED = [
  '{"command":"git status && git diff --stat"}',
  '{"path":"/home/carol/src/x.ts","line":12,"dry":false,"opts":null,"list":[1,-2,"a",{"b":[]}]}',
  '{"a":"tab\\t nl\\n quote\\" back\\\\ ctl\\u0001 \\u001f é 😀 \u2028"}',
  '[]',
  '{}',
  '"just a string"',
  '0',
  '-123456789012345',
  'true',
  '{"x":{"y":{"z":[[[]]]}}}',
  '{"a":1,"b":{"a":2}}',
];

const DECLINED = [
  '{"a":1,"a":2}', // duplicate key: JSON.parse keeps the last
  '{"1":"x","a":2}', // array index: V8 writes it first
  '{"b":1,"0":2}',
  '{"__proto__":1}',
  '{ "a":1}', // whitespace
  '{"a":1} ',
  '{"a":1.5}',
  '{"a":1e3}',
  '{"a":-0}',
  '{"a":0.0}',
  '{"a":01}',
  '{"a":1234567890123456}', // 16 digits
  '{"a":"\\/"}', // an escape JSON.stringify does not write
  '{"a":"\\u0041"}',
  '{"a":"\\u000a"}',
  '{"a":"\\u001F"}',
  '{"a":"\\ud800"}',
  '{"a":"\\ud83d\\ude00"}',
  '{"a":tru}',
  '{"a":1,}',
  '[1,]',
  '{"a" :1}',
  '',
  'not json',
  `${'['.repeat(MAX_DEPTH + 1)}${']'.repeat(MAX_DEPTH + 1)}`,
];

t.test('canonicalJson: what it accepts JSON.stringify writes back unchanged', async (t) => {
  for (const text of ACCEPTED) {
    const bytes = Buffer.from(text);
    t.ok(canonicalJson(bytes, 0, bytes.length), `accepted: ${shown(text)}`);
    t.equal(roundTrip(text), text, `round trip: ${shown(text)}`);
  }
  for (const text of DECLINED) {
    const bytes = Buffer.from(text);
    t.notOk(canonicalJson(bytes, 0, bytes.length), `declined: ${shown(text)}`);
  }
  // Every one-byte change of the accepted texts: accepted only where the round trip holds.
  let tried = 0;
  const alphabet = [...'{}[]":,\\ 0123456789-.eEtrufalsn\u0001abu/'].map((c) => c.charCodeAt(0));
  let wrong = 0;
  for (const text of ACCEPTED) {
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; at++) {
      for (const byte of alphabet) {
        const mutated = Buffer.from(bytes);
        mutated[at] = byte;
        // Its input is UTF-8 (the transcoder declines other bytes first).
        if (!isUtf8(mutated)) continue;
        tried++;
        const asText = mutated.toString('utf8');
        if (canonicalJson(mutated, 0, mutated.length) && roundTrip(asText) !== asText) wrong++;
      }
    }
  }
  t.ok(tried > 5000, `${tried} mutations tried`);
  t.equal(wrong, 0, 'no mutation accepted that does not round-trip');
});

/** The members the parsed path writes for an argument string. */
function parsedMembers(text: string): string {
  let value: unknown = null;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: arguments null, as parseArguments gives.
  }
  return `"arguments":${JSON.stringify(value)},"arguments_raw":${JSON.stringify(text)}`;
}

t.test('ArgumentsWriter: the members the parsed path writes, from any spelling of the literal', async (t) => {
  const writer = new ArgumentsWriter();
  for (const text of [...ACCEPTED, ...DECLINED]) {
    for (const literal of [JSON.stringify(text), goJson(text)]) {
      const source = Buffer.from(`{"arguments":${literal},"type":"tool_started"}`);
      const made = writer.json(source, 13, 12 + Buffer.byteLength(literal));
      if (made === undefined) {
        t.notOk(ACCEPTED.includes(text), `declined: ${shown(literal)}`);
        continue;
      }
      t.equal(made.toString('utf8'), parsedMembers(text), `written: ${shown(literal)}`);
    }
  }
  for (const command of ['git status && git diff <x>', 'tab\t "q" \\ é 😀 \u2028', 'lone \ud800 mid', '']) {
    const literal = goJson(command);
    const source = Buffer.from(`{"command":${literal},"type":"command_started"}`);
    t.equal(writer.literal(source, 11, 10 + Buffer.byteLength(literal))?.toString('utf8'), JSON.stringify(command), `a command as JSON.stringify writes it: ${shown(literal)}`);
  }
  const bad = Buffer.from('{"arguments":"{\\"a\\":\\x}","type":"tool_started"}');
  t.equal(writer.json(bad, 13, bad.indexOf('","type"') + 1), undefined, 'an invalid literal is declined');
});


/** Commands as they may come on command_* lines: escapes of every kind, non-ASCII, a lone surrogate, not a string, invalid. */
const COMMANDS = ['"c"', goJson('git status && git diff <x>'), '"tab\\t \\"q\\" \\\\ \\/ \\u00e9 é 😀"', '"lone \\ud800 mid"', '"\\ud800"', '42', 'null', '"bad \\x escape"'];

t.test('wuu-accumulate: tool calls with arguments of every kind, the same bytes as the parsed path', async (t) => {
  const ids = (n: number) => `"item_id":"i${n}","thread_id":"th","turn_id":"tu"`;
  const lines: string[] = ['{"thread_id":"th","turn_id":"tu","type":"turn_started"}'];
  const texts = [...ACCEPTED, ...DECLINED];
  // Mutated argument strings too: one byte of an accepted one changed, in its Go spelling.
  for (const text of ACCEPTED.slice(0, 3)) for (let at = 0; at < text.length; at += 3) texts.push(`${text.slice(0, at)}${'"1 \\,'[at % 5] ?? ''}${text.slice(at + 1)}`);
  texts.forEach((text, n) => {
    const name = n % 2 === 0 ? 'bash' : 'edit';
    lines.push(`{"arguments":${goJson(text)},${ids(n)},"name":"${name}","type":"tool_started"}`);
    const command = COMMANDS[n % COMMANDS.length] ?? '"c"';
    if (n % 3 === 0) lines.push(`{"arguments":${JSON.stringify(text)},"command":${command},"process_id":${n},${ids(n)},"name":"bash","type":"command_started"}`);
    lines.push(`{"delta":"out \\u003c${n}\\u003e\\n",${ids(n)},"type":"tool_output_delta"}`);
    if (n % 4 !== 1) lines.push(`{"error":"",${ids(n)},"name":"${name}","status":"completed","type":"tool_completed"}`);
  });
  // Command-only items (no tool_* event): arguments and command from the twins alone.
  COMMANDS.forEach((command, n) => {
    lines.push(`{"arguments":"{\\"command\\":\\"x\\"}","command":${command},${ids(800 + n)},"name":"bash","type":"command_started"}`);
    lines.push(`{"delta":"twin out\\n",${ids(800 + n)},"type":"command_output_delta"}`);
    lines.push(`{"command":${command},"error":"",${ids(800 + n)},"status":"completed","type":"command_completed"}`);
  });
  // Odd shapes: arguments given twice, not a string, absent, in another key order.
  lines.push(`{"arguments":"{\\"a\\":1}","arguments":"{\\"b\\":2}",${ids(900)},"name":"x","type":"tool_started"}`);
  lines.push(`{"arguments":{"a":1},${ids(901)},"name":"x","type":"tool_started"}`);
  lines.push(`{${ids(902)},"name":"x","type":"tool_started"}`);
  lines.push(`{"type":"tool_started","name":"x",${ids(903)},"arguments":"{\\"z\\":[]}"}`);
  lines.push(`{"arguments":"{\\"a\\":1}",${ids(904)},"name":"x","type":"tool_started"}`, `{"arguments":"{\\"a\\":2}",${ids(904)},"name":"x","type":"tool_started"}`);
  // Ids, name, status and error that are not ASCII (or escaped) are written as JSON.stringify writes them.
  const odd = '"item_id":"ï-9 \\u003c","thread_id":"th","turn_id":"tu"';
  lines.push(`{"arguments":"{\\"é\\":\\"ü 😀\\"}",${odd},"name":"bäsh","type":"tool_started"}`);
  lines.push(`{"delta":"out",${odd},"type":"tool_output_delta"}`);
  lines.push(`{"error":"fé\\tl \\ud800",${odd},"name":"bäsh","status":"dönë","type":"tool_completed"}`);
  lines.push('{"awaiting_auto_continuation":false,"thread_id":"th","turn_id":"tu","trace_path":"","type":"turn_completed"}');
  const input = Buffer.from(`${lines.join('\n')}\n`);
  for (const argv of [[], ['--max-output-bytes', '5']]) {
    const expected = await runIn(withoutProof(accumulateSpec), argv, input);
    t.match(expected.stdout, /"arguments":\{"command":"git status && git diff --stat"\}/, 'the parsed path wrote the calls');
    for (const size of [1, 13, 4096]) {
      const got = await runIn(accumulateSpec, argv, chunked(input, size));
      t.same({ stdout: got.stdoutBytes.toString('latin1'), stderr: got.stderr, code: got.code }, { stdout: expected.stdoutBytes.toString('latin1'), stderr: expected.stderr, code: expected.code }, `${argv.join(' ') || '(no flags)'}, chunks of ${size}`);
    }
  }
});
