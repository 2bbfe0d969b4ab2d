/**
 * Re-captures the Claude Code fixtures of test/fixtures/import/claude/ from
 * the real CLI, driven against the fake Messages API of fake-anthropic.ts on
 * 127.0.0.1: no model, no key, no network.
 *
 *   npm install --prefix /work/tools/claude @anthropic-ai/claude-code
 *   node --import=@tapjs/typescript/import test/import/capture-claude.ts \
 *     [--claude PATH] [SCENARIO...]
 *
 * PATH defaults to $CLAUDE_BIN, else the native binary the npm package
 * installs under /work/tools/claude (the agent SDK's bundled binary,
 * @anthropic-ai/claude-agent-sdk-linux-x64, works the same). Each scenario
 * writes VERSION/NAME.jsonl (the CLI's stdout, byte for byte) and
 * VERSION/NAME.meta.json (CLI version, argv, exit status, stderr, the fake
 * server's request log). The temp HOME and working
 * directory sit at fixed paths under /tmp so a re-capture changes only what
 * the CLI changed. CI never runs this: it reads the checked-in fixtures.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeAnthropic, type FakeReply, type FakeRequest, type FakeScript } from './fake-anthropic.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.resolve(HERE, '..', 'fixtures', 'import', 'claude');
const BASE = '/tmp/wuu-claude-capture';

/** A secret planted in tool input: wuu-redact must remove it (fake, the shape of an Anthropic key). */
export const PLANTED_KEY = 'sk-ant-api03-' + 'Zq7xW2mK9pL4vN8rT1yB6cD3fG5hJ0kS'.repeat(3) + 'Ab1Cd2Ef3Gh4Ij5-Xy_ZAA';
/** A second planted secret, an AWS access key id (the AWS documentation's example shape). */
export const PLANTED_AWS = 'AKIA' + 'J7QWERTY5ZXCV2NM';

interface Scenario {
  /** Fixture base name. */
  name: string;
  prompt: string;
  /** Extra CLI flags. */
  args?: string[];
  script: FakeScript;
  /** Files to create in the working directory first. */
  files?: Record<string, string>;
  /** Files to create in the temp HOME first. */
  homeFiles?: Record<string, string>;
  /** Extra environment (e.g. a feature switch the scenario needs). */
  env?: NodeJS.ProcessEnv;
  /** Prompts fed on stdin as stream-json user messages (`--input-format stream-json`), instead of `prompt`. */
  stdinPrompts?: string[];
  /** Send SIGINT once stdout has this many lines. */
  interruptAfterLines?: number;
  /** Runs first in the same HOME and working directory; `resume` names its session. */
  before?: { prompt: string; script: FakeScript; args?: string[] };
  resume?: boolean;
}

const text = (t: string): FakeReply => ({ blocks: [{ type: 'text', text: t }] });
const answered = (req: FakeRequest, id: string) => req.toolResults.some((r) => r.tool_use_id === id);
const isSub = (req: FakeRequest) => req.firstUserText.includes('SUBTASK:') && !req.firstUserText.includes('helper agent');

const SCENARIOS: Scenario[] = [
  {
    name: 'simple',
    prompt: 'What is 2+2? Answer briefly.',
    script: () => text('2 + 2 = 4. That is the whole answer — nothing more to it.'),
  },
  {
    name: 'simple-partial',
    prompt: 'What is 2+2? Answer briefly.',
    args: ['--include-partial-messages'],
    script: () => text('2 + 2 = 4. That is the whole answer <really> & nothing more.'),
  },
  {
    name: 'shell',
    prompt: 'List the files, then look at a directory that does not exist.',
    args: ['--include-partial-messages', '--allowedTools', 'Bash'],
    files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' },
    script: (req) => {
      if (answered(req, 'toolu_shell_2')) return text('The listing worked; the second command failed with exit code 2 because the directory is missing.');
      if (answered(req, 'toolu_shell_1'))
        return { blocks: [{ type: 'tool_use', id: 'toolu_shell_2', name: 'Bash', input: { command: 'ls /nonexistent-dir', description: 'List a missing directory' } }] };
      return {
        blocks: [
          { type: 'text', text: 'I will list the files first.' },
          {
            type: 'tool_use',
            id: 'toolu_shell_1',
            name: 'Bash',
            input: { command: `export API_TOKEN=${PLANTED_KEY} AWS_ACCESS_KEY_ID=${PLANTED_AWS}; ls -1 && echo done`, description: 'List files' },
          },
        ],
      };
    },
  },
  {
    name: 'edit',
    prompt: 'Create notes.md, then fix its typo, and track the work in a todo list.',
    args: ['--permission-mode', 'acceptEdits', '--allowedTools', 'Write Edit TodoWrite'],
    // 2.1.3xx offers TaskCreate/TaskUpdate instead of TodoWrite unless the todo tools are switched on.
    env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: '1', CLAUDE_CODE_ENABLE_TASKS: '0' },
    script: (req) => {
      if (answered(req, 'toolu_edit_4')) return text('Created notes.md and fixed the typo.');
      if (answered(req, 'toolu_edit_3'))
        return {
          blocks: [
            {
              type: 'tool_use',
              id: 'toolu_edit_4',
              name: 'TodoWrite',
              input: { todos: [{ content: 'Create notes.md', status: 'completed', activeForm: 'Creating notes.md' }, { content: 'Fix the typo', status: 'completed', activeForm: 'Fixing the typo' }] },
            },
          ],
        };
      if (answered(req, 'toolu_edit_2'))
        return { blocks: [{ type: 'tool_use', id: 'toolu_edit_3', name: 'Edit', input: { file_path: `${BASE}/edit/work/notes.md`, old_string: 'teh', new_string: 'the' } }] };
      if (answered(req, 'toolu_edit_1'))
        return { blocks: [{ type: 'tool_use', id: 'toolu_edit_2', name: 'Write', input: { file_path: `${BASE}/edit/work/notes.md`, content: '# Notes\n\nteh first note\n' } }] };
      return {
        blocks: [
          {
            type: 'tool_use',
            id: 'toolu_edit_1',
            name: 'TodoWrite',
            input: { todos: [{ content: 'Create notes.md', status: 'in_progress', activeForm: 'Creating notes.md' }, { content: 'Fix the typo', status: 'pending', activeForm: 'Fixing the typo' }] },
          },
        ],
      };
    },
  },
  {
    name: 'subagent',
    prompt: 'Ask a helper agent to count the files.',
    args: ['--include-partial-messages', '--allowedTools', 'Bash Agent'],
    files: { 'a.txt': 'alpha\n' },
    script: (req) => {
      if (isSub(req)) {
        if (answered(req, 'toolu_sub_bash')) return text('There is 1 file: a.txt.');
        return { blocks: [{ type: 'tool_use', id: 'toolu_sub_bash', name: 'Bash', input: { command: 'ls -1 | wc -l', description: 'Count files' } }] };
      }
      if (req.lastUserText.includes('task-notification') || req.lastUserText.includes('There is 1 file')) return text('The helper agent found 1 file (a.txt).');
      if (answered(req, 'toolu_main_agent')) return text('I started a helper agent; it will report back.');
      return {
        blocks: [
          {
            type: 'tool_use',
            id: 'toolu_main_agent',
            name: 'Agent',
            input: { description: 'Count files', prompt: 'SUBTASK: count the files in the current directory with ls.', subagent_type: 'general-purpose' },
          },
        ],
      };
    },
  },
  {
    name: 'subagent-fg',
    prompt: 'Ask a helper agent to count the files and wait for it.',
    args: ['--allowedTools', 'Bash Agent'],
    files: { 'a.txt': 'alpha\n' },
    script: (req) => {
      if (isSub(req)) {
        if (answered(req, 'toolu_sub_bash')) return text('There is 1 file: a.txt.');
        return { blocks: [{ type: 'tool_use', id: 'toolu_sub_bash', name: 'Bash', input: { command: 'ls -1 | wc -l', description: 'Count files' } }] };
      }
      if (answered(req, 'toolu_main_agent')) return text('The helper agent found 1 file (a.txt).');
      return {
        blocks: [
          {
            type: 'tool_use',
            id: 'toolu_main_agent',
            name: 'Agent',
            input: { description: 'Count files', prompt: 'SUBTASK: count the files in the current directory with ls.', subagent_type: 'general-purpose', run_in_background: false },
          },
        ],
      };
    },
  },
  {
    name: 'multi-agent',
    prompt: 'Ask two helper agents to count files and lines.',
    args: ['--allowedTools', 'Bash Agent'],
    files: { 'a.txt': 'alpha\nbeta\n' },
    script: (req) => {
      if (req.firstUserText.includes('SUBTASK A:')) {
        if (answered(req, 'toolu_sub_a')) return text('There is 1 file.');
        return { blocks: [{ type: 'tool_use', id: 'toolu_sub_a', name: 'Bash', input: { command: 'ls -1 | wc -l', description: 'Count files' } }] };
      }
      if (req.firstUserText.includes('SUBTASK B:')) {
        if (answered(req, 'toolu_sub_b')) return text('a.txt has 2 lines.');
        return { blocks: [{ type: 'tool_use', id: 'toolu_sub_b', name: 'Bash', input: { command: 'wc -l a.txt', description: 'Count lines' } }] };
      }
      if (req.lastUserText.includes('task-notification')) return text('Both helpers reported back.');
      if (answered(req, 'toolu_agent_a') || answered(req, 'toolu_agent_b')) return text('Two helpers are working.');
      return {
        blocks: [
          { type: 'tool_use', id: 'toolu_agent_a', name: 'Agent', input: { description: 'Count files', prompt: 'SUBTASK A: count the files.', subagent_type: 'general-purpose' } },
          { type: 'tool_use', id: 'toolu_agent_b', name: 'Agent', input: { description: 'Count lines', prompt: 'SUBTASK B: count the lines of a.txt.', subagent_type: 'general-purpose' } },
        ],
      };
    },
  },
  {
    name: 'bg-bash',
    prompt: 'Run a slow command in the background.',
    args: ['--allowedTools', 'Bash'],
    script: (req) => {
      if (req.lastUserText.includes('task-notification') || req.lastUserText.includes('completed')) return text('The background command finished.');
      if (answered(req, 'toolu_bg_1')) return text('The command runs in the background.');
      return { blocks: [{ type: 'tool_use', id: 'toolu_bg_1', name: 'Bash', input: { command: 'sleep 1; echo finished', description: 'Sleep then print', run_in_background: true } }] };
    },
  },
  {
    name: 'interrupt-tool',
    prompt: 'Wait a long time.',
    args: ['--allowedTools', 'Bash'],
    interruptAfterLines: 2,
    script: (req) => {
      if (answered(req, 'toolu_slow_1')) return text('Done waiting.');
      return { blocks: [{ type: 'tool_use', id: 'toolu_slow_1', name: 'Bash', input: { command: 'sleep 20 && echo slept', description: 'Wait' } }] };
    },
  },
  {
    name: 'api-error',
    prompt: 'Say hello.',
    script: () => ({ status: 400, errorType: 'invalid_request_error', message: 'messages: the fake server refuses this request' }),
  },
  {
    name: 'api-retry',
    prompt: 'Say hello.',
    script: (req) => (req.index === 0 ? { status: 529, errorType: 'overloaded_error', message: 'Overloaded' } : text('Hello after a retry.')),
  },
  {
    name: 'denied',
    prompt: 'Create a file with touch.',
    script: (req) => {
      if (answered(req, 'toolu_denied_1')) return text('I was not allowed to run touch, so nothing was created.');
      return { blocks: [{ type: 'tool_use', id: 'toolu_denied_1', name: 'Bash', input: { command: 'touch created-by-claude.txt', description: 'Create a file' } }] };
    },
  },
  {
    name: 'max-turns',
    prompt: 'List the files.',
    args: ['--max-turns', '1', '--allowedTools', 'Bash'],
    script: (req) => {
      if (answered(req, 'toolu_max_1')) return text('Done.');
      return { blocks: [{ type: 'tool_use', id: 'toolu_max_1', name: 'Bash', input: { command: 'ls -1', description: 'List files' } }] };
    },
  },
  {
    name: 'interrupt',
    prompt: 'Write a long essay.',
    args: ['--include-partial-messages'],
    interruptAfterLines: 4,
    script: () => ({ blocks: [{ type: 'text', text: 'This essay begins slowly and never gets to the end because the user stops it.' }], hang: true }),
  },
  {
    // A config file that does not parse: Claude Code refuses to start and writes one zeroed result.
    name: 'startup-failure',
    prompt: 'Say hello.',
    homeFiles: { '.claude.json': '{ not json' },
    script: () => text('never asked'),
  },
  {
    name: 'stdin-turns',
    prompt: '',
    stdinPrompts: ['What is 2+2?', 'And 3+3?'],
    script: (req) => (req.lastUserText.includes('3+3') ? text('6.') : text('4.')),
  },
  {
    name: 'resume',
    prompt: 'And what is 3+3?',
    resume: true,
    before: { prompt: 'What is 2+2?', script: () => text('4.') },
    script: () => text('3 + 3 = 6.'),
  },
];

function env(home: string, url: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: 'sk-ant-dummy-not-a-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    // Anything not meant for the fake goes to a dead loopback port.
    HTTPS_PROXY: 'http://127.0.0.1:9',
    HTTP_PROXY: 'http://127.0.0.1:9',
    NO_PROXY: '127.0.0.1,localhost',
  };
}

interface Ran {
  stdout: string;
  stderr: string;
  code: number | null;
  signal: string | null;
}

function runClaude(bin: string, args: string[], cwd: string, environment: NodeJS.ProcessEnv, interruptAfterLines?: number, stdinPrompts?: string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd, env: environment, stdio: [stdinPrompts === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (stdinPrompts !== undefined) {
      for (const prompt of stdinPrompts) child.stdin!.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: prompt } })}\n`);
      child.stdin!.end();
    }
    let stdout = '';
    let stderr = '';
    let sent = false;
    const killer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
      if (interruptAfterLines !== undefined && !sent && stdout.split('\n').length - 1 >= interruptAfterLines) {
        sent = true;
        setTimeout(() => child.kill('SIGINT'), 300);
      }
    });
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ stdout, stderr, code, signal });
    });
  });
}

const BASE_ARGS = ['-p', '--output-format', 'stream-json', '--verbose', '--model', 'claude-sonnet-4-5'];

async function capture(bin: string, version: string, out: string, scenario: Scenario): Promise<void> {
  const dir = path.join(BASE, scenario.name);
  fs.rmSync(dir, { recursive: true, force: true });
  const home = path.join(dir, 'home');
  const work = path.join(dir, 'work');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(work, { recursive: true });
  for (const [name, body] of Object.entries(scenario.files ?? {})) fs.writeFileSync(path.join(work, name), body);
  for (const [name, body] of Object.entries(scenario.homeFiles ?? {})) fs.writeFileSync(path.join(home, name), body);
  const log: string[] = [];
  let resumeArgs: string[] = [];
  if (scenario.before !== undefined) {
    const server = await startFakeAnthropic(scenario.before.script);
    const first = await runClaude(bin, [...BASE_ARGS, ...(scenario.before.args ?? []), '--', scenario.before.prompt], work, env(home, server.url));
    await server.close();
    log.push(...server.log.map((l) => `before: ${l}`));
    const init = first.stdout.split('\n').find((l) => l.includes('"session_id"'));
    const session = init === undefined ? '' : String((JSON.parse(init) as { session_id: string }).session_id);
    if (scenario.resume) resumeArgs = ['--resume', session];
  }
  const server = await startFakeAnthropic(scenario.script);
  const args = scenario.stdinPrompts !== undefined ? [...BASE_ARGS, '--input-format', 'stream-json', ...(scenario.args ?? [])] : [...BASE_ARGS, ...resumeArgs, ...(scenario.args ?? []), '--', scenario.prompt];
  const ran = await runClaude(bin, args, work, { ...env(home, server.url), ...scenario.env }, scenario.interruptAfterLines, scenario.stdinPrompts);
  await server.close();
  log.push(...server.log);
  fs.writeFileSync(path.join(out, `${scenario.name}.jsonl`), ran.stdout);
  const meta = {
    producer: 'claude',
    claude_code_version: version,
    argv: ['claude', ...args],
    env: scenario.env ?? {},
    interrupted: scenario.interruptAfterLines !== undefined,
    exit_code: ran.code,
    signal: ran.signal,
    stderr: ran.stderr,
    requests: log,
  };
  fs.writeFileSync(path.join(out, `${scenario.name}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
  process.stderr.write(`${scenario.name}: exit ${ran.code}${ran.signal ? ` (${ran.signal})` : ''}, ${ran.stdout.split('\n').length - 1} lines, ${log.length} requests\n`);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let bin = process.env.CLAUDE_BIN ?? '/work/tools/claude/node_modules/@anthropic-ai/claude-code-linux-x64/claude';
  const at = argv.indexOf('--claude');
  if (at >= 0) {
    bin = argv[at + 1]!;
    argv.splice(at, 2);
  }
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: BASE } }).stdout.trim().split(' ')[0] ?? '';
  if (version === '') throw new Error(`cannot run ${bin} --version`);
  const out = path.join(OUT, version);
  fs.mkdirSync(out, { recursive: true });
  const chosen = argv.length === 0 ? SCENARIOS : SCENARIOS.filter((s) => argv.includes(s.name));
  for (const scenario of chosen) await capture(bin, version, out, scenario);
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
