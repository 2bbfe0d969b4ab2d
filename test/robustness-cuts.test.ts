/**
 * Proof under abuse, the cut part of test/robustness.test.ts (a file of its
 * own so that tap runs it beside the rest): a stream cut at any byte never
 * crashes a tool. "No crash" means: the run settles, no internal error on
 * stderr, and an exit status the tool documents (below 64).
 */
import t from 'tap';
import fs from 'node:fs';
import { tools } from '../bin/wuu-stream.js';
import { example, FC_SEED } from './helpers.js';
import { runIn } from './runner-harness.js';

const TIMEOUT = fs.readFileSync(example('timeout.jsonl'));

/** A small seeded generator (mulberry32): the same positions on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), a | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** How many cuts inside the other lines are drawn (fixed seed) on top of the positions every run covers. */
const CUT_SAMPLE = 160;

/**
 * Where to cut `bytes` (sorted, distinct, 0..length). What a cut can change
 * for a tool is (a) how many whole lines came before it and (b) what the
 * cut-off last line looks like to the line rules and to a core that sees bad
 * lines itself (wuu-check gets their bytes). For (a), every line boundary is
 * cut at and around: the whole JSON without its newline, its '}' missing,
 * nothing of the next line, a lone '{', '{"'. For (b), every byte of three
 * lines that between them hold every place in a JSON text a cut can fall
 * into: nested objects, numbers, empty strings (the first line), escaped
 * quotes inside a string (the first line with a backslash), and the `result`
 * line, the one the summary tools wait for. The other lines differ from those
 * only in the letters of their strings; a fixed-seed sample of
 * {@link CUT_SAMPLE} positions among them checks that. WUU_CUTS=all cuts at
 * every byte, as the suite once did for every run.
 */
function cutPositions(bytes: Buffer, every = process.env.WUU_CUTS === 'all'): number[] {
  if (every) return Array.from({ length: bytes.length + 1 }, (_, i) => i);
  const starts = [0];
  for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, at + 1)) starts.push(at + 1);
  const lines = starts.slice(0, -1).map((start, i) => ({ start, end: starts[i + 1]! })); // end: after the newline
  const chosen = new Set<number>();
  const add = (at: number) => {
    if (at >= 0 && at <= bytes.length) chosen.add(at);
  };
  for (const { start, end } of lines) for (const at of [start, start + 1, start + 2, end - 2, end - 1, end]) add(at);
  const escaped = lines.find(({ start, end }) => bytes.subarray(start, end).includes(0x5c));
  const whole = [lines[0], escaped, lines.at(-1)].filter((line) => line !== undefined);
  for (const { start, end } of whole) for (let at = start; at <= end; at++) add(at);
  const rest = Array.from({ length: bytes.length + 1 }, (_, i) => i).filter((at) => !chosen.has(at));
  const random = seeded(FC_SEED);
  for (let i = 0; i < CUT_SAMPLE && rest.length > 0; i++) add(rest.splice(Math.floor(random() * rest.length), 1)[0]!);
  return [...chosen].sort((a, b) => a - b);
}

t.test('cut positions: every line boundary and its neighbours, three lines whole, a fixed sample of the rest', async (t) => {
  const cuts = cutPositions(TIMEOUT);
  const again = cutPositions(TIMEOUT);
  t.same(again, cuts, 'the same positions on every run');
  t.equal(cutPositions(TIMEOUT, true).length, TIMEOUT.length + 1, 'WUU_CUTS=all: every byte');
  const newlines = [...TIMEOUT.entries()].filter(([, byte]) => byte === 0x0a).map(([at]) => at);
  t.equal(newlines.length, 10, 'timeout.jsonl has 10 lines');
  const boundaries = newlines.flatMap((nl) => [nl - 1, nl, nl + 1, nl + 2, nl + 3].filter((at) => at <= TIMEOUT.length));
  t.same(boundaries.filter((at) => !cuts.includes(at)), [], 'every boundary and its neighbours');
  const firstLine = Array.from({ length: newlines[0]! + 2 }, (_, i) => i);
  const lastLine = Array.from({ length: TIMEOUT.length - newlines[8]! }, (_, i) => newlines[8]! + 1 + i);
  t.same([...firstLine, ...lastLine].filter((at) => !cuts.includes(at)), [], 'every byte of the first and the result line');
  t.ok(cuts.length >= 778 + CUT_SAMPLE && cuts.length < TIMEOUT.length, `${cuts.length} of ${TIMEOUT.length + 1} positions`);
});

t.test('a stream cut at a byte boundary never crashes a tool', async (t) => {
  const cuts = cutPositions(TIMEOUT);
  for (const spec of tools) {
    let crashes = 0;
    for (const cut of cuts) {
      const r = await runIn(spec, [], [TIMEOUT.subarray(0, cut)]);
      if (r.code === null || r.code >= 64 || /internal error/.test(r.stderr)) {
        crashes++;
        if (crashes === 1) t.fail(`${spec.name} crashed on a cut at byte ${cut}`, { stderr: r.stderr });
      }
    }
    t.equal(crashes, 0, `${spec.name}: ${cuts.length} cuts`);
  }
});
