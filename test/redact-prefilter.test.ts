/**
 * wuu-redact's raw prefilter and lookups made cheaper for issue 21: the lead
 * a rule's match must start with (read from its pattern) refuses marker hits
 * before any text is decoded; the string automaton's scan and test are one
 * loop; workspace roots are found by length. Each refusal must be sound: a
 * line the prefilter passes over is written unchanged, and the same line
 * redacted in full changes nothing either.
 */
import t from 'tap';
import { createRedact, Redactor } from '../lib/redact/index.js';
import { leadingLiterals } from '../lib/redact/compile.js';
import { Automaton } from '../lib/redact/prefilter.js';
import { LineRecord, type Output } from '../lib/jsonl.js';

/** The leads of a pattern as `text` or `text[members]{min}`. */
function leads(pattern: string): string[] | undefined {
  return leadingLiterals(pattern)?.map(({ text, run, min }) => {
    if (run === undefined) return text;
    let members = '';
    for (let c = 0; c < 128; c++) if (run[c] === 1) members += String.fromCharCode(c);
    return `${text}[${members}]{${min}}`;
  });
}

t.test('leadingLiterals: what every match must start with, read from the pattern', async (t) => {
  t.same(leads('(?<![A-Za-z0-9])(?:SK|AC)[0-9a-f]{32}'), ['SK[0123456789abcdef]{32}', 'AC[0123456789abcdef]{32}'], 'lookbehind, alternation, class run');
  t.same(leads('(?<!x(?:a|b))pat(?![xX]{6}|\\*{4})[A-Za-z0-9]{14}\\.'), ['pat[0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz]{14}'], 'lookarounds skipped on both sides');
  t.same(leads('(?:sk\\-)[A-Za-z0-9_\\-]+'), ['sk-[-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz]{1}'], 'escaped dash: a member, not a range');
  t.same(leads('xy[a-c-]{2,}'), ['xy[-abc]{2}'], 'a trailing dash is itself');
  t.same(leads('abc?d'), ['ab'], 'a quantified character ends the literal');
  t.same(leads('abc[^x]{4}'), ['abc'], 'a negated class: no run');
  t.same(leads('abc[\\w]{4}'), ['abc'], 'a class escape: no run');
  t.same(leads('abc[a-z]*'), ['abc'], 'zero repetitions allowed: no run');
  t.same(leads('abc[a-z]{0,3}'), ['abc'], 'a minimum of zero: no run');
  t.same(leads('abc[z-a]{2}'), ['abc'], 'a reversed range: no run');
  t.same(leads('abc[é]{2}'), ['abc'], 'a non-ASCII member: no run');
  t.same(leads('abc[ab'), ['abc'], 'an unclosed class: no run');
  t.same(leads('abc(?:x)'), ['abc'], 'a group after the literal: the literal');
  t.same(leads('\\.atlas'), ['.atlas'], 'escaped punctuation is literal');
  t.equal(leads('abc|def'), undefined, 'a top-level alternation: no lead');
  t.equal(leads('(?:ab|cd)?x'), undefined, 'an optional group');
  t.equal(leads('(?:ab|)x'), undefined, 'an empty alternative');
  t.equal(leads('(?:|ab)x'), undefined, 'an empty first alternative');
  t.equal(leads('(?:a.b)x'), undefined, 'a group that is not literal');
  t.equal(leads('(?:ab'), undefined, 'an unbalanced group');
  t.equal(leads('(?<!ab'), undefined, 'an unbalanced lookbehind');
  t.equal(leads('[a-z]+x'), undefined, 'a class first');
  t.equal(leads('a?b'), undefined, 'an optional first character');
  t.equal(leads('\\d+'), undefined, 'a class escape first');
  t.equal(leads('(?<![\\]()])(x|y)'), undefined, 'a capturing group first (classes with brackets skipped)');
});

/** Runs the core over lines; the lines written. */
function redactLines(lines: string[]): string[] {
  const core = createRedact({});
  const out: Output[] = [];
  const emit = (o: Output) => out.push(o);
  lines.forEach((line, i) => core.push(new LineRecord(Buffer.from(line), 'in.jsonl', i + 1), emit));
  core.end?.(emit);
  return out.map((o) => (typeof o === 'string' ? o.replace(/\n$/, '') : (o.raw?.toString() ?? '')));
}

const HEX32 = '0123456789abcdef0123456789abcdef';
const AIRTABLE = `patR4kq9ZmW2xTj7L.${'3f9c2b7e1d4a5c6b8e0f7a9d2c4b6e8f1a3c5e7d9b0f2a4c6e8d0b1f3a5c7e9d2b'.slice(0, 64)}`;

t.test('raw test: a hit whose bytes cannot start its rules is refused, and only then', async (t) => {
  const r = new Redactor();
  const line = (s: string) => JSON.stringify({ a: s, type: 'x' });
  const cases: Array<[string, boolean, string]> = [
    ['an account, the accent, ACCESS', false, 'AC in another case or without its hex run'],
    [`ac${HEX32}`, false, 'a lower-case ac before hex'],
    [`AC${HEX32}`, true, 'a Twilio account SID'],
    [`AC${HEX32.slice(0, 10)}`, false, 'too short a hex run'],
    [`AC${HEX32.slice(0, 10)}g${HEX32}`, false, 'the run broken by a letter outside the class'],
    [`AC${HEX32.slice(0, 10)}é${HEX32}`, false, 'the run broken by a non-ASCII character'],
    ['the path to the pathos of patches', false, "Airtable's pat without its 14 characters"],
    [`x ${AIRTABLE}`, true, 'an Airtable token'],
    ['x pat', false, 'the marker at the end of the string'],
  ];
  for (const [text, expected, why] of cases) t.equal(r.mayMatchRaw(Buffer.from(line(text))), expected, why);
  // Escapes and the line's end leave the byte test no answer: the rules decide.
  t.ok(r.mayMatchRaw(Buffer.from(`{"a":"A\\u0043${HEX32}","type":"x"}`)), 'the lead spelled with an escape');
  t.ok(r.mayMatchRaw(Buffer.from(`{"a":"AC${HEX32.slice(0, 4)}\\u0030${HEX32.slice(5)}","type":"x"}`)), 'an escape inside the run');
  // A cut line leaves the lead no answer either; the rules, which need the whole token, refuse it.
  t.notOk(r.mayMatchRaw(Buffer.from(`{"a":"x AC`)), 'a cut line after the marker');
  t.notOk(r.mayMatchRaw(Buffer.from(`{"a":"x AC${HEX32.slice(0, 8)}`)), 'a cut line inside the run');
  // Sound: whatever the prefilter passes over, a full redaction leaves alone too.
  const lines = cases.map(([text]) => line(text));
  const out = redactLines(lines);
  lines.forEach((l, i) => {
    if (!r.mayMatchRaw(Buffer.from(l))) t.equal(out[i], l, `unchanged: ${l}`);
  });
  t.not(out[2], lines[2], 'the SID is redacted');
  t.not(out[7], lines[7], 'the Airtable token is redacted');
});

t.test('string automaton: scan reports every hit, test only those whose conditions hold', async (t) => {
  const a = new Automaton([{ text: '<', test: false }, { text: 'token', word: true }, { text: 'sk', edge: true }, { text: 'Ünï' }]);
  t.notOk(a.test('a <b> tokenizer, ask'), 'a scan-only pattern, a word glued to a word, a glued prefix');
  t.ok(a.test('token: x'), 'a word marker');
  t.ok(a.test('x token'), 'a word marker at the end');
  t.ok(a.test('sk-x'), 'an edge marker at the start');
  t.ok(a.test('(sk-x'), 'an edge marker after punctuation');
  t.ok(a.test('é sk'), 'after non-ASCII text');
  t.ok(a.test('x üNÏ y'), 'non-ASCII case variants');
  a.scan('a <b> tokenizer, ask token');
  const found: Array<[number, number]> = [];
  for (let h = 0; h < a.hitCount; h++) found.push([a.hits[2 * h] ?? -1, a.hits[2 * h + 1] ?? -1]);
  t.same(found, [[3, 0], [11, 1], [20, 2], [26, 1]], 'every occurrence, conditions not applied');
  a.test('token');
  t.equal(a.hitCount, 4, 'a test leaves the last scan alone');
  a.scan('x'.repeat(10) + 'sk'.repeat(300), 10);
  t.equal(a.hitCount, 300, 'the hit table grows');
});

t.test('workspace roots: the longest that no name continues, among hundreds sharing a prefix', async (t) => {
  const r = new Redactor();
  for (let i = 0; i < 200; i++) r.learnWorkspace(`/home/carol/src/proj${i}`);
  r.learnWorkspace('/home/carol/src/proj1/sub');
  r.learnWorkspace('/w/a');
  r.learnWorkspace('/w/a/b');
  r.learnWorkspace('/w/a/b/');
  r.learnWorkspace('/home/carol/src/proj7');
  const hits: string[] = [];
  t.equal(r.text('cd /home/carol/src/proj1/sub/x', hits), 'cd <workspace>/x', 'the longest root');
  t.equal(r.text('cd /home/carol/src/proj1/subway', hits), 'cd <workspace>/subway', 'a root continued by a name: the shorter one');
  t.equal(r.text('at /home/carol/src/proj12.', hits), 'at <workspace>.', 'a root before punctuation');
  t.equal(r.text('at /home/carol/src/proj1.old', hits), 'at ~/src/proj1.old', 'continued by a name after a dot: not the workspace');
  t.equal(r.text('in /w/a/b/c and /w/a!', hits), 'in <workspace>/c and <workspace>!', 'short roots, longest first');
  t.equal(r.text('x/w/a', hits), 'x/w/a', 'glued to a word: no edge');
  t.equal(r.text('/home/carol/src/proj199 /home/carol/src/proj200', hits), '<workspace> ~/src/proj200', 'learned and not learned');
  for (let i = 200; i < 400; i++) r.learnWorkspace(`/home/carol/src/proj${i}`);
  t.equal(r.text('/home/carol/src/proj251 /home/carol/src/proj399', hits), '<workspace> ~/src/proj399', 'at most 256 roots');
});

/**
 * The textbook construction of an automaton's transitions, for the test below:
 * the trie by insertion order, each state's transition on a class found by
 * chasing failure links, a target with outputs complemented.
 */
function textbookDelta(texts: readonly string[], classOf: (code: number) => number, classes: number, stride: number): Int32Array {
  const children: Array<Map<number, number>> = [new Map()];
  const own: boolean[] = [false];
  for (const text of texts) {
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const cls = classOf(text.charCodeAt(i));
      let next = children[state]!.get(cls);
      if (next === undefined) {
        next = children.length;
        children.push(new Map());
        own.push(false);
        children[state]!.set(cls, next);
      }
      state = next;
    }
    own[state] = true;
  }
  const fail = new Array<number>(children.length).fill(0);
  const marked = [...own];
  const order: number[] = [];
  const queue = [...children[0]!.values()];
  while (queue.length > 0) {
    const state = queue.shift()!;
    order.push(state);
    for (const [cls, child] of children[state]!) {
      let f = fail[state]!;
      while (f !== 0 && !children[f]!.has(cls)) f = fail[f]!;
      fail[child] = children[f]!.get(cls) ?? 0;
      queue.push(child);
    }
  }
  for (const state of order) marked[state] = marked[state]! || marked[fail[state]!]!;
  const go = (state: number, cls: number): number => {
    for (let s = state; ; s = fail[s]!) {
      const next = children[s]!.get(cls);
      if (next !== undefined) return next;
      if (s === 0) return 0;
    }
  };
  const delta = new Int32Array(children.length * stride);
  for (let state = 0; state < children.length; state++) {
    for (let cls = 0; cls < classes; cls++) {
      const target = go(state, cls);
      delta[state * stride + cls] = marked[target] ? ~(target * stride) : target * stride;
    }
    delta[state * stride + classes] = -0x80000000;
  }
  return delta;
}

t.test('automaton tables: rows copied breadth first are the textbook construction', async (t) => {
  const sets: string[][] = [
    ['he', 'she', 'his', 'hers'],
    ['sk', 'sk-', 'ask', 'task', 'k-', '-'],
    ['aaaa', 'aa', 'a', 'baaa', 'ab'],
    ['token', 'tokens', 'oken', 'ken', 'en', 'auth', 'author', 'thor'],
  ];
  // A fixed pseudo-random set over a small alphabet: many shared prefixes and suffixes.
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
  const words: string[] = [];
  for (let n = 0; n < 200; n++) {
    let w = '';
    const length = 1 + Math.floor(random() * 7);
    for (let i = 0; i < length; i++) w += 'abcAB-_'[Math.floor(random() * 7)];
    words.push(w);
  }
  sets.push(words);
  for (const texts of sets) {
    const a = new Automaton(texts.map((text) => ({ text })));
    const inner = a as unknown as { delta: Int32Array; classes: number; meta: number; low: Uint8Array };
    const classes = inner.meta - 1;
    const want = textbookDelta(texts, (code) => inner.low[code >= 0x41 && code <= 0x5a ? code + 32 : code] ?? 0, classes, inner.classes);
    const got = Int32Array.from(inner.delta);
    for (let row = 0; row < got.length; row += inner.classes) got[row + inner.meta] = 0; // quick refusals: not transitions
    t.same([...got], [...want], `${texts.length} patterns: the same transitions`);
  }
});
