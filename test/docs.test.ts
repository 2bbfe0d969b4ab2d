/**
 * Docs that run: every command shown in README.md (```sh blocks) and in the
 * EXAMPLES of man/*.1 is executed against a copy of examples/, and its exit
 * status, stdout and stderr are compared with the committed snapshot
 * (tap-snapshots/). Regenerate after a deliberate change: npm run snap.
 * Lines that call the producer itself (`wuu exec`), follow a file it writes
 * (`-f`), or install things (npm,
 * npx, source) are shown to users but not run here.
 */
import t, { type Test } from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, runBin, runShell, type BinResult } from './helpers.js';

/** Follow mode (`-f`, `--follow`) waits for a producer that the docs only imagine: shown, not run. */
const FOLLOWS = /\s(-f|--follow)(\s|$)/;

/** First words of lines that are commands a reader would type. */
const COMMAND_WORDS = /^(wuu-[a-z]+|cat|zcat|gzip|jq|head|tail|grep|ls|find|xargs|tee|diff|sort|wc)\b/;

/** Commands of README.md's ```sh blocks, joined across `\` continuations. */
export function readmeCommands(markdown: string): string[] {
  const commands: string[] = [];
  const blocks = markdown.matchAll(/```(?:sh|bash|console)\n([\s\S]*?)```/g);
  for (const [, body] of blocks) commands.push(...commandLines(body!));
  return commands;
}

/** Commands of a man page's .EX/.EE blocks, with roff escapes undone. */
export function manCommands(roff: string): string[] {
  const commands: string[] = [];
  for (const [, body] of roff.matchAll(/^\.EX\n([\s\S]*?)^\.EE/gm)) {
    const text = body!
      .split('\n')
      .filter((line) => !line.startsWith('.'))
      .map((line) => line.replace(/\\-/g, '-').replace(/\\e/g, '\\').replace(/\\\(aq/g, "'").replace(/\\&/g, ''))
      .join('\n');
    commands.push(...commandLines(text));
  }
  return commands;
}

function commandLines(text: string): string[] {
  const joined = text.replace(/\\\n\s*/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.replace(/^\$ /, '').replace(/\s{2,}#.*$/, '').trim())
    .filter((line) => line !== '' && !line.includes('wuu exec') && !FOLLOWS.test(line) && COMMAND_WORDS.test(line));
}

const workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-docs-'));
fs.cpSync(path.join(ROOT, 'examples'), path.join(workdir, 'examples'), { recursive: true });
t.teardown(() => fs.rmSync(workdir, { recursive: true, force: true }));

/**
 * The words of a plain command (single quotes allowed), or undefined when it
 * uses anything only a shell can do (redirections, globs, variables, double
 * quotes, subshells).
 */
export function plainWords(command: string): string[] | undefined {
  const words: string[] = [];
  let at = 0;
  while (at < command.length) {
    if (command[at] === ' ') {
      at++;
      continue;
    }
    let word = '';
    while (at < command.length && command[at] !== ' ') {
      const ch = command[at]!;
      if (ch === "'") {
        const close = command.indexOf("'", at + 1);
        if (close < 0) return undefined;
        word += command.slice(at + 1, close);
        at = close + 1;
      } else if ('"\\$`|&;<>()*?[]{}~#!'.includes(ch)) {
        return undefined;
      } else {
        word += ch;
        at++;
      }
    }
    words.push(word);
  }
  return words.length > 0 ? words : undefined;
}

/** Splits at ` | ` outside single quotes. */
function stages(command: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let from = 0;
  for (let at = 0; at < command.length; at++) {
    if (command[at] === "'") quoted = !quoted;
    else if (!quoted && command.startsWith(' | ', at)) {
      parts.push(command.slice(from, at));
      from = at + 3;
    }
  }
  parts.push(command.slice(from));
  return parts;
}

const STATUS_ECHO = '; echo "exit $?"';
/** Programs other than ours that documented pipelines use, run as processes. */
const HELPERS = new Set(['jq', 'cat', 'head', 'tail', 'sort']);

/** A plain file name for a redirection (no quotes, no expansions). */
const FILE_WORD = '[\\w./-]+';

/**
 * A documented command as a plan: a pipeline of plain stages, wuu-* tools run
 * in this process and jq/cat/head/tail/sort as processes, optionally reading
 * the first stage's stdin from a file (`< FILE`), writing the last stage's
 * stdout to a file (`> FILE`, /dev/null discards it) and ending in
 * `; echo "exit $?"`. Undefined when a shell is needed.
 */
export function plainPipeline(command: string): { stages: string[][]; echoStatus: boolean; input?: string; output?: string } | undefined {
  const echoStatus = command.endsWith(STATUS_ECHO);
  let body = echoStatus ? command.slice(0, -STATUS_ECHO.length) : command;
  const output = new RegExp(`^(.*\\S)\\s+>\\s+(${FILE_WORD})$`).exec(body);
  if (output?.[1] !== undefined) body = output[1];
  const [first = '', ...rest] = stages(body);
  const input = new RegExp(`\\s<\\s+(${FILE_WORD})(?=\\s|$)`).exec(first);
  const plan = [input ? first.slice(0, input.index) + first.slice(input.index + input[0].length) : first, ...rest].map(plainWords);
  if (plan.some((words) => words === undefined)) return undefined;
  const words = plan as string[][];
  if (!words.some((w) => w[0]!.startsWith('wuu-'))) return undefined;
  if (!words.every((w) => /^wuu-[a-z]+$/.test(w[0]!) || HELPERS.has(w[0]!))) return undefined;
  return { stages: words, echoStatus, ...(input ? { input: input[1] } : {}), ...(output ? { output: output[2] } : {}) };
}

/** Runs a documented command: plain pipelines without a shell, the rest in bash. */
async function execute(command: string): Promise<BinResult> {
  const plan = plainPipeline(command);
  if (plan === undefined) return runShell(`cd ${JSON.stringify(workdir)} && ${command}`, { env: { COLUMNS: '100' } });
  // Relative paths in the command are the reader's: resolve them in the copy of examples/.
  const here = process.cwd();
  process.chdir(workdir);
  try {
    let input = plan.input === undefined ? '' : fs.readFileSync(plan.input, 'utf8');
    let stderr = '';
    let code = 0;
    for (const [name, ...args] of plan.stages) {
      const r = name!.startsWith('wuu-')
        ? await runBin(name!, args, { input, env: { COLUMNS: '100' } })
        : (() => {
            const p = spawnSync(name!, args, { input, encoding: 'utf8' });
            return { stdout: p.stdout, stderr: p.stderr, code: p.status, signal: p.signal };
          })();
      input = r.stdout;
      stderr += r.stderr;
      if (r.code !== 0) code = r.code ?? 128; // pipefail: the last stage that failed
    }
    // What `> FILE` sends there is not on stdout (bash creates the file whatever the status).
    if (plan.output !== undefined) {
      if (plan.output !== '/dev/null') fs.writeFileSync(plan.output, input);
      input = '';
    }
    if (plan.echoStatus) return { stdout: `${input}exit ${code}\n`, stderr, code: 0, signal: null };
    return { stdout: input, stderr, code, signal: null };
  } finally {
    process.chdir(here);
  }
}

async function runDoc(t: Test, command: string) {
  const r = await execute(command);
  t.notMatch(r.stderr, /internal error/, `${command}: no crash`);
  t.matchSnapshot({ command, code: r.code, stdout: r.stdout, stderr: r.stderr }, command);
}

t.test('README.md commands', async (t) => {
  const commands = readmeCommands(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  t.ok(commands.length >= 10, `README shows ${commands.length} runnable commands`);
  for (const command of commands) await runDoc(t, command);
});

for (const page of fs.readdirSync(path.join(ROOT, 'man')).filter((f) => /\.[17]$/.test(f)).sort()) {
  t.test(`man/${page} EXAMPLES`, async (t) => {
    const commands = manCommands(fs.readFileSync(path.join(ROOT, 'man', page), 'utf8'));
    if (page.endsWith('.1')) t.ok(commands.length >= 2, `${page} shows ${commands.length} runnable examples`);
    for (const command of commands) await runDoc(t, command);
  });
}

t.test('README first screen: what it is and a picture, then the set-up commands of a fresh machine, then PATH', async (t) => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  t.ok(readme.startsWith('# wuu-stream\n\nSmall, composable Unix filters'), 'it opens by saying what it is');
  const picture = readme.indexOf('![');
  const setupAt = readme.indexOf('## Set up');
  t.ok(picture > 0 && picture < setupAt, 'a picture before the set-up');
  const setup = '```sh\nnpm ci && npx wuu-pretty examples/run.jsonl    # install, then view a bundled run\nnpm test                                      # build, type-check and run the test suite\n```\n';
  const block = readme.indexOf(setup);
  t.ok(block > setupAt && block < setupAt + 200, 'the two set-up commands open the Set up section');
  t.same(readmeCommands(setup), [], 'npm and npx lines are not run by this test');
  t.match(readme.slice(block + setup.length, block + setup.length + 400), /npm link/, 'then how to put the binaries on PATH');
  t.match(readme.slice(block, block + 2000), /Where `wuu` comes from/, 'and where wuu itself comes from');
  t.same(readmeCommands('```sh\nwuu-result -f run.jsonl\nwuu-pretty --follow run.jsonl\n```\n'), [], 'follow lines are shown, not run');
});

t.test('every binary in package.json has a man page, a README section and --help', async (t) => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string>; man: string[] };
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  for (const name of Object.keys(pkg.bin)) {
    t.ok(pkg.man.includes(`man/${name}.1`), `${name}: man page wired in package.json`);
    t.ok(fs.existsSync(path.join(ROOT, 'man', `${name}.1`)), `${name}: man/${name}.1 exists`);
    t.match(readme, new RegExp(`^## ${name}\\b`, 'm'), `${name}: README section`);
    const help = await runBin(name, ['--help']);
    t.equal(help.code, 0, `${name} --help exits 0`);
  }
});

t.test('plain commands run without a shell, the rest in bash', async (t) => {
  t.same(plainPipeline("wuu-filter --where '$.name==bash' tool x.jsonl"), { stages: [['wuu-filter', '--where', '$.name==bash', 'tool', 'x.jsonl']], echoStatus: false });
  t.same(plainPipeline("cat x | wuu-filter | jq -r '.a | .b'; echo \"exit $?\""), { stages: [['cat', 'x'], ['wuu-filter'], ['jq', '-r', '.a | .b']], echoStatus: true });
  t.same(plainWords("wuu-filter --where '$.a b'c"), ['wuu-filter', '--where', '$.a bc']);
  t.same(plainPipeline('wuu-redact < x.jsonl > out/share.jsonl'), { stages: [['wuu-redact']], echoStatus: false, input: 'x.jsonl', output: 'out/share.jsonl' });
  t.same(plainPipeline('wuu-filter < x | jq . > /dev/null; echo "exit $?"'), { stages: [['wuu-filter'], ['jq', '.']], echoStatus: true, input: 'x', output: '/dev/null' });
  t.same(plainPipeline("wuu-filter --where '$.n > 5'"), { stages: [['wuu-filter', '--where', '$.n > 5']], echoStatus: false }, 'a > in quotes is no redirection');
  for (const shell of ['wuu-filter tool 2> x', 'wuu-filter >> x', 'wuu-filter > "$F"', 'cat x | wuu-filter < y', 'wuu-usage runs/*.jsonl', 'wuu-filter "$X"', 'jq . x', "wuu-filter 'open", 'wuu-check x && echo ok', 'wuu-usage --merge <(wuu-usage --json x)']) {
    t.equal(plainPipeline(shell), undefined, shell);
  }
});

t.test('every flag a binary accepts is in its --help, man page and README', async (t) => {
  const { tools } = await import('../bin/wuu-stream.js');
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  for (const spec of tools) {
    const man = fs.readFileSync(path.join(ROOT, 'man', `${spec.name}.1`), 'utf8').replace(/\\-/g, '-');
    const section = readme.split(/^## /m).find((s: string) => s.startsWith(`${spec.name}\n`)) ?? '';
    for (const flag of [...(spec.flags?.string ?? []), ...(spec.flags?.boolean ?? [])]) {
      const pattern = new RegExp(`--(no-)?${flag}\\b`);
      t.match(spec.usage, pattern, `${spec.name} --help mentions --${flag}`);
      t.match(man, pattern, `man ${spec.name} mentions --${flag}`);
      t.match(section, pattern, `README ${spec.name} section mentions --${flag}`);
    }
  }
});
