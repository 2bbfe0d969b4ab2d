/**
 * wuu-usage's reader (lib/usage/reader.ts) skips lines by the type at their
 * tail and parses the usage lines it keeps at once. These tests feed it lines
 * that must leave that fast path (escaped type strings, odd key order,
 * duplicate keys, nested look-alikes, whitespace, invalid JSON, counts beyond
 * 2^53) in chunks of every awkward size, and compare the report with the
 * general path (the stream API: the shared parse() and readLine, no sniffing).
 */
import t from 'tap';
import path from 'node:path';
import { parse } from '../lib/jsonl.js';
import { UsageLedger } from '../lib/usage/ledger.js';
import { InputReader, PARSE_UNSNIFFED_BYTES, scannedNeeded, tailNeeded, type ScanPolicy } from '../lib/usage/reader.js';
import { renderUsage } from '../lib/usage/render.js';
import { UsageScanner } from '../lib/usage/scanner.js';
import { usage } from '../lib/usage/usage.js';
import { chunked, jsonl, pipeThrough } from './helpers.js';
import { fs, generate, tmpDir, usageRun, zlib } from './usage-gen.js';

const POLICY: ScanPolicy = { maxLineBytes: 1 << 20, strict: false, passInvalid: false };

/** The --json report through InputReader, fed `size`-byte chunks; and what it said. */
function viaReader(text: string, size: number, policy: ScanPolicy = POLICY): { out: string; messages: string[]; bad: number[] } {
  const messages: string[] = [];
  const bad: number[] = [];
  const scanner = new UsageScanner('f', (m) => messages.push(m), () => null);
  const reader = new InputReader('f', policy, scanner, (m) => messages.push(m), (_file, line) => bad.push(line));
  for (const chunk of chunked(text, size)) reader.push(chunk);
  reader.end();
  const ledger = new UsageLedger();
  ledger.add(scanner.finish());
  return { out: renderUsage(ledger.units(), { format: 'json', noCost: true }), messages, bad };
}

/** The same report by the general path: every line framed and typed by the shared parse(), no tail sniffing. */
async function viaGeneral(text: string): Promise<string> {
  return (await pipeThrough<string>([Buffer.from(text)], parse({ file: 'f' }), usage({ format: 'json', noCost: true, timeOfFile: () => null }))).join('');
}

const TH = '20260101-100000-abcd';
const head = [
  '{"model":"gpt-5","permissions":{"mode":"standard"},"provider":"openai","type":"session_configured","variant":""}',
  `{"model":"gpt-5","provider":"openai","thread_id":"${TH}","type":"thread_started"}`,
  `{"thread_id":"${TH}","turn_id":"t1","type":"turn_started"}`,
  `{"delta":"hello","thread_id":"${TH}","turn_id":"t1","type":"agent_message_delta"}`,
];
const tail = [`{"input_tokens":1,"output_tokens":1,"thread_id":"${TH}","turn_id":"t1","type":"turn_completed"}`, `{"run_id":"run-${TH}","status":"completed","thread_id":"${TH}","type":"result"}`];
/** A run whose one turn has the given middle lines. */
const run = (...middle: string[]) => `${[...head, ...middle, ...tail].join('\n')}\n`;
const snap = (i: number, extra = '') => `{"cache_creation_tokens":2,"cache_read_tokens":3,"input_tokens":${i},"output_tokens":4,"thread_id":"${TH}","turn_id":"t1"${extra},"type":"usage_updated"}`;

/** Lines that leave the fast path, each with the input_tokens the turn must end with. */
const CASES: Array<[string, string, number]> = [
  ['the producer shape', snap(10), 10],
  ['an escaped type value', snap(11).replace('"usage_updated"', '"usage\\u005fupdated"'), 11],
  ['an escaped type key', snap(12).replace('"type":', '"\\u0074ype":'), 12],
  ['type first (odd key order)', `{"type":"usage_updated","thread_id":"${TH}","turn_id":"t1","input_tokens":13,"output_tokens":4,"cache_read_tokens":3,"cache_creation_tokens":2}`, 13],
  ['type in the middle', `{"input_tokens":14,"type":"usage_updated","thread_id":"${TH}","turn_id":"t1","output_tokens":4}`, 14],
  ['spaces around the members', `{ "input_tokens" : 15 , "thread_id" : "${TH}" , "turn_id" : "t1" , "type" : "usage_updated" } `, 15],
  ['a duplicate type key, usage last (JSON.parse keeps the last)', snap(16).replace('{', '{"type":"agent_message_delta",'), 16],
  ['a duplicate type key, usage first: not a usage line', `${snap(10)}\n${snap(99).replace(/\}$/, ',"type":"agent_message_delta"}')}`, 10],
  ['a duplicate count key (the last counts)', snap(17).replace('{', '{"input_tokens":1,'), 17],
  ['a nested look-alike is not the type', `${snap(10)}\n{"item":{"type":"usage_updated","input_tokens":99},"thread_id":"${TH}","type":"item_started","z":0}`, 10],
  ['a look-alike inside a string', `${snap(10)}\n{"delta":"\\",\\"type\\":\\"usage_updated\\"}","input_tokens":99,"thread_id":"${TH}","turn_id":"t1","type":"agent_message_delta"}`, 10],
  ['a count beyond 2^53, exact', snap(0).replace('"input_tokens":0', '"input_tokens":9007199254740993'), 0],
  ['a timestamp member', snap(18, ',"timestamp":"2026-01-02T03:04:05Z"'), 18],
  ['a CRLF line end', `${snap(19)}\r`, 19],
  ['invalid JSON with a usage tail: reported, not counted', `${snap(10)}\n{"input_tokens":,"thread_id":"${TH}","turn_id":"t1","type":"usage_updated"}`, 10],
  ['a non-object usage line', `${snap(10)}\n["type","usage_updated"]`, 10],
];

t.test('lines off the fast path: the reader agrees with the general path in every chunk size', async (t) => {
  for (const [name, middle, input] of CASES) {
    const text = run(middle);
    const general = await viaGeneral(text);
    const turn = jsonl(general).find((l) => l.kind === 'turn');
    if (input === 0) t.match(general, /"input_tokens":9007199254740993,/, `${name}: exact digits`);
    else t.equal(turn?.input_tokens, input, `${name}: the general path counts ${input}`);
    for (const size of [1, 2, 3, 7, 64, 1000, text.length]) {
      t.equal(viaReader(text, size).out, general, `${name}, ${size}-byte chunks`);
    }
  }
});

/**
 * Every usage type with its type first or in the middle, escapes in the
 * models and ids: lines whose tail is not their type, which the reader
 * parses outright when short (PARSE_UNSNIFFED_BYTES) instead of scanning.
 */
const ODD_ORDER = [
  '{"type":"session_configured","model":"gpt-5","provider":"openai","variant":""}',
  `{"type":"thread_started","model":"gpt-\\u0035 \\"q\\" \\\\ é","provider":"op\\u00e9n","thread_id":"${TH}"}`,
  `{"turn_id":"t1","type":"turn_started","thread_id":"${TH}"}`,
  `{"type":"file_changed","path":"a","workspace_revision":0}`,
  `{"input_tokens":21,"type":"usage_updated","thread_id":"${TH}","turn_id":"t1","output_tokens":4,"cache_read_tokens":3,"cache_creation_tokens":2}`,
  `{"agent_id":"ag\\u0031","type":"subagent_started","thread_id":"ag1","agent_type":"re\\tview","status":"running"}`,
  `{"type":"subagent_completed","agent_id":"ag\\u0031","thread_id":"ag1","input_tokens":5,"output_tokens":6,"cache_read_tokens":7,"cache_creation_tokens":8,"status":"completed","z":null}`,
  `{"type":"turn_completed","input_tokens":21,"output_tokens":4,"thread_id":"${TH}","turn_id":"t1"}`,
  `{"type":"result","run_id":"run-${TH}","status":"completed","thread_id":"${TH}"}`,
];

t.test('fields in odd orders and escapes in names: the reader agrees with the general path', async (t) => {
  const text = `${ODD_ORDER.join('\n')}\n`;
  const general = await viaGeneral(text);
  const lines = jsonl(general);
  const turn = lines.find((l) => l.kind === 'turn');
  t.equal(turn?.model, 'gpt-5 "q" \\ é', 'the escaped model, decoded (by hand)');
  t.equal(turn?.provider, 'opén');
  t.equal(turn?.input_tokens, 21);
  const agent = lines.find((l) => l.kind === 'agent');
  t.equal(agent?.agent_id, 'ag1');
  t.equal(agent?.agent_type, 're\tview');
  t.equal(agent?.input_tokens, 5);
  for (const size of [1, 7, 100, text.length]) {
    const r = viaReader(text, size);
    t.equal(r.out, general, `${size}-byte chunks`);
    t.same(r.bad, [], `${size}-byte chunks: no bad line`);
  }
});

/** `line` (ending `}`) padded by a `"pad"` member before its first member to exactly `bytes` bytes. */
function padded(line: string, bytes: number): string {
  const pad = bytes - Buffer.byteLength(line) - '"pad":"",'.length;
  const out = line.replace('{', `{"pad":"${'x'.repeat(pad)}",`);
  if (Buffer.byteLength(out) !== bytes) throw new Error('padding');
  return out;
}

t.test('a line just under, at and over the parse limit: read the same either way', async (t) => {
  const usage = `{"type":"usage_updated","input_tokens":31,"output_tokens":4,"thread_id":"${TH}","turn_id":"t1"}`;
  for (const bytes of [PARSE_UNSNIFFED_BYTES - 1, PARSE_UNSNIFFED_BYTES, PARSE_UNSNIFFED_BYTES + 1]) {
    const lines = [
      padded(usage, bytes),
      // A line nobody reads, valid and not: skipped unread either way (lax mode).
      padded('{"type":"file_changed","workspace_revision":0}', bytes),
      padded('{"type":"file_changed","workspace_revision":}', bytes),
      // Not an event: reported either way.
      padded('{"type":7,"n":0}', bytes),
    ];
    const text = run(...lines);
    const general = await viaGeneral(text);
    t.equal(jsonl(general).find((l) => l.kind === 'turn')?.input_tokens, 31, `${bytes} bytes: the general path counts the line`);
    for (const size of [4096, text.length]) {
      const r = viaReader(text, size);
      t.equal(r.out, general, `${bytes}-byte lines, ${size}-byte chunks`);
      t.same(r.bad, [8], `${bytes}-byte lines, ${size}-byte chunks: the line whose type is a number, reported`);
    }
  }
});

t.test('short lines whose tail is not their type: the parse decides, a line it cannot read takes the general path', async (t) => {
  const lines = [
    // A duplicate type key: JSON.parse keeps the last, as readLine does.
    `{"type":"file_changed","input_tokens":99,"thread_id":"${TH}","turn_id":"t1","type":"usage_updated","z":0}`,
    `{"type":"usage_updated","input_tokens":98,"thread_id":"${TH}","turn_id":"t1","type":"file_changed","z":0}`,
    // Invalid JSON, a type nobody reads: skipped unread, as before.
    '{"type":"todo_updated","items":[1,]}',
    // Invalid JSON, a usage type: reported.
    `{"type":"usage_updated","input_tokens":,"thread_id":"${TH}","turn_id":"t1"}`,
    // Not objects, no type, a type that is no string: reported.
    '[{"type":"usage_updated"}]',
    '{"kind":"usage_updated","n":1}',
    '{"type":null,"n":1}',
    '"text"',
  ];
  const text = run(...lines);
  const general = await viaGeneral(text);
  t.equal(jsonl(general).find((l) => l.kind === 'turn')?.input_tokens, 99, 'the duplicate whose last type is usage_updated counts');
  for (const size of [1, 7, 64, text.length]) {
    const r = viaReader(text, size);
    t.equal(r.out, general, `${size}-byte chunks`);
    t.same(r.bad, [8, 9, 10, 11, 12], `${size}-byte chunks: the bad lines, by number`);
  }
});

t.test('bad lines: reported by number in every chunk size, the others still counted', async (t) => {
  const text = run(snap(10), `{"input_tokens":,"thread_id":"${TH}","turn_id":"t1","type":"usage_updated"}`, '', 'not json', snap(20));
  for (const size of [1, 5, 64, text.length]) {
    const r = viaReader(text, size);
    t.same(r.bad, [6, 7, 8], `${size}-byte chunks: the bad lines, by number`);
    t.equal(jsonl(r.out).find((l) => l.kind === 'turn')?.input_tokens, 20);
  }
});

t.test('a usage line cut by the end of input is a warning, not counted', async (t) => {
  const text = `${head.join('\n')}\n${snap(10)}\n${snap(20).slice(0, 40)}`;
  for (const size of [1, 7, text.length]) {
    const r = viaReader(text, size);
    t.same(r.bad, [], 'not a bad line');
    t.match(r.messages.join('\n'), /f:6: warning: last line cut off/);
    t.equal(jsonl(r.out).find((l) => l.kind === 'turn')?.input_tokens, 10);
  }
});

t.test('--strict reads every line in full: an invalid skipped-type line stops the input', async (t) => {
  const text = run(snap(10), `{"delta":,"type":"agent_message_delta"}`);
  const lax = viaReader(text, 7);
  t.same(lax.bad, [], 'lax: a line of a type nobody reads is not validated');
  const strict = viaReader(text, 7, { ...POLICY, strict: true });
  t.same(strict.bad, [6]);
});

t.test('sniffers: tail and structural scan', async (t) => {
  const b = (s: string) => Buffer.from(s);
  const check = (s: string) => [tailNeeded(b(s), 0, s.length), scannedNeeded(b(s), 0, s.length)];
  t.same(check('{"a":1,"type":"usage_updated"}'), [true, true]);
  t.same(check('{"a":1,"type":"agent_message_delta"}'), [false, false]);
  t.same(check('{"a":1,"type":"usage_updates"}'), [false, false], 'same length, other name');
  t.same(check('{"type":"file_changed","workspace_revision":0}'), [undefined, false]);
  t.same(check('{"type":"session_configured","variant":""}'), [undefined, true]);
  t.same(check('{"type":"usage_updated","type":"x","n":1}'), [undefined, undefined], 'duplicate: the scan cannot vouch');
  t.same(check('{"a":,"type":"x","n":1}'), [undefined, false], 'the scan reads the type; it does not validate');
  t.same(check('not json'), [undefined, undefined]);
});

t.test('files: plain, gzip and -j workers give the report stdin gives', async (t) => {
  const dir = tmpDir();
  const texts = [generate(7, 3), run(...CASES.map(([, middle]) => middle)), generate(8, 2)];
  const files = texts.map((text, i) => path.join(dir, i === 1 ? `log${i}.jsonl.gz` : `log${i}.jsonl`));
  texts.forEach((text, i) => fs.writeFileSync(files[i] ?? '', i === 1 ? zlib.gzipSync(text) : text));
  const serial = await usageRun(['--json', '--no-cost', '-j', '1', ...files]);
  const parallel = await usageRun(['--json', '--no-cost', '-j', '2', ...files]);
  t.equal(parallel.stdout, serial.stdout, '-j 2 = -j 1');
  t.equal(parallel.stderr, serial.stderr);
  t.equal(parallel.code, serial.code);
  const totalOf = (out: string) => {
    const total = jsonl(out).find((l) => l.kind === 'total');
    return total === undefined ? undefined : [total.turns, total.agents, total.input_tokens, total.cache_creation_tokens, total.cache_read_tokens, total.output_tokens];
  };
  const general = await viaGeneral(texts.join(''));
  t.same(totalOf(serial.stdout), totalOf(general), 'the files add up to the general path over their concatenation');
  const stdin = await usageRun(['--json', '--no-cost'], { stdin: texts.join('') });
  t.same(totalOf(stdin.stdout), totalOf(general), 'stdin (the runner) too');
});

t.test('unit lines: the JSON-text cache of few-valued fields stays exact past its size', async (t) => {
  const { quoteFew, unitJson } = await import('../lib/usage/ledger.js');
  const odd = 'm"\\\u0001\u2028é';
  t.equal(quoteFew(odd), JSON.stringify(odd));
  t.equal(quoteFew(null), 'null');
  for (let i = 0; i < 2100; i++) {
    const model = `model-${i}-${odd}`;
    const unit = { kind: 'run' as const, file: `f${i % 3}`, line: i, thread_id: `th${i}`, run_id: null, run_status: null, provider: 'p', model, time: null, date_source: null, input_tokens: 1n, cache_creation_tokens: 2n, cache_read_tokens: 3n, output_tokens: BigInt(i) };
    const parsed = JSON.parse(unitJson(unit)) as Record<string, unknown>;
    if (parsed.model !== model || parsed.output_tokens !== i || quoteFew(model) !== JSON.stringify(model)) {
      t.fail(`unit ${i}`);
      return;
    }
  }
  t.pass('2100 distinct models, each written exactly');
});
