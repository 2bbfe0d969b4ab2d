/**
 * A seeded generator of `wuu exec --json` streams in the producer's real
 * format (WIRE-FORMAT-REFERENCE.md), for benchmarks and large tests: lines
 * encoded like Go's json.Encoder on a map (keys sorted, no spaces, `<` `>` `&`
 * U+2028 U+2029 escaped, control bytes as lowercase \u00xx); ids
 * `<thread>-turn-0001` and `<turn>-item-<n>` (one counter per turn shared by
 * message and tool items, so tool numbers have gaps); `input_tokens` exclusive
 * of the cache counts; one output delta per tool call, bash calls with their
 * `command_*` twins; sub-agent threads writing their own tool events, usage
 * and turn ends under the agent id.
 */
import fs from 'node:fs';

/** A small, fast, seeded PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Encodes like Go: sorted keys at every depth, HTML characters escaped. */
export function goJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

const WORDS = ('the test suite cart checkout module failing passes raised limit function returns items '
  + 'config build lint error warning refactor update fixed file path import export async await '
  + 'value index length string number object array promise callback stream buffer').split(' ');
const COMMANDS = ['npm test', 'ls -la src', 'git status && git diff --stat', 'grep -rn "TODO" src | head -20', 'cat package.json', 'npx tsc --noEmit 2>&1 | tail -5'];
const TOOLS = ['read_file', 'edit_file', 'write_file', 'glob', 'grep'];

/** Options of {@link generateStream}. */
export interface GenerateOptions {
  /** Stop after about this many bytes. */
  bytes: number;
  seed?: number;
  /** Called with each line (newline included). */
  write: (line: string) => void;
  /** Make the output delta of every `hugeEvery`-th tool call this many bytes (for memory tests). */
  hugeLineBytes?: number;
  hugeEvery?: number;
}

/**
 * Writes whole runs (session, turns with messages, tools, bash twins, files,
 * subagents, usage, result) until `bytes` is reached; always ends with a result.
 */
export function generateStream({ bytes, seed = 42, write, hugeLineBytes, hugeEvery = 20 }: GenerateOptions): number {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const sentence = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  let written = 0;
  let events = 0;
  let toolCalls = 0;
  const emit = (event: Record<string, unknown>) => {
    const line = `${goJson(event)}\n`;
    written += line.length;
    events++;
    write(line);
  };

  const outputDelta = () => {
    toolCalls++;
    if (hugeLineBytes !== undefined && toolCalls % hugeEvery === 0) return `${'x'.repeat(hugeLineBytes - 1)}\n`;
    // Tool output: lines of text with the characters Go escapes and a control byte now and then.
    return Array.from({ length: int(1, 40) }, () => `${pick(WORDS)} <${pick(WORDS)}> & ${sentence(int(2, 12))}${random() < 0.05 ? '\u001b[0m' : ''}`).join('\n') + '\n';
  };

  /** One tool call (bash with its twins), its items numbered from the turn's counter. */
  const toolCall = (scope: { thread_id: string; turn_id: string }, item: string, workspace: string) => {
    const bash = random() < 0.5;
    const name = bash ? 'bash' : pick(TOOLS);
    const command = pick(COMMANDS);
    const args = JSON.stringify(bash ? { command } : { path: `${workspace}/src/${pick(WORDS)}.ts` });
    const twin = bash ? { name, arguments: args, command } : undefined;
    emit({ type: 'tool_started', ...scope, item_id: item, name, arguments: args });
    if (twin) emit({ type: 'command_started', ...scope, item_id: item, ...twin });
    const delta = outputDelta();
    emit({ type: 'tool_output_delta', ...scope, item_id: item, delta });
    if (twin) emit({ type: 'command_output_delta', ...scope, item_id: item, ...twin, delta });
    const status = random() < 0.9 ? 'completed' : 'failed';
    const error = status === 'failed' ? 'exit status 1' : '';
    emit({ type: 'tool_completed', ...scope, item_id: item, name, status, error });
    if (twin) emit({ type: 'command_completed', ...scope, item_id: item, ...twin, status, error });
    if (name === 'edit_file' || name === 'write_file') {
      emit({ type: 'file_changed', ...scope, item_id: item, tool_name: name, path: `${workspace}/src/${pick(WORDS)}.ts`, action: 'modify', move_path: '', old_file_sha: '', new_file_sha: '', workspace_revision: 0, patch_journal_path: '', manifest_path: '' });
    }
  };

  for (let run = 0; written < bytes; run++) {
    const thread = `${20260101 + (run % 28)}-${String(100000 + run).slice(-6)}-${(run * 2654435761 >>> 0).toString(16).slice(0, 4).padStart(4, '0')}`;
    const user = pick(['alice', 'bob', 'carol', 'dave']);
    const workspace = `/home/${user}/src/proj${run % 50}`;
    const model = pick(['claude-sonnet-4', 'gpt-5', 'claude-haiku-4']);
    emit({ type: 'session_configured', protocol_version: 'wuu-app-server/v0.1', provider: 'p', model, effort: 'medium', variant: '', max_parallel: 4, workspace_root: workspace, permissions: { mode: 'standard' } });
    emit({ type: 'thread_started', thread_id: thread, model, provider: 'p', cwd: workspace });
    const turns = int(1, 4);
    let turnId = '';
    for (let turn = 0; turn < turns && written < bytes; turn++) {
      turnId = `${thread}-turn-${String(turn + 1).padStart(4, '0')}`;
      const scope = { thread_id: thread, turn_id: turnId };
      let itemNo = 0;
      emit({ type: 'turn_started', ...scope });
      emit({ type: 'provider_state', ...scope, step_index: 0, provider: 'p', protocol: 'messages', transport: 'sse', events_emitted: int(5, 50), fallback_active: false, input_items: int(1, 30) });
      emit({ type: 'request_context', ...scope, step_index: 0, message_count: int(2, 40), tool_count: 9, system_hash: random().toString(16).slice(2, 10) });
      let message = '';
      itemNo++; // the assistant message item
      for (let d = int(3, 30); d > 0; d--) {
        const delta = `${sentence(int(1, 6))} `;
        message += delta;
        emit({ type: 'agent_message_delta', ...scope, delta });
      }
      // Exclusive counts: input_tokens never includes the cache reads or writes.
      let input = int(200, 2000);
      let output = int(10, 200);
      const cacheRead = int(0, 40) * 1024;
      const cacheCreation = turn === 0 ? int(0, 8) * 512 : 0;
      for (let tool = int(1, 6); tool > 0; tool--) {
        itemNo += int(1, 2); // reasoning and reconnect items share the counter
        toolCall(scope, `${turnId}-item-${itemNo}`, workspace);
        input += int(100, 1500);
        output += int(10, 300);
        emit({ type: 'usage_updated', ...scope, input_tokens: input, output_tokens: output, cache_creation_tokens: cacheCreation, cache_read_tokens: cacheRead });
      }
      if (random() < 0.2) {
        // A sub-agent: its own thread (the agent id) writes tool events, usage and a turn end.
        const agentId = `agent-${events.toString(36)}`;
        const agent = { thread_id: thread, agent_id: agentId, agent_type: 'explorer', task_name: 'explore', agent_profile: '', agent_path: '', parent_id: '', description: sentence(5), result: '', result_path: '', result_bytes: 0, result_truncated: false, error: '' };
        emit({ type: 'subagent_started', ...agent, status: 'running', input_tokens: 0, output_tokens: 0, cache_creation_tokens: 0, cache_read_tokens: 0 });
        const child = { thread_id: agentId, turn_id: `${agentId}-turn-0001` };
        toolCall(child, `${child.turn_id}-item-2`, workspace);
        const childUsage = { input_tokens: int(500, 5000), output_tokens: int(10, 500), cache_creation_tokens: 0, cache_read_tokens: int(0, 2048) };
        emit({ type: 'usage_updated', ...child, ...childUsage });
        emit({ type: 'turn_completed', ...child, input_tokens: childUsage.input_tokens, output_tokens: childUsage.output_tokens, trace_path: '', awaiting_auto_continuation: false });
        emit({ type: 'subagent_completed', ...agent, status: 'completed', result: sentence(8), ...childUsage });
      }
      emit({ type: 'todo_updated', ...scope, todo: { todos: [{ content: sentence(4), status: 'completed' }] } });
      emit({ type: 'agent_message_final', ...scope, message: message.trimEnd() });
      emit({ type: 'turn_completed', ...scope, input_tokens: input, output_tokens: output, trace_path: `/home/${user}/.wuu/traces/${thread}.jsonl`, awaiting_auto_continuation: false });
    }
    emit({ type: 'result', status: 'completed', thread_id: thread, turn_id: turnId, run_id: `run-${thread}`, final_message: 'done', trace_path: `/home/${user}/.wuu/traces/${thread}.jsonl` });
  }
  return written;
}

/** Writes a generated stream of about `megabytes` MB to `file` (synchronously, in large writes). */
export function generateFile(file: string, megabytes: number, seed = 42, huge?: Pick<GenerateOptions, 'hugeLineBytes' | 'hugeEvery'>): number {
  const fd = fs.openSync(file, 'w');
  let pending: string[] = [];
  let pendingBytes = 0;
  const written = generateStream({
    bytes: megabytes * 1_000_000,
    seed,
    ...huge,
    write: (line) => {
      pending.push(line);
      pendingBytes += line.length;
      if (pendingBytes > 1 << 22) {
        fs.writeSync(fd, pending.join(''));
        pending = [];
        pendingBytes = 0;
      }
    },
  });
  fs.writeSync(fd, pending.join(''));
  fs.closeSync(fd);
  return written;
}
