/**
 * Properties over random valid streams (fast-check). The seed is fixed so CI
 * is repeatable; run with FC_SEED=<n> to explore other streams.
 */
import t from 'tap';
import fc from 'fast-check';
import { PassThrough, Readable } from 'node:stream';
import { run, type ToolSpec } from '../lib/cli/index.js';
import { spec as filterSpec } from '../bin/wuu-filter.js';
import { spec as redactSpec } from '../bin/wuu-redact.js';
import { spec as accumulateSpec } from '../bin/wuu-accumulate.js';
import { generateStream, goJson } from '../bench/generate.js';
import { FC_SEED } from './helpers.js';

interface Turn {
  deltas: string[];
  hasFinal: boolean;
  tools: Array<{ name: string; pieces: string[]; status: string }>;
  extra: Record<string, unknown>;
}

/** Text with the characters that matter: quotes, backslashes, newlines, <>&, unicode. */
const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '"', '\\', '\n', '<', '>', '&', 'é', '😀', '\u2028', '{', '}', ':', ','), maxLength: 24 });

const turnArb: fc.Arbitrary<Turn> = fc.record({
  deltas: fc.array(text, { maxLength: 6 }),
  hasFinal: fc.boolean(),
  tools: fc.array(
    fc.record({ name: fc.constantFrom('bash', 'read_file', 'grep'), pieces: fc.array(text, { maxLength: 4 }), status: fc.constantFrom('completed', 'failed') }),
    { maxLength: 3 },
  ),
  extra: fc.dictionary(fc.constantFrom('zeta', 'alpha', 'big', 'nested'), fc.oneof(fc.integer(), text, fc.constant({ type: 'inner' }))),
});

/** Builds a Go-encoded stream from turns: the oracle knows every message and output. */
function buildStream(turns: Turn[], unknownEvery: number): { bytes: Buffer; messages: string[]; outputs: string[] } {
  const lines: string[] = [];
  const messages: string[] = [];
  const outputs: string[] = [];
  const thread = 'th_p';
  lines.push(goJson({ type: 'session_configured', model: 'm', workspace_root: '/w', permissions: { mode: 'auto' } }));
  lines.push(goJson({ type: 'thread_started', thread_id: thread, cwd: '/w' }));
  turns.forEach((turn, i) => {
    const scope = { thread_id: thread, turn_id: `tu_${i}` };
    lines.push(goJson({ type: 'turn_started', ...scope }));
    for (const delta of turn.deltas) lines.push(goJson({ type: 'agent_message_delta', ...scope, delta }));
    turn.tools.forEach((tool, k) => {
      const item = { ...scope, item_id: `it_${i}_${k}` };
      const args = JSON.stringify(tool.name === 'bash' ? { command: 'echo hi' } : { path: 'a.txt' });
      const twin = tool.name === 'bash' ? { name: 'bash', arguments: args, command: 'echo hi' } : undefined;
      lines.push(goJson({ type: 'tool_started', ...item, name: tool.name, arguments: args }));
      if (twin) lines.push(goJson({ type: 'command_started', ...item, ...twin }));
      for (const delta of tool.pieces) {
        lines.push(goJson({ type: 'tool_output_delta', ...item, delta }));
        if (twin) lines.push(goJson({ type: 'command_output_delta', ...item, ...twin, delta }));
      }
      lines.push(goJson({ type: 'tool_completed', ...item, name: tool.name, status: tool.status, error: '' }));
      if (twin) lines.push(goJson({ type: 'command_completed', ...item, ...twin, status: tool.status, error: '' }));
      outputs.push(tool.pieces.join(''));
    });
    if (i % unknownEvery === 0) lines.push(goJson({ type: 'future_event', ...scope, ...turn.extra }));
    const message = turn.deltas.join('');
    if (turn.hasFinal) lines.push(goJson({ type: 'agent_message_final', ...scope, message }));
    if (turn.hasFinal || turn.deltas.length > 0) messages.push(message);
    lines.push(goJson({ type: 'turn_completed', ...scope, input_tokens: 10, output_tokens: 2, awaiting_auto_continuation: false }));
  });
  lines.push(goJson({ type: 'result', status: 'completed', thread_id: thread, run_id: 'run_p', final_message: messages.at(-1) ?? '' }));
  return { bytes: Buffer.from(`${lines.join('\n')}\n`), messages, outputs };
}

/** Splits bytes at the given fractions, to feed odd chunks. */
function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => Math.floor(c * bytes.length)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let at = 0;
  for (const point of points) {
    if (point > at) chunks.push(bytes.subarray(at, point));
    at = Math.max(at, point);
  }
  chunks.push(bytes.subarray(at));
  return chunks;
}

async function runTool(spec: ToolSpec, argv: string[], chunks: Buffer[]): Promise<{ stdout: string; code: number }> {
  const stdout = new PassThrough();
  const out: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  const code = await run(spec, { argv, stdin: Readable.from(chunks), stdout, stderr: new PassThrough() });
  return { stdout: Buffer.concat(out).toString(), code };
}

/**
 * True when `after` is `before`, except for the one documented exception of
 * wuu-redact: a held-back tail flushed as an extra delta piece of its own
 * stream, right before the event that ended that stream.
 */
function sameBesideFlushPieces(before: string[], after: string[]): boolean {
  let i = 0;
  for (let k = 0; k < after.length; k++) {
    if (after[k] === before[i]) {
      i++;
      continue;
    }
    const isFlushPiece = after[k]!.includes('_delta/') && after[k + 1] !== undefined && !after[k + 1]!.includes('_delta/');
    if (!isFlushPiece) return false;
  }
  return i === before.length;
}

const streamArb = fc.record({
  turns: fc.array(turnArb, { minLength: 1, maxLength: 4 }),
  cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
  unknownEvery: fc.integer({ min: 1, max: 3 }),
});
const options = { numRuns: 150, seed: FC_SEED };

t.test('wuu-filter with no selector is the identity, byte for byte, whatever the chunks', async (t) => {
  await fc.assert(
    fc.asyncProperty(streamArb, async ({ turns, cuts, unknownEvery }) => {
      const { bytes } = buildStream(turns, unknownEvery);
      const r = await runTool(filterSpec, [], split(bytes, cuts));
      return r.code === 0 && r.stdout === bytes.toString();
    }),
    options,
  );
  t.pass(`identity held on ${options.numRuns} random streams (seed ${FC_SEED})`);
});

t.test('wuu-redact keeps every event, in order, with its type and ids', async (t) => {
  await fc.assert(
    fc.asyncProperty(streamArb, async ({ turns, cuts, unknownEvery }) => {
      const { bytes } = buildStream(turns, unknownEvery);
      const r = await runTool(redactSpec, [], split(bytes, cuts));
      const key = (e: Record<string, unknown>) => `${String(e.type)}/${String(e.thread_id)}/${String(e.turn_id)}/${String(e.item_id)}`;
      const before = bytes.toString().trim().split('\n').map((l) => key(JSON.parse(l) as Record<string, unknown>));
      const after = r.stdout.trim().split('\n').map((l) => key(JSON.parse(l) as Record<string, unknown>));
      return r.code === 0 && sameBesideFlushPieces(before, after);
    }),
    options,
  );
  t.pass(`count, order, types and ids held on ${options.numRuns} random streams`);
});

t.test('wuu-accumulate: messages equal the deltas and finals, tool output is counted once', async (t) => {
  await fc.assert(
    fc.asyncProperty(streamArb, async ({ turns, cuts, unknownEvery }) => {
      const { bytes, messages, outputs } = buildStream(turns, unknownEvery);
      const r = await runTool(accumulateSpec, [], split(bytes, cuts));
      const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      const gotMessages = events.filter((e) => e.type === 'agent_message').map((e) => e.message);
      const gotOutputs = events.filter((e) => e.type === 'tool_call').map((e) => e.output);
      const noPieces = events.every((e) => !String(e.type).endsWith('_delta') && !String(e.type).startsWith('command_'));
      return r.code === 0 && noPieces && JSON.stringify(gotMessages) === JSON.stringify(messages) && JSON.stringify(gotOutputs) === JSON.stringify(outputs);
    }),
    options,
  );
  t.pass(`accumulation held on ${options.numRuns} random streams`);
});

t.test('the bench generator writes the producer format (WIRE-FORMAT-REFERENCE.md)', async (t) => {
  const lines: string[] = [];
  const written = generateStream({ bytes: 400_000, seed: 7, write: (line) => lines.push(line) });
  t.equal(written, lines.join('').length, 'byte count reported');
  const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const sortedKeys = lines.every((line, i) => {
    const keys = Object.keys(events[i]!);
    return line.endsWith('\n') && keys.join() === [...keys].sort().join() && !/[<>&\u2028\u2029]/.test(line) && !line.slice(0, -1).includes('\n');
  });
  t.ok(sortedKeys, 'sorted keys, one line each, <>& and U+2028/9 escaped');
  const roots = new Set(events.filter((e) => e.type === 'thread_started').map((e) => e.thread_id as string));
  const turnIds = events.filter((e) => e.type === 'turn_started').map((e) => e.turn_id as string);
  t.ok(turnIds.every((id) => /-turn-\d{4}$/.test(id) && roots.has(id.replace(/-turn-\d{4}$/, ''))), 'turn ids <thread>-turn-0001');
  const started = events.filter((e) => e.type === 'tool_started');
  t.ok(started.every((e) => (e.item_id as string).startsWith(`${e.turn_id as string}-item-`)), 'item ids <turn>-item-<n>');
  const outputs = new Map<string, number>();
  for (const e of events) if (e.type === 'tool_output_delta') outputs.set(`${e.thread_id as string}/${e.item_id as string}`, (outputs.get(`${e.thread_id as string}/${e.item_id as string}`) ?? 0) + 1);
  t.ok([...outputs.values()].every((n) => n === 1), 'one output delta per tool call');
  const bash = started.filter((e) => e.name === 'bash').length;
  t.equal(events.filter((e) => e.type === 'command_started').length, bash, 'every bash call has its command_* twin');
  const childEnds = events.filter((e) => e.type === 'turn_completed' && !roots.has(e.thread_id as string));
  t.ok(childEnds.length > 0, 'sub-agent threads write their own turn ends');
  t.ok(events.some((e) => e.type === 'usage_updated' && !roots.has(e.thread_id as string)), 'and their own usage');
  t.ok(events.filter((e) => e.type === 'session_configured').every((e) => e.protocol_version === 'wuu-app-server/v0.1'));
  const huge: string[] = [];
  generateStream({ bytes: 3_000_000, seed: 7, hugeLineBytes: 1 << 20, hugeEvery: 5, write: (line) => huge.push(line) });
  t.ok(huge.some((line) => line.length > 1 << 20), 'huge output lines for the memory bench');
});
