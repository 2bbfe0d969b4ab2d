/**
 * Captures the fixtures under test/fixtures/import/gemini/ from the real
 * Gemini CLI, with no real model and no key: each scenario runs
 * `gemini -p PROMPT --output-format stream-json` against the fake API of
 * ./fake-gemini-server.ts on 127.0.0.1 (GOOGLE_GEMINI_BASE_URL, a dummy
 * GEMINI_API_KEY, a temporary HOME and workspace, telemetry and update checks
 * off, outbound proxies pointed at a dead loopback port). The stream is saved
 * as the CLI wrote it; manifest.json records the CLI version, each scenario's
 * arguments and exit code. CI uses the saved files only.
 *
 *   npm install --prefix /work/tools/gemini @google/gemini-cli
 *   node --import=@tapjs/typescript/import test/import/capture-gemini.ts [GEMINI_BIN] [SCENARIO...]
 *
 * GEMINI_BIN defaults to $GEMINI_BIN or /work/tools/gemini/node_modules/.bin/gemini.
 * The interrupt scenario needs python3 (Gemini only cancels on a Ctrl+C read
 * from a terminal stdin, so the CLI gets a pseudo-terminal as stdin).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { call, done, startFakeGemini, text, type Reply } from './fake-gemini-server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = path.join(ROOT, 'test', 'fixtures', 'import', 'gemini');

/** Secrets planted in tool inputs: the tests check wuu-redact removes them. */
export const PLANTED = {
  github: 'ghp_wuuPlantedGithubToken0123456789abcd',
  aws: 'AKIAWUUPLANTED7EXAMP',
} as const;

interface Scenario {
  name: string;
  description: string;
  prompt: string;
  args?: string[];
  replies: Reply[];
  /** Extra settings merged into ~/.gemini/settings.json (given the HOME directory). */
  settings?: (home: string) => Record<string, unknown>;
  /** Files created under HOME first (policies, hook scripts). */
  homeFiles?: Record<string, string>;
  /** Files created in the workspace first. */
  files?: Record<string, string>;
  /** Send Ctrl+C through a terminal stdin once the fake server holds a stream open. */
  interrupt?: boolean;
  /** Send SIGKILL once the fake server holds a stream open (the stream is cut). */
  kill?: boolean;
  /** Run in the HOME and workspace of this earlier scenario (for --resume). */
  after?: string;
}

const FLASH = ['-m', 'gemini-2.5-flash'];

const SCENARIOS: Scenario[] = [
  {
    name: 'simple',
    description: 'a plain answer in three chunks; model `auto` (the router makes a classifier call that counts in stats)',
    prompt: 'Say hello.',
    replies: [{ chunks: [text('Hello'), text(' there! '), text('How can I help?'), done({ prompt: 8000, output: 12, cached: 6000, thoughts: 40 })] }],
  },
  {
    name: 'shell',
    description: 'two shell commands in one model response (one fails with exit 2), a command with planted secrets, then the answer',
    prompt: 'Run the build checks.',
    args: [...FLASH, '--yolo'],
    replies: [
      {
        chunks: [
          text('I will run the checks.'),
          call('run_shell_command', { command: "echo building && printf 'ok\\n'", description: 'build' }),
          call('run_shell_command', { command: 'ls /nonexistent-wuu-dir', description: 'list a missing directory' }),
          done({ prompt: 5200, output: 60, cached: 4096 }),
        ],
      },
      {
        chunks: [
          call('run_shell_command', {
            command: `GITHUB_TOKEN=${PLANTED.github} AWS_ACCESS_KEY_ID=${PLANTED.aws} sh -c 'echo deploy configured'`,
            description: 'configure deploy',
          }),
          done({ prompt: 5600, output: 40, cached: 5000 }),
        ],
      },
      { chunks: [text('The build works; '), text('`ls` failed because the directory is missing.'), done({ prompt: 6100, output: 25, cached: 5500, thoughts: 18 })] },
    ],
  },
  {
    name: 'edit',
    description: 'write_file, replace, write_todos and a read_file of a missing file (a tool error)',
    prompt: 'Create notes.txt, then fix it.',
    args: [...FLASH, '--yolo'],
    replies: [
      {
        chunks: [
          call('write_todos', {
            todos: [
              { description: 'Create notes.txt', status: 'in_progress' },
              { description: 'Fix the typo', status: 'pending' },
            ],
          }),
          done({ prompt: 4000, output: 30, cached: 0 }),
        ],
      },
      { chunks: [call('write_file', { file_path: 'notes.txt', content: 'Helo world\nsecond line\n' }), done({ prompt: 4100, output: 30, cached: 3900 })] },
      {
        chunks: [call('replace', { file_path: 'notes.txt', old_string: 'Helo world', new_string: 'Hello world', instruction: 'Fix the typo' }), done({ prompt: 4300, output: 35, cached: 4000 })],
      },
      { chunks: [call('read_file', { file_path: 'missing.txt' }), done({ prompt: 4500, output: 20, cached: 4200 })] },
      {
        chunks: [
          call('write_todos', {
            todos: [
              { description: 'Create notes.txt', status: 'completed' },
              { description: 'Fix the typo', status: 'completed' },
            ],
          }),
          done({ prompt: 4600, output: 30, cached: 4400 }),
        ],
      },
      { chunks: [text('notes.txt is written and fixed.'), done({ prompt: 4700, output: 10, cached: 4500 })] },
    ],
  },
  {
    name: 'subagent',
    description: 'invoke_agent (generalist) whose sub-agent runs a shell command and completes; only the outer call is in the stream',
    prompt: 'Investigate the repository layout with a sub-agent.',
    args: [...FLASH, '--yolo'],
    replies: [
      { chunks: [call('invoke_agent', { agent_name: 'generalist', prompt: 'List the files in the workspace and report them.' }), done({ prompt: 3000, output: 40, cached: 1000 })] },
      { chunks: [call('run_shell_command', { command: 'ls', description: 'list files' }), done({ prompt: 2000, output: 15 })] },
      { chunks: [call('complete_task', { result: { response: 'The workspace holds README.md.' } }), done({ prompt: 2100, output: 20, cached: 1500 })] },
      { chunks: [text('The sub-agent found README.md.'), done({ prompt: 3300, output: 12, cached: 2900 })] },
    ],
    files: { 'README.md': '# demo\n' },
  },
  {
    name: 'api-error',
    description: 'the API answers 400 INVALID_ARGUMENT: a fatal error result; the CLI exits with the HTTP status mod 256 (400 -> 144, handleError)',
    prompt: 'Say hello.',
    args: FLASH,
    replies: [{ httpError: { status: 400, body: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } } } }],
  },
  {
    name: 'denied',
    description: 'no --yolo: a shell command the headless policy does not allow, then the answer',
    prompt: 'Delete the build directory.',
    args: FLASH,
    replies: [
      { chunks: [call('run_shell_command', { command: 'rm -rf build', description: 'delete build' }), done({ prompt: 3000, output: 20, cached: 0 })] },
      { chunks: [text('I was not allowed to run that command.'), done({ prompt: 3200, output: 11, cached: 2900 })] },
    ],
  },
  {
    name: 'policy-deny',
    description: '--yolo, but a policy rule denies `rm -rf`: the call fails with policy_violation, the run goes on',
    prompt: 'Delete the build directory.',
    args: [...FLASH, '--yolo'],
    homeFiles: { '.gemini/policies/deny.toml': '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm -rf"\ndecision = "deny"\npriority = 100\n' },
    replies: [
      { chunks: [call('run_shell_command', { command: 'rm -rf build', description: 'delete build' }), done({ prompt: 3000, output: 20, cached: 0 })] },
      { chunks: [text('The policy does not allow that.'), done({ prompt: 3200, output: 9, cached: 2900 })] },
    ],
  },
  {
    name: 'hook-block',
    description: 'a BeforeModel hook denies the model call: a warning error event, then the run ends',
    prompt: 'Say hello.',
    args: FLASH,
    homeFiles: { 'hook.cjs': "console.log(JSON.stringify({ decision: 'deny', reason: 'Model execution blocked by security policy' }));\n" },
    settings: (home) => ({
      hooksConfig: { enabled: true },
      hooks: { BeforeModel: [{ sequential: true, hooks: [{ type: 'command', command: `node "${path.join(home, 'hook.cjs')}"`, timeout: 5000 }] }] },
    }),
    replies: [{ chunks: [text('Hello.'), done({ prompt: 1000, output: 3, cached: 0 })] }],
  },
  {
    name: 'loop',
    description: 'the model repeats one tool call: loop detection stops the run with a warning error event',
    prompt: 'Check the time.',
    args: [...FLASH, '--yolo'],
    replies: [
      ...Array.from({ length: 6 }, (_, i) => ({ chunks: [call('run_shell_command', { command: 'echo again', description: 'again' }), done({ prompt: 1000 + 100 * i, output: 10, cached: 900 })] })),
      { chunks: [text('Stopped.'), done({ prompt: 1700, output: 3, cached: 1500 })] },
    ],
  },
  {
    name: 'interrupt',
    description: 'Ctrl+C on the terminal stdin while the model streams: FatalCancellationError, exit 130',
    prompt: 'Write a long essay.',
    args: FLASH,
    replies: [{ chunks: [text('Once upon a time')], hold: true }],
    interrupt: true,
  },
  {
    name: 'interrupt-tool',
    description: 'Ctrl+C while a shell command runs (the command itself tells the wrapper when): the call ends as a success with "Command cancelled by user.", then FatalCancellationError',
    prompt: 'Run the slow job.',
    args: [...FLASH, '--yolo'],
    replies: [{ chunks: [text('Starting the job.'), call('run_shell_command', { command: 'touch "$HOME/held" && sleep 30', description: 'slow job' }), done({ prompt: 2000, output: 15, cached: 0 })] }],
    interrupt: true,
  },
  {
    name: 'killed',
    description: 'the CLI is killed (SIGKILL) while the model streams: the stream ends with no result',
    prompt: 'Write a long essay.',
    args: FLASH,
    replies: [{ chunks: [text('Once upon a time')], hold: true }],
    kill: true,
  },
  {
    name: 'max-turns',
    description: 'model.maxSessionTurns 1 and a tool call: FatalTurnLimitedError, exit 53',
    prompt: 'List the files.',
    args: [...FLASH, '--yolo'],
    settings: () => ({ model: { maxSessionTurns: 1 } }),
    replies: [
      { chunks: [call('run_shell_command', { command: 'ls', description: 'list' }), done({ prompt: 2500, output: 10, cached: 0 })] },
      { chunks: [text('Done.'), done({ prompt: 2600, output: 3, cached: 2400 })] },
    ],
  },
  {
    name: 'empty-response',
    description: 'the model returns no text at all: an invalid-stream error event and an error result',
    prompt: 'Say hello.',
    args: FLASH,
    // The CLI asks again after an empty answer (and retries): every call gets an empty one.
    replies: Array.from({ length: 8 }, () => ({ chunks: [done({ prompt: 1000, output: 0, cached: 0 })] })),
  },
  {
    name: 'resume-first',
    description: 'the first run of a session that resume continues',
    prompt: 'Remember the number 7.',
    args: FLASH,
    replies: [{ chunks: [text('I will remember 7.'), done({ prompt: 1500, output: 6, cached: 0 })] }],
  },
  {
    name: 'resume',
    description: '--resume latest: a second prompt in the session of resume-first',
    prompt: 'Which number?',
    args: [...FLASH, '--resume', 'latest'],
    after: 'resume-first',
    replies: [{ chunks: [text('The number is 7.'), done({ prompt: 1700, output: 6, cached: 1400 })] }],
  },
];

const SETTINGS = {
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  telemetry: { enabled: false },
  privacy: { usageStatisticsEnabled: false },
  security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
  ide: { enabled: false, hasSeenNudge: true },
};

/** Gemini cancels only on Ctrl+C read from a TTY stdin: give it one, press Ctrl+C when the marker file appears. */
const PTY_WRAPPER = `
import os, pty, subprocess, sys, time
marker = sys.argv[1]
m, s = pty.openpty()
p = subprocess.Popen(sys.argv[2:], stdin=s)
os.close(s)
t0 = time.time()
while not os.path.exists(marker) and time.time() - t0 < 60 and p.poll() is None:
    time.sleep(0.05)
time.sleep(0.5)
os.write(m, b'\\x03')
sys.exit(p.wait())
`;

interface Dirs {
  home: string;
  work: string;
}

async function capture(bin: string, sc: Scenario, dirs: Dirs): Promise<{ stdout: string; stderr: string; exit: number | string; log: string[] }> {
  const marker = path.join(dirs.home, 'held');
  rmSync(marker, { force: true });
  let child: ReturnType<typeof spawn> | undefined;
  const server = await startFakeGemini(sc.replies, () => {
    writeFileSync(marker, '');
    // The CLI relaunches itself in a child process: kill the whole process group.
    if (sc.kill) setTimeout(() => child?.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 500);
  });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dirs.home,
    GEMINI_CLI_HOME: dirs.home,
    GEMINI_API_KEY: 'dummy-key-for-capture',
    GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${server.port}`,
    HTTPS_PROXY: 'http://127.0.0.1:9',
    HTTP_PROXY: 'http://127.0.0.1:9',
    NO_PROXY: '127.0.0.1,localhost',
    TERM: 'dumb',
    TZ: 'UTC',
    LANG: 'C.UTF-8',
  };
  const argv = ['-p', sc.prompt, '--output-format', 'stream-json', ...(sc.args ?? [])];
  const cmd = sc.interrupt ? 'python3' : bin;
  const args = sc.interrupt ? ['-c', PTY_WRAPPER, marker, bin, ...argv] : argv;
  child = spawn(cmd, args, { cwd: dirs.work, env, stdio: [sc.interrupt ? 'inherit' : 'ignore', 'pipe', 'pipe'], detached: sc.kill === true });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const timer = setTimeout(() => child?.kill('SIGKILL'), 120_000);
  const exit = await new Promise<number | string>((resolve) => child!.on('close', (code, signal) => resolve(code ?? `signal ${signal}`)));
  clearTimeout(timer);
  await server.close();
  return { stdout, stderr, exit, log: server.log };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const bin = argv[0] !== undefined && !SCENARIOS.some((s) => s.name === argv[0]) ? argv.shift()! : (process.env.GEMINI_BIN ?? '/work/tools/gemini/node_modules/.bin/gemini');
  const only = new Set(argv);
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim();
  if (!/^\d+\.\d+\.\d+/.test(version)) throw new Error(`cannot run ${bin} --version: ${JSON.stringify(version)}`);
  mkdirSync(OUT, { recursive: true });
  const manifestPath = path.join(OUT, 'manifest.json');
  const manifest = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as { fixtures: Record<string, unknown> }) : { fixtures: {} };
  const dirsOf = new Map<string, Dirs>();
  const base = mkdtempSync(path.join(os.tmpdir(), 'wuu-gemini-capture-'));
  for (const sc of SCENARIOS) {
    if (only.size > 0 && !only.has(sc.name) && !SCENARIOS.some((s) => only.has(s.name) && s.after === sc.name)) continue;
    let dirs = sc.after !== undefined ? dirsOf.get(sc.after) : undefined;
    if (dirs === undefined) {
      dirs = { home: path.join(base, sc.name, 'home'), work: path.join(base, sc.name, 'work') };
      mkdirSync(path.join(dirs.home, '.gemini'), { recursive: true });
      mkdirSync(dirs.work, { recursive: true });
      writeFileSync(path.join(dirs.home, '.gemini', 'settings.json'), JSON.stringify({ ...SETTINGS, ...(sc.settings?.(dirs.home) ?? {}) }, null, 2));
      for (const [f, content] of Object.entries(sc.homeFiles ?? {})) {
        mkdirSync(path.dirname(path.join(dirs.home, f)), { recursive: true });
        writeFileSync(path.join(dirs.home, f), content);
      }
      for (const [f, content] of Object.entries(sc.files ?? {})) writeFileSync(path.join(dirs.work, f), content);
    }
    dirsOf.set(sc.name, dirs);
    const got = await capture(bin, sc, dirs);
    writeFileSync(path.join(OUT, `${sc.name}.jsonl`), got.stdout);
    manifest.fixtures[sc.name] = { description: sc.description, args: ['-p', sc.prompt, '--output-format', 'stream-json', ...(sc.args ?? [])], exit: got.exit };
    process.stderr.write(`${sc.name}: exit ${got.exit}, ${got.stdout.split('\n').length - 1} lines\n`);
    if (process.env.CAPTURE_VERBOSE) process.stderr.write(`  requests:\n    ${got.log.join('\n    ')}\n  stderr:\n${got.stderr}\n`);
  }
  const out = {
    cli: '@google/gemini-cli',
    version,
    captured: new Date().toISOString().slice(0, 10),
    how: 'test/import/capture-gemini.ts against test/import/fake-gemini-server.ts (no real model, dummy key)',
    fixtures: Object.fromEntries(SCENARIOS.filter((s) => s.name in manifest.fixtures).map((s) => [s.name, manifest.fixtures[s.name]])),
  };
  writeFileSync(manifestPath, `${JSON.stringify(out, null, 2)}\n`);
  rmSync(base, { recursive: true, force: true });
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`capture-gemini: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  });
}
