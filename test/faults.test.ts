/**
 * Faults that need a real process: signals while an open is pending on a
 * FIFO nobody writes to, output into /dev/full or a closed descriptor, a
 * follow interrupted by Ctrl-C, stdin from a terminal. Readiness is read from
 * /proc/PID/status (the signal handlers are installed), never slept for.
 */
import t from 'tap';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { binPath, example } from './helpers.js';
import { inputBytes } from '../lib/cli/inputs.js';

/**
 * Spawns a binary for a signal test without tap's NODE_OPTIONS, whose
 * coverage hooks install signal handlers of their own (SigCgt would show them
 * before the tool's, and they re-raise the signal). tap puts NODE_OPTIONS back
 * into every spawn's environment, so env(1) removes it.
 */
function spawnPlain(name: string, args: string[]): ChildProcess {
  const child = spawnOwned('/usr/bin/env', ['-u', 'NODE_OPTIONS', process.execPath, binPath(name), ...args]);
  child.stdout?.resume();
  return child;
}

/**
 * Children still running. Each is spawned detached, so it leads a process
 * group of its own (a bash script's pipeline included): when a case fails
 * or times out, the teardown and the exit of this process kill the whole
 * group, and no tool is left waiting on a FIFO or a followed file.
 */
const running = new Set<ChildProcess>();

function spawnOwned(command: string, args: string[]): ChildProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  child.on('exit', () => running.delete(child));
  return child;
}

/** Kills the process group of every child still running. */
export function killRunning(children: Set<ChildProcess> = running): number {
  let killed = 0;
  for (const child of children) {
    if (child.pid === undefined) continue;
    try {
      process.kill(-child.pid, 'SIGKILL');
      killed++;
    } catch {
      // The group is gone already.
    }
  }
  children.clear();
  return killed;
}
t.teardown(() => killRunning());
process.on('exit', () => killRunning());

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-faults-'));
t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * Resolves once the runner's signal handlers are installed: node catches
 * SIGINT and SIGTERM from its start, so the sign is SIGHUP (bit 0 of SigCgt),
 * which the runner installs in the same synchronous step as the others.
 * Until the exec, the forked child shows the test runner's own handlers, so
 * its command line must name the binary first.
 */
async function handlersInstalled(child: ChildProcess): Promise<void> {
  const wanted = 1n;
  for (;;) {
    try {
      const cmdline = fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
      if (!cmdline.includes(`${path.sep}dist${path.sep}bin${path.sep}`)) {
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const caught = BigInt(`0x${/SigCgt:\s*([0-9a-f]+)/.exec(status)?.[1] ?? '0'}`);
      if ((caught & wanted) === wanted) return;
    } catch {
      return; // gone already: the exit status tells
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr })));
}

t.test('a FIFO with no writer: SIGINT, SIGTERM, SIGHUP still end the run (130, 143, 129)', async (t) => {
  for (const [name, signal, status] of [
    ['wuu-filter', 'SIGINT', 130],
    ['wuu-result', 'SIGTERM', 143],
    ['wuu-turns', 'SIGHUP', 129],
    ['wuu-usage', 'SIGINT', 130],
  ] as const) {
    // A FIFO of its own: the previous tool releases its abandoned open by
    // opening the write end for an instant, which must not reach this one.
    const fifo = path.join(dir, `fifo-${name}`);
    execFileSync('mkfifo', [fifo]);
    const child = spawnPlain(name, [fifo]);
    const done = exited(child);
    await handlersInstalled(child);
    child.kill(signal);
    const r = await done;
    t.equal(r.code, status, `${name} exits ${status} on ${signal}`);
    t.notMatch(r.stderr, /internal error|\n\s+at /, `${name}: no crash`);
  }
});

t.test('wuu-result -f interrupted by Ctrl-C exits 130, not the run status', async (t) => {
  const file = path.join(dir, 'partial.jsonl');
  fs.writeFileSync(file, fs.readFileSync(example('failed.jsonl'), 'utf8').split('\n').slice(0, 4).join('\n') + '\n');
  const child = spawnPlain('wuu-result', ['-f', file]);
  const done = exited(child);
  await handlersInstalled(child);
  child.kill('SIGINT');
  t.equal((await done).code, 130);
});

t.test('output into /dev/full, a closed pipe, a closed descriptor', async (t) => {
  const sh = (script: string) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawnOwned('bash', ['-c', script]);
      let stderr = '';
      child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
      child.stdout?.resume();
      child.on('close', (code) => resolve({ code, stderr }));
    });
  const bin = (name: string) => `"${process.execPath}" "${binPath(name)}"`;
  for (const flag of ['--help', '--version']) {
    const full = await sh(`${bin('wuu-filter')} ${flag} > /dev/full`);
    t.equal(full.code, 1, `${flag} > /dev/full: exit 1`);
    t.equal(full.stderr, 'wuu-filter: write error: No space left on device\n');
  }
  const help = await sh(`${bin('wuu-filter')} --help | (exec 0<&-; true); echo "\${PIPESTATUS[0]}" >&2`);
  t.equal(help.stderr, '0\n', '--help into a closed pipe: quiet, exit 0');
  const data = await sh(`${bin('wuu-filter')} ${example('run.jsonl')} > /dev/full`);
  t.equal(data.code, 1);
  t.equal(data.stderr, 'wuu-filter: write error: No space left on device\n');
  const closed = await sh(`${bin('wuu-filter')} ${example('run.jsonl')} >&-`);
  t.equal(closed.code, 1, 'a closed stdout is an error, as in cat');
  t.equal(closed.stderr, 'wuu-filter: write error: Bad file descriptor (standard output is closed)\n');
  const quiet = await sh(`${bin('wuu-filter')} --count=0 ${example('run.jsonl')} >&- 2>/dev/null; ${bin('wuu-result')} ${example('run.jsonl')} >&-`);
  t.equal(quiet.code, 1, 'wuu-result writes its summary: fails too');
  const fifo = await sh(`timeout 20 ${bin('wuu-filter')} --count <(cat ${example('run.jsonl')}) < /dev/null | tail -1; echo "\${PIPESTATUS[0]}" >&2`);
  t.equal(fifo.stderr, '0\n', 'a pipe input read to its end does not keep the process alive');
  const follow = await sh(`timeout 20 ${bin('wuu-filter')} -f ${example('run.jsonl')} >&-; echo "$?" >&2`);
  t.equal(follow.stderr, 'wuu-filter: write error: Bad file descriptor (standard output is closed)\n1\n', '-f into a closed stdout ends at once (the followed file is let go)');
  const devnull = await sh(`${bin('wuu-filter')} ${example('run.jsonl')} > /dev/null`);
  t.equal(devnull.code, 0, '> /dev/null is fine');
});

t.test('stdin from a terminal: a one-line hint on stderr', { skip: !fs.existsSync('/usr/bin/python3') && 'no python3 for a pty' }, async (t) => {
  // python's pty gives the tool a terminal as stdin; Ctrl-D ends the input.
  const script = `
import os, pty, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], sys.argv[2], '--count'])
out = b''
os.write(fd, b'\\x04')
while True:
    try:
        data = os.read(fd, 4096)
    except OSError:
        break
    if not data:
        break
    out += data
os.waitpid(pid, 0)
sys.stdout.write(out.decode())
`;
  const out = execFileSync('/usr/bin/python3', ['-c', script, process.execPath, binPath('wuu-filter')], { encoding: 'utf8', timeout: 20000 });
  t.match(out, "wuu-filter: reading a 'wuu exec --json' stream from the terminal (Ctrl-D ends it)");
  t.match(out, 'total\t0');
});

t.test('a child left running is killed with its whole process group', async (t) => {
  // A shell that starts a grandchild and waits: both belong to the group.
  const child = spawnOwned('bash', ['-c', 'sleep 60 & echo $!; wait']);
  const grandchild = await new Promise<number>((resolve) => child.stdout?.once('data', (c: Buffer) => resolve(Number(c.toString().trim()))));
  const done = exited(child);
  const mine = new Set([child]);
  running.delete(child);
  t.equal(killRunning(mine), 1, 'one group killed');
  t.equal((await done).signal, 'SIGKILL');
  // The grandchild went with the group: gone, or a zombie waiting for init to reap it.
  const state = await waitFor(() => processState(grandchild), (s) => s === undefined || s === 'Z');
  t.ok(state === undefined || state === 'Z', `no orphan left running (state ${state ?? 'gone'})`);
});

/** The state letter of a process (R, S, Z...) from /proc, or undefined when it is gone. */
function processState(pid: number): string | undefined {
  try {
    return /^\d+ \(.*\) (\S)/.exec(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

/** Polls `read` until `done` holds (a kill is delivered asynchronously), for at most a few seconds. */
async function waitFor<T>(read: () => T, done: (value: T) => boolean): Promise<T> {
  let value = read();
  for (let tries = 0; tries < 200 && !done(value); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    value = read();
  }
  return value;
}

t.test('inputBytes left after its first chunk lets go of its source (a followed file closes its watcher)', async (t) => {
  for (const [label, chunks] of [
    ['plain', [Buffer.from('{"type":"x"}\n'), Buffer.from('more')]],
    ['a one-byte first read', [Buffer.from('{'), Buffer.from('"type":"x"}\n'), Buffer.from('more')]],
  ] as const) {
    let released = false;
    async function* source(): AsyncGenerator<Buffer> {
      try {
        for (const chunk of chunks) yield chunk;
        await new Promise(() => {}); // a followed file that does not grow: never ends by itself
      } finally {
        released = true;
      }
    }
    const it = inputBytes(source())[Symbol.asyncIterator]();
    const first = await it.next();
    t.notOk(first.done, `${label}: a first chunk`);
    await it.return(undefined);
    t.ok(released, `${label}: the source was returned`);
  }
  let read = 0;
  async function* whole(): AsyncGenerator<Buffer> {
    yield Buffer.from('{"type":"x"}\n');
  }
  for await (const chunk of inputBytes(whole())) read += chunk.length;
  t.equal(read, 13, 'read to its end as before');
});
