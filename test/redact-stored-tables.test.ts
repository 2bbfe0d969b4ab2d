/**
 * wuu-redact's stored default tables (lib/redact/stored-tables.ts, issue 21):
 * the build writes the raw test's patterns and the automata of the default
 * rules as bytes, and a run takes them instead of building them. Taken, they
 * must be the very tables a build makes (same automata, same patterns, same
 * verdicts), and tables that do not fit the rules compiled are not taken.
 */
import fs from 'node:fs';
import t from 'tap';
import { buildRules, storedOf, type Built, type Spec } from '../lib/redact/compile.js';
import { defaultTablesBytes, fixedSpecs } from '../lib/redact/engine.js';
import { decodeTables, encodeTables } from '../lib/redact/stored-tables.js';
import { Automaton, type AutomatonData } from '../lib/redact/prefilter.js';
import { JsonTrack } from '../lib/redact/json-track.js';

const specs = fixedSpecs(true, 'home', []);

/** An automaton's data with its arrays as plain lists (comparable with t.same). */
function plain(data: AutomatonData | undefined): unknown {
  if (data === undefined) return undefined;
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, ArrayBuffer.isView(v) ? Array.from(v as Uint8Array) : v]));
}

/** What a Built's tables are, as data. */
function tablesOf(built: Built): unknown {
  const stored = storedOf([], built);
  return { ...stored, markers: plain(stored.markers), rawTest: plain(stored.rawTest), anchors: plain(stored.anchors), raw: JSON.stringify(stored.raw, (_k, v: unknown) => (v instanceof Uint8Array ? Array.from(v) : v)) };
}

const LINES = [
  '{"type":"item.completed","item":{"text":"key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789 here"}}',
  '{"type":"item.completed","item":{"text":"token: ghp_abcdefghijklmnopqrstuvwxyz0123456789"}}',
  '{"type":"item.completed","item":{"text":"nothing at all to see, just words"}}',
  '{"type":"item.completed","item":{"text":"/home/alice/src and mail bob@example.com"}}',
  '{"type":"item.completed","item":{"text":"AKIAABCDEFGHIJKLMNOP \\u0073k-abc \\/ x"}}',
  '{"type":"x","password":"hunter2","bearer":"Bearer abc.def.ghi"}',
];

/** The verdicts of a Built's automata on some lines. */
function verdicts(built: Built): unknown[] {
  const out: unknown[] = [];
  for (const line of LINES) {
    const bytes = Buffer.from(line, 'utf8');
    out.push(built.rawTest?.testRaw(bytes), built.rawTest?.noted);
    out.push(built.rawTest?.proveRaw(bytes, 0, bytes.length, new JsonTrack()));
    built.markers.scan(line);
    out.push(Array.from(built.markers.hits.subarray(0, built.markers.hitCount * 2)));
    out.push(built.anchors?.clearTail(bytes, 0, bytes.length));
  }
  return out;
}

t.test('the stored default tables are the tables a build makes', async (t) => {
  const fresh = buildRules(specs);
  const decoded = decodeTables(defaultTablesBytes());
  t.ok(decoded, 'the bytes decode');
  const taken = buildRules(specs, decoded!.stored);
  t.not(taken.rawTest, fresh.rawTest);
  t.same(tablesOf(taken), tablesOf(fresh), 'same automata and raw patterns');
  t.same(verdicts(taken), verdicts(fresh), 'same verdicts');
  t.equal(taken.freeReach, fresh.freeReach, 'free reach');
  t.same(taken.freeEnds, fresh.freeEnds, 'free ends');
  t.equal(taken.rawPatterns.filter((p) => p.check !== undefined).length, fresh.rawPatterns.filter((p) => p.check !== undefined).length, 'the same patterns check');
});

t.test('the build wrote the tables a fresh build makes', async (t) => {
  const file = new URL('../dist/lib/redact/redact-tables.bin', import.meta.url);
  if (!fs.existsSync(file)) {
    t.pass('no build to compare (npm run build writes dist/lib/redact/redact-tables.bin)');
    return;
  }
  t.ok(Buffer.from(defaultTablesBytes()).equals(fs.readFileSync(file)), 'byte for byte');
});

t.test('tables that do not fit the rules are built instead', async (t) => {
  const stored = decodeTables(defaultTablesBytes())!.stored;
  const user = fixedSpecs(true, 'home', [{ name: 'mine', pattern: 'zq[0-9]{6}', markers: ['zq'] }]);
  const fresh = buildRules(user);
  t.same(tablesOf(buildRules(user, stored)), tablesOf(fresh), 'a user rule: built');
  const other = { ...stored, markerTexts: stored.markerTexts.map((m, i) => (i === 1 ? `${m}x` : m)) };
  t.same(tablesOf(buildRules(specs, other)), tablesOf(buildRules(specs)), 'another marker list: built');
  t.same(tablesOf(buildRules(specs, { ...stored, rules: stored.rules + 1 })), tablesOf(buildRules(specs)), 'another rule count: built');
  const changed = specs.map((s, i) => (i === 0 ? { ...s, partial: `${s.partial ?? ''}x` } : s));
  const edges = { ...stored, partialEdges: stored.partialEdges.map(() => false), freeReach: 1 };
  t.same(tablesOf(buildRules(changed, edges)), tablesOf(buildRules(changed)), 'specs changed (markers alike): built');
});

t.test('bytes that are not stored tables decode to nothing', async (t) => {
  t.equal(decodeTables(new Uint8Array(0)), undefined, 'empty');
  t.equal(decodeTables(Buffer.from('WRT2....{}')), undefined, 'another layout');
  const bytes = Buffer.from(defaultTablesBytes());
  t.equal(decodeTables(bytes.subarray(0, 200)), undefined, 'cut short');
  const bad = Buffer.from(bytes);
  bad.writeUInt32LE(3, 4);
  t.equal(decodeTables(bad), undefined, 'a header that is not JSON');
  const text = bytes.toString('latin1');
  const damaged = Buffer.from(text.replace('"delta":["i32",', '"delta":["i32",4+'), 'latin1');
  t.equal(decodeTables(damaged), undefined, 'a header that no longer parses');
  const shifted = Buffer.from(text.replace(/"outIds":\["i32",(\d+),(\d+)\]/, (_m, at: string, n: string) => `"outIds":["i32",${at},${String(Number(n) - 1).padStart(n.length, '0')}]`), 'latin1');
  t.equal(decodeTables(shifted), undefined, 'an automaton whose arrays do not fit together');
  const unaligned = Buffer.concat([Buffer.alloc(1), bytes]).subarray(1);
  t.same(plain(decodeTables(unaligned)?.stored.markers), plain(decodeTables(bytes)?.stored.markers), 'an unaligned copy reads the same');
  const one: Spec[] = [{ name: 'a', pattern: 'abc', markers: ['abc'], kind: 'secret', builtin: true }];
  const small = encodeTables('k', storedOf(one, buildRules(one)));
  t.equal(decodeTables(small)?.key, 'k', 'a small table keeps its key');
  t.ok(new Automaton([{ text: 'abc' }], decodeTables(small)!.stored.markers).patterns.length === 1);
});
