/**
 * wuu-pretty on hostile logs: no raw control character reaches a terminal in
 * any mode, the Markdown transcript stays well-formed and inert, the HTML page
 * carries no markup from the data, and huge outputs never overflow the stack.
 */
import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { createPretty, HTML_CSP, type PrettyOptions } from '../lib/pretty/index.js';
import { LineRecord, makeRecord, type Output } from '../lib/jsonl.js';
import type { WuuEvent } from '../lib/events.js';
import { hasControls } from '../lib/text.js';
import { run } from '../lib/cli/index.js';
import { spec } from '../bin/wuu-pretty.js';
import { ROOT } from './helpers.js';

const HOSTILE = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'pretty', 'hostile.jsonl'), 'utf8');

/** Renders events (objects or JSONL text) through the core. */
function render(events: Array<Record<string, unknown>> | string, options: PrettyOptions = {}): string {
  const core = createPretty(options);
  const out: Output[] = [];
  const emit = (o: Output) => out.push(o);
  if (typeof events === 'string') {
    events
      .split('\n')
      .filter(Boolean)
      .forEach((line, i) => core.push(new LineRecord(Buffer.from(line), 'x.jsonl', i + 1), emit));
  } else {
    for (const e of events) core.push(makeRecord(e as WuuEvent), emit);
  }
  core.endFile?.('x.jsonl', emit);
  core.end?.(emit);
  return out.map((o) => (typeof o === 'string' ? o : '<record>')).join('');
}

/** Runs the binary in-process. */
async function runPretty(argv: string[], input: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  stdin.end(input);
  const code = await run(spec, { argv, stdin, stdout, stderr, env: { NO_COLOR: '1' } });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

t.test('terminal: no raw control character from the log, in any mode', async (t) => {
  for (const options of [{}, { full: true }, { verbose: true, full: true }, { markdown: true }, { html: true }, { markdown: true, full: true }] as PrettyOptions[]) {
    const text = render(HOSTILE, options);
    const bad = text.split('\n').filter((line) => hasControls(line.replace(/\t/g, ' ')));
    t.same(bad, [], `no control characters: ${JSON.stringify(options)}`);
  }
  const shown = render(HOSTILE);
  t.match(shown, /\\e\]0;pwned\\x07\\e\[2J\\e\]52;c;Y2xpcGJvYXJk\\x07\\x9b31m\\u202eevil\\u202c/, 'shown visibly');
  t.match(shown, /└ ✗ failed\\e\[31m: first line of the error …\(\+2 lines\)/, 'a status escaped, a multi-line error marked, not silently cut');
  t.match(shown, /^▸ <b onmouseover="window.__pwned=12">tool<\/b>\\e\]8;;http:\/\/evil\.example\\x07 /m, 'a tool name escaped (no OSC 8 link)');
  t.match(shown, /\[ \] <\/li><\/ul><script>window.__pwned=17<\/script> \(in_progress\\e\[2j\)/, 'todo status escaped');
  // Colors on: only our own SGR sequences remain once the data escapes are accounted for.
  const colored = render(HOSTILE, { color: true });
  t.same(colored.replace(/\x1b\[[0-9;]*m/g, '').split('\n').filter((l) => hasControls(l)), [], 'with colors: only our SGR codes');
  const full = render(HOSTILE, { full: true });
  t.match(full, /first line of the error\n    second line <script>window.__pwned=11<\/script>\n    third/, '--full shows the whole error');
});

t.test('terminal: every field that can reach the screen is escaped', async (t) => {
  const esc = '\x1b]0;X\x07';
  const text = render(
    [
      { type: 'session_configured', model: `m${esc}`, provider: `p${esc}`, effort: `e${esc}`, workspace_root: `/w${esc}`, permissions: { [`k${esc}`]: `v${esc}` } },
      { type: 'thread_started', thread_id: `th${esc}`, cwd: `/c${esc}` },
      { type: 'turn_started', thread_id: `th${esc}`, turn_id: `tu${esc}` },
      { type: 'tool_started', thread_id: `th${esc}`, turn_id: `tu${esc}`, item_id: 'i', name: `read_file${esc}`, arguments: JSON.stringify({ path: `/p${esc}` }) },
      { type: 'tool_completed', thread_id: `th${esc}`, turn_id: `tu${esc}`, item_id: 'i', status: `completed${esc}`, error: `e${esc}` },
      { type: 'file_changed', thread_id: `th${esc}`, turn_id: `tu${esc}`, item_id: 'i', path: `/f${esc}`, move_path: `/g${esc}`, action: `a${esc}` },
      { type: 'subagent_started', agent_id: `a${esc}`, task_name: `n${esc}`, agent_type: `k${esc}`, status: `running${esc}`, description: `d${esc}` },
      { type: 'subagent_updated', agent_id: `a${esc}`, task_name: `n${esc}`, status: `waiting${esc}` },
      { type: 'subagent_completed', agent_id: `a${esc}`, task_name: `n${esc}`, status: `failed${esc}`, error: `x${esc}`, result: `r${esc}`, result_truncated: true, result_path: `/r${esc}` },
      { type: 'todo_updated', thread_id: `th${esc}`, turn_id: `tu${esc}`, todo: { todos: [{ content: `c${esc}`, status: `s${esc}` }] } },
      { type: 'turn_interrupted', thread_id: `th${esc}`, turn_id: `tu${esc}`, reason: `r${esc}` },
      { type: 'error', error: `e${esc}` },
      { type: `x${esc}`, field: `f${esc}` },
      { type: 'result', status: `s${esc}`, error: `e${esc}`, run_id: `r${esc}`, trace_path: `/t${esc}`, final_message: `m${esc}`, structured_result: { k: `v${esc}` } },
    ],
    { verbose: true },
  );
  t.notMatch(text, /[\x00-\x08\x0b-\x1f\x7f-\x9f]/, 'nothing raw');
  t.ok((text.match(/\\e\]0;X\\x07/g)?.length ?? 0) >= 20, 'every field shown escaped');
  const files = await runPretty(['--pass-invalid'], `{"type":"x"}\n\x1b]0;t\x07 not json\n`);
  t.notMatch(files.stdout, /\x1b/, 'an invalid line is shown escaped');
});

/**
 * Markdown blocks outside fenced code, following CommonMark's fence rules
 * (an opening run of 3+ backticks or tildes, closed by a run of the same
 * character at least as long).
 */
function outsideFences(md: string): { prose: string[]; fences: number; open: boolean } {
  const prose: string[] = [];
  let fence: { ch: string; len: number } | undefined;
  let fences = 0;
  for (const line of md.split('\n')) {
    const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (fence) {
      if (m && m[1]![0] === fence.ch && m[1]!.length >= fence.len && m[2]!.trim() === '') fence = undefined;
      continue;
    }
    if (m && !(m[1]![0] === '`' && m[2]!.includes('`'))) {
      fence = { ch: m[1]![0]!, len: m[1]!.length };
      fences++;
      continue;
    }
    prose.push(line);
  }
  return { prose, fences, open: fence !== undefined };
}

t.test('markdown: well-formed and inert whatever the data holds', async (t) => {
  for (const full of [false, true]) {
    const md = render(HOSTILE, { markdown: true, full });
    const { prose, fences, open } = outsideFences(md);
    t.notOk(open, 'every fence is closed');
    t.ok(fences >= 6, 'outputs, commands and errors are fenced');
    t.same(
      prose.filter((l) => /^ {0,3}#{1,6}(\s|$)/.test(l)),
      ['# wuu run: m\\<script\\>window.\\_\\_pwned=7\\</script\\>', '## Turn 1 · th_h-turn-0001\\<script\\>window.\\_\\_pwned=9\\</script\\>', '## Result: ✗ failed\\</h2\\>\\<script\\>window.\\_\\_pwned=27\\</script\\>'],
      'the only headings are the transcript\'s own (no forged ## Result)',
    );
    // Outside code, every < is escaped, except our own <details> lines.
    const own = /^(<details><summary>[^<>]*<\/summary>|<\/details>)$/;
    const raw = prose.filter((l) => !own.test(l)).filter((l) => /(^|[^\\])</.test(l.replace(/``.*?``/g, '').replace(/`[^`]*`/g, '')));
    t.same(raw, [], 'no raw HTML outside code');
    const opens = prose.filter((l) => l.startsWith('<details>')).length;
    t.equal(prose.filter((l) => l === '</details>').length, opens, '<details> balanced');
    t.ok(opens >= 1, 'the long output is folded in <details>');
    t.notMatch(prose.join('\n'), /^ {4,}\S/m, 'no indented code block from data');
    t.notMatch(prose.join('\n'), /^(---|\*\*\*|___|===)\s*$/m, 'no thematic break or setext underline from data');
    t.notMatch(prose.join('\n'), /(^|[^\\])\[[^\]]*\]\(/m, 'no live link');
  }
});

t.test('markdown: fences outlast backtick runs; summaries are HTML-escaped', async (t) => {
  const md = render(
    [
      { type: 'tool_started', turn_id: 'tu', item_id: 'i', name: 'read_file', arguments: '{"path":"a"}' },
      { type: 'tool_output_delta', turn_id: 'tu', item_id: 'i', delta: `${'x\n'.repeat(20)}\`\`\`\`\`\`\`\`\n` },
      { type: 'tool_completed', turn_id: 'tu', item_id: 'i', status: 'completed' },
      { type: 'result', status: 'completed' },
    ],
    { markdown: true },
  );
  t.match(md, /<details><summary>Output: 21 lines, 49 bytes<\/summary>\n\n`{9}text\n/, 'a fence longer than the 8 backticks inside');
  t.notOk(outsideFences(md).open);
});

t.test('html: one self-contained page, every piece of data escaped', async (t) => {
  const html = render(HOSTILE, { html: true });
  t.match(html, /^<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:[^"]*">/, 'the policy comes first');
  t.equal(HTML_CSP.split(';')[0], "default-src 'none'");
  t.match(html, /<\/main>\n<\/body>\n<\/html>\n$/, 'closed');
  const allowedTags = new Set(['!DOCTYPE', 'html', 'head', 'meta', 'title', 'style', 'body', 'main', 'header', 'h1', 'h2', 'dl', 'dt', 'dd', 'p', 'code', 'section', 'div', 'span', 'b', 'pre', 'details', 'summary', 'ul', 'li', 'blockquote', 'table', 'caption', 'tr', 'th', 'td']);
  const allowedAttributes = new Set(['lang', 'charset', 'http-equiv', 'content', 'name', 'class', 'open']);
  const tags = [...html.matchAll(/<\/?([A-Za-z!][A-Za-z0-9]*)([^>]*)>/g)];
  t.same(tags.map((m) => m[1]!).filter((name) => !allowedTags.has(name)), [], 'only the page\'s own elements');
  const attributes = tags.flatMap((m) => [...m[2]!.replace(/"[^"]*"/g, '""').matchAll(/([A-Za-z-]+)(?==|\s|$)/g)].map((a) => a[1]!)).filter((a) => a !== 'DOCTYPE' && a !== 'html');
  t.same(attributes.filter((a) => !allowedAttributes.has(a)), [], 'only the page\'s own attributes (no on*, href, src)');
  t.notMatch(html, /<(script|a|img|link|iframe|base|svg|object|embed|form)\b/i, 'no live markup');
  t.match(html, /&lt;script&gt;window\.__pwned=1&lt;\/script&gt;/, 'data shown as text');
  t.match(html, /<details class="output"><summary>Output: 48 lines, 1\.4 KB<\/summary>/, 'a long output folded with its size');
  t.match(html, /<pre class="error">first line of the error\nsecond line &lt;script&gt;window.__pwned=11&lt;\/script&gt;\nthird<\/pre>/, 'a multi-line error whole');
  t.notMatch(html, /[\x00-\x08\x0b-\x1f\x7f-\x9f]/, 'no raw control characters');
  t.match(html, /\\e\]0;pwned\\x07/, 'controls shown visibly');
  const empty = render([], { html: true });
  t.match(empty, /^<!DOCTYPE html>[\s\S]*<main>\n<\/main>\n<\/body>\n<\/html>\n$/, 'no input: still a whole page');
});

t.test('html: written as the events arrive, not at the end', async (t) => {
  const core = createPretty({ html: true });
  const out: string[] = [];
  const emit = (o: Output) => out.push(String(o));
  core.push(makeRecord({ type: 'turn_started', turn_id: 'tu' } as WuuEvent), emit);
  t.match(out.join(''), /<h2>Turn 1 · <code>tu<\/code><\/h2>\n$/, 'the head and the turn heading at once');
  core.push(makeRecord({ type: 'agent_message_delta', turn_id: 'tu', delta: 'Hel' } as WuuEvent), emit);
  t.match(out.join(''), /<div class="msg">\nHel$/, 'message text as it streams');
  core.push(makeRecord({ type: 'turn_completed', turn_id: 'tu' } as WuuEvent), emit);
  t.match(out.join(''), /Hel<\/div>\n<p class="turn-end">[^\n]*Turn 1 completed[^\n]*<\/p>\n<\/section>\n$/);
});

t.test('--full with a 130,000-line output: no stack overflow, every line shown', async (t) => {
  const big = Array.from({ length: 130000 }, (_, i) => `line ${i}`).join('\n');
  const events = [
    { type: 'turn_started', turn_id: 'tu' },
    { type: 'tool_started', turn_id: 'tu', item_id: 'i', name: 'bash', arguments: JSON.stringify({ command: 'seq' }) },
    { type: 'tool_output_delta', turn_id: 'tu', item_id: 'i', delta: big },
    { type: 'tool_completed', turn_id: 'tu', item_id: 'i', status: 'failed', error: big },
    { type: 'subagent_completed', agent_id: 'a', status: 'completed', result: big },
    { type: 'todo_updated', turn_id: 'tu', todo: { todos: Array.from({ length: 130000 }, (_, i) => ({ content: `t${i}`, status: 'pending' })) } },
    { type: 'result', status: 'completed', final_message: big },
  ];
  for (const mode of [{}, { markdown: true }, { html: true }] as PrettyOptions[]) {
    const text = render(events, { ...mode, full: true });
    t.ok(text.includes('line 129999'), `${JSON.stringify(mode)}: the last line is there`);
    t.ok((text.match(/line 65000\b/g)?.length ?? 0) >= 2, `${JSON.stringify(mode)}: the middle too`);
  }
});
