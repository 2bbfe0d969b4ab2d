/**
 * A delta's literal is found, proven and rewritten (or measured) in one pass
 * (Transcoder.runTo/measureTo, issue 20) where the general path first finds
 * its closing quote (lib/scan.ts) and then rewrites the literal between.
 * Both must judge every literal alike: mutated delta bodies (bad and cut
 * escapes, raw control bytes, lone surrogates at every place, bytes that are
 * not UTF-8, escaped quotes and backslashes at the end, a literal that runs
 * on past the line's members) placed where a line ends at a newline, at the
 * buffer's end, or before more lines; and the tools must write the same
 * bytes through the fused proof as with no proof at all, fed in odd chunks.
 * Also: an id's text remembered for one read only.
 */
import t from 'tap';
import { spec as accumulateSpec } from '../bin/wuu-accumulate.js';
import { spec as turnsSpec } from '../bin/wuu-turns.js';
import type { ToolSpec } from '../lib/cli/index.js';
import { INVALID, TRANSCODED, Transcoder, UNSUPPORTED } from '../lib/accumulate/canonical.js';
import { stringLiteralEnd } from '../lib/scan.js';
import { key, WireFields } from '../lib/accumulate/wire.js';
import { LineRecord } from '../lib/jsonl.js';
import { chunked } from './helpers.js';
import { runIn, withoutProof } from './runner-harness.js';

const IDS = '"item_id":"i-1","thread_id":"th","turn_id":"tu"';

/** Delta bodies (bytes between the quotes, as latin1 text: each char one byte). */
const BODIES = [
  '',
  'plain',
  'Go \\u003cb\\u003e \\u0026 \\u2028 \\/ \\" \\\\ \\b\\f\\n\\r\\t',
  '\\u00E9\\u00e9 \\uABCD \\u0000\\u001f\\u007f\\u0080\\u07ff\\u0800\\uffff',
  '\\ud83d\\ude00 pair \\uD83D\\uDE00',
  '\\ud800',
  '\\udc00',
  'x\\ud83d',
  '\\ude00x',
  'a\\ud800b',
  '\\ud800\\ud800',
  '\\udc00\\ud800',
  '\\ud800\\u0041',
  '\\ud800\\uZZZZ',
  '\\x',
  'a\\',
  '\\u',
  '\\u1',
  '\\u12',
  '\\u123',
  '\\u00zz',
  'tab\there',
  'nul\u0000',
  'del\u007f',
  'raw \u00c3\u00a9 \u00e2\u0082\u00ac',
  'bad \u00ff\u00fe',
  'cut \u00e2\u0082',
  'sur \u00ed\u00a0\u0080',
  '\\"',
  '\\\\',
  'end \\\\\\"',
  'x'.repeat(300) + '\\u003c' + 'y'.repeat(300),
];

/** Ways a line's literal can be made to run on, be cut, or be followed. */
function lines(body: string): string[] {
  return [
    `{"delta":"${body}",${IDS},"type":"tool_output_delta"}`,
    // Its closing quote escaped: the literal runs on into the ids.
    `{"delta":"${body}\\",${IDS},"type":"tool_output_delta"}`,
    // Cut inside the literal.
    `{"delta":"${body}`,
    `{"delta":"${body}}`,
    // Duplicate and odd-ordered keys.
    `{"delta":"${body}","delta":"${body}",${IDS},"type":"tool_output_delta"}`,
    `{${IDS},"type":"tool_output_delta","delta":"${body}"}`,
  ];
}

t.test('runTo/measureTo judge a literal as the general path does, wherever the line ends', async (t) => {
  const fused = new Transcoder();
  const general = new Transcoder();
  const wrong: string[] = [];
  let checked = 0;
  for (const body of BODIES) {
    for (const line of lines(body)) {
      const open = line.indexOf('"delta":"') + 8;
      // The line's limit is its last byte (the walk's `}`); the literal must close before it.
      const limit = line.length - 1;
      for (const after of ['\n', '', '\n{"delta":"more"}\n', '\r\n']) {
        const source = Buffer.from(line + after, 'latin1');
        const close = stringLiteralEnd(source, open, limit);
        for (const measuring of [false, true]) {
          const expected = close < 0 ? INVALID : measuring ? general.measure(source, open, close) : general.run(source, open, close);
          const got = measuring ? fused.measureTo(source, open, limit + 1) : fused.runTo(source, open, limit + 1);
          checked++;
          const label = `${measuring ? 'measure' : 'run'} ${JSON.stringify(line + after)}`;
          // UNSUPPORTED sends the walk down the general path (its end sought first): allowed wherever that path does not make the literal.
          const agrees = got === expected || (got === UNSUPPORTED && expected === INVALID);
          if (!agrees) {
            wrong.push(`${label}: ${got} for ${expected}`);
            continue;
          }
          if (got !== TRANSCODED) continue;
          const same = fused.close === close && fused.decodedBytes === general.decodedBytes && fused.length === general.length && (measuring || fused.literal().equals(general.literal()));
          if (!same) wrong.push(`${label}: made otherwise`);
        }
      }
    }
  }
  t.same(wrong, [], 'the same judgement, end, text and count');
  t.ok(checked > 1000, `${checked} literals`);
  // Sanity of the table: each outcome occurs.
  const seen = new Set(BODIES.map((body) => fused.runTo(Buffer.from(`"${body}"}\n`, 'latin1'), 0, body.length + 2)));
  t.same([...seen].sort(), [TRANSCODED, INVALID, UNSUPPORTED].sort(), 'made, invalid and unsupported all occur');
});

t.test('run and measure with a close given still refuse a quote before it', async (t) => {
  const transcoder = new Transcoder();
  const source = Buffer.from('{"delta":"ab"cd","type":"x"}\n');
  t.equal(transcoder.run(source, 9, 15), INVALID);
  t.equal(transcoder.measure(source, 9, 15), INVALID);
  t.equal(transcoder.run(source, 9, 12), TRANSCODED);
  t.equal(transcoder.literal().toString(), '"ab"');
});

/** Delta lines of the three delta types, every body, in turns around tool calls. */
function stream(): Buffer {
  const out: string[] = [];
  let n = 0;
  for (const body of BODIES) {
    n++;
    const ids = `"thread_id":"th","turn_id":"tu-${n}"`;
    const item = `"item_id":"it-${n}",${ids}`;
    out.push(`{${ids},"type":"turn_started"}`);
    out.push(`{"delta":"${body}",${ids},"type":"agent_message_delta"}`);
    out.push(`{"arguments":"{}",${item},"name":"bash","type":"tool_started"}`);
    for (const line of lines(body)) out.push(line.replace(IDS, item));
    out.push(`{"delta":"${body}",${item},"type":"command_output_delta"}`);
    out.push(`{"delta":"Exit code 3\\n",${item},"type":"tool_output_delta"}`);
    out.push(`{"error":"",${item},"name":"bash","status":"completed","type":"tool_completed"}`);
    out.push(`{"delta":"${body} and more",${ids},"type":"agent_message_delta"}`);
    out.push(`{"message":"${body}",${ids},"type":"agent_message_final"}`);
    out.push(`{${ids},"type":"turn_completed"}`);
  }
  return Buffer.from(out.join('\n'), 'latin1');
}

const TOOLS: Array<[string, ToolSpec, string[][]]> = [
  ['wuu-accumulate', accumulateSpec, [[], ['--max-output-bytes', '5'], ['--max-output-bytes', '0']]],
  ['wuu-turns', turnsSpec, [[], ['--only-turns']]],
];

for (const [name, spec, argvs] of TOOLS) {
  t.test(`${name}: mutated delta lines write the same bytes through the fused proof as with none`, async (t) => {
    const data = stream();
    for (const argv of argvs) {
      for (const input of [Buffer.concat([data, Buffer.from('\n')]), data]) {
        const expected = await runIn(withoutProof(spec), argv, input);
        for (const size of [5, 61, 65536]) {
          const got = await runIn(spec, argv, chunked(input, size));
          t.same(
            { stdout: got.stdoutBytes.toString('latin1'), stderr: got.stderr, code: got.code },
            { stdout: expected.stdoutBytes.toString('latin1'), stderr: expected.stderr, code: expected.code },
            `${argv.join(' ') || '(no flags)'}, chunks of ${size}`,
          );
        }
      }
    }
  });
}

t.test('an id decoded once per read: a reused buffer read again gives the new bytes', async (t) => {
  const wire = new WireFields();
  const thread = key('thread_id', true);
  const turn = key('turn_id', true);
  const source = Buffer.from('{"delta":"x","thread_id":"aaaa","turn_id":"t\\u0031","type":"agent_message_delta"}\n');
  const first = new LineRecord(source, 'f', 1, 0, source.length - 1);
  t.ok(wire.read(first));
  t.same([wire.string(thread), wire.string(turn), wire.string(thread), wire.string(turn)], ['aaaa', 't1', 'aaaa', 't1']);
  // The runner reuses its buffers: the same bytes' places hold another line.
  source.write('bbbb', source.indexOf('aaaa'));
  source.write('2', source.indexOf('\\u0031') + 5);
  const second = new LineRecord(source, 'f', 2, 0, source.length - 1);
  t.ok(wire.read(second));
  t.same([wire.string(turn), wire.string(thread), wire.string(turn)], ['t2', 'bbbb', 't2']);
  // A tail read is a read of its own.
  source.write('cccc', source.indexOf('bbbb'));
  const brace = source.indexOf(',"turn_id"');
  source[brace] = 0x7d;
  const third = new LineRecord(source, 'f', 3, 0, brace + 1);
  t.ok(wire.readTail(third, [thread]));
  t.same([wire.string(thread), wire.string(thread)], ['cccc', 'cccc']);
});
