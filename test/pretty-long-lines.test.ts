/**
 * Long output deltas (lines of LONG_DELTA_BYTES and more) are read from
 * their bytes, the delta decoded a window at a time (lib/pretty/delta-scan.ts
 * locateLongDelta, deltaWindows) instead of parsed whole. The rendering must
 * be exactly that of the parsed event: each case renders the same lines once
 * as bytes (the window path) and once as the objects JSON.parse makes of them
 * (the parse path), in every view.
 */
import t from 'tap';
import { createPretty, type PrettyOptions } from '../lib/pretty/index.js';
import { deltaWindows, LONG_DELTA_BYTES, locateLongDelta } from '../lib/pretty/delta-scan.js';
import { InvalidLineError, LineRecord, makeRecord, type Output } from '../lib/jsonl.js';
import type { WuuEvent } from '../lib/events.js';

const IDS = { item_id: 'i1', thread_id: 't1', turn_id: 'u1' };
const line = (event: Record<string, unknown>) => Buffer.from(JSON.stringify(event));

/** Renders lines as bytes (LineRecord) or as parsed objects (no bytes). */
function render(lines: Buffer[], asBytes: boolean, options: PrettyOptions): string {
  const core = createPretty(options);
  const out: Output[] = [];
  const emit = (o: Output) => out.push(o);
  lines.forEach((raw, i) => {
    const rec = asBytes ? new LineRecord(raw, 'x.jsonl', i + 1) : makeRecord(JSON.parse(raw.toString('utf8')) as WuuEvent, { file: 'x.jsonl', line: i + 1 });
    core.push(rec, emit);
  });
  core.endFile?.('x.jsonl', emit);
  core.end?.(emit);
  return out.map((o) => (typeof o === 'string' ? o : '<record>')).join('');
}

/** A bash call whose output is `deltas` (each a line, as written: raw JSON text allowed). */
function bashRun(deltaLines: Buffer[], name = 'bash'): Buffer[] {
  return [
    line({ type: 'session_configured', model: 'm', workspace_root: '/w' }),
    line({ type: 'turn_started', thread_id: 't1', turn_id: 'u1' }),
    line({ type: 'tool_started', name, arguments: JSON.stringify({ command: 'make' }), ...IDS }),
    ...deltaLines,
    line({ type: 'tool_completed', name, status: 'completed', error: '', ...IDS }),
    line({ type: 'turn_completed', thread_id: 't1', turn_id: 'u1', input_tokens: 5, output_tokens: 2 }),
    line({ type: 'result', status: 'completed', final_message: 'done' }),
  ];
}

const big = LONG_DELTA_BYTES + 12345;
const VIEWS: Array<[string, PrettyOptions]> = [
  ['terminal', {}],
  ['terminal --full', { full: true }],
  ['terminal narrow', { width: 20 }],
  ['markdown', { markdown: true }],
  ['html', { html: true }],
];

// Texts that cross window boundaries in every way that matters.
const texts: Array<[string, string]> = [
  ['one long line', `${'x'.repeat(big * 3)}\n`],
  ['many lines, an exit line last', `${'line of output\n'.repeat(big / 10)}Exit code 2\n`],
  ['escapes everywhere', `${'tab\there "quoted" back\\slash \u0001 \u001b[0m\n'.repeat(big / 20)}`],
  ['multi-byte and astral', `${'é中😀 '.repeat(big / 5)}\n${'😀'.repeat(big / 2)}`],
  ['carriage returns (progress bars)', `${'10%\r50%\r100%\n'.repeat(big / 10)}${'x'.repeat(big)}\r\nlast\r`],
  ['only backslashes', '\\'.repeat(big * 2)],
  ['only escaped unicode', '\u2028\u0000'.repeat(big)],
];

for (const [label, text] of texts) {
  t.test(`a long output delta renders as its parsed event: ${label}`, async (t) => {
    const deltas = [
      line({ delta: text, ...IDS, type: 'tool_output_delta' }),
      // The twin of the same output: taken from the first family only.
      line({ arguments: JSON.stringify({ command: 'make' }), command: 'make', delta: text, ...IDS, name: 'bash', type: 'command_output_delta' }),
      line({ delta: `${text}more\n`, ...IDS, type: 'tool_output_delta' }),
    ];
    const raw = deltas[0]!;
    t.ok(raw.length >= LONG_DELTA_BYTES, 'the line is long');
    const long = locateLongDelta(raw);
    t.ok(long, 'read from its bytes');
    if (long) {
      let decoded = '';
      for (const piece of deltaWindows(raw, long)) decoded += piece;
      t.equal(decoded, text, 'the windows make the whole delta');
    }
    for (const [view, options] of VIEWS) {
      t.equal(render(bashRun(deltas), true, options), render(bashRun(deltas), false, options), view);
    }
    // A file tool keeps its whole result (up to a cap) to show it as a file.
    const read = [line({ delta: JSON.stringify({ content: text }), ...IDS, type: 'tool_output_delta' })];
    t.equal(render(bashRun(read, 'read_file'), true, {}), render(bashRun(read, 'read_file'), false, {}), 'file tool');
  });
}

t.test('invalid UTF-8 in a long delta decodes as a parse would, wherever a window ends', async (t) => {
  const bad = Buffer.from([0xe4, 0xb8, 0x41, 0xff, 0xc3, 0x20, 0xf0, 0x9f, 0x98, 0x5c, 0x6e, 0x80, 0x41]);
  const body = Buffer.concat(Array.from({ length: Math.ceil((big * 2) / bad.length) }, () => bad));
  const raw = Buffer.concat([Buffer.from('{"delta":"'), body, Buffer.from('","item_id":"i1","thread_id":"t1","turn_id":"u1","type":"tool_output_delta"}')]);
  const long = locateLongDelta(raw);
  t.ok(long);
  if (long) t.equal([...deltaWindows(raw, long)].join(''), (JSON.parse(raw.toString('utf8')) as { delta: string }).delta);
  for (const [view, options] of VIEWS) t.equal(render(bashRun([raw]), true, options), render(bashRun([raw]), false, options), view);
});

t.test('lines not plainly in the shape are parsed whole, with the same result', async (t) => {
  const text = 'y'.repeat(big);
  const shapes: Array<[string, string, boolean]> = [
    // [label, line, read from its bytes]
    ['other key order', `{"type":"tool_output_delta","item_id":"i1","thread_id":"t1","turn_id":"u1","delta":"${text}"}`, true],
    ['spaces around', `{ "delta" : "${text}" , "item_id":"i1","thread_id":"t1","turn_id":"u1","type":"tool_output_delta" }`, false],
    ['a later duplicate delta wins', `{"delta":"${text}","item_id":"i1","delta":"short","thread_id":"t1","turn_id":"u1","type":"tool_output_delta"}`, false],
    ['a later escaped duplicate wins', `{"delta":"${text}","item_id":"i1","d\\u0065lta":"","thread_id":"t1","turn_id":"u1","type":"tool_output_delta"}`, false],
    ['an earlier duplicate loses', `{"delta":"first","delta":"${text}","item_id":"i1","thread_id":"t1","turn_id":"u1","type":"tool_output_delta"}`, false],
    ['a nested delta first', `{"a":{"delta":"${text}"},"delta":"top","item_id":"i1","thread_id":"t1","turn_id":"u1","type":"tool_output_delta"}`, false],
    ['a huge field besides a short delta', `{"arguments":"${text}","delta":"ok\\n","item_id":"i1","thread_id":"t1","turn_id":"u1","type":"tool_output_delta"}`, true],
    ['a huge field and an empty delta', `{"arguments":"${text}","delta":"","item_id":"i1","thread_id":"t1","turn_id":"u1","type":"tool_output_delta"}`, true],
    ['delta not a string', `{"arguments":"${text}","delta":7,"item_id":"i1","thread_id":"t1","turn_id":"u1","type":"tool_output_delta"}`, false],
  ];
  for (const [label, text, fast] of shapes) {
    const raw = Buffer.from(text);
    t.equal(locateLongDelta(raw) !== undefined, fast, `${label}: ${fast ? 'read from bytes' : 'parsed'}`);
    for (const [view, options] of VIEWS) t.equal(render(bashRun([raw]), true, options), render(bashRun([raw]), false, options), `${label}, ${view}`);
  }
  t.equal(locateLongDelta(Buffer.from(`{"delta":"${'z'.repeat(100)}","type":"tool_output_delta"}`)), undefined, 'a short line is parsed');
  t.equal(locateLongDelta(Buffer.from(`{"delta":"${text}`)), undefined, 'a literal that does not close');
  t.equal(locateLongDelta(Buffer.from(`{"note":"${text}","type":"tool_output_delta"}`)), undefined, 'no delta key');
  t.equal(locateLongDelta(Buffer.from(`["delta":"${text}"]`)), undefined, 'not an object');
  t.equal(locateLongDelta(Buffer.from(`{"delta":"${text}",}`)), undefined, 'the rest is not JSON');
});

t.test('a bad long output line throws before anything is shown (the runner reports it)', async (t) => {
  const bad: Array<[string, string]> = [
    ['a raw control byte', `${'x'.repeat(big)}\u0001`],
    ['a raw control byte in a window with escapes', `${'x\\n'.repeat(big)}\t`],
    ['a bad escape', `${'x'.repeat(big)}\\x41`],
    ['a cut unicode escape', `${'x'.repeat(big * 2)}\\u12`],
  ];
  for (const [label, body] of bad) {
    const core = createPretty({});
    const out: Output[] = [];
    const raw = Buffer.from(`{"delta":"${body}","item_id":"i1","thread_id":"t1","turn_id":"u1","type":"tool_output_delta"}`);
    t.equal(locateLongDelta(raw), undefined, `${label}: not read from its bytes`);
    t.throws(() => core.push(new LineRecord(raw, 'x.jsonl', 1), (o) => out.push(o)), InvalidLineError, label);
    t.same(out, [], 'nothing written for it');
    core.endFile?.('x.jsonl', (o) => out.push(o));
    t.same(out, [], 'and no run was started by it');
  }
});
