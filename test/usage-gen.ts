/**
 * Test fixtures of wuu-usage: a seeded producer-like stream generator, fleets
 * of files, the jq oracle, and an in-process runner of the binary.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spec } from '../bin/wuu-usage.js';
import { ROOT } from './helpers.js';
import { runIn } from './runner-harness.js';

export type Four = [number, number, number, number];

/** What the oracle computes; counts are [input, cache_creation, cache_read, output]. */
export interface Oracle {
  turns: number;
  agents: number;
  main: Four;
  subagents: Four;
  models: Record<string, Four>;
  units: Record<string, Four>;
}

/** Runs the committed jq oracle (jq 1.6) over event files. */
export function oracle(files: string[]): Oracle {
  const out = execFileSync('/usr/bin/jq', ['-n', '-R', '-c', '-f', path.join(ROOT, 'test', 'usage-oracle.jq'), ...files], { encoding: 'utf8' });
  return JSON.parse(out) as Oracle;
}

export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

export function goLine(event: Record<string, unknown>): string {
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(event).sort()) sorted[key] = event[key];
  return JSON.stringify(sorted).replace(/[<>&]/g, (ch) => `\\u00${ch.charCodeAt(0).toString(16)}`);
}

/**
 * A seeded stream of several runs: cumulative snapshots (with occasional
 * resets), turn_completed repeating the counts, turns without snapshot,
 * failed and interrupted turns, interleaved subagents with cumulative
 * reports, bash twins whose output mentions token fields, thread_resumed
 * with another model, and killed runs (no result, sometimes a cut line).
 */
export function generate(seed: number, runs: number): string {
  const random = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const lines: string[] = [];
  const emit = (e: Record<string, unknown>) => lines.push(goLine(e));
  for (let r = 0; r < runs; r++) {
    const thread = `th_${seed}_${r}`;
    const model = pick(['m-a', 'm-b', 'm-c']);
    emit({ type: 'session_configured', model, provider: 'p', protocol_version: 'wuu-app-server/v0.1', permissions: { mode: 'standard' } });
    if (random() < 0.3) emit({ type: 'thread_resumed', thread_id: thread, model: pick(['m-a', 'm-d']), provider: 'p', cwd: '/w' });
    else emit({ type: 'thread_started', thread_id: thread, model, provider: 'p', cwd: '/w' });
    const agents: Array<{ id: string; tok: Four }> = [];
    const killed = random() < 0.2;
    const turns = int(1, 4);
    for (let u = 0; u < turns; u++) {
      const scope = { thread_id: thread, turn_id: `${thread}-turn-${String(u + 1).padStart(4, '0')}` };
      emit({ type: 'turn_started', ...scope });
      let snap: Four = [int(100, 2000), int(1, 50), 0, 0];
      snap[2] = int(0, 3000);
      snap[3] = int(0, 6000);
      const snapshots = int(0, 4);
      let last: Four | undefined;
      for (let s = 0; s < snapshots; s++) {
        const item = `it_${r}_${u}_${s}`;
        const args = JSON.stringify({ command: 'echo "input_tokens":999' });
        emit({ type: 'tool_started', ...scope, item_id: item, name: 'bash', arguments: args });
        emit({ type: 'command_started', ...scope, item_id: item, name: 'bash', arguments: args, command: 'echo' });
        const delta = '{"input_tokens":999,"type":"usage_updated"}\n';
        emit({ type: 'tool_output_delta', ...scope, item_id: item, delta });
        emit({ type: 'command_output_delta', ...scope, item_id: item, name: 'bash', arguments: args, command: 'echo', delta });
        emit({ type: 'tool_completed', ...scope, item_id: item, name: 'bash', status: 'completed', error: '' });
        if (random() < 0.4) {
          const a = agents.length < 3 && random() < 0.5 ? undefined : agents[int(0, agents.length - 1)];
          if (a === undefined) {
            const id = `ag_${seed}_${r}_${agents.length}`;
            agents.push({ id, tok: [0, 0, 0, 0] });
            emit({ type: 'subagent_started', thread_id: thread, agent_id: id, agent_type: 'explorer', status: 'running', input_tokens: 0, output_tokens: 0, cache_creation_tokens: 0, cache_read_tokens: 0 });
          } else {
            const inc = int(10, 900);
            a.tok = [a.tok[0] + inc, a.tok[1] + int(1, 40), a.tok[2], a.tok[3] + int(0, inc)];
            const done = random() < 0.3;
            // The sub-agent's own thread leaks its snapshot and turn end into the stream (trap 3).
            const childTurn = { thread_id: a.id, turn_id: `${a.id}-turn-0001` };
            emit({ type: 'usage_updated', ...childTurn, input_tokens: a.tok[0], output_tokens: a.tok[1], cache_creation_tokens: a.tok[2], cache_read_tokens: a.tok[3] });
            if (done) emit({ type: 'turn_completed', ...childTurn, input_tokens: a.tok[0], output_tokens: a.tok[1], awaiting_auto_continuation: false, trace_path: '' });
            emit({
              type: done ? 'subagent_completed' : 'subagent_updated',
              thread_id: thread,
              agent_id: a.id,
              status: done ? 'completed' : 'running',
              input_tokens: a.tok[0],
              output_tokens: a.tok[1],
              cache_creation_tokens: a.tok[2],
              cache_read_tokens: a.tok[3],
            });
          }
        }
        if (random() < 0.1) {
          snap = [Math.floor(snap[0] / 2), Math.floor(snap[1] / 2), Math.floor(snap[2] / 2), Math.floor(snap[3] / 2)]; // a reset
        } else {
          const grow = int(0, 3000);
          const read = int(0, grow);
          snap = [snap[0] + grow - read, snap[1] + int(0, 300), snap[2] + int(0, 500), snap[3] + read];
        }
        emit({ type: 'usage_updated', ...scope, input_tokens: snap[0], output_tokens: snap[1], cache_creation_tokens: snap[2], cache_read_tokens: snap[3] });
        last = snap;
      }
      if (killed && u === turns - 1) break; // killed mid-turn: usage but no end
      const end = random();
      if (end < 0.75) {
        const counts = last ?? [int(1, 5000), int(1, 500)];
        emit({ type: 'turn_completed', ...scope, input_tokens: counts[0], output_tokens: counts[1], awaiting_auto_continuation: u < turns - 1, trace_path: '' });
      } else if (end < 0.9) emit({ type: 'turn_failed', ...scope, error: 'boom' });
      else emit({ type: 'turn_interrupted', ...scope, reason: 'interrupted' });
    }
    if (!killed) emit({ type: 'result', thread_id: thread, turn_id: 'tu_x', run_id: `run_${seed}_${r}`, status: 'completed', final_message: '' });
  }
  let text = lines.join('\n') + '\n';
  if (random() < 0.5) text = text.slice(0, text.length - int(5, 30)); // a cut last line
  return text;
}

/** Directories made by {@link tmpDir} and {@link fleet}, removed when the test process exits. */
const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A new directory under the system temp dir, removed when the test process exits. */
export function tmpDir(prefix = 'wuu-usage-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Writes generated streams into DIR (some gzipped, one in a subdirectory); returns plain copies for jq. */
export function fleet(dir: string, count: number, seed0: number): { files: string[]; plain: string[] } {
  const plainDir = tmpDir('wuu-usage-plain-');
  const files: string[] = [];
  const plain: string[] = [];
  fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
  for (let i = 0; i < count; i++) {
    const text = generate(seed0 + i, 3 + (i % 4));
    const name = i % 3 === 1 ? `sub/log${i}.jsonl` : `log${i}.jsonl`;
    const target = path.join(dir, i % 4 === 2 ? `${name}.gz` : name);
    fs.writeFileSync(target, i % 4 === 2 ? zlib.gzipSync(text) : text);
    const copy = path.join(plainDir, `log${i}.jsonl`);
    fs.writeFileSync(copy, text);
    files.push(target);
    plain.push(copy);
  }
  return { files: files.sort(), plain };
}

/** Runs wuu-usage in process (test/runner-harness.ts): exact stdout, stderr and status. */
export async function usageRun(argv: string[], options: { stdin?: string; tty?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<{ stdout: string; stderr: string; code: number }> {
  const { stdout, stderr, code } = await runIn(spec, argv, options.stdin ?? '', { tty: options.tty ?? false, env: options.env ?? {} });
  return { stdout, stderr, code };
}

export { fs, os, zlib };
