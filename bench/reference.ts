/**
 * The reference loops every tool is measured against, in the same run: what a
 * careful hand-written Node script does for the same job, with no checks.
 *   node reference.js pipe            stdin.pipe(stdout): the floor
 *   node reference.js needle NEEDLE   Buffer.indexOf per chunk, type sniffed
 *                                     from the line's tail, only hit lines
 *                                     touched and written
 *   node reference.js sniff PREFIX    the type sniffed from the line's tail at
 *                                     byte level, only the kept lines
 *                                     JSON.parse'd (validated) and written:
 *                                     the honest floor of a filter that
 *                                     promises to write only valid JSON
 *   node reference.js usage           the usage report by hand (what wuu-usage
 *                                     --json does, without its checks): the
 *                                     type sniffed from every line's tail,
 *                                     only the lines of the types a usage
 *                                     report must read JSON.parse'd (and a
 *                                     line whose tail names no type, to learn
 *                                     it); last snapshot per root-thread
 *                                     turn (turn_completed for a turn with
 *                                     none), last report per subagent, priced
 *                                     per model with genai-prices; one JSON
 *                                     line per turn and subagent and a total
 *   node reference.js usage-snapshots the older, partial loop: Buffer.indexOf
 *                                     finds usage_updated lines (no other
 *                                     line is looked at), each parsed, last
 *                                     snapshot per turn of ANY thread kept,
 *                                     one total line: no turn ends, roots,
 *                                     subagents, models, prices or per-turn
 *                                     output, so not the same job
 *   node reference.js parse           JSON.parse every line, write the original
 *                                     bytes (a validating identity)
 *   node reference.js parse-stringify JSON.parse every line and write
 *                                     JSON.stringify of it (what a naive
 *                                     accumulator or checker costs)
 *   node reference.js walk PATTERN    parse, walk every string applying one
 *                                     regex, stringify (what a redactor does)
 *   node reference.js validate        lib/scan.ts isJsonObject on every line
 *   node reference.js validate-lines  lib/validate.ts validEventLines on each
 *                                     chunk's whole lines (what identity runs)
 */
import { createRequire } from 'node:module';
import { isJsonObject } from '../lib/scan.js';
import { linesValidated, validEventLines } from '../lib/validate.js';

const [mode = 'pipe', arg = ''] = process.argv.slice(2);
const NEWLINE = 0x0a;

/** Calls `onLines(chunk, start, end)` with each chunk's span of whole lines, carrying the rest. */
function wholeLines(onLines: (buf: Buffer, start: number, end: number) => void, onEnd?: () => void): void {
  let carry: Buffer | undefined;
  process.stdin.on('data', (chunk: Buffer) => {
    let buf = chunk;
    if (carry !== undefined) {
      buf = Buffer.concat([carry, chunk]);
      carry = undefined;
    }
    const last = buf.lastIndexOf(NEWLINE);
    if (last < 0) {
      carry = buf;
      return;
    }
    onLines(buf, 0, last + 1);
    if (last + 1 < buf.length) carry = Buffer.from(buf.subarray(last + 1));
  });
  process.stdin.on('end', () => {
    if (carry !== undefined) onLines(Buffer.concat([carry, Buffer.from('\n')]), 0, carry.length + 1);
    onEnd?.();
  });
}

/** The value of the line's last member when it is `"type":"..."` (the producer's shape). */
function tailType(buf: Buffer, start: number, end: number): string | undefined {
  if (buf[end - 1] !== 0x7d || buf[end - 2] !== 0x22) return undefined;
  const open = buf.lastIndexOf(0x22, end - 3);
  if (open < start + 8 || buf.toString('latin1', open - 7, open) !== '"type":') return undefined;
  return buf.toString('latin1', open + 1, end - 2);
}

/** Lines containing `needle`, each visited once: calls `hit(start, end)` (end excludes the newline). */
function eachHit(buf: Buffer, from: number, to: number, needle: Buffer, hit: (start: number, end: number) => void): void {
  let at = from;
  for (;;) {
    const found = buf.indexOf(needle, at);
    if (found < 0 || found >= to) return;
    const start = buf.lastIndexOf(NEWLINE, found) + 1;
    const end = buf.indexOf(NEWLINE, found);
    hit(start, end);
    at = end + 1;
  }
}

function needleLoop(needleText: string): void {
  const needle = Buffer.from(needleText);
  const prefix = needleText.replace(/^"type":"/, '');
  wholeLines((buf, from, to) => {
    const parts: Buffer[] = [];
    eachHit(buf, from, to, needle, (start, end) => {
      const type = tailType(buf, start, end);
      if (type !== undefined && type.startsWith(prefix)) parts.push(buf.subarray(start, end + 1));
    });
    if (parts.length > 0) process.stdout.write(Buffer.concat(parts));
  });
}

function sniffLoop(prefix: string): void {
  wholeLines((buf, from, to) => {
    const parts: Buffer[] = [];
    let at = from;
    while (at < to) {
      const end = buf.indexOf(NEWLINE, at);
      const type = tailType(buf, at, end);
      if (type !== undefined && type.startsWith(prefix)) {
        JSON.parse(buf.toString('utf8', at, end));
        parts.push(buf.subarray(at, end + 1));
      }
      at = end + 1;
    }
    if (parts.length > 0) process.stdout.write(Buffer.concat(parts));
  });
}

function parseStringifyLoop(): void {
  wholeLines((buf, from, to) => {
    const out: string[] = [];
    let at = from;
    while (at < to) {
      const end = buf.indexOf(NEWLINE, at);
      out.push(JSON.stringify(JSON.parse(buf.toString('utf8', at, end))));
      at = end + 1;
    }
    process.stdout.write(`${out.join('\n')}\n`);
  });
}

/** The event types a usage report must read (the rest carry no usage, model, thread or result). */
const USAGE_READ = new Set([
  'session_configured',
  'thread_started',
  'thread_resumed',
  'thread_forked',
  'turn_started',
  'usage_updated',
  'turn_completed',
  'turn_failed',
  'turn_interrupted',
  'subagent_started',
  'subagent_updated',
  'subagent_completed',
  'result',
]);

type Ev = Record<string, unknown>;
/** Counts and model of a turn or subagent: input, cache write, cache read, output. */
type Counted = { thread: string; id: string; model: string; provider: string; n: [number, number, number, number] };

const counts = (e: Ev): Counted['n'] => [Number(e.input_tokens ?? 0), Number(e.cache_creation_tokens ?? 0), Number(e.cache_read_tokens ?? 0), Number(e.output_tokens ?? 0)];

/** The usage report by hand: see the header. Plain numbers, no checks, no warnings. */
function usageLoop(): void {
  const roots = new Set<string>();
  const snaps = new Map<string, Counted>();
  const ended = new Map<string, Counted>();
  const agents = new Map<string, Counted>();
  let model = 'unknown';
  let provider = '';
  const handle = (e: Ev) => {
    const type = e.type as string;
    const thread = String(e.thread_id ?? '');
    if (type === 'session_configured' || type.startsWith('thread_')) {
      model = String(e.model ?? model);
      provider = String(e.provider ?? provider);
    }
    if (type.startsWith('thread_') || type === 'turn_started') roots.add(thread);
    else if (type === 'usage_updated' && roots.has(thread)) snaps.set(`${thread}\u0000${e.turn_id}`, { thread, id: String(e.turn_id), model, provider, n: counts(e) });
    else if (type === 'turn_completed' && roots.has(thread)) ended.set(`${thread}\u0000${e.turn_id}`, { thread, id: String(e.turn_id), model, provider, n: counts(e) });
    else if (type.startsWith('subagent_')) agents.set(String(e.agent_id), { thread, id: String(e.agent_id), model, provider, n: counts(e) });
  };
  wholeLines(
    (buf, from, to) => {
      let at = from;
      while (at < to) {
        const end = buf.indexOf(NEWLINE, at);
        const type = tailType(buf, at, end);
        if (type === undefined || USAGE_READ.has(type)) {
          const e = JSON.parse(buf.toString('utf8', at, end)) as Ev;
          if (typeof e.type === 'string' && USAGE_READ.has(e.type)) handle(e);
        }
        at = end + 1;
      }
    },
    () => {
      for (const [key, turn] of ended) if (!snaps.has(key)) snaps.set(key, turn);
      const price = pricer();
      const out: string[] = [];
      const total = [0, 0, 0, 0, 0];
      const line = (kind: string, idName: string, c: Counted) => {
        const [input, write, read, output] = c.n;
        const prompt = input + write + read;
        const cost = price(c.provider, c.model, c.n);
        out.push(JSON.stringify({ kind, thread_id: c.thread, [idName]: c.id, provider: c.provider, model: c.model, input_tokens: input, cache_creation_tokens: write, cache_read_tokens: read, output_tokens: output, prompt_tokens: prompt, cache_hit_ratio: prompt > 0 ? read / prompt : null, cost_usd: cost }));
        c.n.forEach((v, k) => (total[k]! += v));
        total[4]! += cost ?? 0;
      };
      for (const turn of snaps.values()) line('turn', 'turn_id', turn);
      for (const agent of agents.values()) line('agent', 'agent_id', agent);
      out.push(JSON.stringify({ kind: 'total', turns: snaps.size, agents: agents.size, input_tokens: total[0], cache_creation_tokens: total[1], cache_read_tokens: total[2], output_tokens: total[3], cost_usd: total[4] }));
      process.stdout.write(`${out.join('\n')}\n`);
    },
  );
}

/** Cost in USD of counts, by (provider, model): genai-prices asked once per model, as a careful script would. */
function pricer(): (provider: string, model: string, n: Counted['n']) => number | null {
  type Calc = (usage: Record<string, number>, model: string, options: { providerId?: string }) => { model_price: Record<string, unknown> } | null;
  const { calcPrice } = createRequire(import.meta.url)('@pydantic/genai-prices') as { calcPrice: Calc };
  const rates = new Map<string, Record<string, unknown> | null>();
  const find = (provider: string, model: string) => {
    for (const options of [{ providerId: provider }, {}]) {
      try {
        const found = calcPrice({ input_tokens: 0, output_tokens: 0 }, model, options);
        if (found) return found.model_price;
      } catch {
        // not this provider
      }
    }
    return null;
  };
  return (provider, model, [input, write, read, output]) => {
    const key = `${provider}/${model}`;
    if (!rates.has(key)) rates.set(key, find(provider, model));
    const r = rates.get(key);
    if (!r) return null;
    const rate = (k: string, fallback: unknown) => (typeof r[k] === 'number' ? (r[k] as number) : typeof fallback === 'number' ? fallback : 0);
    return (input * rate('input_mtok', 0) + write * rate('cache_write_mtok', r.input_mtok) + read * rate('cache_read_mtok', r.input_mtok) + output * rate('output_mtok', 0)) / 1e6;
  };
}

/** The older, partial loop (see the header): usage_updated lines only, found by Buffer.indexOf. */
function usageSnapshotsLoop(): void {
  const needle = Buffer.from('"type":"usage_updated"');
  const last = new Map<string, [number, number, number, number]>();
  wholeLines(
    (buf, from, to) =>
      eachHit(buf, from, to, needle, (start, end) => {
        const e = JSON.parse(buf.toString('utf8', start, end)) as Record<string, number | string>;
        last.set(`${e.thread_id}\u0000${e.turn_id}`, [e.input_tokens as number, e.output_tokens as number, e.cache_creation_tokens as number, e.cache_read_tokens as number]);
      }),
    () => {
      const total = [0, 0, 0, 0];
      for (const counts of last.values()) for (let k = 0; k < 4; k++) total[k]! += counts[k]!;
      process.stdout.write(`${JSON.stringify({ turns: last.size, input: total[0], output: total[1], cache_creation: total[2], cache_read: total[3] })}\n`);
    },
  );
}

function parseLoop(): void {
  wholeLines((buf, from, to) => {
    let at = from;
    while (at < to) {
      const end = buf.indexOf(NEWLINE, at);
      JSON.parse(buf.toString('utf8', at, end));
      at = end + 1;
    }
    process.stdout.write(buf.subarray(from, to));
  });
}

function walkLoop(pattern: string): void {
  const re = new RegExp(pattern, 'g');
  const walk = (root: unknown): unknown => {
    // Iterative, like the tools: a stack of containers to visit.
    const stack: unknown[] = [root];
    while (stack.length > 0) {
      const node = stack.pop() as Record<string, unknown> | unknown[];
      for (const key of Object.keys(node)) {
        const value = (node as Record<string, unknown>)[key];
        if (typeof value === 'string') (node as Record<string, unknown>)[key] = value.replace(re, '[REDACTED]');
        else if (typeof value === 'object' && value !== null) stack.push(value);
      }
    }
    return root;
  };
  wholeLines((buf, from, to) => {
    const out: string[] = [];
    let at = from;
    while (at < to) {
      const end = buf.indexOf(NEWLINE, at);
      out.push(JSON.stringify(walk(JSON.parse(buf.toString('utf8', at, end)))));
      at = end + 1;
    }
    process.stdout.write(`${out.join('\n')}\n`);
  });
}

function validateLoop(): void {
  let valid = 0;
  wholeLines(
    (buf, from, to) => {
      let at = from;
      while (at < to) {
        const end = buf.indexOf(NEWLINE, at);
        if (isJsonObject(buf, at, end)) valid++;
        at = end + 1;
      }
    },
    () => process.stdout.write(`${valid}\n`),
  );
}

function validateLinesLoop(): void {
  let valid = 0;
  wholeLines(
    (buf, from, to) => {
      let at = from;
      while (at < to) {
        const proven = validEventLines(buf, at, to, Infinity);
        valid += linesValidated;
        // A line it cannot prove is skipped (counted as not valid).
        at = proven > at ? proven : buf.indexOf(NEWLINE, at) + 1;
      }
    },
    () => process.stdout.write(`${valid}\n`),
  );
}

switch (mode) {
  case 'pipe':
    process.stdin.pipe(process.stdout);
    break;
  case 'needle':
    needleLoop(arg);
    break;
  case 'sniff':
    sniffLoop(arg);
    break;
  case 'parse-stringify':
    parseStringifyLoop();
    break;
  case 'usage':
    usageLoop();
    break;
  case 'usage-snapshots':
    usageSnapshotsLoop();
    break;
  case 'parse':
    parseLoop();
    break;
  case 'walk':
    walkLoop(arg);
    break;
  case 'validate':
    validateLoop();
    break;
  case 'validate-lines':
    validateLinesLoop();
    break;
  default:
    process.stderr.write(`reference: unknown mode ${mode}\n`);
    process.exitCode = 2;
}
