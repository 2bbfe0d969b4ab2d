/**
 * wuu-redact's findings report (--report-path), allow list (--allow), the
 * marker automaton and the e-mail hold-back: pure tables, streams, binaries.
 */
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Allowlist, createRedact, deltaTail, fingerprint, Redactor, type Finding, type RedactOptions } from '../lib/redact/index.js';
import { Automaton } from '../lib/redact/prefilter.js';
import { patternExtent, readsAnyCharacter } from '../lib/redact/compile.js';
import { emailTail, holdPoint } from '../lib/redact/hold-back.js';
import { fedForm } from '../lib/redact/byte-scan.js';
import { Workspaces } from '../lib/redact/workspaces.js';
import { LineRecord, type Output } from '../lib/jsonl.js';
import { runBin, spawnBin } from './helpers.js';

const GHP = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';

function run(lines: string[], options: RedactOptions = {}): { lines: string[]; findings: Finding[] } {
  const findings: Finding[] = [];
  const core = createRedact({ findings: (f) => findings.push(f), ...options });
  const out: Output[] = [];
  const emit = (o: Output) => out.push(o);
  lines.forEach((line, i) => core.push(new LineRecord(Buffer.from(line), 'in.jsonl', i + 1), emit));
  core.endFile?.('in.jsonl', emit);
  core.end?.(emit);
  return { lines: out.map((o) => (typeof o === 'string' ? o.replace(/\n$/, '') : o.raw!.toString())), findings };
}

const delta = (d: string, item = 'i1') => JSON.stringify({ delta: d, item_id: item, thread_id: 'th', turn_id: 'tu', type: 'tool_output_delta' });
const DONE = JSON.stringify({ item_id: 'i1', thread_id: 'th', turn_id: 'tu', type: 'tool_completed' });

t.test('fingerprints: keyed, 16 hex digits, never the value', async (t) => {
  t.match(fingerprint('hunter2', 's'), /^[0-9a-f]{16}$/);
  t.equal(fingerprint('hunter2', 's'), fingerprint('hunter2', 's'), 'stable');
  t.not(fingerprint('hunter2', 's'), fingerprint('hunter2', 't'), 'keyed by the salt');
  t.not(fingerprint('hunter2', 's'), fingerprint('hunter3', 's'));
});

t.test('allow list: literal values and fingerprints, comments and blanks', async (t) => {
  const fp = fingerprint('AKIAIOSFODNN7EXAMPLF', 'k');
  const allow = Allowlist.parse(`# known false positives\n\n  hunter2  \r\nfp:${fp.toUpperCase()}\n#hunter3\n`, 'k');
  t.same(allow.entries(), ['hunter2', `fp:${fp.toUpperCase()}`]);
  t.ok(allow.has('hunter2'), 'a literal, trimmed');
  t.ok(allow.has('AKIAIOSFODNN7EXAMPLF'), 'by fingerprint, any case, fp: prefix');
  t.ok(allow.has('AKIAIOSFODNN7EXAMPLF'), 'again (cached)');
  t.notOk(allow.has('hunter3'), 'a comment is no entry');
  t.notOk(Allowlist.parse(fp, 'other salt').has('AKIAIOSFODNN7EXAMPLF'), 'a fingerprint needs the same salt');
  t.notOk(new Allowlist(['x'], 'k').has('y'), 'no fingerprints: literal only');
});

t.test('report: file, line, JSON path (inside JSON strings too), rule, fingerprint', async (t) => {
  const line = JSON.stringify({
    arguments: JSON.stringify({ command: 'curl -H "Authorization: Bearer abcdefghij0123456789" x', list: ['a', `k ${GHP}`] }),
    'odd key': `x ${GHP}`,
    password: 'hunter2',
    type: 'tool_started',
  });
  const { lines, findings } = run([line], { salt: 'k' });
  t.notMatch(lines[0], /hunter2|ghp_0123/);
  t.same(findings, [
    { file: 'in.jsonl', line: 1, path: '$.arguments|$.command', rule: 'authorization', fingerprint: fingerprint('abcdefghij0123456789', 'k') },
    { file: 'in.jsonl', line: 1, path: '$.arguments|$.list[1]', rule: 'github-token', fingerprint: fingerprint(GHP, 'k') },
    { file: 'in.jsonl', line: 1, path: '$["odd key"]', rule: 'github-token', fingerprint: fingerprint(GHP, 'k') },
    { file: 'in.jsonl', line: 1, path: '$.password', rule: 'key-value', fingerprint: fingerprint('hunter2', 'k') },
  ]);
  t.notMatch(JSON.stringify(findings), /hunter2|ghp_0123/, 'never the secret');
  const key = run([JSON.stringify({ nested: { [`k_${GHP}`]: 1 }, type: 'x' })]);
  t.same(key.findings.map((f) => [f.path, f.rule]), [['$.nested["k_<secret:github-token>"]', 'github-token']], 'a key: its member path, redacted');
  const under = run([JSON.stringify({ [`k_${GHP}`]: { password: 'hunter2' }, type: 'x' })]);
  t.same(under.findings.map((f) => f.path), ['$["k_<secret:github-token>"]', '$["k_<secret:github-token>"].password'], 'paths never hold a secret');
});

t.test('report: delta pieces, split secrets, invalid lines', async (t) => {
  const { lines, findings } = run([delta(`one ${GHP.slice(0, 10)}`), delta(`${GHP.slice(10)} two`), DONE]);
  t.equal(lines.length, 3);
  t.notMatch(lines.join(''), /ghp_/);
  t.same(findings.map((f) => [f.line, f.path, f.rule]), [[2, '$.delta', 'github-token']], 'the split token, once, at the piece that holds it');
  const invalid: Finding[] = [];
  const core = createRedact({ findings: (f) => invalid.push(f) });
  const out: Output[] = [];
  core.invalid?.(Buffer.from(`{"cut":"${GHP}`), (o) => out.push(o), { file: 'f', line: 9 });
  t.same(out, ['{"cut":"<secret:github-token>\n']);
  t.same(invalid.map((f) => [f.file, f.line, f.path, f.rule]), [['f', 9, null, 'github-token']]);
});

t.test('allow: a listed value is left alone everywhere, others still go', async (t) => {
  const allow = new Allowlist(['hunter2', fingerprint(GHP, 'wuu-redact/v1'), 'alice@example.com'], 'wuu-redact/v1');
  const line = JSON.stringify({ message: `${GHP} and hunter2 mail alice@example.com bob@example.com password=hunter2 token=other1`, password: 'hunter2', type: 'x' });
  const { lines, findings } = run([line], { allow });
  t.equal(
    lines[0],
    JSON.stringify({ message: `${GHP} and hunter2 mail alice@example.com <email> password=hunter2 token=<secret:key-value>`, password: 'hunter2', type: 'x' }).replace(/[<>]/g, (c) => (c === '<' ? '\\u003c' : '\\u003e')),
  );
  t.same(findings.map((f) => f.rule), ['email', 'key-value']);
  const split = run([delta('password=hun'), delta('ter2 and token=q7w2xk'), DONE], { allow });
  t.equal(split.lines.map((l) => (JSON.parse(l) as { delta?: string }).delta ?? '').join(''), 'password=hunter2 and token=<secret:key-value>', 'split pieces too');
  const again = run(split.lines, { allow });
  t.same(again.lines, split.lines, 'idempotent');
});

t.test('e-mail split before its @ does not leak its local part (issue 23)', async (t) => {
  for (const [a, b] of [
    ['mail alice.smith', '@example.com now'],
    ['mail alice.sm', 'ith@example.com now'],
    ['mail alice.smith@exa', 'mple.com now'],
    ['mail alice.smith@', 'example.com now'],
  ] as const) {
    const { lines } = run([delta(a), delta(b), DONE]);
    const text = lines.slice(0, 2).map((l) => JSON.parse(l).delta as string);
    t.equal(text.join(''), 'mail <email> now', `${a}|${b}`);
    t.notMatch(text[0]!, /alice|smith/, 'the first piece holds no part of it');
  }
  const plain = run([delta('the test suite passes'), delta(' and more'), DONE]);
  t.same(plain.lines.map((l) => JSON.parse(l).delta ?? null), ['the test suite passes', ' and more', null], 'words are released unchanged');
  t.equal(emailTail('mail alice.smith'), 5);
  t.equal(emailTail('x alice@exam'), 2);
  t.equal(emailTail('ends with space '), 16);
  t.equal(emailTail(`x ${'a'.repeat(65)}`), 67, 'too long for a local part');
  t.equal(emailTail(`${'a'.repeat(70)}@b`), 72);
  t.equal(emailTail('x @dom'), 6, 'an @ without a local part');
  t.equal(holdPoint(new Redactor({ pathMode: 'none' }), 'mail alice'), 10, 'no e-mail rule, no hold');
});

t.test('automaton: all occurrences, case folding, conditions', async (t) => {
  const a = new Automaton([{ text: 'he' }, { text: 'she' }, { text: 'hers' }, { text: 'token', word: true }, { text: 'sk', edge: true }, { text: '<', test: false }]);
  a.scan('uSHErs');
  t.same([...a.hits.subarray(0, a.hitCount * 2)], [4, 1, 4, 0, 6, 2], 'overlapping matches, ASCII case-insensitive');
  t.ok(a.test('a token='), 'a key word before a non-letter');
  t.notOk(a.test('tokens ask'), 'a key word before a letter, a prefix glued to a word');
  t.ok(a.test('x sk'), 'a prefix at an edge');
  t.notOk(a.test('a < b'), '`<` is found by scan only');
  const big = new Automaton(Array.from({ length: 300 }, (_, i) => ({ text: `w${i}x` })));
  big.scan('w299x w0x '.repeat(100));
  t.equal(big.hitCount, 200, 'the hit list grows');
  const wide = new Automaton([{ text: 'émile' }, { text: 'Жора' }]);
  wide.scan('ÉMILE жора');
  t.equal(wide.hitCount, 2, 'non-ASCII case variants share a class');
  t.ok(wide.nonAscii);
  t.ok(wide.testRaw(Buffer.from('{"a":"\\u00e9"}')), 'an escaped non-ASCII character with non-ASCII markers: no guess');
  t.throws(() => new Automaton(Array.from({ length: 300 }, (_, i) => ({ text: String.fromCharCode(0x4e00 + i) }))), /too many/);
});

t.test('automaton on raw JSON: escapes decoded on the fly', async (t) => {
  const a = new Automaton([{ text: 'sk-', edge: true }, { text: 'token', word: true }, { text: fedForm('\\users\\') }, { text: fedForm('say "hi"') }]);
  const raw = (s: string) => a.testRaw(Buffer.from(s));
  t.ok(raw('{"a":"x sk-1"}'));
  t.notOk(raw('{"a":"ask-1 tokens"}'), 'conditions hold on bytes');
  t.ok(raw('{"a":"\\u0073k-1"}'), 'a \\u escape spells a marker');
  t.ok(raw('{"a":"x\\\\u0073k-1"}'), 'after any number of backslashes');
  t.ok(raw('{"a":"x\\nsk-1"}'), 'a letter after an escape is an edge');
  t.ok(raw('{"a":"\\u0041sk-1"}'), 'an escape before: no guess');
  t.notOk(raw('{"a":"\\u001b[0m ok \\u003cb\\u003e"}'), 'ANSI and Go escapes cost nothing');
  t.ok(raw('{"a":"C:\\\\Users\\\\bob"}'), 'backslash runs are one backslash');
  t.ok(raw('{"a":"C:\\\\\\\\Users\\\\\\\\bob"}'), 'nested');
  t.ok(raw('{"a":"say \\"hi\\""}'), 'a quote in a marker');
  t.ok(raw('{"a":"a\\/b"}'), '\\/ may hide anything');
  t.ok(raw('{"a":"x\\'), 'a cut escape');
  t.ok(raw('{"a":"token\\u0073"}'), 'a word marker before an escape: no guess');
  t.notOk(raw('{"a":"\\u00e9"}'), 'an escaped non-ASCII character cannot spell an ASCII marker');
  t.ok(raw('{"a":"x\\u005cusers\\\\"}'), 'an escaped backslash');
});

t.test('raw test: token prefixes are checked by their rules at the hit', async (t) => {
  const r = new Redactor();
  const raw = (s: string) => r.mayMatchRaw(Buffer.from(JSON.stringify({ a: s, type: 'x' })));
  t.notOk(raw('the path to pathos, an accent, ghp_ alone'), 'prefixes their rules refuse');
  t.ok(raw(`x ${GHP}`));
  t.ok(raw(`line\n${GHP}\n`), 'after and before an escape');
  t.ok(raw(`x ${GHP.slice(0, 20)}\\u0041${GHP.slice(21)}`), 'a backslash left after decoding (nested JSON): no guess');
  t.notOk(raw('ghp_short\nmore'), 'cut at an escape the rule cannot read through');
  t.notOk(raw(`${'pat'.repeat(3)} "quoted" pat`), 'quotes');
  t.ok(raw(`x pat\\ny`), 'an escaped backslash after the marker: no guess');
  t.ok(r.mayMatchRaw(Buffer.from(`{"a":"x ${GHP.slice(0, 20)}\\u0041${GHP.slice(21)}","type":"x"}`)), 'a \\u escape after the marker');
  t.ok(r.mayMatchRaw(Buffer.from(`{"a":"${'é'.repeat(400)} x ${GHP}","type":"x"}`)), 'non-ASCII before');
  t.ok(r.longAnchors, 'a line with a hit: the hold-back looks everywhere');
  t.notOk(r.mayMatchRaw(Buffer.from('{"a":"plain words","type":"x"}')));
  t.notOk(r.longAnchors, 'no long anchor');
  t.notOk(r.mayMatchRaw(Buffer.from('{"a":"a tokenizer","type":"x"}')), 'a key word glued to a word');
  t.ok(r.longAnchors, 'but the hold-back must look for it');
});

t.test('pattern extents and readers', async (t) => {
  t.same(patternExtent('abc'), { behind: 0, ahead: 3 });
  t.same(patternExtent('(?<![A-Z])x(?:ab|c{3})(?![a-z])'), { behind: 1, ahead: 5 });
  t.same(patternExtent('a{2,5}b?c??\\d{2}'), { behind: 0, ahead: 9 });
  t.equal(patternExtent('a+').ahead, Infinity);
  t.equal(patternExtent('a{2,}').ahead, Infinity);
  t.equal(patternExtent('(?<n>ab)\\k<n>').ahead, Infinity);
  t.same(patternExtent('^\\bx\\u0041\\x41[a-z]$)'), { behind: 0, ahead: 4 });
  t.ok(readsAnyCharacter('a.b'));
  t.ok(readsAnyCharacter('a[^b]'));
  t.ok(readsAnyCharacter('a\\s'));
  t.ok(readsAnyCharacter('a[ b]'));
  t.ok(readsAnyCharacter('a[\\n]'));
  t.notOk(readsAnyCharacter('a[.]\\.[A-Za-z0-9_-]{4}'));
});

t.test('workspaces: longest root, edges, partial', async (t) => {
  const w = new Workspaces();
  w.add('/w/app');
  w.add('/w/app/sub');
  w.add(`/${'x'.repeat(1100)}`);
  t.same(w.markers(), [`/${'x'.repeat(11)}`, '/w/app/sub', '/w/app']);
  t.same(w.anchors(), ['/']);
  t.same(w.rule.exec('see /w/app/sub/x', 4), { start: 4, end: 14 });
  t.same(w.rule.exec('see /w/app/subway', 4), { start: 4, end: 10 });
  t.equal(w.rule.exec('see /w/apple', 4), null);
  t.equal(w.rule.exec('x/w/app', 1), null, 'glued to a path');
  t.equal(w.rule.exec('<workspace>/w/app', 11), null, 'right after a placeholder');
  t.same(w.rule.exec('a>/w/app', 2), { start: 2, end: 8 }, 'after a `>` that closes no placeholder');
  t.same(w.rule.exec('/w/app', 0), { start: 0, end: 6 }, 'at the start');
  t.equal(w.rule.exec('~/w/app', 1), null, 'glued to `~`');
  t.same(w.rule.exec('see /w/app.', 4), { start: 4, end: 10 }, 'a final dot');
  t.equal(w.rule.exec('see /w/app.old', 4), null, 'a dot and a name');
  t.same(w.rule.exec('see /w/app/sub.', 4), { start: 4, end: 14 }, 'the longest root, then a final dot');
  t.ok(w.partial.test('cd /w/ap', 3));
  t.notOk(w.partial.test('cd /w/x', 3));
  t.notOk(w.partial.test('cd /w/ap', 8), 'nothing left');
  t.notOk(w.partial.test(`cd /${'x'.repeat(1050)}`, 3), 'too long to hold');
});

t.test('learning a user name does not rebuild the fixed tables', async (t) => {
  const r = new Redactor();
  const before = r.compiled();
  r.learnUser('zebulon');
  const after = r.compiled();
  t.not(before, after);
  t.equal(before.holds[0]!.built, after.holds[0]!.built, 'the same fixed tables');
  t.equal(after.scanners.length, 1, 'one marker automaton over fixed and learned markers');
  r.learnWorkspace('/home/zebulon/src/a');
  const third = r.compiled();
  r.learnWorkspace('/home/zebulon/src/b');
  t.equal(r.compiled(), third, 'a root with known markers rebuilds nothing');
  const out: string[] = [];
  t.equal(r.text('in /home/zebulon/src/b and zebulon', out), 'in <workspace> and <user>');
});

t.test('binary: --report-path and --allow, exact output', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-redact-report-'));
  const report = path.join(dir, 'findings.jsonl');
  const input = `${JSON.stringify({ message: `a ${GHP} and password=hunter2`, type: 'x' })}\n`;
  const r = await runBin('wuu-redact', ['--report-path', report, '--salt', 'team'], { input });
  t.same([r.stdout, r.stderr, r.code], ['{"message":"a \\u003csecret:github-token\\u003e and password=\\u003csecret:key-value\\u003e","type":"x"}\n', '', 0]);
  const lines = fs.readFileSync(report, 'utf8');
  t.equal(
    lines,
    [
      { file: '<stdin>', line: 1, path: '$.message', rule: 'github-token', fingerprint: fingerprint(GHP, 'team') },
      { file: '<stdin>', line: 1, path: '$.message', rule: 'key-value', fingerprint: fingerprint('hunter2', 'team') },
    ]
      .map((f) => `${JSON.stringify(f)}\n`)
      .join(''),
  );
  const allowFile = path.join(dir, 'allow.txt');
  fs.writeFileSync(allowFile, `# reviewed 2026-12-03\n${fingerprint(GHP, 'team')}\n`);
  const allowFile2 = path.join(dir, 'allow2.txt');
  fs.writeFileSync(allowFile2, 'hunter2\n');
  const a = await runBin('wuu-redact', ['--allow', allowFile, '--allow', allowFile2, '--salt', 'team', '--check'], { input });
  t.same([a.stdout, a.stderr, a.code], ['', '', 0], 'both allowed: --check passes');
  const b = await runBin('wuu-redact', ['--allow', allowFile, '--check'], { input });
  t.same([b.stdout, b.stderr, b.code], ['', 'wuu-redact: <stdin>:1: github-token\nwuu-redact: <stdin>:1: key-value\n', 1], 'another salt: the fingerprint does not match');
  const missing = await runBin('wuu-redact', ['--allow', path.join(dir, 'nope')], { input });
  t.same([missing.stdout, missing.stderr, missing.code], ['', `wuu-redact: --allow ${path.join(dir, 'nope')}: No such file or directory\nTry 'wuu-redact --help' for more information.\n`, 2]);
  const unwritable = await runBin('wuu-redact', ['--report-path', dir], { input });
  t.same([unwritable.stdout, unwritable.stderr, unwritable.code], ['', `wuu-redact: --report-path ${dir}: Is a directory\nTry 'wuu-redact --help' for more information.\n`, 2]);
  const empty = await runBin('wuu-redact', ['--report-path='], { input });
  t.same([empty.stdout, empty.stderr, empty.code], ['', "wuu-redact: --report-path needs a file name\nTry 'wuu-redact --help' for more information.\n", 2]);
  const salt = await runBin('wuu-redact', ['--salt', 'x'], { input });
  t.same([salt.stdout, salt.stderr, salt.code], ['', "wuu-redact: --salt only makes sense with --pseudonymize\nTry 'wuu-redact --help' for more information.\n", 2]);
  fs.rmSync(dir, { recursive: true, force: true });
});

t.test('binary: --report FILE writes the findings; --report alone still counts; an input is never taken for the report', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-redact-report-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const input = `${JSON.stringify({ message: `a ${GHP}`, type: 'x' })}\n`;
  const redacted = '{"message":"a \\u003csecret:github-token\\u003e","type":"x"}\n';
  const finding = `${JSON.stringify({ file: '<stdin>', line: 1, path: '$.message', rule: 'github-token', fingerprint: fingerprint(GHP, 'team') })}\n`;
  const report = path.join(dir, 'findings.jsonl');
  const fresh = await runBin('wuu-redact', ['--report', report, '--salt', 'team'], { input });
  t.same([fresh.stdout, fresh.stderr, fresh.code, fs.readFileSync(report, 'utf8')], [redacted, '', 0, finding], 'a new file: the findings, nothing on stderr');
  const again = await runBin('wuu-redact', ['--salt', 'team', '--report', report], { input: input + input });
  t.same([again.stdout, again.code, fs.readFileSync(report, 'utf8')], [redacted + redacted, 0, finding + finding.replace('"line":1', '"line":2')], 'an earlier report is rewritten');
  const empty = path.join(dir, 'empty.jsonl');
  fs.writeFileSync(empty, '');
  const intoEmpty = await runBin('wuu-redact', ['--report', empty, '--salt', 'team'], { input });
  t.same([intoEmpty.stdout, intoEmpty.code, fs.readFileSync(empty, 'utf8')], [redacted, 0, finding], 'an empty file is the report');
  const events = path.join(dir, 'run.jsonl');
  fs.writeFileSync(events, input);
  const counts = await runBin('wuu-redact', ['--report', events]);
  t.same(
    [counts.stdout, counts.stderr, counts.code, fs.readFileSync(events, 'utf8')],
    [redacted, 'wuu-redact: report: 1 redaction in 1 of 1 events\nwuu-redact: report: rule github-token: 1\nwuu-redact: report: type x: 1\n', 0, input],
    'a file of events after --report is an input (counts on stderr), never overwritten',
  );
  const counted = await runBin('wuu-redact', ['--report', '$..nothing', events]);
  t.same([counted.stdout, counted.code], [redacted, 0], 'a JSONPath after --report is a JSONPath');
  const forced = await runBin('wuu-redact', [`--report=${events}`, '--salt', 'team'], { input });
  t.same([forced.stdout, forced.code, fs.readFileSync(events, 'utf8')], [redacted, 0, finding], '--report=FILE always names the report');
  const both = await runBin('wuu-redact', ['--report', report, '--report-path', report], { input });
  t.same([both.stdout, both.stderr, both.code], ['', "wuu-redact: --report FILE and --report-path FILE name the same report; give one\nTry 'wuu-redact --help' for more information.\n", 2]);
  const unwritable = await runBin('wuu-redact', ['--report=' + dir], { input });
  t.same([unwritable.stdout, unwritable.stderr, unwritable.code], ['', `wuu-redact: --report ${dir}: Is a directory\nTry 'wuu-redact --help' for more information.\n`, 2]);
});

t.test('binary: --report /dev/stderr writes the findings to stderr (its own output devices are never inputs)', async (t) => {
  const input = `${JSON.stringify({ message: `a ${GHP}`, type: 'x' })}\n`;
  const redacted = '{"message":"a \\u003csecret:github-token\\u003e","type":"x"}\n';
  const finding = `${JSON.stringify({ file: '<stdin>', line: 1, path: '$.message', rule: 'github-token', fingerprint: fingerprint(GHP, 'team') })}\n`;
  // Spawned: the device is the child's own stderr (read as an input, it would wait forever).
  const got = await spawnBin('wuu-redact', ['--report', '/dev/stderr', '--salt', 'team'], { input });
  t.same([got.stdout, got.stderr, got.code], [redacted, finding, 0]);
  const out = await runBin('wuu-redact', ['--report', '/dev/stdout'], { input });
  t.same(
    [out.stdout, out.stderr, out.code],
    ['', "wuu-redact: --report /dev/stdout: the redacted events go to standard output; name another file, or /dev/stderr\nTry 'wuu-redact --help' for more information.\n", 2],
    'standard output is the events\' own: a usage error, not an input read from itself',
  );
});

t.test('deltaTail: the end of a big delta string, decoded from its last bytes', async (t) => {
  const line = (d: string, extra = '') => Buffer.from(`{"delta":${JSON.stringify(d)}${extra},"type":"tool_output_delta"}`);
  t.equal(deltaTail(line('short'), 100), 'short', 'a short line: all of it');
  t.equal(deltaTail(line('plain é text, no escape'), 100), 'plain é text, no escape', 'no escape: the bytes decoded as they are');
  t.equal(deltaTail(line(`${'é'.repeat(3000)}tail`), 1000), `${'é'.repeat(498)}tail`, 'no escape, cut: whole characters');
  const text = `${'é word \\ "q"\n'.repeat(2000)}end`;
  const tail = deltaTail(line(text), 1000)!;
  t.ok(tail.length >= 500 && tail.length < text.length && text.endsWith(tail), 'a suffix, cut at a character boundary');
  t.equal(deltaTail(Buffer.from(`{"type":"x","delta":${JSON.stringify(text)}}`), 1000), text, 'another key order: the whole string');
  t.equal(deltaTail(line('\n'.repeat(5000)), 1000), '\n'.repeat(5000), 'nothing but escapes: the whole string');
  t.equal(deltaTail(Buffer.from(`{"delta":"${'a'.repeat(5000)}`), 1000), undefined, 'an unterminated string');
  t.equal(deltaTail(Buffer.from(`{"delta":"${'a'.repeat(5000)}\u0001"}`), 1000), `${'a'.repeat(5000)}\u0001`, 'a raw control character: the whole string, as the field reader reads it');
  t.equal(deltaTail(line('x'.repeat(900), `,"pad":"${'y'.repeat(2000)}"`), 1000), 'x'.repeat(900), 'a string shorter than the cut');
  t.equal(deltaTail(line('a \\u0073k "q" \n é'), 100), 'a \\u0073k "q" \n é', 'a short string with escapes: decoded whole');
  t.equal(deltaTail(line('first', ',"delta":"second"'), 100), undefined, 'a second delta member: no answer (the general reader refuses duplicates)');
  t.equal(deltaTail(line('first'.repeat(400), ',"delta":"second"'), 100), undefined, 'the same for a long first one');
  t.equal(deltaTail(Buffer.from('{"delta":'), 100), undefined, 'a line cut after its key');
});

t.test('raw checks with context before the marker, decoded', async (t) => {
  const seen: Array<[string, number]> = [];
  const check = (text: string, at: number) => {
    seen.push([text, at]);
    return /^key-[0-9]{4}/.test(text.slice(at)) && (at === 0 || text[at - 1] !== '$');
  };
  const a = new Automaton([{ text: 'key-', check, behind: 2, ahead: 8, cuttable: true }]);
  const raw = (s: string) => a.testRaw(Buffer.from(s));
  t.ok(raw('{"a":"x key-1234"}'));
  t.same(seen.pop(), ['x key-1234', 2], 'the literal from its opening quote');
  t.notOk(raw('{"a":"x $key-1234"}'), 'the context decides');
  t.notOk(raw('{"a":"x key-12"}'));
  t.ok(raw(`{"a":"${'\\n'.repeat(30)}x key-1234 ${'y'.repeat(200)}"}`), 'escapes before, cut long after');
  t.same(seen.pop()![1] > 0, true);
  t.ok(raw(`{"a":"${'y'.repeat(40)} key-1234${'\\t'.repeat(40)}"}`), 'a window cut among escapes');
  t.notOk(raw(`{"a":"${'y'.repeat(40)}\\"$key-1234"}`), 'an escaped quote is no literal start');
  t.ok(raw('{"a":"\\ud800 key-1234"}'), 'a lone surrogate escape decodes');
  t.ok(raw('{"a":"x key-1234\\\\u0041"}'), 'a backslash left after decoding: no guess');
  const plain = new Automaton([{ text: 'key-', check: (text, at) => /^key-[0-9]{4}/.test(text.slice(at)), ahead: 8, cuttable: false }]);
  t.ok(plain.testRaw(Buffer.from('{"a":"key-1234\\n"}')), 'not cuttable: decoded');
  t.notOk(plain.testRaw(Buffer.from('{"a":"key-12\\n34"}')), 'decoded, the newline stops it');
  t.ok(plain.testRaw(Buffer.from('{"a":"key-12\\u00334"}')), 'a \\u escape is read through');
  t.ok(plain.testRaw(Buffer.from('{"a":"key-12\\x"}')), 'an invalid escape: no guess');
});

t.test('raw test: word and edge conditions refused in the loop, as at a hit', async (t) => {
  const a = new Automaton([{ text: 'sk-', edge: true }, { text: 'token', word: true }, { text: 'ghp_', edge: true, word: true }]);
  const raw = (s: string, start = 0) => a.testRaw(Buffer.from(s), start);
  t.notOk(raw('{"a":"ask-1 tokens"}'), 'a letter before, a lower-case letter after');
  t.ok(raw('{"a":"a sk-1"}'), 'a blank before');
  t.ok(raw('{"a":"sk-1"}'), 'a quote before');
  t.ok(raw('{"a":"token"}'), 'a quote after');
  t.ok(raw('{"a":"tokenX"}'), 'an upper-case letter after');
  t.ok(raw('token', 0), 'the end of the bytes after');
  t.ok(raw('{"a":"\\u0061sk-1"}'), 'an escape just before: no guess');
  t.ok(raw('{"a":"x\\nask-1"}'), 'an escape in reach before: no guess');
  t.notOk(raw('{"a":"x\\n 12345ask-1"}'), 'an escape out of reach: judged');
  t.ok(raw('\\xsk-', 2), 'bytes before the start count as they did (a backslash in reach)');
  t.notOk(raw('xxxxxxxxsk-', 8), 'a letter before the start refuses');
  t.notOk(raw('{"a":"aghp_ ghp_x"}'), 'both conditions: each refuses');
  t.ok(raw('{"a":"ghp_\\""}'), 'both conditions met');
  const shared = new Automaton([{ text: 'sk-', edge: true }, { text: 'k-' }]);
  t.ok(shared.testRaw(Buffer.from('{"a":"ask-"}')), 'a state with two outputs: the other one counts');
});

t.test('raw test: a lead run that stops early refuses in the loop, escapes decoded at every level', async (t) => {
  const run = new Uint8Array(128);
  for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789') run[ch.charCodeAt(0)] = 1;
  const checked: string[] = [];
  const a = new Automaton([
    { text: 'pat', edge: true, check: (text) => (checked.push(text), /^pat[A-Za-z0-9]{14}/.test(text)), leads: [{ text: 'pat', run, min: 14 }], ahead: 20, cuttable: true },
    { text: 'note', note: true },
  ]);
  const raw = (s: string) => a.testRaw(Buffer.from(s));
  t.notOk(raw('{"path":"x","a":"\\u003cpath\\u003e patch_journal"}'), 'runs that stop at a quote, an escape, another character');
  t.same(checked, [], 'without asking the rules');
  t.ok(raw('{"a":"patABCDEFGHIJKLMN"}'), 'a run long enough');
  t.ok(raw('{"a":"\\u0070at"}'), 'a marker spelled by an escape: no guess');
  t.ok(raw('patAB\\'), 'a backslash that ends the bytes: no guess');
  checked.length = 0;
  t.notOk(raw('patAB\\u00'), 'a cut \\u escape: the rules decide');
  t.same(checked, ['patAB']);
  t.ok(raw('{"a":"patAB\\x"}'), 'an invalid escape: no guess');
  t.ok(raw('{"a":"p\\u0061t-"}'), 'the same inside it');
  t.notOk(raw('{"a":"patABC\\"x"}'), 'an escaped quote');
  t.ok(raw('{"a":"patAB\\\\\\"x"}'), 'an escaped quote one level deeper: no guess');
  t.ok(raw('{"a":"patAB\\\\u003c"}'), 'an escaped < one level deeper: no guess');
  t.notOk(raw('{"a":"patAB\\n"}'), 'a newline');
  t.notOk(raw('{"a":"patéABCDEFGHIJKLMNOP"}'), 'a non-ASCII character');
  t.ok(raw('{"a":"patABC\\u0044EFGHIJKLMNOP"}'), 'an escape that spells a run character: decoded and checked');
  t.ok(raw('{"a":"patAB\\\\u0043DEFGHIJKLMNOP"}'), 'the same one level deeper: no guess');
  checked.length = 0;
  t.notOk(raw('patABC'), 'the bytes end first: the rules decide');
  t.same(checked, ['patABC']);
  t.notOk(raw('{"a":"patABCDEFGHIJKLM note"}'), 'one short, and a note');
  t.ok(a.noted, 'the note is seen');
});

t.test('raw test on long lines: a marker anywhere is found', async (t) => {
  const a = new Automaton([{ text: 'sk-', edge: true }, { text: 'needle' }, { text: 'token', word: true }]);
  const filler = (n: number) => 'lorem ipsum '.repeat(Math.ceil(n / 12)).slice(0, n);
  const line = (text: string) => Buffer.from(JSON.stringify({ a: text, type: 'x' }));
  const n = 2000;
  for (const at of [0, 10, n / 2 - 150, n / 2 - 3, n / 2, n / 2 + 7, n - 10]) {
    const text = filler(at) + 'needle' + filler(n - at);
    t.ok(a.testRaw(line(text)), `a marker at ${at} of ${n}`);
  }
  t.notOk(a.testRaw(line(filler(n))), 'none');
  t.notOk(a.testRaw(line(`${filler(n / 2)}tokens${filler(n / 2)}`)), 'conditions hold in either half');
  t.ok(a.testRaw(line(`${filler(n / 2 - 2)}\\u0073k-${filler(n / 2)}`)), 'an escape at the middle');
  t.ok(a.testRaw(line(`${'\n'.repeat(n)}needle`)), 'a middle of escapes: one chain');
  t.notOk(a.testRaw(line(`${'\n'.repeat(n)}x`)));
  t.ok(a.testRaw(line(`${filler(n)}\\u0073k-`)), 'an escape in the second half');
  t.ok(a.testRaw(line(`\\u0073k-${filler(n)}`)), 'an escape in the first half');
  t.notOk(a.testRaw(line(`${filler(n / 2)}\\u0041\\u0042${filler(n / 2)}`)), 'escapes that spell nothing, in both chains');
});
