/**
 * The hold-back of a clean delta piece judged on its raw bytes
 * (hold-back.ts quietTail, prefilter.ts clearTail): it may only say "nothing
 * held" where holdPoint on the decoded text says the same, so outputs stay
 * byte-identical; anything it cannot judge goes to holdPoint.
 */
import t from 'tap';
import fc from 'fast-check';
import { createRedact, Redactor, type RedactOptions } from '../lib/redact/index.js';
import { deltaBounds } from '../lib/redact/redact.js';
import { holdPoint, JOIN_AFTER, quietTail } from '../lib/redact/hold-back.js';
import { Automaton, UNCLEAR } from '../lib/redact/prefilter.js';
import { LineRecord, type Output } from '../lib/jsonl.js';
import { FC_SEED } from './helpers.js';

const line = (delta: string) => Buffer.from(`{"delta":${JSON.stringify(delta)},"item_id":"it","thread_id":"th","turn_id":"tu","type":"tool_output_delta"}`);

function quiet(engine: Redactor, delta: string | Buffer): boolean {
  const raw = typeof delta === 'string' ? line(delta) : delta;
  const bounds = deltaBounds(raw);
  if (bounds === undefined) throw new Error('not the producer shape');
  return quietTail(engine, raw, bounds[0], bounds[1]);
}

function engines(): Array<[string, Redactor]> {
  const learned = new Redactor();
  learned.learnWorkspace('/home/alice/work/app');
  return [
    ['default', new Redactor()],
    ['learned', learned],
    ['paths none', new Redactor({ pathMode: 'none' })],
    ['paths all', new Redactor({ pathMode: 'all' })],
    ['user rule with partial', new Redactor({ rules: [{ name: 'acme', pattern: 'acme_[a-z]{8}', markers: ['acme_'], partial: 'a(?:c(?:m(?:e(?:_[a-z]{0,7})?)?)?)?' }] })],
    ['user rule without partial', new Redactor({ rules: [{ name: 'acme', pattern: 'acme_[a-z]{8}' }] })],
    ['learned non-ASCII user', (() => {
      const e = new Redactor();
      e.learnUser('josé');
      return e;
    })()],
  ];
}

t.test('clearTail: one level of escapes decoded, hits and cut prefixes refused', async (t) => {
  const a = new Automaton([{ text: 'sk-' }, { text: 'c:\\u' }]);
  const body = (s: string) => {
    const raw = Buffer.from(JSON.stringify(s));
    return a.clearTail(raw, 1, raw.length - 1);
  };
  t.equal(body('plain text.'), 0x2e, 'the last character');
  t.equal(body(''), 0, 'empty: 0');
  t.equal(body('a sk-x'), UNCLEAR, 'a pattern');
  t.equal(body('ends with s'), UNCLEAR, 'a cut prefix at the end');
  t.equal(body('ends with SK'), UNCLEAR, 'case folded');
  t.equal(body('line\n'), 0x0a, 'a short escape, decoded');
  t.equal(body('path C:\\Users'), UNCLEAR, 'an escaped backslash is one backslash');
  t.equal(body('quote "q"'), 0x22);
  t.equal(body('é'), 0x80, 'non-ASCII: 0x80');
  const raw = (s: string) => a.clearTail(Buffer.from(s), 0, s.length);
  t.equal(raw('\\u0073k-'), UNCLEAR, 'a \\u escape spells the marker');
  t.equal(raw('x\\u00e9'), 0x80, 'an escaped non-ASCII character');
  t.equal(raw('x\\/'), 0x2f, 'an escaped slash');
  t.equal(raw('x\\q'), UNCLEAR, 'not an escape');
  t.equal(raw('x\\u00'), UNCLEAR, 'a cut \\u escape');
  t.equal(raw('x\\uZZZZ'), UNCLEAR, 'not hex');
  t.equal(raw('x\\'), UNCLEAR, 'a lone backslash at the end');
  const wide = new Automaton([{ text: 'josé' }]);
  t.equal(wide.clearTail(Buffer.from('plain é'), 0, 8), UNCLEAR, 'non-ASCII text while a pattern has some: not judged');
});

t.test('quietTail: quiet pieces, and the ones left to holdPoint', async (t) => {
  const byName = new Map(engines());
  const get = (name: string) => byName.get(name) ?? new Redactor();
  const [plain, learned, none, noPartial, wide] = ['default', 'learned', 'paths none', 'user rule without partial', 'learned non-ASCII user'].map(get) as [Redactor, Redactor, Redactor, Redactor, Redactor];
  t.ok(quiet(plain, 'compiled 3 files\n'), 'ends with a line break');
  t.ok(quiet(plain, 'all tests pass. '), 'ends with a blank');
  t.ok(quiet(plain, 'callback each stack '), 'an anchor whose partials refuse a letter before them, glued to a word (`ac`)');
  t.notOk(quiet(plain, 'call ac '), 'the same anchor at a word start: left to holdPoint');
  t.notOk(quiet(plain, 'x\nac '), 'after an escaped line break (a letter in the raw bytes): not glued');
  t.ok(quiet(plain, `${'x'.repeat(5000)}\nshort last line.\n`), 'only the last line is read');
  t.notOk(quiet(plain, 'key sk-pr'), 'a cut token prefix');
  t.notOk(quiet(plain, 'key \u0073k'), 'a cut prefix, whatever its encoding');
  t.notOk(quiet(plain, 'mail alice'), 'may be an e-mail local part');
  t.notOk(quiet(plain, 'mail alice@'), 'an e-mail cut after its @');
  t.ok(quiet(none, 'word alice!'), 'no e-mail rule: a word end is no hold');
  t.notOk(quiet(none, 'word alice.'), 'a cut anchor (`.`, as in `.env`)');
  t.notOk(quiet(none, 'code abc123'), 'a free partial (six letters and digits at the end) is asked');
  const escaped = (body: string) => Buffer.from(`{"delta":"${body}","type":"tool_output_delta"}`);
  t.notOk(quiet(none, escaped('code abc12\\u0033')), 'the free partial reads the tail decoded: an escaped digit ends the six');
  t.ok(quiet(none, escaped('code abc123\\n')), 'a line break after them: nothing to hold');
  t.notOk(quiet(plain, `x\n${'y '.repeat(3000)}`), 'a last line over 4 KiB goes to holdPoint');
  t.notOk(quiet(learned, 'cd /'), 'a workspace may start here');
  // The fixed and the learned anchors are read in one pass (one automaton over both lists).
  t.notOk(quiet(learned, 'call ac '), 'a fixed anchor, with learned ones');
  t.ok(quiet(learned, 'compiled 3 files\n'), 'neither: quiet');
  t.notOk(quiet(noPartial, 'done.\n'), 'a user rule without partial holds a fixed tail');
  t.ok(quiet(wide, 'done!\n'), 'non-ASCII anchors: ASCII text judged');
  t.notOk(quiet(wide, 'café!'), 'non-ASCII anchors: non-ASCII text not judged on bytes');
  const withEscapes = Buffer.from('{"delta":"a \\"quoted\\" \\\\n literal\\n","type":"tool_output_delta"}');
  t.ok(quiet(plain, withEscapes), 'an escaped backslash before n is no line break; escaped quotes are not the end');
  t.ok(quiet(none, `${'é'.repeat(30)}\n${'\\'.repeat(7)}. `), 'a free partial read across a short last line, cut outside escapes');
  t.notOk(quiet(new Redactor({ defaultRules: false, pathMode: 'none' }), 'done.\n'), 'no anchors at all: holdPoint judges');
  t.ok(quiet(plain, Buffer.from('{"delta":"bad  ok!\\n","type":"tool_output_delta"}')), 'the same piece without the control character is quiet');
  t.ok(quiet(plain, Buffer.from('{"delta":"bad \u0001 ok!\\n","type":"tool_output_delta"}')), 'a raw control character (a line never proven valid): no free partial can end with `\\n`, the tail is not decoded');
  t.notOk(quiet(none, Buffer.from('{"delta":"bad \u0001 ok123","type":"tool_output_delta"}')), 'text JSON refuses where a free partial is asked (a raw control character): holdPoint judges');
});

t.test('quietTail: learned anchors are read, before and after they are joined with the fixed ones', async (t) => {
  const engine = new Redactor({ defaultRules: false });
  engine.learnUser('alice');
  t.equal(engine.compiled().holds.length, 2, 'a learned table');
  for (const when of ['table by table', 'joined']) {
    t.notOk(quiet(engine, 'x alice!'), `${when}: a learned name in the last line is asked`);
    t.notOk(quiet(engine, 'cd /'), `${when}: a fixed anchor is asked`);
    t.ok(quiet(engine, 'hello world!'), `${when}: neither, quiet`);
    for (let i = 0; i < JOIN_AFTER; i++) quiet(engine, 'compiled 3 files\n');
  }
});

t.test('property: quietTail says nothing is held only where holdPoint agrees', async (t) => {
  const words = ['the', ' ', '\n', 'sk-', 'sk', 's', 'proj-', 'ghp_', 'gh', 'eyJ', 'ey', 'AKIA', 'password', 'pass', '=', ':', '"', '\\', '\\n', '/', '/home/', '/home/al', 'alice', '/home/alice/work/app', '@', 'example.com', 'abc123', 'é', '\u001b', '-----BEGIN', 'Bearer ', '.', '_', 'xoxb-', 'acme_', 'acme_abc', 'callback', 'ac', 'AC', 'b', '9', 'pat', 'path', '\\u0041'];
  const text = fc.array(fc.constantFrom(...words), { maxLength: 14 }).map((w) => w.join(''));
  let quietCount = 0;
  let asked = 0;
  // Each engine fresh, then past JOIN_AFTER pieces (a learned table's anchors then joined with the fixed ones).
  const warmed = engines().map(([name, engine]): [string, Redactor] => {
    for (let i = 0; i < JOIN_AFTER; i++) quiet(engine, 'compiled 3 files\n');
    return [`${name}, anchors joined`, engine];
  });
  for (const [name, engine] of [...engines(), ...warmed]) {
    fc.assert(
      fc.property(text, (delta) => {
        const raw = line(delta);
        if (engine.mayMatchRaw(raw) || engine.longAnchors) return true; // only clean pieces without long anchors come here
        if (!quiet(engine, raw)) {
          asked++;
          return true;
        }
        quietCount++;
        return holdPoint(engine, delta, false) === delta.length;
      }),
      { numRuns: 400, seed: FC_SEED },
    );
    t.pass(name);
  }
  t.ok(quietCount > 100 && asked > 100, `both answers seen (${quietCount} quiet, ${asked} asked)`);
});

function run(lines: string[], options: RedactOptions = {}): string[] {
  const core = createRedact(options);
  const out: Output[] = [];
  const emit = (o: Output) => out.push(o);
  lines.forEach((l, i) => core.push(new LineRecord(Buffer.from(l), 'in.jsonl', i + 1), emit));
  core.end?.(emit);
  return out.map((o) => (typeof o === 'string' ? o.replace(/\n$/, '') : (o.raw ?? Buffer.from(JSON.stringify(o.event))).toString()));
}

t.test('split secrets across clean pieces are still caught; quiet pieces go out as their bytes', async (t) => {
  const piece = (delta: string, extra = '') => `{"delta":${delta}${extra},"item_id":"it","thread_id":"th","turn_id":"tu","type":"tool_output_delta"}`;
  const quietLine = piece('"build ok.\\n"');
  t.same(run([quietLine]), [quietLine], 'a quiet piece: its bytes');
  // The token's head is spelled by escapes: the raw bytes end in `\u0073k-pr`.
  const split = run([piece('"key \\u0073k-pr"'), piece('"oj-abc123def456ghi789jkl012mno345 done\\n"')]);
  t.equal(split.length, 2);
  t.notMatch(split.join('\n'), /abc123def456/, 'the split token is redacted');
  t.match(split[1], /secret:openai-key/, 'its placeholder goes into the later piece');
  // An e-mail cut before its @, then after it.
  const mail = run([piece('"write to alice"'), piece('"@example.com now\\n"')]);
  t.notMatch(mail.join('\n'), /alice/, 'the local part does not leak');
  // A piece whose last line is long falls back to holdPoint and still holds a cut token.
  const long = run([piece(JSON.stringify(`${'word '.repeat(1000)}ghp_0123456789`)), piece('"abcdefghijABCDEFGHIJ012345\\n"')]);
  t.notMatch(long.join('\n'), /0123456789abcdefghij/, 'a long last line: still held');
  // Another key order: the general reader, as before.
  const other = `{"type":"tool_output_delta","delta":"fine.\\n","item_id":"it","thread_id":"th","turn_id":"tu"}`;
  t.same(run([other]), [other]);
});
