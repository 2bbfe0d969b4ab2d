import t from 'tap';
import { spawnSync } from 'node:child_process';
import { bashCompletion, listing, shortName, zshCompletion } from '../lib/umbrella.js';
import { tools } from '../bin/wuu-stream.js';
import { example, runBin, runShell } from './helpers.js';

t.test('listing names every tool with its summary', async (t) => {
  const text = listing(tools);
  for (const spec of tools) t.match(text, `  ${shortName(spec)}`, spec.name);
  t.match(text, /completion/);
});

t.test('wuu-stream TOOL runs exactly what wuu-TOOL runs', async (t) => {
  for (const args of [['filter', 'tool'], ['filter', '--count'], ['accumulate'], ['turns'], ['result'], ['check'], ['usage', '--json'], ['pretty']]) {
    const [tool, ...rest] = args;
    const viaUmbrella = await runBin('wuu-stream', [tool!, ...rest, example('run.jsonl')]);
    const direct = await runBin(`wuu-${tool}`, [...rest, example('run.jsonl')]);
    t.same(viaUmbrella, direct, args.join(' '));
  }
});

t.test('wuu-stream help X shows that tool help; errors exit 2', async (t) => {
  const help = await runBin('wuu-stream', ['help', 'filter']);
  const own = await runBin('wuu-filter', ['--help']);
  t.same([help.stdout, help.code], [own.stdout, 0]);
  const none = await runBin('wuu-stream', []);
  t.same([none.stdout, none.code], [listing(tools), 0]);
  const bad = await runBin('wuu-stream', ['frobnicate']);
  t.same(bad, { stdout: '', stderr: "wuu-stream: no tool named 'frobnicate'\nTry 'wuu-stream --help' for more information.\n", code: 2, signal: null });
  const badHelp = await runBin('wuu-stream', ['help', 'nope']);
  t.equal(badHelp.code, 2);
  const version = await runBin('wuu-stream', ['--version']);
  t.match(version.stdout, /^wuu-stream \d+\.\d+\.\d+\n$/);
  const sub = await runBin('wuu-stream', ['filter', '--bogus']);
  t.equal(sub.stderr, "wuu-filter: unknown option --bogus\nTry 'wuu-filter --help' for more information.\n");
  t.equal(sub.code, 2);
});

t.test('bash completion completes tools, flags and selectors', async (t) => {
  const script = bashCompletion(tools);
  const complete = (line: string) => {
    const words = line.split(' ');
    const r = spawnSync('bash', ['-c', `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _wuu_stream; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: 'utf8' });
    return r.stdout.split('\n').filter(Boolean);
  };
  t.same(complete('wuu-stream fil'), ['filter']);
  t.ok(complete('wuu-stream filter --inv').includes('--invert'));
  t.ok(complete('wuu-filter --ke').includes('--keep-result'));
  t.ok(complete('wuu-stream filter subag').includes('subagent'));
  t.same(complete('wuu-stream completion z'), ['zsh']);
  const r = await runShell('wuu-stream completion bash | bash -n && echo syntax-ok');
  t.equal(r.stdout, 'syntax-ok\n');
});

t.test('zsh completion script is generated and well formed', async (t) => {
  const script = zshCompletion(tools);
  t.match(script, /^#compdef wuu-stream wuu-filter/);
  t.match(script, /compdef _wuu_stream wuu-stream/);
  const zsh = spawnSync('zsh', ['-n'], { input: script, encoding: 'utf8' });
  if (zsh.error) t.pass('zsh is not installed here; syntax not checked');
  else t.equal(zsh.status, 0, 'zsh -n accepts it');
  const r = await runBin('wuu-stream', ['completion', 'zsh']);
  t.equal(r.stdout, script);
  const bad = await runBin('wuu-stream', ['completion', 'fish']);
  t.equal(bad.code, 2);
});
