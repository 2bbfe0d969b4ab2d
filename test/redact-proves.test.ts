/**
 * wuu-redact proves each line a valid event in its raw marker pass
 * (Core.proves, Automaton.proveRaw with ./json-track.ts), so the runner does
 * not validate the line again. The pass must never call valid what the
 * validator (lib/validate.ts isJsonEvent, itself held to JSON.parse) does
 * not, and its marker verdict must be the raw test's (Redactor.mayMatchRaw,
 * with the same long-anchor note). A line it cannot prove goes the runner's
 * usual way: every output, message and exit status is that of a run
 * without the hook.
 */
import t from 'tap';
import fc from 'fast-check';
import { isJsonEvent } from '../lib/validate.js';
import { Redactor } from '../lib/redact/index.js';
import { JsonTrack } from '../lib/redact/json-track.js';
import { PROVE_CLEAN, PROVE_HIT, PROVE_UNSURE } from '../lib/redact/prefilter.js';
import type { ToolSpec } from '../lib/cli/index.js';
import type { Core } from '../lib/core.js';
import { spec as redactSpec } from '../bin/wuu-redact.js';
import { deltaBounds } from '../lib/redact/redact.js';
import { topLevelStringSpan } from '../lib/scan.js';
import { generateStream, prng } from '../bench/generate.js';
import { runIn } from './runner-harness.js';
import { FC_SEED } from './helpers.js';

const EDGES = [
  '{}',
  ' { } ',
  '\t{\t}\r',
  '{"type":"x"}',
  ' {"type":"x"} ',
  '{"type":"x"}\r',
  '{"type":"x"}\u000b',
  '\ufeff{"type":"x"}',
  '{"type":7}',
  '{"type":null}',
  '{"type":"a","type":1}',
  '{"type":1,"type":"a"}',
  '{"\\u0074ype":"x"}',
  '{"t\\u0079pe":"x","type":"y"}',
  '{"a\\"b":1,"type":"x"}',
  '{"n":{"\\u0074ype":1},"type":"x"}',
  '{"delta":"a\\"b","type":"x"}',
  '{"delta":"a","delta":"b","type":"x"}',
  '{"delta":1,"type":"x"}',
  '{"delta":1,"s":"x","type":"x"}',
  '{"delta":{"delta":"a"},"s":"x","type":"x"}',
  '{"a":["delta"],"b":{"delta":"x"},"delta":"\\n","type":"x"}',
  '{"s":"\\"delta\\"","delta":"y","type":"x"}',
  '{ "delta" : "y" ,"type":"x"}',
  '{"d\\u0065lta":"y","type":"x"}',
  '{"n":{"type":"x"}}',
  '{"types":"x"}',
  '{"typ":"x"}',
  '[{"type":"x"}]',
  '"type"',
  '',
  '   ',
  '{',
  '}',
  '{"type":"x"',
  '{"type":"x"}}',
  '{"type":"x"}]',
  '{"type":"x"},',
  '{"type":"x"} x',
  '{"type":"x"}{"b":2}',
  '{"type":"x",}',
  '{,"type":"x"}',
  '{"type":"x",,"b":2}',
  '{"type" "x"}',
  '{"type":}',
  '{"type"}',
  '{type:"x"}',
  "{'type':'x'}",
  '{"type":"x","a":[1,2,]}',
  '{"type":"x","a":[,1]}',
  '{"type":"x","a":[1 2]}',
  '{"type":"x","a":[]}',
  '{"type":"x","a":[[],{},[[{}]]]}',
  '{"type":"x","a":{"b":]}',
  '{"type":"x","a":[}',
  '{"type":"x","a":{]}',
  '{"type":"x","a":[1,{"b":null},true,false,"s",-0.5e+3]}',
  '{"type":"x","a" : [ 1 , { "b" : null } ] }',
  // Numbers and words.
  ...['0', '-0', '0.0', '01', '-01', '1.', '.5', '1.5e', '1.5e+', '1e-7', '1E+2', '1e5e5', '+1', '-', '--1', '0x10', 'NaN', 'Infinity', '12345678901234567890'].map((n) => `{"n":${n},"type":"x"}`),
  ...['true', 'false', 'null', 'tru', 'nul', 'fals', 'True', 'nulll', 'truex'].map((w) => `{"w":${w},"type":"x"}`),
  '{"type":"x","n":1',
  '{"type":"x","n":tru',
  // Strings: escapes, runs of backslashes, control bytes.
  ...['\\n', '\\t', '\\"', '\\\\', '\\/', '\\b', '\\f', '\\r', '\\u0041', '\\u00e9', '\\uD83D\\uDE00', '\\q', '\\x41', '\\u00', '\\u00g1', '\\U0041', '\\\\\\"', '\\\\\\', '\\\\\\\\', '\\\\"', '\\\\u0041', '\\\\\\u0041', '\\\\\\u00', '\\\\\\/', '\\ ', '\\\t', '\\'].map((s) => `{"s":"a${s}b","type":"x"}`),
  '{"s":"a\\\\","type":"x"}',
  '{"s":"a\\\\\\\\","type":"x"}',
  '{"s":"tab\there","type":"x"}',
  '{"s":"nul\u0000","type":"x"}',
  '{"s":"\u001f","type":"x"}',
  '{"s":"\u007f","type":"x"}',
  '{"s":"ünïcødé é \u2028","type":"x"}',
  '{"s":"unterminated,"type":"x"}',
  '{"s":"x","type":"x\\',
  '{"s":"x","type":"x\\"}',
  // Markers: secrets, words, edges, escapes that spell them.
  '{"s":"sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOP","type":"x"}',
  '{"s":"ghp_abcdefghijklmnopqrstuvwxyz0123456789","type":"x"}',
  '{"s":"\\u0073k-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEF","type":"x"}',
  '{"s":"/home/alice/work","type":"x"}',
  '{"s":"C:\\\\Users\\\\alice\\\\x","type":"x"}',
  '{"s":"mail bob@example.com now","type":"x"}',
  '{"token":"abc","type":"x"}',
  '{"tokens":3,"type":"x"}',
  '{"password":"hunter2hunter2","type":"x"}',
  '{"s":"Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345","type":"x"}',
  '{"s":"-----BEGIN RSA PRIVATE KEY-----\\nMIIE","type":"x"}',
  '{"s":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc","type":"x"}',
  '{"s":"AKIAABCDEFGHIJKLMNOP","type":"x"}',
  '{"s":"xAKIAABCDEFGHIJKLMNOP","type":"x"}',
  '{"s":"AKIAABCDEFGHIJKLMNOP","type":"x",}',
  '{"s":"AKIAABCDEFGHIJKLMNOP\t","type":"x"}',
  '{"s":"\\"{\\\\\\"k\\\\\\":\\\\\\"ghp_abcdefghijklmnopqrstuvwxyz0123456789\\\\\\"}\\"","type":"x"}',
  '{"s":"refactor the auth token","type":"x"}',
  '{"s":"ends in an escape \\',
];

/** The body of the only top-level `delta` string as the pass recorded it (wuu-redact's clean delta pieces). */
const deltaSpan = (track: JsonTrack, offset = 0): string => (track.deltaKeys === 1 && track.deltaOpen >= 0 ? `${track.deltaOpen + 1 - offset}-${track.deltaClose - offset}` : 'none');

/** The same from the line's bytes by the readers wuu-redact used before. */
function readDelta(line: Buffer): string {
  const quotes = topLevelStringSpan(line, 'delta');
  const body = deltaBounds(line) ?? (quotes && [quotes[0] + 1, quotes[1]]);
  return body === undefined ? 'none' : `${body[0]}-${body[1]}`;
}

/** The raw test and the validator, each alone, against the combined pass: '' when they agree as they must. */
function disagreement(engine: Redactor, track: JsonTrack, line: Buffer): string {
  const verdict = engine.proveRaw(line, track);
  const anchors = engine.longAnchors;
  const valid = isJsonEvent(line);
  const framed = Buffer.concat([line, Buffer.from('\n{"type":"x"}')]);
  if (isJsonEvent(framed, 0, line.length) !== valid) return 'the validator itself disagrees with its fenced reader';
  const marker = engine.mayMatchRaw(line);
  if (verdict === PROVE_CLEAN && !valid) return 'proven, but the validator rejects it';
  if (verdict === PROVE_CLEAN && marker) return 'clean, but the raw test finds a marker';
  if (verdict === PROVE_CLEAN && anchors !== engine.longAnchors) return `long anchors ${anchors}, the raw test says ${engine.longAnchors}`;
  if (verdict === PROVE_HIT && !marker) return 'a hit, but the raw test finds none';
  if (verdict === PROVE_CLEAN && deltaSpan(track) !== readDelta(line)) return `delta body ${deltaSpan(track)}, the readers say ${readDelta(line)}`;
  // The runner's chunk: the line among others (after one ending in a backslash), proven in place (offsets in the chunk).
  const before = Buffer.from('not json \\u\\\n');
  const chunk = Buffer.concat([before, line, Buffer.from('\n{"type":"next"}\n')]);
  const inChunk = engine.proveRaw(chunk, track, before.length, before.length + line.length);
  if (inChunk !== verdict || (verdict === PROVE_CLEAN && engine.longAnchors !== anchors)) return `in a chunk: verdict ${inChunk}, long anchors ${engine.longAnchors}`;
  if (verdict === PROVE_CLEAN && deltaSpan(track, before.length) !== readDelta(line)) return `in a chunk: delta body ${deltaSpan(track, before.length)}`;
  if (verdict !== PROVE_CLEAN && verdict !== PROVE_HIT && verdict !== PROVE_UNSURE) return `verdict ${verdict}`;
  return '';
}

function wrongs(lines: Array<string | Buffer>): string[] {
  const engine = new Redactor();
  const track = new JsonTrack();
  const out: string[] = [];
  for (const line of lines) {
    const bytes = Buffer.isBuffer(line) ? line : Buffer.from(line);
    const wrong = disagreement(engine, track, bytes);
    if (wrong !== '') out.push(`${JSON.stringify(bytes.toString('latin1')).slice(0, 160)}: ${wrong}`);
  }
  return out;
}

t.test('every edge: never proven when the validator rejects, the raw test verdict kept', async (t) => {
  t.same(wrongs(EDGES), []);
  const engine = new Redactor();
  const track = new JsonTrack();
  // The pass proves what it should (a doubt would only cost time, but these are the common shapes).
  for (const line of ['{"type":"x"}', '{"a":[1,{"b":null},true],"s":"a\\nb\\u0041\\\\","type":"x"}', ' {"n":-0.5e+3,"type":"x"} ']) {
    t.equal(engine.proveRaw(Buffer.from(line), track), PROVE_CLEAN, line);
  }
  for (const line of ['{"t\\u0079pe":"x","type":"y"}', '{"type":7}', '{"type":"x",}', '{"s":"\\q","type":"x"}']) {
    t.equal(engine.proveRaw(Buffer.from(line), track), PROVE_UNSURE, `${line}: not proven`);
  }
});

t.test('generated streams: every line, whole and cut, with bytes changed', async (t) => {
  const lines: Buffer[] = [];
  generateStream({ bytes: 2_000_000, seed: 7, write: (chunk: string) => lines.push(...chunk.split('\n').filter((l) => l !== '').map((l) => Buffer.from(l))) });
  t.ok(lines.length > 500);
  t.same(wrongs(lines), [], 'whole lines');
  const rand = prng(11);
  const mutated: Buffer[] = [];
  const bytes = [0x22, 0x5c, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d, 0x09, 0x00, 0x20, 0x75, 0x30, 0x2d, 0x65];
  for (const line of lines.slice(0, 3000)) {
    const copy = Buffer.from(line);
    copy[Math.floor(rand() * copy.length)] = bytes[Math.floor(rand() * bytes.length)]!;
    mutated.push(copy, line.subarray(0, Math.floor(rand() * line.length)));
  }
  t.same(wrongs(mutated), [], 'a byte changed, or cut');
});

t.test('random lines (fast-check): the combined pass never disagrees', async (t) => {
  const atom = fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', '\\\\', '\\u', '00', '41', 'e', 'type', '"type"', ' ', '\t', '1', '-', '.', 'true', 'null', 'sk-', 'ghp_', 'AKIA', 'token', '/home/', 'é', '\u0001', 'x', '"delta"', '"delta":"');
  const line = fc.array(atom, { maxLength: 40 }).map((parts) => parts.join(''));
  const event = fc.tuple(line, line).map(([a, b]) => `{"s":"${a}","type":"x${b}"}`);
  const delta = fc.tuple(line, line).map(([a, b]) => `{"delta":"${a}","type":"x${b}"}`);
  fc.assert(
    fc.property(fc.oneof(line, event, delta), (text) => wrongs([text]).length === 0),
    { seed: FC_SEED, numRuns: 3000 },
  );
  t.pass();
});

/** wuu-redact without the hook: the runner validates every line itself. */
const withoutProves: ToolSpec = {
  ...redactSpec,
  create(context) {
    const made = redactSpec.create(context);
    if (!('core' in made)) throw new Error('wuu-redact has a core');
    const { proves: _proves, passLines: _passLines, ...rest } = made.core;
    const core: Core = { ...rest, push: made.core.push.bind(made.core) };
    return { ...made, core };
  },
};

t.test('invalid lines of every kind: the same output, messages and exit status as without the hook', async (t) => {
  const input = Buffer.from(`${EDGES.join('\n')}\n`);
  for (const argv of [[], ['--check'], ['--report'], ['--pass-invalid'], ['--strict'], ['--max-line-bytes', '40']]) {
    const expected = await runIn(withoutProves, argv, input);
    t.ok(expected.stderr.length > 0, 'bad lines are reported');
    t.same(await runIn(redactSpec, argv, input), expected, argv.join(' ') || '(default)');
  }
  const cut = Buffer.from(`${EDGES.slice(0, 12).join('\n')}\n{"s":"sk-cut","type":"x"`);
  t.same(await runIn(redactSpec, [], cut), await runIn(withoutProves, [], cut), 'a last line cut off');
});
