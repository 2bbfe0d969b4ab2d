/**
 * What `npm pack` would publish: the built code, the man pages, the example
 * streams and the docs; nothing private (sources of tests, fixtures, CI,
 * benchmarks, snapshots, node_modules).
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { field, isEventType, numberField, stringField, type WuuEvent } from '../lib/events.js';
import { ROOT, untracked } from './helpers.js';

t.test('npm pack --dry-run ships dist/, man/ and nothing private', async (t) => {
  // --ignore-scripts: the test run has built dist/ already; do not rebuild here. npm is not our
  // code: without tap's tracker it is not watched for coverage (a few seconds of CPU).
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...untracked() } });
  t.equal(r.status, 0, r.stderr);
  const [pack] = JSON.parse(r.stdout) as Array<{ files: Array<{ path: string }> }>;
  const files = pack!.files.map((f) => f.path);
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string>; man: string[] };
  for (const bin of Object.values(pkg.bin)) t.ok(files.includes(bin), `binary ${bin}`);
  for (const page of pkg.man) t.ok(files.includes(page), `man page ${page}`);
  for (const doc of ['README.md', 'CHANGELOG.md', 'LICENSE', 'package.json', 'dist/lib/index.js', 'dist/lib/index.d.ts', 'examples/run.jsonl', 'dist/lib/redact/redact-tables.bin']) {
    t.ok(files.includes(doc), doc);
  }
  const privatePattern = /^(test|bench|\.ci|tap-snapshots|node_modules|docs|dist\/test-bin|dist\/bench|dist\/test)\/|\.test\.|^tsconfig|^\.git/;
  t.same(files.filter((f) => privatePattern.test(f)), [], 'nothing private');
  t.same(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')), [], 'no TypeScript sources');
});

t.test('the package entry exports the public API only', async (t) => {
  const api = (await import(pathToFileURL(path.join(ROOT, 'dist', 'lib', 'index.js')).href)) as Record<string, unknown>;
  const factories = ['parse', 'stringify', 'coreStream', 'filter', 'accumulate', 'turns', 'redact', 'usage', 'result', 'check', 'pretty'];
  const cores = ['createFilter', 'createAccumulate', 'createTurns', 'createRedact', 'createUsage', 'createResult', 'createCheck', 'createPretty'];
  for (const name of [...factories, ...cores, 'isEvent', 'isEventType', 'stringField', 'numberField']) t.type(api[name], 'function', `exports ${name}`);
  const internals = ['CappedText', 'OutputFold', 'UsageScanner', 'UsageLedger', 'Redactor', 'LineSplitter', 'LineRecord', 'OutputBatch', 'topLevelString', 'isJsonObject', 'parseEventBytes', 'serialize', 'serializeLine', 'createAccumulator', 'buildReport', 'renderUsage', 'parseUnitLine', 'checkBytes', 'schemaProblems', 'sanitize', 'clip', 'chooseFence'];
  t.same(internals.filter((name) => name in api), [], 'no internals');
});

t.test('typed event guards read own fields only', async (t) => {
  const event = JSON.parse('{"arguments":"{}","name":"bash","n":3,"big":1e400,"type":"tool_started"}') as WuuEvent;
  t.equal(isEventType(event, 'tool_started') ? event.name : 'no', 'bash', 'narrowed to ToolStarted');
  t.equal(isEventType(event, 'tool_completed'), false);
  t.equal(stringField(event, 'name'), 'bash');
  t.equal(stringField(event, 'n'), undefined, 'not a string');
  t.equal(numberField(event, 'n'), 3);
  t.equal(numberField(event, 'big'), undefined, 'Infinity is not a count');
  t.equal(stringField(event, 'constructor'), undefined, 'inherited members are not fields');
  t.equal(field(event, 'toString'), undefined);
});
