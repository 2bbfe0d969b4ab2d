/**
 * Follow mode: a file written slowly by another process is read as it grows,
 * through truncation and replacement, and the run ends by itself after the
 * stream's `result` (a second `result` within the grace is still read).
 * The tools run in process, the writer on this process's timers.
 */
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spec as filter } from '../bin/wuu-filter.js';
import { spec as result } from '../bin/wuu-result.js';
import { spec as check } from '../bin/wuu-check.js';
import { spec as pretty } from '../bin/wuu-pretty.js';
import { example, spawnBin } from './helpers.js';
import { runIn } from './runner-harness.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-follow-'));
t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
let serial = 0;

type Step = { append: string } | { truncate: true } | { replace: string } | { pause: number };

/**
 * Performs `steps` on `file`, 5 ms apart, and resolves with the number of
 * steps done. Each append is flushed at once (a line or a
 * part of one). The writer runs on this process's timers, between the reads
 * of the tool under test: the tool sees the file only through the file
 * system (its watcher and its poll), as it would see another process write.
 */
async function writer(file: string, steps: Step[]): Promise<number> {
  let done = 0;
  for (const step of steps) {
    let wait = 5;
    if ('append' in step) fs.appendFileSync(file, step.append);
    else if ('truncate' in step) fs.truncateSync(file, 0);
    else if ('replace' in step) {
      fs.writeFileSync(`${file}.new`, step.replace);
      fs.renameSync(`${file}.new`, file);
    } else wait = step.pause;
    done++;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return done;
}

function lines(name: string): string[] {
  return fs.readFileSync(example(name), 'utf8').split(/(?<=\n)/);
}

const slowly = (text: string[]): Step[] => text.map((append) => ({ append }));
const fresh = () => path.join(dir, `run-${++serial}.jsonl`);
const GRACE = { followGraceMs: 300 };

t.test('wuu-result -f waits for a run written in the background and exits with its status', async (t) => {
  for (const [name, status] of [['run.jsonl', 0], ['failed.jsonl', 3], ['timeout.jsonl', 5]] as const) {
    const file = fresh();
    fs.writeFileSync(file, '');
    const writing = writer(file, slowly(lines(name)));
    const r = await runIn(result, ['-f', file], '', GRACE);
    t.equal(r.code, status, `${name}: exit ${status}`);
    await writing;
    t.equal(fs.readFileSync(file, 'utf8'), lines(name).join(''), `${name}: the writer wrote the whole run`);
  }
});

t.test('wuu-filter -f: every line, a line written in two parts, a file that does not exist yet', async (t) => {
  const file = fresh();
  const all = lines('run.jsonl');
  const first = all[0] ?? '';
  const steps: Step[] = [{ pause: 100 }, { append: first.slice(0, 10) }, { append: first.slice(10) }, ...slowly(all.slice(1))];
  const writing = writer(file, steps);
  const r = await runIn(filter, ['-f', file], '', GRACE);
  t.equal(r.stdout, all.join(''));
  t.equal(r.code, 0);
  await writing;
});

t.test('a second result within the grace is still read; lines after the grace are not', async (t) => {
  const file = fresh();
  const all = lines('run.jsonl');
  const last = all[all.length - 1] ?? '';
  const writing = writer(file, [...slowly(all), { append: last }, { pause: 1000 }, { append: '{"type":"late"}\n' }]);
  const r = await runIn(filter, ['-f', 'result', file], '', GRACE);
  t.equal(r.stdout, `${last}${last}`, 'both results');
  t.equal(r.code, 0);
  await writing;
});

t.test('truncation and replacement (log rotation) are survived', async (t) => {
  const all = lines('run.jsonl');
  const half = all.slice(0, 10);
  const truncated = fresh();
  fs.writeFileSync(truncated, '');
  const w1 = writer(truncated, [...slowly(half), { pause: 300 }, { truncate: true }, { pause: 300 }, ...slowly(all)]);
  const r1 = await runIn(filter, ['-f', truncated], '', GRACE);
  t.equal(r1.stdout, [...half, ...all].join(''), 'after truncation the file is read from its start');
  await w1;
  const replaced = fresh();
  fs.writeFileSync(replaced, '');
  const w2 = writer(replaced, [...slowly(half), { pause: 300 }, { replace: all.slice(0, 5).join('') }, ...slowly(all.slice(5))]);
  const r2 = await runIn(filter, ['-f', replaced], '', GRACE);
  t.equal(r2.stdout, [...half, ...all].join(''), 'after replacement the new file is read');
  t.equal(r2.code, 0);
  await w2;
});

t.test('an interrupted follow ends with 130 (in process: the run is aborted)', async (t) => {
  const file = fresh();
  fs.writeFileSync(file, lines('run.jsonl').slice(0, 5).join(''));
  const stop = new AbortController();
  setTimeout(() => stop.abort(), 300);
  const r = await runIn(result, ['-f', file], '', { signal: stop.signal });
  t.equal(r.code, 130);
  t.same(r.stderr.split('\n').filter((l) => l.includes('killed')), [], 'our own stop is not a killed producer');
});

t.test('stopped by a signal during -f, wuu-check and wuu-pretty do not call the producer killed', async (t) => {
  for (const [spec, name] of [[check, 'wuu-check'], [pretty, 'wuu-pretty']] as const) {
    const file = fresh();
    fs.writeFileSync(file, lines('run.jsonl').slice(0, 5).join(''));
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 300);
    const r = await runIn(spec, ['-f', file], '', { signal: stop.signal });
    t.equal(r.code, 130, `${name} exit status`);
    const all = r.stdout + r.stderr;
    t.notMatch(all, /killed|was cut|missing-result/, `${name} does not say the producer was killed`);
    if (spec === check) t.match(r.stderr, /checked 1 file \(stopped before the end of the input: its result was not read\): 0 errors, 0 warnings/);
    else t.match(r.stdout, /■ stopped reading: no result yet/);
  }
  for (const [flag, heading] of [['--markdown', '## ■ Stopped reading: no result yet'], ['--html', '■ Stopped reading: no result yet</h2>']] as const) {
    const file = fresh();
    fs.writeFileSync(file, lines('run.jsonl').slice(0, 5).join(''));
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 300);
    const r = await runIn(pretty, [flag, '-f', file], '', { signal: stop.signal });
    t.ok(r.stdout.includes(heading), `wuu-pretty ${flag} says it stopped reading`);
  }
  // The same input read to its end without a stop is a cut run, as before.
  const file = fresh();
  fs.writeFileSync(file, lines('run.jsonl').slice(0, 5).join(''));
  const cut = await runIn(check, [file]);
  t.match(cut.stdout, /missing-result/);
  const cutView = await runIn(pretty, [file]);
  t.match(cutView.stdout, /✗ no result: the run was cut/);
});

t.test('-f on a stdin pipe that stays open (tail -f FILE | TOOL -f) ends after the result, in every tool', async (t) => {
  const run = fs.readFileSync(example('run.jsonl'));
  const tools = ['filter', 'accumulate', 'turns', 'redact', 'result', 'check', 'pretty'];
  // All at once: each waits out its grace after the result, and they do not share anything.
  // Without the fix a child waits for stdin forever; tap's timeout would fail the test.
  const ran = await Promise.all(tools.map(async (tool) => ({ tool, res: await spawnBin(`wuu-${tool}`, ['-f'], { input: run, keepStdinOpen: true }) })));
  for (const { tool, res } of ran) {
    t.equal(res.signal, null, `wuu-${tool} ended by itself`);
    t.equal(res.code, 0, `wuu-${tool} exit status`);
  }
});
