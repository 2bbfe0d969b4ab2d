/**
 * The start-up entries of the binaries (scripts/bundle.mjs, lib/cli/early-answer.ts):
 * dist/bin/NAME.js answers --version, --help and -h itself, with exactly the
 * runner's text and the package's version; anything it is unsure of (more
 * arguments, a closed or full standard output) goes to the runner, which
 * answers as before. Spawned: the entry is a process's first module.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { answerEarly, MAIN_BUNDLE } from '../lib/cli/early-answer.js';
import { binPath, example, ROOT, runBin, spawnBin, untracked } from './helpers.js';

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };
const NAMES = Object.keys(pkg.bin);

t.test('every binary answers --version with the package version, --help and -h with the runner text', async (t) => {
  t.ok(NAMES.length >= 10, 'all binaries listed');
  // The entries answer without loading the bundle; what they run (lib/cli/early-answer.ts) is
  // covered in process below, so they run without tap's tracker, a binary at a time, its three
  // flags at once.
  const env = untracked();
  for (const name of NAMES) {
    const [version, ...early] = await Promise.all(['--version', '--help', '-h'].map((flag) => spawnBin(name, [flag], { env })));
    t.same(version, { stdout: `${name} ${pkg.version}\n`, stderr: '', code: 0, signal: null }, `${name} --version`);
    // The bundle's own runner, in process: what the entry's text was taken from.
    const help = await runBin(name, ['--help']);
    t.equal(help.code, 0);
    t.match(help.stdout, /^Usage: /);
    for (const [i, flag] of ['--help', '-h'].entries()) {
      t.same(early[i], { stdout: help.stdout, stderr: '', code: 0, signal: null }, `${name} ${flag}`);
    }
  }
});

t.test('the entry leaves everything else to the runner', async (t) => {
  // Two arguments: not answered early; the runner still prints the version once.
  const twice = await spawnBin('wuu-filter', ['--version', '--invert']);
  t.same(twice, { stdout: `wuu-filter ${pkg.version}\n`, stderr: '', code: 0, signal: null });
  const unknown = await spawnBin('wuu-filter', ['--versio']);
  t.equal(unknown.code, 2);
  t.match(unknown.stderr, /unknown option --versio; did you mean '--version'\?/);
  // A run loads the bundle, which runs as the program (isMain through the entry's global).
  const events = fs.readFileSync(example('run.jsonl'), 'utf8');
  const run = await spawnBin('wuu-filter', ['--count'], { input: events });
  t.equal(run.code, 0);
  t.match(run.stdout, /^total\t\d+\n$/m);
  const umbrella = await spawnBin('wuu-stream', ['filter', '--count'], { input: events });
  t.same(umbrella, run, 'the umbrella runs a tool as its binary does');
  t.equal((await spawnBin('wuu-stream', ['filter', '--version'])).stdout, `wuu-filter ${pkg.version}\n`);
});

t.test('through a symlink on PATH, and closed or full output', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-startup-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.symlinkSync(binPath('wuu-check'), path.join(dir, 'wuu-check'));
  const sh = (script: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: `${dir}:${path.dirname(process.execPath)}:${process.env.PATH}` } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  t.same(await sh('wuu-check --version'), { code: 0, stdout: `wuu-check ${pkg.version}\n`, stderr: '' }, 'a symlink answers early');
  const run = await sh(`wuu-check --quiet < ${JSON.stringify(example('run.jsonl'))}; echo "status $?"`);
  t.equal(run.stdout, 'status 0\n', 'and runs the bundle');
  const closed = await sh('wuu-check --version >&-');
  t.same(closed, { code: 1, stdout: '', stderr: 'wuu-check: write error: Bad file descriptor (standard output is closed)\n' }, 'a closed stdout: the runner reports it');
  const full = await sh('wuu-check -h > /dev/full');
  t.same(full, { code: 1, stdout: '', stderr: 'wuu-check: write error: No space left on device\n' }, '/dev/full: the runner reports it');
  t.same(await sh('wuu-check --version > /dev/null; echo "status $?"'), { code: 0, stdout: 'status 0\n', stderr: '' }, '/dev/null is fine');
});

t.test('answerEarly: exactly one known flag, written whole, else declined', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-early-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const answers = { '--version': 'x 1.2.3\n', '-h': 'help\n' };
  const file = path.join(dir, 'out');
  const fd = fs.openSync(file, 'w');
  t.equal(answerEarly(['--version'], answers, fd), true);
  t.equal(answerEarly(['-h'], answers, fd), true);
  t.equal(answerEarly([], answers, fd), false, 'no argument');
  t.equal(answerEarly(['--version', '-h'], answers, fd), false, 'two arguments');
  t.equal(answerEarly(['--help'], answers, fd), false, 'a flag without an answer');
  t.equal(answerEarly(['toString'], answers, fd), false, 'not an own key');
  fs.closeSync(fd);
  t.equal(fs.readFileSync(file, 'utf8'), 'x 1.2.3\nhelp\n');
  t.equal(answerEarly(['--version'], answers, fd), false, 'a closed descriptor: declined');
  const readWrite = fs.openSync('/dev/null', 'r+');
  t.equal(answerEarly(['--version'], answers, readWrite), false, '/dev/null read-write (a descriptor closed at start): declined');
  fs.closeSync(readWrite);
  const writeOnly = fs.openSync('/dev/null', 'w');
  t.equal(answerEarly(['--version'], answers, writeOnly), true, '/dev/null write-only: answered');
  fs.closeSync(writeOnly);
  const full = fs.openSync('/dev/full', 'w');
  t.equal(answerEarly(['--version'], answers, full), false, '/dev/full: declined, the runner reports it');
  fs.closeSync(full);
  t.equal(typeof MAIN_BUNDLE, 'symbol');
});
