/**
 * wuu-usage as a binary, in process: formats, the human table on a fake
 * terminal, colour rules, escaping, --merge through the shared line policy,
 * grouping by calendar with --since/--until, usage errors.
 */
import t from 'tap';
import path from 'node:path';
import { spec } from '../bin/wuu-usage.js';
import { displayWidth } from '../lib/text.js';
import { jsonl } from './helpers.js';
import { fs, goLine, tmpDir, usageRun } from './usage-gen.js';

const TH = 'th_1';
const turnId = (n: number, thread = TH) => `${thread}-turn-${String(n).padStart(4, '0')}`;

/** One producer-like run: session, thread, turns with snapshots, optional subagent, result; optional timestamps. */
function runText(o: { thread?: string; model?: string; provider?: string; turns: Array<[number, number, number, number]>; agent?: [number, number, number, number]; day?: string }): string {
  const thread = o.thread ?? TH;
  const ts = o.day !== undefined ? { timestamp: `${o.day}T12:00:00Z` } : {};
  const lines = [
    goLine({ type: 'session_configured', model: o.model ?? 'claude-sonnet-4-5', provider: o.provider ?? 'anthropic', protocol_version: 'wuu-app-server/v0.1', permissions: { mode: 'standard' }, effort: '', variant: '', max_parallel: 4, workspace_root: '/w', ...ts }),
    goLine({ type: 'thread_started', thread_id: thread, model: o.model ?? 'claude-sonnet-4-5', provider: o.provider ?? 'anthropic', cwd: '/w', ...ts }),
  ];
  o.turns.forEach(([i, cw, cr, out], k) => {
    const scope = { thread_id: thread, turn_id: turnId(k + 1, thread) };
    lines.push(goLine({ type: 'turn_started', ...scope }));
    lines.push(goLine({ type: 'usage_updated', ...scope, input_tokens: i, cache_creation_tokens: cw, cache_read_tokens: cr, output_tokens: out }));
    lines.push(goLine({ type: 'turn_completed', ...scope, input_tokens: i, output_tokens: out, awaiting_auto_continuation: false, trace_path: '' }));
  });
  if (o.agent) {
    const [i, cw, cr, out] = o.agent;
    lines.push(goLine({ type: 'subagent_completed', thread_id: thread, agent_id: `ag_${thread}`, agent_type: 'explorer', status: 'completed', input_tokens: i, cache_creation_tokens: cw, cache_read_tokens: cr, output_tokens: out }));
  }
  lines.push(goLine({ type: 'result', status: 'completed', thread_id: thread, turn_id: turnId(o.turns.length, thread), run_id: `run-${thread}`, final_message: '', trace_path: '' }));
  return lines.join('\n') + '\n';
}

t.test('--help fits 80 columns and documents every flag and the convention', async (t) => {
  const r = await usageRun(['--help']);
  t.equal(r.code, 0);
  // The tool's own part (the shared policy block after it is the runner's).
  for (const line of spec.usage.split('\n')) t.ok(displayWidth(line) <= 80, `fits: ${line}`);
  for (const flag of [...(spec.flags?.string ?? []), ...(spec.flags?.boolean ?? [])]) t.match(r.stdout, flag === 'cost' ? '--no-cost' : `--${flag}`);
  t.match(r.stdout, /input_tokens EXCLUDES cached tokens/);
  t.match(r.stdout, /file's modification time/);
});

t.test('on a terminal: a human table with separators, dollars, prompt, cache hit, totals; colour rules', async (t) => {
  const stdin = runText({ turns: [[1_234_567, 10_000, 2_000_000, 45_678]], agent: [3_000, 0, 1_000, 200] });
  const plain = await usageRun([], { stdin, tty: true, env: { NO_COLOR: '1' } });
  t.equal(plain.code, 0);
  t.equal(plain.stderr, '');
  const lines = plain.stdout.trimEnd().split('\n');
  t.match(lines[0], /^THREAD\s+RUN\s+FILE\s+AGENT\s+TURNS\s+AGENTS\s+INPUT\s+CACHE WRITE\s+CACHE READ\s+PROMPT\s+OUTPUT\s+CACHE HIT\s+COST$/);
  t.match(plain.stdout, /th_1\s+run-th_1\s+<stdin>\s+main\s+1\s+0\s+1,234,567\s+10,000\s+2,000,000\s+3,244,567\s+45,678\s+61\.6%\s+\$\d+\.\d{3}\n/, "three decimals: the smallest cost, $0.012, needs them");
  t.match(plain.stdout, /TOTAL\s+all\s+1\s+1\s+1,237,567/);
  t.notMatch(plain.stdout, /\u001b/, 'NO_COLOR: no escape codes');
  const widths = new Set(lines.filter((l) => /^-+/.test(l)).map((l) => l.length));
  t.equal(widths.size, 1, 'rules align');
  const colored = await usageRun([], { stdin, tty: true });
  t.match(colored.stdout, /\u001b\[1mTHREAD/, 'bold header on a terminal');
  t.equal(colored.stdout.replace(/\u001b\[[0-9;]*m/g, ''), plain.stdout, 'colour adds nothing but SGR codes');
  t.notMatch((await usageRun(['--color', 'never'], { stdin, tty: true })).stdout, /\u001b/);
  t.match((await usageRun(['--table', '--color', 'always'], { stdin })).stdout, /\u001b\[1m/, '--color always in a pipe');
  t.notMatch((await usageRun(['--table'], { stdin })).stdout, /\u001b/, 'auto in a pipe: none');
});

t.test('in a pipe: TSV with exact digits by default', async (t) => {
  const r = await usageRun(['--no-cost'], { stdin: runText({ turns: [[10, 20, 30, 40]] }) });
  t.equal(r.stdout.split('\n')[0], 'kind\tthread_id\trun_id\tfile\tagent\tturns\tagents\tinput_tokens\tcache_creation_tokens\tcache_read_tokens\tprompt_tokens\toutput_tokens\tcache_hit_ratio\tdate_source');
  t.equal(r.stdout.split('\n')[1], 'row\tth_1\trun-th_1\t<stdin>\tmain\t1\t0\t10\t20\t30\t60\t40\t0.5\tnow');
});

t.test('hostile ids cannot paint the terminal or break alignment', async (t) => {
  const evil = 'x\u001b]0;pwned\u0007\u009b2J\u202eabc';
  const stdin = runText({ thread: evil, turns: [[1, 0, 0, 1]] }) + runText({ thread: '漢字スレッド😀', turns: [[2, 0, 0, 2]] });
  const r = await usageRun(['--by', 'thread', '--no-cost'], { stdin, tty: true, env: { NO_COLOR: '1' } });
  t.notMatch(r.stdout, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/, 'no raw control, C1 or bidi characters');
  t.match(r.stdout, /x\\e\]0;pwned\\x07\\x9b2J\\u202eabc/, 'shown visibly');
  const lines = r.stdout.trimEnd().split('\n');
  const agentCol = lines.map((l) => displayWidth(l.slice(0, l.indexOf('main') >= 0 ? l.indexOf('main') : l.indexOf('AGENT'))));
  t.equal(new Set(agentCol.filter((w, i) => lines[i]!.includes('main') || lines[i]!.includes('AGENT'))).size, 1, 'columns align by display width (CJK and emoji count 2)');
  const tsv = await usageRun(['--by', 'thread', '--no-cost'], { stdin });
  t.notMatch(tsv.stdout, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/, 'TSV is escaped too');
});

t.test('--by day,model --breakdown --since --until: calendar rows, totals equal the ungrouped ones', async (t) => {
  const dir = tmpDir();
  const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
  write('a.jsonl', runText({ thread: 'th_a', day: '2026-11-30', model: 'gpt-5', provider: 'openai', turns: [[100, 0, 50, 10]] }));
  write('b.jsonl', runText({ thread: 'th_b', day: '2026-12-01', model: 'gpt-5', provider: 'openai', turns: [[200, 10, 0, 20]], agent: [5, 0, 0, 1] }));
  write('c.jsonl', runText({ thread: 'th_c', day: '2026-12-01', model: 'claude-sonnet-4-5', turns: [[300, 0, 0, 30]] }));
  write('d.jsonl', runText({ thread: 'th_d', day: '2026-12-03', model: 'claude-sonnet-4-5', turns: [[400, 0, 0, 40]] }));
  const args = ['--json', '--timezone', 'UTC', '--no-cost', '-j', '1'];
  const all = jsonl((await usageRun([...args, dir])).stdout);
  const grouped = await usageRun([...args, '--by', 'day,model', '--breakdown', '--since', '2026-12-01', '--until', '2026-12-02', dir]);
  t.equal(grouped.code, 0);
  const rows = jsonl(grouped.stdout).filter((l) => l.kind === 'row');
  t.same(
    rows.map((r) => [r.day, r.model, r.agent, r.input_tokens]),
    [
      ['2026-12-01', 'claude-sonnet-4-5', 'main', 300],
      ['2026-12-01', 'gpt-5', 'main', 200],
      ['2026-12-01', 'gpt-5', 'subagents', 5],
    ],
  );
  const models = jsonl(grouped.stdout).filter((l) => l.kind === 'model');
  t.equal(models.length, 3, 'a breakdown row under each row');
  const tot = jsonl(grouped.stdout).find((l) => l.kind === 'total')!;
  t.equal(tot.input_tokens, 500, 'days outside the range are left out');
  const unfiltered = await usageRun([...args, '--by', 'day,model', '--breakdown', dir]);
  t.same(jsonl(unfiltered.stdout).find((l) => l.kind === 'total'), { ...all.find((l) => l.kind === 'total'), by: 'day,model' }, 'totals equal the ungrouped totals');
  const week = jsonl((await usageRun([...args, '--by', 'week', dir])).stdout).filter((l) => l.kind === 'row' && l.agent === 'main');
  t.same(week.map((r) => [r.week, r.input_tokens]), [['2026-W49', 1000]]);
  const month = jsonl((await usageRun([...args, '--by', 'month', dir])).stdout).filter((l) => l.kind === 'row' && l.agent === 'main');
  t.same(month.map((r) => [r.month, r.input_tokens]), [['2026-11', 100], ['2026-12', 900]]);
  const tokyo = jsonl((await usageRun(['--json', '--no-cost', '-j', '1', '--timezone', 'Asia/Tokyo', '--by', 'day', dir])).stdout).filter((l) => l.kind === 'row' && l.agent === 'main');
  t.same(tokyo.map((r) => r.day), ['2026-11-30', '2026-12-01', '2026-12-03'], 'noon UTC is the same day in Tokyo');
  const table = await usageRun(['--by', 'day,model', '--breakdown', '--since', '2026-12-01', '--until', '2026-12-02', '--timezone', 'UTC', '-j', '1', dir], { tty: true, env: { NO_COLOR: '1' } });
  t.match(table.stdout, /2026-12-01\s+gpt-5\s+main/);
  t.match(table.stdout, /└ gpt-5/);
});

t.test('--merge accepts every line --json writes, exactly; other lines follow the one line policy', async (t) => {
  const dir = tmpDir();
  const big = '123456789012345678901';
  const text = runText({ thread: 'th_m', turns: [[1, 2, 3, 4]] }).replace('"input_tokens":1,', `"input_tokens":${big},`);
  fs.writeFileSync(path.join(dir, 'in.jsonl'), text);
  const whole = await usageRun(['--json', '--no-cost', path.join(dir, 'in.jsonl')]);
  t.match(whole.stdout, `"input_tokens":${big}`);
  fs.writeFileSync(path.join(dir, 'part.json'), whole.stdout);
  const merged = await usageRun(['--merge', '--json', '--no-cost', path.join(dir, 'part.json'), path.join(dir, 'part.json')]);
  t.equal(merged.stdout, whole.stdout, 'a part merged with itself is itself, digit for digit');
  t.match(merged.stderr, /already seen .*counted once/);
  fs.writeFileSync(path.join(dir, 'bad.json'), `${whole.stdout}not json\n{"kind":"other"}\n{"kind":"turn"`);
  const bad = await usageRun(['--merge', '--no-cost', path.join(dir, 'bad.json')]);
  t.equal(bad.code, 1);
  t.match(bad.stderr, /bad\.json:4: not valid JSON/);
  t.match(bad.stderr, /bad\.json:5: not a wuu-usage --json line \(kind "other"\)/);
  t.match(bad.stderr, /bad\.json:6: last line cut off \(no newline at end of input\)/);
  const strict = await usageRun(['--merge', '--strict', '--no-cost', path.join(dir, 'bad.json')]);
  t.equal(strict.code, 1);
  t.equal(strict.stdout, '', '--strict stops at the first bad line');
});

t.test('usage errors', async (t) => {
  for (const [args, message] of [
    [['--by', 'year'], /--by takes turn, run, thread, model, file, day, week, month/],
    [['--since', '2026-13-01'], /--since takes a date YYYY-MM-DD/],
    [['--since', '2026-12-02', '--until', '2026-12-01'], /is after --until/],
    [['--timezone', 'Mars/Olympus'], /unknown time zone 'Mars\/Olympus'/],
    [['--color', 'sometimes'], /--color takes auto, always or never/],
    [['--json', '--csv'], /--json and --csv exclude each other/],
    [['--pricing', '/nonexistent'], /No such file or directory/],
  ] as const) {
    const r = await usageRun([...args]);
    t.equal(r.code, 2, args.join(' '));
    t.match(r.stderr, message);
  }
});

t.test('a run killed mid-write: the cut last line is a warning, the partial run counts, exit 0', async (t) => {
  const text = runText({ turns: [[10, 0, 0, 1]] });
  const cut = text.split('\n').slice(0, 4).join('\n') + '\n{"cache_creation_tokens":0,"cache_re';
  const r = await usageRun(['--json', '--no-cost'], { stdin: cut });
  t.equal(r.code, 0);
  t.match(r.stderr, /<stdin>:5: warning: last line cut off \(no newline at end of input\): not valid JSON .*; not counted\n/);
  t.match(r.stderr, /warning: no result event after line 4/);
  t.match(r.stdout, /"kind":"total".*"input_tokens":10,/);
  const bad = await usageRun(['--json', '--no-cost'], { stdin: `${text}not json\n` });
  t.equal(bad.code, 1, 'a bad line inside the stream is still bad data');
});

t.test('inputs: .gz, unreadable files, oversize lines, --strict, --pass-invalid, Markdown', async (t) => {
  const { zlib } = await import('./usage-gen.js');
  const dir = tmpDir();
  const text = runText({ turns: [[10, 1, 2, 3]] });
  fs.writeFileSync(path.join(dir, 'a.jsonl.gz'), zlib.gzipSync(text));
  const gz = await usageRun(['--json', '--no-cost', '-j', '1', path.join(dir, 'a.jsonl.gz')]);
  t.match(gz.stdout, /"kind":"total".*"input_tokens":10,/, '.gz is read');
  const missing = await usageRun(['--no-cost', '-j', '1', path.join(dir, 'a.jsonl.gz'), path.join(dir, 'nope.jsonl')]);
  t.equal(missing.code, 2);
  t.match(missing.stderr, /nope\.jsonl: No such file or directory/);
  t.match(missing.stdout, /\t10\t/, 'the other inputs are still read');
  const big = `${text}{"delta":"${'x'.repeat(300)}","thread_id":"th_1","turn_id":"t","type":"agent_message_delta"}\nnot json\n`;
  const lax = await usageRun(['--json', '--no-cost', '--max-line-bytes', '200'], { stdin: big });
  t.equal(lax.code, 1);
  t.match(lax.stderr, /<stdin>:\d+: line of \d+ bytes exceeds --max-line-bytes 200; dropped/);
  t.match(lax.stderr, /<stdin>:\d+: not valid JSON/);
  t.match(lax.stdout, /"kind":"total"/);
  const strict = await usageRun(['--json', '--no-cost', '--strict'], { stdin: `${text}not json\n${text}` });
  t.equal(strict.code, 1);
  t.equal(strict.stdout, '', '--strict stops everything');
  const pass = await usageRun(['--json', '--no-cost', '--pass-invalid'], { stdin: `${text}not json\n` });
  t.equal(pass.code, 0, '--pass-invalid: reported, not counted against the status');
  t.match(pass.stderr, /not valid JSON/);
  const md = await usageRun(['--markdown', '--no-cost', '--by', 'thread'], { stdin: runText({ thread: 'a|b*c', turns: [[1, 0, 0, 1]] }) });
  t.match(md.stdout, /^\| THREAD \| AGENT \| TURNS/);
  t.match(md.stdout, /\| a\\\|b\\\*c \| main \|/);
  const crlf = await usageRun(['--json', '--no-cost'], { stdin: text.replace(/\n/g, '\r\n') });
  t.match(crlf.stdout, /"kind":"total".*"input_tokens":10,/, 'CRLF lines take the general path');
});

t.test('the --merge core for programmatic use reports bad lines through the runner policy', async (t) => {
  const { createUsageMerge } = await import('../lib/usage/merge.js');
  const { LineRecord } = await import('../lib/jsonl.js');
  const core = createUsageMerge({ format: 'json', noCost: true });
  const whole = await usageRun(['--json', '--no-cost'], { stdin: runText({ turns: [[5, 0, 0, 1]] }) });
  let out = '';
  whole.stdout.trim().split('\n').forEach((l, i) => core.push(new LineRecord(Buffer.from(l), 'p', i + 1), () => {}));
  t.throws(() => core.push(new LineRecord(Buffer.from('{"kind":"x"}'), 'p', 9), () => {}), /kind "x"/);
  core.end?.((o) => (out += o));
  t.equal(out, whole.stdout);
});
