/**
 * Text kept as JSON (lib/accumulate/canonical.ts, issue 20): a delta's
 * literal rewritten into JSON.stringify's spelling must be exactly
 * JSON.stringify of what JSON.parse makes of it, with the same byte count; a
 * JsonText must answer as a CappedText fed the same pieces as strings; and
 * the tools must write the same bytes with the JSON path as without it (the
 * core with its proof taken away reads every piece as a string), over lines
 * that must fall back: escapes of every kind, surrogate pairs split across
 * deltas, lone surrogates, bytes that are not UTF-8, odd key order, duplicate
 * keys, invalid lines, fed in odd chunk sizes.
 */
import t from 'tap';
import { spec as accumulateSpec } from '../bin/wuu-accumulate.js';
import { spec as turnsSpec } from '../bin/wuu-turns.js';
import type { ToolSpec } from '../lib/cli/index.js';
import { hex4, INVALID, JsonText, TRANSCODED, Transcoder, UNSUPPORTED } from '../lib/accumulate/canonical.js';
import { CappedText } from '../lib/accumulate/units.js';
import { createAccumulate } from '../lib/accumulate/accumulate.js';
import { LineRecord, type EventRecord } from '../lib/jsonl.js';
import { chunked } from './helpers.js';
import { runIn, withoutProof } from './runner-harness.js';

/** Runs the transcoder over the literal `"body"` (given as its bytes between the quotes), inside a larger buffer. */
function transcode(transcoder: Transcoder, body: Buffer | string): number {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const source = Buffer.concat([Buffer.from('{"delta":"'), bytes, Buffer.from('","type":"x"}\n')]);
  return transcoder.run(source, 9, 10 + bytes.length);
}

/** Measures the literal `"body"` as transcode() rewrites it. */
function measure(transcoder: Transcoder, body: Buffer | string): number {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const source = Buffer.concat([Buffer.from('{"delta":"'), bytes, Buffer.from('","type":"x"}\n')]);
  return transcoder.measure(source, 9, 10 + bytes.length);
}

/** Checks one literal the transcoder made against JSON.parse and JSON.stringify. */
function madeRight(transcoder: Transcoder, body: string): boolean {
  const text = JSON.parse(`"${body}"`) as string;
  return (
    transcoder.literal().toString('latin1') === Buffer.from(JSON.stringify(text)).toString('latin1') &&
    transcoder.decodedBytes === Buffer.byteLength(text) &&
    transcoder.text() === text
  );
}

const MADE = [
  '',
  'plain text',
  'Go escapes \\u003cb\\u003e \\u0026 \\u2028 \\u2029',
  'short \\" \\\\ \\/ \\b \\f \\n \\r \\t',
  'upper \\u00E9 \\u00C0 \\uABCD and lower \\u00e9',
  Array.from({ length: 32 }, (_, c) => `\\u${c.toString(16).padStart(4, '0')}`).join(' '),
  Array.from({ length: 32 }, (_, c) => `\\u${c.toString(16).padStart(4, '0').toUpperCase()}`).join(''),
  '\\u0022 \\u005c \\u005C \\u002f \\u007f \\u0080 \\u07ff \\u0800 \\uffff \\ufffe',
  'pair \\ud83d\\ude00 and \\uD83D\\uDE00 and raw 😀',
  'lone high \\ud800 in the middle',
  'lone low \\udc00 in the middle, after a high: \\ud800\\ud801x',
  'a high then a low that is not one: \\ud800\\u0041',
  '\\ud800 lone high first',
  'last a lone low \\udfff',
  'raw é € 中文 \u007f',
  '\\\\u0041 is not an escape',
];

const NOT_JSON = ['\\x', 'a\\', '\\u00zz', '\\u12', '\\u', 'tab\there', 'nul\u0000', 'bell\u0007', '\\ud800\\uZZZZ'];

t.test('hex4 reads four hex digits as the JSON grammar does, every byte at every place', async (t) => {
  const reference = (bytes: Buffer): number => (/^[0-9a-fA-F]{4}$/.test(bytes.toString('latin1')) ? parseInt(bytes.toString('latin1'), 16) : -1);
  let wrong = 0;
  for (let place = 0; place < 4; place++) {
    for (let byte = 0; byte < 256; byte++) {
      const digits = Buffer.from('x09aF', 'latin1');
      digits[1 + place] = byte;
      if (hex4(digits, 1) !== reference(digits.subarray(1))) wrong++;
    }
  }
  t.equal(wrong, 0);
  t.equal(hex4(Buffer.from('"\\uD83D'), 3), 0xd83d);
  // Cut short at the buffer's end: not four digits.
  t.equal(hex4(Buffer.from('12a'), 0), -1);
  t.equal(hex4(Buffer.from('12ab'), 1), -1);
});

t.test('a literal rewritten as JSON.stringify spells its text', async (t) => {
  const transcoder = new Transcoder();
  for (const body of MADE) {
    t.equal(transcode(transcoder, body), TRANSCODED, `made: ${body}`);
    t.ok(madeRight(transcoder, body), `spelled as JSON.stringify, bytes and text: ${body}`);
  }
  for (const body of NOT_JSON) t.equal(transcode(transcoder, body), INVALID, `not JSON text: ${JSON.stringify(body)}`);
  // Valid, but not kept as JSON: a lone surrogate at an edge may pair with a neighbour; bytes that are not UTF-8 decode to U+FFFD.
  t.equal(transcode(transcoder, 'ends high \\ud83d'), UNSUPPORTED, 'a lone high surrogate at the end');
  t.equal(transcode(transcoder, '\\ude00 starts low'), UNSUPPORTED, 'a lone low surrogate at the start');
  t.equal(transcode(transcoder, '\\udfff'), UNSUPPORTED, 'a lone low surrogate alone');
  t.equal(transcode(transcoder, Buffer.from([0x61, 0xff, 0x62])), UNSUPPORTED, 'a byte that is not UTF-8');
  t.equal(transcode(transcoder, Buffer.from([0xed, 0xa0, 0x80])), UNSUPPORTED, 'a surrogate encoded in UTF-8');
  t.equal(transcode(transcoder, Buffer.from([0x61, 0xe2, 0x82])), UNSUPPORTED, 'a character cut off');
  // Measured only (wuu-turns): the same judgement and count; an edge surrogate counts alone (each piece is counted alone).
  for (const body of [...MADE, 'ends high \\ud83d', '\\ude00 starts low']) {
    t.equal(measure(transcoder, body), TRANSCODED, `measured: ${body}`);
    t.equal(transcoder.decodedBytes, Buffer.byteLength(JSON.parse(`"${body}"`) as string), `its bytes: ${body}`);
  }
  for (const body of NOT_JSON) t.equal(measure(transcoder, body), INVALID, `not measured: ${JSON.stringify(body)}`);
  t.equal(measure(transcoder, Buffer.from([0x61, 0xff, 0x62])), UNSUPPORTED, 'not measured: a byte that is not UTF-8');
  // The buffer grows for a long literal, and is reused after.
  const long = `${'x'.repeat(5000)}\\n\\u003c`;
  t.equal(transcode(transcoder, long), TRANSCODED);
  t.ok(madeRight(transcoder, long), 'a long literal');
  t.equal(transcode(transcoder, 'short'), TRANSCODED);
  t.ok(madeRight(transcoder, 'short'), 'short after long');
});

t.test('fuzz: any text, spelled as Go or as anyone, comes out as JSON.stringify', async (t) => {
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const units = [0x41, 0x20, 0x0a, 0x09, 0x00, 0x1f, 0x22, 0x5c, 0x2f, 0x3c, 0x26, 0x7f, 0xe9, 0x7ff, 0x800, 0x2028, 0xd83d, 0xde00, 0xdbff, 0xdc00, 0xfffd];
  const transcoder = new Transcoder();
  let made = 0;
  let fallbacks = 0;
  const wrong: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const codes = Array.from({ length: 1 + random(12) }, () => units[random(units.length)] ?? 0x41);
    const text = String.fromCharCode(...codes);
    // Each character spelled one of three ways: as JSON.stringify, as a \u escape (either case), raw where JSON allows.
    const body = codes
      .map((c) => {
        const way = random(3);
        if (way === 1) return `\\u${c.toString(16).padStart(4, '0')}`;
        if (way === 2) return `\\u${c.toString(16).padStart(4, '0').toUpperCase()}`;
        return JSON.stringify(String.fromCharCode(c)).slice(1, -1);
      })
      .join('');
    if (JSON.parse(`"${body}"`) !== text) wrong.push(`not the text: ${body}`);
    if (measure(transcoder, body) !== TRANSCODED || transcoder.decodedBytes !== Buffer.byteLength(text)) wrong.push(`measured wrong: ${body}`);
    const result = transcode(transcoder, body);
    if (result === TRANSCODED) {
      made++;
      const literal = transcoder.literal().toString('latin1');
      if (literal !== Buffer.from(JSON.stringify(text)).toString('latin1') || transcoder.decodedBytes !== Buffer.byteLength(text)) wrong.push(`wrong: ${body}`);
      continue;
    }
    fallbacks++;
    const first = codes[0] ?? 0;
    const last = codes[codes.length - 1] ?? 0;
    // Valid text is never called invalid, and only a lone surrogate at an edge falls back.
    if (result !== UNSUPPORTED || !((first >= 0xdc00 && first <= 0xdfff) || (last >= 0xd800 && last <= 0xdbff))) wrong.push(`fell back: ${body}`);
  }
  t.same(wrong, [], 'every literal as JSON.stringify, or a fallback that had to be');
  t.ok(made > 2000, `most made (${made})`);
  t.ok(fallbacks > 50, `some fell back (${fallbacks})`);
});

t.test('fuzz: long plain runs, read four bytes a step, judged and copied as byte by byte', async (t) => {
  let seed = 11;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  // Pieces of a body as bytes: plain ASCII, UTF-8 of 2 to 4 bytes, bytes that are not UTF-8, control bytes, escapes.
  const pieces = [
    ...['a', 'xyz0', '~\u007f', 'é', '€', '😀', '\t', '\\n', '\\"', '\\\\', '\\u003c', '\\/', '\\ud83d\\ude00'].map((text) => Buffer.from(text)),
    ...[[0xff], [0xc3], [0xed, 0xa0, 0x80], [0x01], [0x1f], [0x00]].map((bytes) => Buffer.from(bytes)),
  ];
  const transcoder = new Transcoder();
  const wrong: string[] = [];
  const outcomes = new Set<number>();
  for (let i = 0; i < 4000; i++) {
    const parts: Buffer[] = [];
    const n = random(40);
    for (let j = 0; j < n; j++) {
      // Mostly plain runs of 1 to 23 bytes, so a special byte falls at every place of a word.
      parts.push(random(4) === 0 ? (pieces[random(pieces.length)] ?? Buffer.from('a')) : Buffer.from('abcdefghijklmnopqrstuvw'.slice(0, 1 + random(23))));
    }
    const body = Buffer.concat(parts);
    // At every alignment in a larger buffer, the line's end at the buffer's end or before more bytes.
    const pad = Buffer.alloc(random(8), 0x20);
    const tail = random(2) === 0 ? '"}' : '"}\n{"more":"\u00e9"}\n';
    const source = Buffer.concat([pad, Buffer.from('{"delta":"'), body, Buffer.from(tail)]);
    const open = pad.length + 9;
    const close = open + 1 + body.length;
    const got = transcoder.runTo(source, open, close + 1);
    outcomes.add(got);
    // The oracle: the grammar judged on the bytes as latin1 (one char each), the text on them as UTF-8.
    let grammar = true;
    try {
      JSON.parse(`"${body.toString('latin1')}"`);
    } catch {
      grammar = false;
    }
    const utf8 = Buffer.from(body.toString('utf8')).equals(body);
    const label = JSON.stringify(body.toString('latin1'));
    if (!grammar) {
      if (got !== INVALID) wrong.push(`not invalid: ${label}`);
      continue;
    }
    if (!utf8) {
      if (got !== UNSUPPORTED) wrong.push(`not unsupported: ${label}`);
      continue;
    }
    const text = JSON.parse(`"${body.toString('utf8')}"`) as string;
    if (got !== TRANSCODED || transcoder.close !== close || !transcoder.literal().equals(Buffer.from(JSON.stringify(text))) || transcoder.decodedBytes !== Buffer.byteLength(text)) {
      wrong.push(`made wrong: ${label}`);
    }
  }
  t.same(wrong, [], 'every body judged and spelled as JSON.parse and JSON.stringify do');
  t.same([...outcomes].sort(), [TRANSCODED, INVALID, UNSUPPORTED].sort(), 'made, invalid and unsupported all occur');
});

t.test('a JsonText answers as a CappedText fed the same pieces as strings', async (t) => {
  const transcoder = new Transcoder();
  const pieces = ['Hel', 'lo \\u003c\\n', '', '\\ud83d\\ude00', 'é€', 'x'.repeat(40), '\\ud800 lone'];
  for (const cap of [0, 1, 3, 8, 20, 64, 1000]) {
    for (let start = 0; start < pieces.length; start++) {
      const json = new JsonText(cap);
      const capped = new CappedText(cap);
      // Every third piece comes as a string (a piece the proof did not rewrite).
      pieces.slice(start).forEach((body, i) => {
        const text = JSON.parse(`"${body}"`) as string;
        capped.append(text);
        if (i % 3 === 2) json.append(text);
        else {
          t.equal(transcode(transcoder, body), TRANSCODED);
          json.appendJson(transcoder);
        }
      });
      const label = `cap ${cap}, pieces from ${start}`;
      t.same(json.result(), capped.result(), label);
      t.equal(json.bytes, capped.bytes, `bytes, ${label}`);
      const literal = json.literal();
      if (literal !== undefined) t.equal(literal.toString(), JSON.stringify(capped.result().text), `kept as JSON, ${label}`);
    }
  }
  const empty = new JsonText(10);
  t.equal(empty.literal()?.toString(), '""', 'nothing appended: the empty string');
  t.same(empty.result(), { text: '', truncatedBytes: 0 });
  const counted = new JsonText(0);
  counted.count(5);
  t.same([counted.literal(), counted.result(), counted.bytes], [undefined, { text: '', truncatedBytes: 5 }, 5], 'a count leaves JSON form');
  const ascii = new JsonText(4);
  t.equal(transcode(transcoder, 'ab'), TRANSCODED);
  ascii.appendJson(transcoder);
  ascii.appendAscii(Buffer.from('cdefgh'));
  const reference = new CappedText(4);
  reference.append('ab');
  reference.appendAscii(Buffer.from('cdefgh'));
  t.same(ascii.result(), reference.result(), 'ASCII bytes after JSON');
});

const TH = 'th-1';
const TU = 'th-1-turn-1';
const ids = `"thread_id":"${TH}","turn_id":"${TU}"`;
const item = (n: number) => `"item_id":"${TU}-item-${n}",${ids}`;
const nonUtf8 = Buffer.from([0x7b, 0x22, 0x64, 0x65, 0x6c, 0x74, 0x61, 0x22, 0x3a, 0x22, 0x62, 0xff, 0x64, 0x22, 0x2c]).toString('latin1');

/** Turns whose pieces take every path: kept as JSON, falling back mid-unit, and lines that are bad. */
const TURNS = [
  `{${ids},"type":"turn_started"}`,
  `{"delta":"Hi \\u003cyou\\u003e \\ud83d",${ids},"type":"agent_message_delta"}`,
  `{"delta":"\\ude00 split pair, \\u00E9\\/",${ids},"type":"agent_message_delta"}`,
  `{"type":"agent_message_delta",${ids},"delta":" odd order"}`,
  `{"delta":"first","delta":" last wins",${ids},"type":"agent_message_delta"}`,
  `{"delta":7,"delta":" string last",${ids},"type":"agent_message_delta"}`,
  `{"delta":" string first","delta":7,${ids},"type":"agent_message_delta"}`,
  `{"delta":"bad \\x",${ids},"type":"agent_message_delta"}`,
  `{"arguments":"{\\"command\\":\\"ls\\"}",${item(1)},"name":"bash","type":"tool_started"}`,
  `{"delta":"line \\u003c1\\u003e\\n",${item(1)},"type":"tool_output_delta"}`,
  `{"delta":"\\u0000\\u001b[0m \\uD83D\\uDE00\\r\\n",${item(1)},"type":"tool_output_delta"}`,
  `{"delta":"Exit code 2\\n",${item(1)},"type":"tool_output_delta"}`,
  `{"delta":"twin",${item(1)},"type":"command_output_delta"}`,
  `{"error":"",${item(1)},"name":"bash","status":"completed","type":"tool_completed"}`,
  `{"arguments":"{}",${item(2)},"name":"read","type":"tool_started"}`,
  `{"delta":"ends high \\ud83d",${item(2)},"type":"tool_output_delta"}`,
  `{"delta":"\\ude00 then more",${item(2)},"type":"tool_output_delta"}`,
  `${nonUtf8}${item(2)},"type":"tool_output_delta"}`,
  `{"delta":"after",${item(2)},"type":"tool_output_delta"}`,
  `{"error":"boom",${item(2)},"status":"failed","type":"tool_completed"}`,
  `{"arguments":"{}",${item(3)},"name":"read","type":"tool_started"}`,
  `{"delta":"never completed \\u2028",${item(3)},"type":"tool_output_delta"}`,
  `{"message":"Hi \\u003cyou\\u003e \\ud83d\\ude00 final",${ids},"type":"agent_message_final"}`,
  `{"delta":"after the final \\t",${ids},"type":"agent_message_delta"}`,
  `{"awaiting_auto_continuation":false,${ids},"trace_path":"","type":"turn_completed"}`,
  `{"thread_id":"${TH}","turn_id":"${TU}-2","type":"turn_started"}`,
  `{"message":"\\ud800 lone, \\u00e9","thread_id":"${TH}","turn_id":"${TU}-2","type":"agent_message_final"}`,
  `{"delta":"cut off","thread_id":"${TH}","turn_id":"${TU}-2","type":"agent_message_delta"}`,
].join('\n');


const TOOLS: Array<[string, ToolSpec, string[][]]> = [
  ['wuu-accumulate', accumulateSpec, [[], ['--check'], ['--max-output-bytes', '12'], ['--max-message-bytes', '9'], ['--max-output-bytes', '0'], ['--keep-deltas']]],
  ['wuu-turns', turnsSpec, [[], ['--only-turns'], ['--max-message-bytes', '9']]],
];

for (const [name, spec, argvs] of TOOLS) {
  t.test(`${name}: the same bytes with text kept as JSON as without`, async (t) => {
    for (const argv of argvs) {
      for (const input of [Buffer.from(`${TURNS}\n`, 'latin1'), Buffer.from(TURNS, 'latin1')]) {
        const expected = await runIn(withoutProof(spec), argv, input);
        for (const size of [1, 7, 13, 4096]) {
          const got = await runIn(spec, argv, chunked(input, size));
          t.same({ stdout: got.stdoutBytes.toString('latin1'), stderr: got.stderr, code: got.code }, { stdout: expected.stdoutBytes.toString('latin1'), stderr: expected.stderr, code: expected.code }, `${argv.join(' ') || '(no flags)'}, chunks of ${size}`);
        }
      }
    }
  });
}

t.test('wuu-accumulate: what the JSON path writes is the text of the pieces', async (t) => {
  const got = await runIn(accumulateSpec, [], Buffer.from(`${TURNS}\n`, 'latin1'));
  const events = got.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const calls = events.filter((e) => e.type === 'tool_call');
  t.same(
    calls.map((c) => [c.item_id, c.status, c.output, c.output_bytes, c.exit_code]),
    [
      [`${TU}-item-1`, 'completed', 'line <1>\n\u0000\u001b[0m 😀\r\nExit code 2\n', Buffer.byteLength('line <1>\n\u0000\u001b[0m 😀\r\nExit code 2\n'), 2],
      [`${TU}-item-2`, 'failed', 'ends high 😀 then more' + 'b\ufffdd' + 'after', Buffer.byteLength('ends high \ud83d') + Buffer.byteLength('\ude00 then more') + Buffer.byteLength('b\ufffdd') + 5, undefined],
      [`${TU}-item-3`, 'incomplete', 'never completed \u2028', Buffer.byteLength('never completed \u2028'), undefined],
    ],
  );
  const messages = events.filter((e) => e.type === 'agent_message').map((e) => [e.message, e.source]);
  t.same(messages, [
    ['Hi <you> 😀 final', 'final'],
    ['after the final \t', 'deltas'],
    ['\ud800 lone, é', 'final'],
    ['cut off', 'deltas'],
  ]);
  t.match(got.stderr, /<stdin>:8: not valid JSON/, 'the bad line is reported');
});

t.test('records built from JSON: their bytes and their event, as the core emits them', async (t) => {
  const core = createAccumulate();
  const out: EventRecord[] = [];
  const feed = (line: string, n: number) => {
    const rec = new LineRecord(Buffer.from(`${line}\n`), 'f', n, 0, Buffer.byteLength(line));
    // As the runner does: the core proves the line, then reads it.
    if (!core.proves?.(rec)) rec.validate();
    core.push(rec, (o) => out.push(o as EventRecord));
  };
  const long = `${'a\\u003cb '.repeat(200)}\\n`;
  [
    `{"arguments":"{\\"command\\":\\"ls\\"}",${item(1)},"name":"bash","type":"tool_started"}`,
    `{"delta":"${long}",${item(1)},"type":"tool_output_delta"}`,
    `{"delta":"Exit code 1\\n",${item(1)},"type":"tool_output_delta"}`,
    `{"error":"",${item(1)},"name":"bash","status":"completed","type":"tool_completed"}`,
    `{"message":"done \\u0026 dusted",${ids},"type":"agent_message_final"}`,
  ].forEach((line, i) => feed(line, i + 1));
  const output = `${'a<b '.repeat(200)}\nExit code 1\n`;
  const call = {
    type: 'tool_call',
    thread_id: TH,
    turn_id: TU,
    item_id: `${TU}-item-1`,
    name: 'bash',
    arguments: { command: 'ls' },
    arguments_raw: '{"command":"ls"}',
    status: 'completed',
    error: '',
    exit_code: 1,
    output,
    output_bytes: Buffer.byteLength(output),
    output_truncated_bytes: 0,
  };
  const message = { type: 'agent_message', thread_id: TH, turn_id: TU, message: 'done & dusted', source: 'final' };
  t.same(out.map((r) => [r.type, r.file, r.line]), [['tool_call', 'f', 4], ['agent_message', 'f', 5]]);
  t.same(out.map((r) => r.raw?.toString()), [JSON.stringify(call), JSON.stringify(message)], 'the bytes JSON.stringify writes');
  t.same(out[0]?.event, call, 'the event, made when asked');
  t.equal(out[0]?.event, out[0]?.event, 'made once');
  t.same(out[1]?.event, message);
});
