/**
 * wuu-pretty for a new user (issue 23): failed commands look failed in all
 * three views, file tools show their path and content rather than a JSON
 * blob, a repeated sub-agent end shows once, the HTML title names the run,
 * a directory gets a heading per file, and -f on a missing file says so.
 */
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spec as prettySpec } from '../bin/wuu-pretty.js';
import { createPretty, pretty, type PrettyOptions } from '../lib/pretty/index.js';
import { fileResultView, isFileTool } from '../lib/pretty/file-result.js';
import { OutputFold } from '../lib/pretty/fold.js';
import { dropOldest, first } from '../lib/pretty/format.js';
import { parse } from '../lib/jsonl.js';
import { makeRecord, type Output } from '../lib/jsonl.js';
import type { WuuEvent } from '../lib/events.js';
import { chunked, example, pipeThrough, runBin } from './helpers.js';
import { runIn } from './runner-harness.js';
import { exitStream } from './exit-stream.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuu-pretty-views-'));
t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));

function render(events: Array<Record<string, unknown>>, options: PrettyOptions = {}): string {
  const core = createPretty(options);
  const out: Output[] = [];
  const emit = (o: Output) => out.push(o);
  for (const e of events) core.push(makeRecord(e as WuuEvent, { file: 'x.jsonl', line: 0 }), emit);
  core.endFile?.('x.jsonl', emit);
  core.end?.(emit);
  return out.map(String).join('');
}

const tool = (item: string, name: string, args: Record<string, unknown>, output: string | undefined, status = 'completed', error = '') => [
  { type: 'tool_started', turn_id: 'tu', item_id: item, name, arguments: JSON.stringify(args) },
  ...(output === undefined ? [] : [{ type: 'tool_output_delta', turn_id: 'tu', item_id: item, delta: output }]),
  { type: 'tool_completed', turn_id: 'tu', item_id: item, name, status, error },
];

t.test('exit codes: a non-zero exit is a failure in the terminal, Markdown and HTML views', async (t) => {
  const events = [
    { type: 'turn_started', turn_id: 'tu' },
    ...tool('a', 'bash', { command: 'make' }, 'cc: error\nExit code 2\n'),
    ...tool('b', 'bash', { command: 'echo ok' }, 'ok\n'),
    ...tool('c', 'bash', { command: "printf 'Exit code 9\\nfine'" }, 'Exit code 9\nfine\n'),
    ...tool('d', 'bash', { command: 'false' }, 'Exit code 1', 'failed', 'exit status 1'),
  ];
  const text = render(events);
  t.match(text, /\$ make\n  │ cc: error\n  │ Exit code 2\n  └ ✗ failed \(exit code 2\)\n/);
  t.match(text, /\$ echo ok\n  │ ok\n  └ ✓ completed\n/);
  t.match(text, /  │ fine\n  └ ✓ completed\n/, 'an exit line in the middle is output, not the status');
  t.match(text, /  └ ✗ failed \(exit code 1\): exit status 1\n/, 'the code and the error');
  const colored = render(events, { color: true });
  t.match(colored, /\x1b\[31m  └ ✗ failed \(exit code 2\)\x1b\[0m/, 'red on a terminal');
  const md = render(events, { markdown: true });
  t.match(md, /```console\n\$ make\ncc: error\nExit code 2\n```\n\n\*\*✗ failed \(exit code 2\)\*\*\n/);
  t.equal(md.match(/✗ failed/g)?.length, 2, 'only the two failed commands are marked');
  const html = render(events, { html: true });
  t.match(html, /<div class="tool fail">\n<div class="call"><span class="name">bash<\/span> <span class="mono"><\/span><span class="status bad">✗ failed \(exit code 2\)<\/span><\/div>/);
  t.equal(html.match(/class="tool fail"/g)?.length, 2);
  t.equal(html.match(/class="tool done"/g)?.length, 2);
});

t.test('exit codes: the examples and the exit stream in odd chunks', async (t) => {
  for (const size of [1, 7]) {
    const out = await pipeThrough<string>(chunked(exitStream(), size), parse({ file: 'x' }), pretty({ width: 100 }));
    const ends = out.join('').split('\n').filter((l) => l.startsWith('  └ '));
    t.same(
      ends,
      [
        '  └ ✗ failed (exit code 2)',
        '  └ ✓ completed',
        '  └ ✓ completed',
        '  └ ✓ completed',
        '  └ ✓ completed',
        '  └ ✗ failed (exit code 137)',
        '  └ ✓ completed',
        '  └ ✗ failed (exit code 1)',
        '  └ ✓ completed',
      ],
      `chunks of ${size}`,
    );
  }
  const failed = await runBin('wuu-pretty', [example('failed.jsonl')]);
  t.match(failed.stdout, /  │ Exit code 6\n  └ ✗ failed \(exit code 6\)\n/);
});

t.test('file tools: action, path and content instead of the JSON result', async (t) => {
  const fold = () => new OutputFold(100, 0);
  const view = (name: string, raw: string) => {
    const v = fileResultView(name, raw, fold, (p) => p.replace(/^\/ws\//, ''));
    return v === undefined ? undefined : [...v.head, ...v.tail];
  };
  const table: Array<[string, string, string[] | undefined]> = [
    ['read_file', '{"content":"a\\nb\\n","path":"/ws/src/x.js"}', ['read src/x.js', 'a', 'b']],
    ['read_file', '{"content":"no newline","path":"x"}', ['read x', 'no newline']],
    ['read_file', '{"content":"","path":"empty"}', ['read empty']],
    ['write_file', '{"action":"create","new_file_sha":"sha256:ab","path":"/ws/new.txt","workspace_revision":"fs:worktree:1"}', ['create new.txt']],
    ['edit_file', '{"action":"edit","new_file_sha":"sha256:b7","old_file_sha":"sha256:4d","path":"src/cart.js"}', ['edit src/cart.js']],
    ['write_file', '{"move_path":"/ws/b","path":"/ws/a","action":"move"}', ['move a → b']],
    ['glob', '{"files":["src/a.js","/ws/src/b.js",{"path":"c.js"},3,null]}', ['src/a.js', 'src/b.js', 'c.js']],
    ['grep', '{"matches":[{"path":"src/a.js","line":18},{"file":"b.js","action":"hit"}]}', ['src/a.js:18', 'hit b.js']],
    ['apply_patch', '{"files":[{"action":"update","path":"a"},{"action":"add","path":"b"}]}', ['update a', 'add b']],
    ['read_file', 'plain text result\n', undefined],
    ['read_file', '{"size":3}', undefined],
    ['read_file', '[1,2]', undefined],
    ['read_file', '{"content":', undefined],
    ['glob', 'src/a.js\nsrc/b.js\n', undefined],
  ];
  for (const [name, raw, expected] of table) t.same(view(name, raw), expected, `${name} ${raw.slice(0, 30)}`);
  t.same(['read_file', 'glob', 'grep', 'apply_patch', 'view', 'bash', 'web_fetch', 'todo_write'].map(isFileTool), [true, true, true, true, true, false, false, false]);

  const hostile = '{"content":"\\u001b]0;pwned\\u0007 <script>alert(1)</script>\\n","path":"a\\u001b[2J.txt"}';
  const events = [{ type: 'turn_started', turn_id: 'tu' }, ...tool('r', 'read_file', { path: 'a.txt' }, hostile)];
  const text = render(events);
  t.notMatch(text, /\x1b|\x07/, 'terminal: control characters of the content and path escaped');
  t.match(text, /  │ read a\\e\[2J\.txt\n  │ \\e\]0;pwned\\x07 <script>/);
  const html = render(events, { html: true });
  t.notMatch(html, /<script>/, 'HTML: content escaped');
  t.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  const big = `{"content":"${'x'.repeat(200 * 1024)}","path":"big"}`;
  const clipped = render([{ type: 'turn_started', turn_id: 'tu' }, ...tool('r', 'read_file', { path: 'big' }, big)]);
  t.match(clipped, /  │ \{"content":"xxx/, 'a result over the cap is ordinary output');
  const run = await runBin('wuu-pretty', ['--width', '100', example('run.jsonl')]);
  t.match(run.stdout, /▸ read_file src\/cart\.js\n  │ read src\/cart\.js\n  │ export function total\(items\) \{\n/);
  t.match(run.stdout, /▸ edit_file src\/cart\.js\n  │ edit src\/cart\.js\n  └ ✓ completed\n/);
  t.notMatch(run.stdout, /sha256/, 'no hashes');
});

t.test('a subagent_completed the producer repeats is shown once', async (t) => {
  const done = { type: 'subagent_completed', agent_id: 'ag', task_name: 'explore', status: 'completed', result: 'found it', input_tokens: 5, output_tokens: 1 };
  const events = [
    { type: 'subagent_started', agent_id: 'ag', task_name: 'explore', status: 'running' },
    done,
    done,
    { ...done, output_tokens: 2 },
    { type: 'result', status: 'completed' },
  ];
  for (const options of [{}, { markdown: true }, { html: true }]) {
    const text = render(events, options);
    t.equal(text.match(/found it/g)?.length, 1, `once: ${JSON.stringify(options)}`);
  }
  const failedAfter = render([done, { ...done, status: 'failed', error: 'crashed' }]);
  t.match(failedAfter, /✓ completed[\s\S]*✗ failed: crashed/, 'a different end is shown');
  const again = render([done, { type: 'subagent_updated', agent_id: 'ag', status: 'running' }, done]);
  t.equal(again.match(/found it/g)?.length, 2, 'an agent that ran again ends again');
});

t.test('the HTML title names the run, escaped', async (t) => {
  const title = (html: string) => /<title>(.*)<\/title>/.exec(html)?.[1];
  const run = await runBin('wuu-pretty', ['--html', example('run.jsonl')]);
  t.equal(title(run.stdout), 'wuu run 20261202-231501-7f3a · claude-sonnet-4-5 · run.jsonl');
  t.equal(run.stdout.match(/<title>/g)?.length, 1);
  t.match(run.stdout, /<main>\n<header class="session"><h1>wuu run: claude-sonnet-4-5<\/h1>/, 'the session header still opens the page');
  const setup = await runBin('wuu-pretty', ['--html', example('setup-failed.jsonl')]);
  t.equal(title(setup.stdout), 'wuu run · setup-failed.jsonl');
  const stdin = await runBin('wuu-pretty', ['--html'], { input: '{"type":"result","status":"completed"}\n' });
  t.equal(title(stdin.stdout), 'wuu run transcript', 'nothing names it');
  const hostile = render(
    [
      { type: 'session_configured', model: '</title><script>x()</script>' },
      { type: 'thread_started', thread_id: '"><img src=x onerror=y>&' },
    ],
    { html: true },
  );
  t.equal(title(hostile), 'wuu run &quot;&gt;&lt;img src=x onerror=y&gt;&amp; · &lt;/title&gt;&lt;script&gt;x()&lt;/script&gt; · x.jsonl');
  const several = await runBin('wuu-pretty', ['--html', example('failed.jsonl'), example('run.jsonl')]);
  t.equal(title(several.stdout), 'wuu run 20261202-224010-9b21 · gpt-5 · failed.jsonl');
  t.match(several.stdout, /<main>\n<h1 class="file">[^<]*failed\.jsonl<\/h1>\n<header class="session">/);
});

t.test('several files or a directory: a heading names each file', async (t) => {
  const sub = path.join(dir, 'runs');
  fs.mkdirSync(sub);
  fs.copyFileSync(example('failed.jsonl'), path.join(sub, 'a.jsonl'));
  fs.copyFileSync(example('timeout.jsonl'), path.join(sub, 'b.jsonl'));
  const r = await runBin('wuu-pretty', [sub]);
  const headings = r.stdout.split('\n').filter((l) => l.startsWith('━━ ') && l.includes('.jsonl'));
  t.same(headings.map((l) => l.replace(/ ━+$/, '')), [`━━ ${path.join(sub, 'a.jsonl')}`, `━━ ${path.join(sub, 'b.jsonl')}`]);
  const md = await runBin('wuu-pretty', ['--markdown', sub]);
  t.equal(md.stdout.match(/^\*\*File: /gm)?.length, 2);
  const one = await runBin('wuu-pretty', [example('failed.jsonl')]);
  t.notMatch(one.stdout, /━━ .*failed\.jsonl/, 'one file: no heading');
});

t.test('-f on a file that does not exist yet says it is waiting', async (t) => {
  const file = path.join(dir, 'later.jsonl');
  setTimeout(() => fs.writeFileSync(file, fs.readFileSync(example('run.jsonl'))), 300);
  const r = await runIn(prettySpec, ['-f', file], '', { followGraceMs: 100 });
  t.equal(r.code, 0);
  t.equal(r.stdout.split('\n')[0], `· waiting for ${file} to appear (following it)`);
  t.equal(r.stdout.match(/waiting for/g)?.length, 1, 'said once');
  t.match(r.stdout, /━━ ✓ completed ━+\n/, 'then the run');
  const doc = path.join(dir, 'later-doc.jsonl');
  setTimeout(() => fs.writeFileSync(doc, fs.readFileSync(example('run.jsonl'))), 300);
  const html = await runIn(prettySpec, ['--html', '-f', doc], '', { followGraceMs: 100 });
  t.equal(html.stderr, `wuu-pretty: waiting for ${doc} to appear\n`, 'a document is not written into: stderr says it');
  t.notMatch(html.stdout, /waiting/);
  t.match(html.stdout, /<\/html>\n$/);
  const there = await runIn(prettySpec, ['-f', file], '', { followGraceMs: 100 });
  t.notMatch(there.stdout, /waiting/, 'an existing file: no notice');
});

t.test('bounded state helpers: first and dropOldest', async (t) => {
  t.equal(first([]), undefined, 'nothing: undefined');
  t.equal(first(new Set(['a', 'b'])), 'a', 'the oldest entry');
  const map = new Map([
    ['a', 1],
    ['b', 2],
    ['c', 3],
  ]);
  dropOldest(map, 4);
  t.same([...map.keys()], ['a', 'b', 'c'], 'under the bound: kept');
  dropOldest(map, 3);
  t.same([...map.keys()], ['b', 'c'], 'at the bound: the oldest goes');
  dropOldest(map, 1);
  t.same([...map.keys()], [], 'down to fewer than the bound');
});
