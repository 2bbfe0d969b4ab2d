/**
 * Re-captures the Codex fixtures in test/fixtures/import/codex/ from the real
 * CLI, driven against fake-openai.ts on 127.0.0.1 (no model, no key, and an
 * outbound proxy on a dead loopback port so nothing leaves the machine).
 *
 *   npm install --prefix /work/tools/codex @openai/codex     # outside the repo
 *   CODEX_BIN=/work/tools/codex/node_modules/.bin/codex \
 *     node --import=@tapjs/typescript/import test/import/capture-codex.ts [SCENARIO...]
 *
 * Each scenario writes NAME.jsonl (stdout, byte for byte) and NAME.meta.json
 * (CLI version, argv, exit code, and the usage the fake server handed out, so
 * the tests can compare wuu-usage's totals with the producer's). Paths and
 * thread ids vary per capture; the tests never depend on their values.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAI, type FakeUsage, type Reply, type Script } from './fake-openai.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = path.join(ROOT, 'test', 'fixtures', 'import', 'codex');
const CODEX = process.env.CODEX_BIN ?? '/work/tools/codex/node_modules/.bin/codex';

/** Planted secrets the redaction tests look for (fake, of real shapes: an AWS key id, a GitHub token). */
export const PLANTED_SECRET = 'AKIAZ7QW3ERT5YUI9OPA';
export const PLANTED_TOKEN = 'ghp_Zk3mQ9vX2bN7cR5tY8wE1uI4oP6aS0dF3gH7';

const u = (input: number, cached: number, output: number, reasoning = 0): FakeUsage => ({ input, cached, output, reasoning });

interface Step {
  /** Extra argv after `exec --json` (before the prompt). */
  args?: string[];
  prompt: string;
  script: Script;
  /** Send SIGINT this many ms after the CLI's first request reaches the server. */
  interruptAfterMs?: number;
  /** Resume the thread of the previous step (`codex exec resume <id>`). */
  resume?: boolean;
}

interface Scenario {
  name: string;
  what: string;
  steps: Step[];
  /** Files to create in the work directory first. */
  files?: Record<string, string>;
}

const SHELL = 'exec_command';
const AGENTS = 'multi_agent_v1';

/**
 * The parent spawns a helper, waits for it, then answers; the helper's own
 * requests (which race the parent's) are told apart by their input, which
 * lacks the parent's prompt.
 */
function subagentScript(body: Record<string, unknown>): Reply {
  const input = Array.isArray(body.input) ? (body.input as Array<Record<string, unknown>>) : [];
  if (!JSON.stringify(input).includes('Delegate the count')) return { kind: 'answer', text: 'One, two, three.', usage: u(900, 0, 8, 0), who: 'child' };
  const outputs = input.filter((i) => i.type === 'function_call_output');
  if (outputs.length === 0) return { kind: 'answer', calls: [{ namespace: AGENTS, name: 'spawn_agent', args: { message: 'Count to three' } }], usage: u(5000, 0, 40, 0) };
  if (outputs.length === 1) {
    let id = 'unknown';
    try {
      id = String((JSON.parse(String(outputs[0]!.output)) as { agent_id?: string }).agent_id);
    } catch {
      // keep 'unknown': the wait then reports not_found, which is a capture too
    }
    return { kind: 'answer', calls: [{ namespace: AGENTS, name: 'wait_agent', args: { targets: [id], timeout_ms: 20000 } }], usage: u(5200, 4992, 20, 0) };
  }
  return { kind: 'answer', text: 'The helper counted to three.', usage: u(5400, 5120, 12, 0) };
}

export const SCENARIOS: Scenario[] = [
  {
    name: 'simple',
    what: 'a plain answer, no tools',
    steps: [{ prompt: 'Say hello', script: [{ kind: 'answer', reasoning: 'Greeting the user.', text: 'Hello! <ok> & done.', usage: u(5300, 4800, 42, 10) }] }],
  },
  {
    name: 'shell',
    what: 'two shell commands, one with output, one failing with exit code 3; a planted secret in a command',
    steps: [
      {
        args: ['--dangerously-bypass-approvals-and-sandbox'],
        prompt: 'List files and check the build',
        script: [
          // Codex masks some secrets in a command line itself; the output carries one assembled by printf.
          {
            kind: 'answer',
            text: 'Listing the files first.',
            calls: [{ name: SHELL, args: { cmd: `echo hello && ls && printf 'key=%s%s\\n' ${PLANTED_SECRET.slice(0, 4)} ${PLANTED_SECRET.slice(4)} && curl -s -H 'Authorization: token ${PLANTED_TOKEN}' http://127.0.0.1:9/ || true` } }],
            usage: u(5300, 0, 60, 20),
          },
          { kind: 'answer', calls: [{ name: SHELL, args: { cmd: 'echo failing >&2; exit 3' } }], usage: u(5450, 5248, 30, 0) },
          { kind: 'answer', text: 'The build check failed with exit code 3.', usage: u(5600, 5376, 25, 5) },
        ],
      },
    ],
    files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' },
  },
  {
    name: 'patch',
    what: 'a file edit through apply_patch: one file added, one updated',
    steps: [
      {
        args: ['--dangerously-bypass-approvals-and-sandbox'],
        prompt: 'Edit the files',
        script: [
          {
            kind: 'answer',
            calls: [
              {
                name: SHELL,
                args: { cmd: "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: new.txt\n+created\n*** Update File: a.txt\n@@\n-alpha\n+ALPHA\n*** End Patch\nEOF\n" },
              },
            ],
            usage: u(5200, 0, 80, 0),
          },
          { kind: 'answer', text: 'Added new.txt and updated a.txt.', usage: u(5400, 5120, 20, 0) },
        ],
      },
    ],
    files: { 'a.txt': 'alpha\n' },
  },
  {
    name: 'api-error',
    what: 'the model API answers 500 to every request (retries, then the turn fails)',
    steps: [
      {
        args: ['-c', 'model_providers.mock.request_max_retries=1', '-c', 'model_providers.mock.stream_max_retries=1'],
        prompt: 'Say hello',
        script: [{ kind: 'http-error', status: 500, body: '{"error":{"message":"mock upstream failure","type":"server_error"}}' }],
      },
    ],
  },
  {
    name: 'denied',
    what: 'a write refused by the read-only sandbox, then an escalation request refused (approval policy never)',
    steps: [
      {
        args: ['-s', 'read-only', '-c', 'approval_policy="never"'],
        prompt: 'Create a file',
        script: [
          { kind: 'answer', calls: [{ name: SHELL, args: { cmd: 'touch created-by-agent.txt' } }], usage: u(5100, 0, 33, 0) },
          {
            kind: 'answer',
            calls: [{ name: SHELL, args: { cmd: 'touch created-by-agent.txt', sandbox_permissions: 'require_escalated', justification: 'Create the file outside the sandbox?' } }],
            usage: u(5200, 4992, 30, 0),
          },
          { kind: 'answer', text: 'I could not create the file: the sandbox is read-only.', usage: u(5300, 5120, 18, 0) },
        ],
      },
    ],
  },
  {
    name: 'interrupt',
    what: 'SIGINT while a shell command runs',
    steps: [
      {
        args: ['--dangerously-bypass-approvals-and-sandbox'],
        prompt: 'Wait a bit',
        script: [{ kind: 'answer', text: 'Sleeping now.', calls: [{ name: SHELL, args: { cmd: 'sleep 30' } }], usage: u(5000, 0, 12, 0) }, { kind: 'hang' }],
        interruptAfterMs: 2500,
      },
    ],
  },
  {
    name: 'resume',
    what: 'a run, then `codex exec resume` of its thread, appended to one stream',
    steps: [
      { prompt: 'Remember the word mango', script: [{ kind: 'answer', text: 'Noted: mango.', usage: u(5300, 0, 9, 0) }] },
      { resume: true, prompt: 'What was the word?', script: [{ kind: 'answer', text: 'The word was mango.', usage: u(5700, 5248, 11, 0) }] },
    ],
  },
  {
    name: 'subagent',
    what: 'a spawn_agent / wait collab call (sub-agent), if the CLI offers the tool',
    steps: [
      {
        args: ['--dangerously-bypass-approvals-and-sandbox'],
        prompt: 'Delegate the count to a helper',
        script: subagentScript,
      },
    ],
  },
];

function writeConfig(home: string, url: string): void {
  fs.writeFileSync(
    path.join(home, 'config.toml'),
    `model = "gpt-mock"
model_provider = "mock"

[model_providers.mock]
name = "Mock"
base_url = "${url}"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
stream_idle_timeout_ms = 60000
`,
  );
}

interface StepResult {
  stdout: Buffer;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  usage: Array<FakeUsage & { who: string }>;
  argv: string[];
}

async function runStep(step: Step, home: string, work: string, threadId: string | undefined): Promise<StepResult> {
  const server = await startFakeOpenAI(step.script);
  writeConfig(home, server.url);
  const argv = ['exec', '--json', '--skip-git-repo-check', ...(step.args ?? []), ...(step.resume ? ['resume', threadId ?? '--last'] : []), step.prompt];
  const child = spawn(CODEX, argv, {
    cwd: work,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      CODEX_HOME: home,
      OPENAI_API_KEY: 'sk-mock-not-a-key',
      HTTPS_PROXY: 'http://127.0.0.1:9',
      HTTP_PROXY: 'http://127.0.0.1:9',
      NO_PROXY: '127.0.0.1,localhost',
      RUST_LOG: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  let err = '';
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  if (step.interruptAfterMs !== undefined) {
    const started = Date.now();
    const timer = setInterval(() => {
      if (server.used() > 0 && Date.now() - started > step.interruptAfterMs!) {
        clearInterval(timer);
        child.kill('SIGINT');
      }
    }, 100);
    child.on('exit', () => clearInterval(timer));
  }
  const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
  clearTimeout(killer);
  await server.close();
  if (process.env.CAPTURE_DEBUG) {
    for (const r of server.requests) console.error(r.path, JSON.stringify(r.body).slice(0, Number(process.env.CAPTURE_DEBUG_CHARS ?? 4000)));
    console.error(err);
  }
  const usage = server.served.flatMap((r) => (r.kind === 'answer' ? [{ who: r.who ?? 'main', ...r.usage }] : []));
  return { stdout: Buffer.concat(out), stderr: err, code, signal, usage, argv };
}

function cliVersion(): string {
  return spawnSync(CODEX, ['--version'], { encoding: 'utf8' }).stdout.trim();
}

async function capture(scenario: Scenario, version: string): Promise<void> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-home-'));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-work-'));
  for (const [name, text] of Object.entries(scenario.files ?? {})) fs.writeFileSync(path.join(work, name), text);
  const parts: Buffer[] = [];
  const runs: Array<Omit<StepResult, 'stdout'>> = [];
  let threadId: string | undefined;
  for (const step of scenario.steps) {
    const result = await runStep(step, home, work, threadId);
    parts.push(result.stdout);
    const first = result.stdout.toString('utf8').split('\n')[0] ?? '';
    try {
      threadId = (JSON.parse(first) as { thread_id?: string }).thread_id ?? threadId;
    } catch {
      // no thread.started line
    }
    const { stdout: _stdout, ...rest } = result;
    runs.push(rest);
  }
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, `${scenario.name}.jsonl`), Buffer.concat(parts));
  const meta = {
    producer: 'codex',
    cli_version: version,
    scenario: scenario.what,
    runs: runs.map((r) => ({ argv: r.argv, exit_code: r.code, signal: r.signal, model_calls_usage: r.usage, stderr_tail: r.stderr.split('\n').slice(-6).join('\n') })),
  };
  fs.writeFileSync(path.join(OUT, `${scenario.name}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
  console.log(`${scenario.name}: ${runs.map((r) => `exit ${r.code ?? r.signal}`).join(', ')}`);
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const version = cliVersion();
  console.log(`capturing with ${version}`);
  for (const scenario of SCENARIOS) {
    if (wanted.length > 0 && !wanted.includes(scenario.name)) continue;
    await capture(scenario, version);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
