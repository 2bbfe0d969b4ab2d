import t from 'tap';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { allFlags, bashCompletion, listing, shortName, umbrellaMain, zshCompletion } from '../lib/cli/umbrella.js';
import { tools } from '../bin/wuu-stream.js';
import { example, ROOT, runBin, runShell, untracked } from './helpers.js';

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
  const typo = await runBin('wuu-stream', ['filtr']);
  t.same([typo.stderr, typo.code], ["wuu-stream: no tool named 'filtr'; did you mean 'filter'?\nTry 'wuu-stream --help' for more information.\n", 2]);
  const helpTypo = await runBin('wuu-stream', ['help', 'usge']);
  t.match(helpTypo.stderr, "did you mean 'usage'?");
  const hostile = await runBin('wuu-stream', ['\u001b]0;pwned\u0007']);
  t.notMatch(hostile.stderr, /\u001b/, 'a hostile tool name is escaped');
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
  const r = await runShell('wuu-stream completion bash | bash -n && echo syntax-ok', { env: untracked() });
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

t.test('extra arguments to completion and help are refused', async (t) => {
  for (const args of [['completion', 'bash', 'zsh'], ['completion', 'zsh', 'extra'], ['completion'], ['help', 'filter', 'turns']]) {
    const r = await runBin('wuu-stream', args);
    t.same([r.stdout, r.code], ['', 2], args.join(' '));
    t.match(r.stderr, /^wuu-stream: .*\nTry 'wuu-stream --help' for more information\.\n$/, args.join(' '));
  }
});

t.test('negated options and allowed values come from the specs', async (t) => {
  const byName = (name: string) => tools.find((spec) => spec.name === name)!;
  t.ok(allFlags(byName('wuu-redact')).includes('--no-default-rules'), 'a boolean on by default');
  t.ok(allFlags(byName('wuu-pretty')).includes('--no-color'), 'a --no- form the help documents');
  t.notOk(allFlags(byName('wuu-filter')).some((flag) => flag.startsWith('--no-')), 'no meaningless --no- forms');
  t.same(byName('wuu-usage').flags?.values?.by, ['turn', 'run', 'thread', 'model', 'file', 'day', 'week', 'month']);
  t.same(byName('wuu-pretty').flags?.values?.color, ['always', 'never', 'auto']);
  t.ok(byName('wuu-check').flags?.values?.ignore?.includes('missing-result'));
});

t.test('bash completion: --no- forms, option values, files after value options', async (t) => {
  const script = bashCompletion(tools);
  const complete = (words: string[]) => {
    const r = spawnSync('bash', ['-c', `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _wuu_stream; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: 'utf8', cwd: ROOT });
    return r.stdout.split('\n').filter(Boolean);
  };
  t.same(complete(['wuu-redact', '--no-d']), ['--no-default-rules']);
  t.same(complete(['wuu-pretty', '--no-c']), ['--no-color']);
  t.same(complete(['wuu-stream', 'pretty', '--no-c']), ['--no-color']);
  t.same(complete(['wuu-usage', '--by', '']), ['turn', 'run', 'thread', 'model', 'file', 'day', 'week', 'month']);
  t.same(complete(['wuu-stream', 'usage', '--by', 'mo']), ['model', 'month']);
  t.same(complete(['wuu-usage', '--by', '=', 'd']), ['day'], '--by=d');
  t.same(complete(['wuu-pretty', '--color', '']), ['always', 'never', 'auto']);
  t.same(complete(['wuu-check', '--ignore', 'bad-']), ['bad-line']);
  t.same(complete(['wuu-usage', '--pricing', 'package.j']), ['package.json'], 'a file after a value option, no options');
  t.same(complete(['wuu-stream', 'completion', 'bash', '']), [], 'one argument only');
  t.same(complete(['wuu-usage', '--by', 'day,m']), ['day,model', 'day,month'], 'the second item of a comma list');
  t.same(complete(['wuu-usage', '--by', 'day,model,']), ['day,model,turn', 'day,model,run', 'day,model,thread', 'day,model,model', 'day,model,file', 'day,model,day', 'day,model,week', 'day,model,month']);
  for (const tool of ['wuu-filter', 'wuu-result', 'wuu-pretty', 'wuu-check', 'wuu-accumulate', 'wuu-turns', 'wuu-redact', 'wuu-usage']) {
    t.same(complete([tool, '--fol']), ['--follow'], `${tool} offers --follow`);
    t.ok(complete([tool, '-']).includes('-f'), `${tool} offers -f`);
  }
});

const zpty = spawnSync('zsh', ['-c', 'zmodload zsh/zpty && print ok'], { encoding: 'utf8' }).stdout === 'ok\n';

t.test('zsh completion for real, through zpty', { skip: zpty ? false : 'zsh with zpty is not installed here' }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-zsh-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const script = path.join(dir, 'wuu.zsh');
  fs.writeFileSync(script, zshCompletion(tools));
  // Every line in one zsh session (compinit once): [line, expected matches, message].
  const cases: Array<[string, string[], string]> = [
    ['wuu-stream fil', ['filter'], 'tools'],
    ['wuu-stream filter --inv', ['--invert'], 'through wuu-stream: $words is zsh\'s own'],
    ['wuu-filter --keep', ['--keep-result'], 'a wuu-* command'],
    ['wuu-stream completion ', ['bash', 'zsh'], 'the subcommand'],
    ['wuu-redact --no-d', ['--no-default-rules'], 'a --no- form'],
    ['wuu-stream pretty --no-c', ['--no-color'], 'a --no- form through wuu-stream'],
    ['wuu-usage --by ', ['turn', 'run', 'thread', 'model', 'file', 'day', 'week', 'month'], 'option values'],
    ['wuu-pretty --color n', ['never'], 'an option value by prefix'],
    ['wuu-check --ignore missing-', ['missing-field', 'missing-result'], 'a rule name by prefix'],
    ['wuu-usage --by day,mo', ['model', 'month'], 'the second item of a comma list (the first is kept as a prefix)'],
    ['wuu-result --fol', ['--follow'], 'the shared input flags'],
  ];
  const r = spawnSync('zsh', ['-f', path.join(ROOT, 'test', 'fixtures', 'zsh-complete.zsh'), script, ...cases.map(([line]) => line)], { encoding: 'utf8', cwd: dir, timeout: 60_000 });
  // The HITS lines after each "LINE: N"; zsh may call the completer more than once for one TAB: count each match once.
  const hits = new Map<number, Set<string>>();
  let current = 0;
  for (const line of r.stdout.split('\n')) {
    if (line.startsWith('LINE: ')) hits.set((current = Number(line.slice(6))), new Set());
    else if (line.startsWith('HITS:')) for (const word of line.slice(6).split(' ').filter(Boolean)) hits.get(current)?.add(word);
  }
  t.equal(hits.size, cases.length, 'every line completed');
  for (const [i, [line, want, message]] of cases.entries()) t.same([...(hits.get(i + 1) ?? [])], want, `${message}: ${JSON.stringify(line)}`);
});

/** A stdout that fails every write with `code`. */
function failing(code: string): Writable {
  return new Writable({
    write(_chunk, _encoding, done) {
      done(Object.assign(new Error(`${code}: write failed`), { code }));
    },
  });
}

t.test('listing and completion into a full disk fail loudly, into a closed pipe quietly', async (t) => {
  for (const argv of [[], ['--help'], ['--version'], ['completion', 'bash'], ['completion', 'zsh'], ['help', 'filter']]) {
    const err: Buffer[] = [];
    const stderr = new Writable({ write: (c: Buffer, _e, done) => (err.push(c), done()) });
    const full = await umbrellaMain(tools, { argv, stdout: failing('ENOSPC'), stderr });
    t.equal(full, 1, `${argv.join(' ') || '(listing)'}: ENOSPC exits 1`);
    t.match(Buffer.concat(err).toString(), /^wuu-stream: write error: ENOSPC/);
    const closed = await umbrellaMain(tools, { argv, stdout: failing('EPIPE'), stderr });
    t.equal(closed, 0, `${argv.join(' ') || '(listing)'}: EPIPE exits 0`);
  }
  // The same through a real descriptor and pipe; what runs is covered in process just above.
  const devFull = await runShell('wuu-stream completion bash > /dev/full; echo "status=$?"', { env: untracked() });
  t.match(devFull.stdout, /^status=[1-9]/);
  t.match(devFull.stderr, /^wuu-stream: write error: .*ENOSPC/);
  t.notMatch(devFull.stderr, /internal error|\n\s+at /);
  const listFull = await runShell('wuu-stream > /dev/full; echo "status=$?"', { env: untracked() });
  t.match(listFull.stdout, /^status=[1-9]/);
  const pipe = await runShell('wuu-stream completion zsh | head -c 1 >/dev/null; echo "status=${PIPESTATUS[0]}"', { env: untracked() });
  t.same([pipe.stdout, pipe.stderr], ['status=0\n', '']);
});
