/**
 * wuu-redact takes runs of clean lines in one call (Core.passLines): each
 * line proven clean by the raw pass, of a type push would only write
 * through, is written as part of one span of the chunk, with no record and
 * no push. The first line it does not take goes the per-line way, its proof
 * kept. Every output, message and exit status must be that of the per-line
 * way, whatever the chunk sizes.
 */
import t from 'tap';
import type { ToolSpec } from '../lib/cli/index.js';
import type { Core, LineRun } from '../lib/core.js';
import { createRedact } from '../lib/redact/index.js';
import { JsonTrack } from '../lib/redact/json-track.js';
import { PROVE_CLEAN } from '../lib/redact/prefilter.js';
import { Redactor } from '../lib/redact/engine.js';
import { topLevelStringSpan } from '../lib/scan.js';
import { spec as redactSpec } from '../bin/wuu-redact.js';
import { generateStream } from '../bench/generate.js';
import { runIn } from './runner-harness.js';

/** What passLines takes of `lines` (joined with newlines, each ended by one): the count, and what it wrote. */
function take(core: Core, lines: string[], maxLineBytes = 1 << 20): { lines: number; written: string[]; rest: string } {
  const source = Buffer.from(`${lines.join('\n')}\n`);
  const written: string[] = [];
  const run: LineRun = { maxLineBytes, lines: 0, write: (s, a, b) => written.push(s.toString('utf8', a, b)) };
  const at = core.passLines!(source, 0, source.length, run);
  return { lines: run.lines, written, rest: source.toString('utf8', at) };
}

const CLEAN = '{"s":"plain text","type":"x"}';
const DELTA = '{"delta":"some words ","thread_id":"t","turn_id":"u","type":"agent_message_delta"}';

t.test('takes clean lines of plain types and quiet delta pieces; stops at anything else', async (t) => {
  const stopsAt = (line: string, why: string) => {
    const got = take(createRedact(), [CLEAN, DELTA, line, CLEAN]);
    t.same(got, { lines: 2, written: [`${CLEAN}\n${DELTA}`], rest: `${line}\n${CLEAN}\n` }, why);
  };
  t.same(take(createRedact(), [CLEAN, DELTA, CLEAN]), { lines: 3, written: [`${CLEAN}\n${DELTA}\n${CLEAN}`], rest: '' }, 'a whole run');
  stopsAt('{"s":"in /home/zed/x","type":"x"}', 'a marker');
  stopsAt('{"s":"x","type":"x"', 'not valid');
  stopsAt('{"cwd":"/srv","type":"thread_started"}', 'a type that teaches a workspace');
  stopsAt('{"cwd":"/srv","type":"session_configured"}', 'the other one');
  stopsAt('{"s":"x","type":"thread_\\u0073tarted"}', 'a type spelled with an escape');
  stopsAt('{"type":"x","type":"thread_started"}', 'two type members');
  stopsAt('{"type":7}', 'a type that is not a string');
  stopsAt('{"delta":"ends with a word","type":"agent_message_delta"}', 'a piece whose tail may be held (e-mail local part)');
  stopsAt('{"delta":"a","delta":"b","type":"tool_output_delta"}', 'two delta members');
  // An anchor in the tail (`pat` of `path`) that starts no partial: the hold-back keeps nothing, the piece is taken.
  const anchored = '{"delta":"import path ","thread_id":"t","turn_id":"u","type":"agent_message_delta"}';
  t.same(take(createRedact(), [anchored, CLEAN]), { lines: 2, written: [`${anchored}\n${CLEAN}`], rest: '' }, 'a tail the hold-back clears');
  // Names of a special name's length that are not it are plain.
  const same = '{"s":"x","type":"agent_message_delte"}';
  t.same(take(createRedact(), [same]), { lines: 1, written: [same], rest: '' }, 'a near name');
  t.same(take(createRedact(), [CLEAN, CLEAN], CLEAN.length - 1), { lines: 0, written: [], rest: `${CLEAN}\n${CLEAN}\n` }, 'a line over the cap');
  t.same(take(createRedact({ check: true }), [CLEAN, DELTA]), { lines: 2, written: [], rest: '' }, '--check writes nothing');
  t.same(take(createRedact({ paths: ['$..s'] }), [CLEAN]), { lines: 0, written: [], rest: `${CLEAN}\n` }, 'JSONPaths: every line is parsed');
});

t.test('the track reads the one top-level type string as the bytes hold it', async (t) => {
  const engine = new Redactor();
  const track = new JsonTrack();
  for (const line of ['{"type":"x"}', '{"a":{"type":"no"},"type":"yes"}', '{"type" : "spaced" ,"n":1}', '{"t":"type","type":"a\\"b"}', '{"x":["type"],"type":""}']) {
    const bytes = Buffer.from(line);
    t.equal(engine.proveRaw(bytes, track), PROVE_CLEAN, line);
    t.equal(track.typeKeys, 1, line);
    t.same([track.typeOpen, track.typeClose], topLevelStringSpan(bytes, 'type'), line);
    t.equal(track.typeEscaped, line.includes('\\'), line);
  }
  engine.proveRaw(Buffer.from('{"type":"a","type":"b"}'), track);
  t.equal(track.typeKeys, 2, 'duplicates counted');
  engine.proveRaw(Buffer.from('{"type":"a","n":1}'), track);
  t.equal(track.typeKeys, 1, 'counted again for each line');
});

/** wuu-redact without passLines: every line the per-line way (proves kept). */
const perLine: ToolSpec = {
  ...redactSpec,
  create(context) {
    const made = redactSpec.create(context);
    if (!('core' in made)) throw new Error('wuu-redact has a core');
    const { passLines: _passLines, ...rest } = made.core;
    const core: Core = { ...rest, push: made.core.push.bind(made.core) };
    return { ...made, core };
  },
};

/** `bytes` in chunks of `size` bytes. */
const chunks = (bytes: Buffer, size: number): Buffer[] => Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));

t.test('a generated stream: the same as line by line, in any chunks', async (t) => {
  const parts: string[] = [];
  generateStream({ bytes: 150_000, seed: 5, write: (chunk: string) => parts.push(chunk) });
  // Lines of every kind among them: a held piece (a stream not idle), a bad line, a secret.
  const extra = [
    '{"delta":"my key is sk-proj-","thread_id":"t","turn_id":"u","type":"agent_message_delta"}',
    '{"s":"between","type":"x"}',
    'not json',
    '{"delta":"abcdefghijklmnopqrstuv done ","thread_id":"t","turn_id":"u","type":"agent_message_delta"}',
    '{"s":"ghp_0123456789abcdefghijklmnopqrstuvwxyz","type":"x"}',
    '{"cwd":"/home/zed/w","thread_id":"t2","type":"thread_started"}',
    '{"s":"in /home/zed/w/a","type":"x"}',
  ].join('\n');
  const text = parts.join('');
  const half = text.indexOf('\n', text.length >> 1) + 1;
  const input = Buffer.from(`${text.slice(0, half)}${extra}\n${text.slice(half)}`);
  for (const argv of [[], ['--check'], ['--report'], ['--paths', 'all'], ['--max-line-bytes', '300']]) {
    const expected = await runIn(perLine, argv, input);
    for (const size of [input.length, 4096, 333]) {
      t.same(await runIn(redactSpec, argv, chunks(input, size)), expected, `${argv.join(' ') || '(default)'}, chunks of ${size}`);
    }
  }
});
