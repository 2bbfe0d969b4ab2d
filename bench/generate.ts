/**
 * A seeded generator of realistic `wuu exec --json` streams, for benchmarks
 * and large tests. Lines are encoded like Go's json.Encoder on a map: keys
 * sorted, no spaces, `<`, `>`, `&` escaped as \u003c, \u003e, \u0026.
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
  return JSON.stringify(sortKeys(value)).replace(/[<>&]/g, (ch) => `\\u00${ch.charCodeAt(0).toString(16)}`);
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
}

/**
 * Writes whole runs (session, turns with messages, tools, bash twins, files,
 * subagents, usage, result) until `bytes` is reached; always ends with a result.
 */
export function generateStream({ bytes, seed = 42, write }: GenerateOptions): number {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const sentence = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  let written = 0;
  let events = 0;
  const emit = (event: Record<string, unknown>) => {
    const line = `${goJson(event)}\n`;
    written += line.length;
    events++;
    write(line);
  };

  for (let run = 0; written < bytes; run++) {
    const thread = `th_${run.toString(36)}`;
    const user = pick(['alice', 'bob', 'carol', 'dave']);
    const workspace = `/home/${user}/src/proj${run % 50}`;
    const model = pick(['claude-sonnet-4', 'gpt-5', 'claude-haiku-4']);
    emit({ type: 'session_configured', protocol_version: '1', provider: 'p', model, effort: 'medium', variant: '', max_parallel: 4, workspace_root: workspace, permissions: { mode: 'auto' } });
    emit({ type: 'thread_started', thread_id: thread, model, provider: 'p', cwd: workspace });
    const turns = int(1, 4);
    let turnId = '';
    for (let turn = 0; turn < turns && written < bytes; turn++) {
      turnId = `tu_${run.toString(36)}_${turn}`;
      const scope = { thread_id: thread, turn_id: turnId };
      emit({ type: 'turn_started', ...scope });
      emit({ type: 'provider_state', ...scope, step_index: 0, provider: 'p', protocol: 'messages', transport: 'sse', events_emitted: int(5, 50), fallback_active: false, input_items: int(1, 30) });
      emit({ type: 'request_context', ...scope, step_index: 0, message_count: int(2, 40), tool_count: 9, system_hash: random().toString(16).slice(2, 10) });
      let message = '';
      for (let d = int(3, 30); d > 0; d--) {
        const delta = `${sentence(int(1, 6))} `;
        message += delta;
        emit({ type: 'agent_message_delta', ...scope, delta });
      }
      let input = int(1000, 5000);
      let output = int(10, 200);
      const cacheRead = int(0, 4) * 1024;
      for (let tool = int(1, 6); tool > 0; tool--) {
        const item = `it_${events.toString(36)}`;
        const bash = random() < 0.5;
        const name = bash ? 'bash' : pick(TOOLS);
        const command = pick(COMMANDS);
        const args = JSON.stringify(bash ? { command } : { path: `${workspace}/src/${pick(WORDS)}.ts` });
        const twin = bash ? { name, arguments: args, command } : undefined;
        emit({ type: 'tool_started', ...scope, item_id: item, name, arguments: args });
        if (twin) emit({ type: 'command_started', ...scope, item_id: item, ...twin });
        for (let o = int(1, 12); o > 0; o--) {
          const delta = Array.from({ length: int(1, 8) }, () => `${pick(WORDS)} <${pick(WORDS)}> & ${sentence(int(2, 12))}`).join('\n') + '\n';
          emit({ type: 'tool_output_delta', ...scope, item_id: item, delta });
          if (twin) emit({ type: 'command_output_delta', ...scope, item_id: item, ...twin, delta });
        }
        const status = random() < 0.9 ? 'completed' : 'failed';
        const error = status === 'failed' ? 'exit status 1' : '';
        emit({ type: 'tool_completed', ...scope, item_id: item, name, status, error });
        if (twin) emit({ type: 'command_completed', ...scope, item_id: item, ...twin, status, error });
        if (name === 'edit_file' || name === 'write_file') {
          emit({ type: 'file_changed', ...scope, item_id: item, tool_name: name, path: `${workspace}/src/${pick(WORDS)}.ts`, action: 'modify' });
        }
        input += int(500, 3000);
        output += int(10, 300);
        emit({ type: 'usage_updated', ...scope, input_tokens: input, output_tokens: output, cache_creation_tokens: 0, cache_read_tokens: cacheRead });
      }
      if (random() < 0.2) {
        const agent = { thread_id: thread, agent_id: `ag_${events.toString(36)}`, agent_type: 'explorer', task_name: 'explore', description: sentence(5) };
        emit({ type: 'subagent_started', ...agent, status: 'running', input_tokens: 0, output_tokens: 0, cache_creation_tokens: 0, cache_read_tokens: 0 });
        emit({ type: 'subagent_completed', ...agent, status: 'completed', result: sentence(8), input_tokens: int(500, 5000), output_tokens: int(10, 500), cache_creation_tokens: 0, cache_read_tokens: int(0, 2048) });
      }
      emit({ type: 'todo_updated', ...scope, todo: { items: [{ content: sentence(4), status: 'completed' }] } });
      emit({ type: 'agent_message_final', ...scope, message: message.trimEnd() });
      emit({ type: 'turn_completed', ...scope, input_tokens: input, output_tokens: output, trace_path: `/home/${user}/.wuu/traces/${thread}.jsonl`, awaiting_auto_continuation: turn < turns - 1 });
    }
    emit({ type: 'result', status: 'completed', thread_id: thread, turn_id: turnId, run_id: `run_${run.toString(36)}`, final_message: 'done', trace_path: `/home/${user}/.wuu/traces/${thread}.jsonl` });
  }
  return written;
}

/** Writes a generated stream of about `megabytes` MB to `file` (synchronously, in large writes). */
export function generateFile(file: string, megabytes: number, seed = 42): number {
  const fd = fs.openSync(file, 'w');
  let pending: string[] = [];
  let pendingBytes = 0;
  const written = generateStream({
    bytes: megabytes * 1_000_000,
    seed,
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
