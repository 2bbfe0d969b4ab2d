/**
 * Docs that run: every command shown in README.md (```sh blocks) and in the
 * EXAMPLES of man/*.1 is executed against a copy of examples/, and its exit
 * status, stdout and stderr are compared with the committed snapshot
 * (tap-snapshots/). Regenerate after a deliberate change: npm run snap.
 * Lines that call the producer itself (`wuu exec`) or install things (npm,
 * npx, source) are shown to users but not run here.
 */
import t, { type Test } from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, runShell } from './helpers.js';

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
    .filter((line) => line !== '' && !line.includes('wuu exec') && COMMAND_WORDS.test(line));
}

const workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-docs-'));
fs.cpSync(path.join(ROOT, 'examples'), path.join(workdir, 'examples'), { recursive: true });
t.teardown(() => fs.rmSync(workdir, { recursive: true, force: true }));

async function runDoc(t: Test, command: string) {
  const r = await runShell(`cd ${JSON.stringify(workdir)} && ${command}`, { env: { COLUMNS: '100' } });
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

t.test('every binary in package.json has a man page, a README section and --help', async (t) => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string>; man: string[] };
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  for (const name of Object.keys(pkg.bin)) {
    t.ok(pkg.man.includes(`man/${name}.1`), `${name}: man page wired in package.json`);
    t.ok(fs.existsSync(path.join(ROOT, 'man', `${name}.1`)), `${name}: man/${name}.1 exists`);
    t.match(readme, new RegExp(`^## ${name}\\b`, 'm'), `${name}: README section`);
    const help = await runShell(`${name} --help`);
    t.equal(help.code, 0, `${name} --help exits 0`);
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
