/**
 * The runs of test/robustness-cuts.test.ts, in a node process of their own:
 * every tool on every cut of a stream, in process there (test/runner-harness.ts),
 * the crashes found written as JSON to stdout. Why a process: tap's test
 * domains install an async hook that tracks every promise, and a run is
 * hundreds of promises, so the same runs cost about twice the CPU on the test's
 * own thread (all tools on 1-byte chunks of examples/run.jsonl: 1.3 s of CPU
 * without tap loaded, 2.2 s with it, 3.2 s inside a t.test). Not a worker
 * thread: a worker's coverage is not collected, a tracked process's is.
 *
 * Usage: node robustness-cuts-child.ts FILE CUT,CUT,...
 */
import fs from 'node:fs';
import { tools } from '../bin/wuu-stream.js';
import { runIn } from './runner-harness.js';

/** Per tool, in `tools` order: how many cuts crashed it, and the first one with its stderr. */
export interface CutsReport {
  name: string;
  crashes: number;
  first?: { cut: number; stderr: string };
}

const [file = '', list = ''] = process.argv.slice(2);
const stream = fs.readFileSync(file);
const cuts = list.split(',').map(Number);
const reports: CutsReport[] = [];
for (const spec of tools) {
  const report: CutsReport = { name: spec.name, crashes: 0 };
  for (const cut of cuts) {
    const r = await runIn(spec, [], [stream.subarray(0, cut)]);
    if (r.code === null || r.code >= 64 || /internal error/.test(r.stderr)) {
      report.crashes++;
      report.first ??= { cut, stderr: r.stderr };
    }
  }
  reports.push(report);
}
process.stdout.write(`${JSON.stringify(reports)}\n`);
