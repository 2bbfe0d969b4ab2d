/**
 * wuu-pretty follows the wire facts: everything keyed by thread too, a
 * sub-agent thread's turn ends / tools / tokens shown as the sub-agent's,
 * usage in the producer's exclusive convention, bash output once whichever
 * twin is present, and agent_message_delta read without a full parse.
 */
import t from 'tap';
import { createPretty, type PrettyOptions } from '../lib/pretty/index.js';
import { LineRecord, makeRecord, type Output } from '../lib/jsonl.js';
import type { WuuEvent } from '../lib/events.js';

function render(events: Array<Record<string, unknown>>, options: PrettyOptions = {}): string {
  const core = createPretty(options);
  const out: Output[] = [];
  const emit = (o: Output) => out.push(o);
  for (const e of events) core.push(makeRecord(e as WuuEvent), emit);
  core.endFile?.('x.jsonl', emit);
  core.end?.(emit);
  return out.map(String).join('');
}

const TH = 'th_1';
const TU = 'th_1-turn-0001';
const root = (o: Record<string, unknown>) => ({ thread_id: TH, turn_id: TU, ...o });

t.test('two threads sharing turn and item ids never merge', async (t) => {
  const shared = { turn_id: 'turn-0001', item_id: 'item-1' };
  const text = render([
    { type: 'thread_started', thread_id: 'A' },
    { type: 'turn_started', thread_id: 'A', turn_id: 'turn-0001' },
    { type: 'tool_started', thread_id: 'A', ...shared, name: 'bash', arguments: '{"command":"echo from-a"}' },
    { type: 'tool_started', thread_id: 'B', ...shared, name: 'bash', arguments: '{"command":"echo from-b"}' },
    { type: 'tool_output_delta', thread_id: 'B', ...shared, delta: 'output of b\n' },
    { type: 'tool_output_delta', thread_id: 'A', ...shared, delta: 'output of a\n' },
    { type: 'tool_completed', thread_id: 'B', ...shared, status: 'failed', error: 'b broke' },
    { type: 'tool_completed', thread_id: 'A', ...shared, status: 'completed', error: '' },
    { type: 'turn_completed', thread_id: 'B', turn_id: 'turn-0001', input_tokens: 5, output_tokens: 1 },
    { type: 'turn_completed', thread_id: 'A', turn_id: 'turn-0001', input_tokens: 7, output_tokens: 2 },
    { type: 'result', status: 'completed', thread_id: 'A', turn_id: 'turn-0001' },
  ]);
  t.match(text, /\[B\] \$ echo from-b\n  │ output of b\n  └ ✗ failed: b broke\n/, "B's output under B's command, its failure kept");
  t.match(text, /^\$ echo from-a\n  │ output of a\n  └ ✓ completed\n/m, "A's output under A's command");
  t.equal(text.match(/output of a/g)?.length, 1);
  t.match(text, /◆ B turn turn-0001 completed \(sub-agent\) · prompt 5 · output 1\n/, "B's turn end is the sub-agent's");
  t.match(text, /── turn 1 completed · prompt 7 · output 2\n/, 'the root turn ends once, with its own tokens');
  t.match(text, /run · 1 turn · prompt 7 · output 2|1 turn · prompt 7 · output 2/, 'the child turn is not counted');
});

t.test('child threads: turn ends, usage, tools, files and todos belong to the sub-agent', async (t) => {
  const sub = { agent_id: 'ag_1', task_name: 'find-code', agent_type: 'explorer' };
  const events = [
    { type: 'thread_started', thread_id: TH },
    root({ type: 'turn_started' }),
    { type: 'subagent_started', thread_id: TH, ...sub, status: 'running', input_tokens: 0 },
    { type: 'tool_started', thread_id: 'ag_1', turn_id: 'ag_1-turn-0001', item_id: 'ag_1-turn-0001-item-1', name: 'read_file', arguments: '{"path":"a.js"}' },
    { type: 'tool_completed', thread_id: 'ag_1', turn_id: 'ag_1-turn-0001', item_id: 'ag_1-turn-0001-item-1', name: 'read_file', status: 'completed', error: '' },
    { type: 'file_changed', thread_id: 'ag_1', turn_id: 'ag_1-turn-0001', item_id: 'x', path: 'b.js', tool_name: 'edit_file', action: 'edit' },
    { type: 'todo_updated', thread_id: 'ag_1', turn_id: 'ag_1-turn-0001', todo: null },
    { type: 'usage_updated', thread_id: 'ag_1', turn_id: 'ag_1-turn-0001', input_tokens: 1000, output_tokens: 100, cache_creation_tokens: 0, cache_read_tokens: 0 },
    { type: 'turn_failed', thread_id: 'ag_1', turn_id: 'ag_1-turn-0001', error: 'child broke\nbadly' },
    { type: 'subagent_completed', thread_id: TH, ...sub, status: 'completed', input_tokens: 1000, output_tokens: 100, cache_read_tokens: 500, cache_creation_tokens: 0 },
    root({ type: 'usage_updated', input_tokens: 400, output_tokens: 40, cache_creation_tokens: 100, cache_read_tokens: 500 }),
    root({ type: 'turn_completed', input_tokens: 400, output_tokens: 40 }),
    { type: 'result', status: 'completed', thread_id: TH, turn_id: TU, final_message: '' },
  ];
  const text = render(events);
  t.match(text, /^\[find-code\] ▸ read_file a\.js\n  └ ✓ completed\n/m, "a child's tool call is marked as the sub-agent's");
  t.match(text, /^  \[find-code\] ✎ edit b\.js$/m);
  t.match(text, /^\[find-code\] ≡ todo 0\/0 done$/m, 'todo: null is an empty list');
  t.match(text, /^◆ find-code turn ag_1-turn-0001 ✗ failed: child broke …\(\+1 line\) \(sub-agent\) · prompt 1,000 · output 100$/m);
  t.equal(text.match(/━━ turn/g)?.length, 1, 'no heading for a child turn');
  // Root: 400 + 100 + 500 = 1,000 prompt, hit 500 / 1,000.
  t.match(text, /^── turn 1 completed · prompt 1,000 \(400 uncached \+ 100 cache write \+ 500 cache read, 50\.0% cache hit\) · output 40$/m);
  t.match(text, /^run · 1 turn · prompt 1,000 .*· output 40$|^1 turn · prompt 1,000 \(400 uncached/m, 'the run total is the root turn only');
  t.match(text, /^1 subagent · prompt 1,500 \(1,000 uncached \+ 0 cache write \+ 500 cache read, 33\.3% cache hit\) · output 100$/m, "the sub-agent's last report, never doubled by its thread's snapshots");
  const md = render(events, { markdown: true });
  t.match(md, /\*◆ find-code \(sub-agent\):\*\n\n```text\n▸ read_file a\.js\n```/);
  t.match(md, /^- \*\*Tokens:\*\* prompt 1,000 /m);
  t.match(md, /^- \*\*Subagents:\*\* 1 subagent, prompt 1,500 /m);
  const html = render(events, { html: true });
  t.match(html, /<span class="tag">find-code \(sub-agent\)<\/span> <span class="name">read_file<\/span>/);
});

t.test('usage: the last snapshot per (thread, turn); the run sums root turns', async (t) => {
  const text = render([
    { type: 'thread_started', thread_id: TH },
    root({ type: 'turn_started' }),
    root({ type: 'usage_updated', input_tokens: 400, output_tokens: 40, cache_creation_tokens: 0, cache_read_tokens: 800 }),
    root({ type: 'usage_updated', input_tokens: 700, output_tokens: 95, cache_creation_tokens: 0, cache_read_tokens: 800 }),
    root({ type: 'turn_completed', input_tokens: 700, output_tokens: 95 }),
    { type: 'result', status: 'completed', thread_id: TH, turn_id: TU },
  ]);
  // WIRE-FORMAT.md's sample: uncached 700, cache read 800, prompt 1,500, output 95, hit 53.3%.
  t.match(text, /── turn 1 completed · prompt 1,500 \(700 uncached \+ 0 cache write \+ 800 cache read, 53\.3% cache hit\) · output 95\n/);
});

t.test('bash output once: both twins, only tool_*, only command_*', async (t) => {
  const base = { thread_id: TH, turn_id: TU, item_id: `${TU}-item-2`, name: 'bash', arguments: '{"command":"ls"}' };
  const both = render([
    root({ type: 'turn_started' }),
    { ...base, type: 'tool_started' },
    { ...base, type: 'command_started', command: 'ls' },
    { ...base, type: 'tool_output_delta', delta: 'one\n' },
    { ...base, type: 'command_output_delta', delta: 'one\n' },
    { ...base, type: 'tool_completed', status: 'completed', error: '' },
    { ...base, type: 'command_completed', status: 'completed', error: '', arguments: '' },
  ]);
  t.equal(both.match(/│ one/g)?.length, 1);
  t.equal(both.match(/\$ ls/g)?.length, 1);
  const toolOnly = render([{ ...base, type: 'tool_started' }, { ...base, type: 'tool_output_delta', delta: 'two\n' }, { ...base, type: 'tool_completed', status: 'completed', error: '' }]);
  t.match(toolOnly, /\$ ls\n  │ two\n  └ ✓ completed\n/, 'a missing command_* twin');
  const commandOnly = render([
    { ...base, type: 'command_started', command: 'ls' },
    { ...base, type: 'command_output_delta', delta: 'three\n' },
    { type: 'command_removed', thread_id: TH, turn_id: TU, item_id: 'never-started', name: 'bash' },
    { ...base, type: 'command_completed', status: 'completed' },
  ]);
  t.match(commandOnly, /\$ ls\n  │ three\n  └ ✓ completed\n/, 'only the command_* family');
  t.notMatch(commandOnly, /withdrawn/, 'a removal of an item that never started shows nothing');
});

t.test('exec-side ends and setup failures with empty ids', async (t) => {
  const text = render([
    { type: 'thread_started', thread_id: TH },
    root({ type: 'turn_started' }),
    root({ type: 'agent_message_delta', delta: 'Working' }),
    { type: 'turn_interrupted', thread_id: '', turn_id: '', reason: 'timeout' },
    { type: 'result', status: 'timeout', error: 'timeout', thread_id: '', turn_id: '', run_id: '', final_message: 'Working', trace_path: '' },
  ]);
  t.equal(text.match(/━━ turn/g)?.length, 1, 'the interruption ends the open root turn, no phantom turn');
  t.match(text, /── ✗ turn 1 interrupted: timeout\n/);
  const setup = render([{ type: 'result', status: 'failed', error: 'initialize: boom', thread_id: '', turn_id: '', run_id: '', final_message: '', trace_path: '' }]);
  t.match(setup, /━━ ✗ failed ━+\ninitialize: boom\n0 turns\n$/);
});

t.test('agent_message_delta in the producer shape is read without a full parse', async (t) => {
  let parses = 0;
  class Counting extends LineRecord {
    override validate(): this {
      parses++;
      return super.validate();
    }
  }
  const core = createPretty();
  const out: string[] = [];
  const emit = (o: Output) => out.push(String(o));
  const push = (line: string) => {
    const rec = new Counting(Buffer.from(line), 'x', 1);
    if (core.needsParse?.(rec.type) !== false) rec.validate();
    core.push(rec, emit);
  };
  push('{"thread_id":"th","turn_id":"tu","type":"turn_started"}');
  const before = parses;
  push('{"delta":"Hel\\u003c","thread_id":"th","turn_id":"tu","type":"agent_message_delta"}');
  push('{"delta":"lo \\"q\\"","thread_id":"th","turn_id":"tu","type":"agent_message_delta"}');
  t.equal(parses, before, 'no parse for producer-shaped deltas');
  push('{"delta":5,"thread_id":"th","turn_id":"tu","type":"agent_message_delta"}');
  t.equal(parses, before + 1, 'an odd shape falls back to a full parse');
  push('{"type":"agent_message_delta","turn_id":"tu","delta":"!"}');
  t.match(out.join(''), /Hel<lo "q"!/, 'same text either way, same turn');
});

t.test('scanProducerDelta: exact on the producer shape, undefined otherwise', async (t) => {
  const { scanProducerDelta } = await import('../lib/pretty/delta-scan.js');
  const line = (o: unknown) => Buffer.from(typeof o === 'string' ? o : JSON.stringify(o));
  const shape = (delta: string, thread = 'th', turn = 'th-turn-0001') => ({ delta, thread_id: thread, turn_id: turn, type: 'agent_message_delta' });
  const deltas = ['', 'plain', 'say "hi"\\n', 'a\\\\', '\\"', 'ünï 😀 \u2028', 'x'.repeat(100000), 'ends with backslash \\'];
  deltas.forEach((delta, i) => t.same(scanProducerDelta(line(shape(delta))), { delta, threadId: 'th', turnId: 'th-turn-0001' }, `delta #${i}`));
  t.same(scanProducerDelta(line('{"delta":"\\u003cb\\u003e \\ud83d\\ude00","thread_id":"a","turn_id":"b","type":"agent_message_delta"}')), { delta: '<b> 😀', threadId: 'a', turnId: 'b' }, 'Go escapes decoded');
  const fallbacks = [
    '{"type":"agent_message_delta","delta":"x","thread_id":"a","turn_id":"b"}',
    '{"delta":"x","thread_id":"a","turn_id":"b","type":"agent_message_delta","extra":1}',
    '{"delta":"x","extra":1,"thread_id":"a","turn_id":"b","type":"agent_message_delta"}',
    '{"delta":5,"thread_id":"a","turn_id":"b","type":"agent_message_delta"}',
    '{"delta":"x","thread_id":"a\\u0041","turn_id":"b","type":"agent_message_delta"}',
    '{"delta":"x","thread_id":"a","turn_id":"b\\"","type":"agent_message_delta"}',
    '{"delta":"bad \\q escape","thread_id":"a","turn_id":"b","type":"agent_message_delta"}',
    '{"delta":"raw \u0001 control","thread_id":"a","turn_id":"b","type":"agent_message_delta"}',
    '{"delta":"cut',
    '{"delta":"x","thread_id":"a","turn_id":"b","type":"agent_message_delta"} ',
    '{"delta":"x","thread_id":"a","turn_id":"b","type":"agent_message_final"}',
  ];
  for (const text of fallbacks) t.equal(scanProducerDelta(line(text)), undefined, text);
});

t.test('a killed run followed by a new session in the same input: the first is shown as cut', async (t) => {
  const text = render([
    { type: 'session_configured', model: 'm1' },
    { type: 'thread_started', thread_id: 'A' },
    { type: 'turn_started', thread_id: 'A', turn_id: 'A-turn-0001' },
    { type: 'tool_started', thread_id: 'A', turn_id: 'A-turn-0001', item_id: 'i', name: 'bash', arguments: '{"command":"sleep 9"}' },
    { type: 'session_configured', model: 'm2' },
    { type: 'thread_started', thread_id: 'B' },
    { type: 'turn_started', thread_id: 'B', turn_id: 'B-turn-0001' },
    { type: 'turn_completed', thread_id: 'B', turn_id: 'B-turn-0001' },
    { type: 'result', status: 'completed', thread_id: 'B', turn_id: 'B-turn-0001' },
  ]);
  t.match(text, /\$ sleep 9\n  └ no completion \(the run was cut\)\n── turn 1 cut off before it ended\n\n━━ ✗ no result: the run was cut ━+\nthe input ended without a result event; seen: 1 turn\n● m2\n/);
  t.match(text, /━━ turn 1 · B-turn-0001 ━+\n── turn 1 completed\n/, 'the second run counts its own turns, B is its root');
});
