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
 *   node reference.js usage           the needle loop for usage_updated lines,
 *                                     each parsed, last snapshot per turn kept
 *   node reference.js parse           JSON.parse every line, write the original
 *                                     bytes (a validating identity)
 *   node reference.js parse-stringify JSON.parse every line and write
 *                                     JSON.stringify of it (what a naive
 *                                     accumulator or checker costs)
 *   node reference.js walk PATTERN    parse, walk every string applying one
 *                                     regex, stringify (what a redactor does)
 *   node reference.js validate        lib/scan.ts isJsonObject on every line
 */
import { isJsonObject } from '../lib/scan.js';

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

function usageLoop(): void {
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
  case 'parse':
    parseLoop();
    break;
  case 'walk':
    walkLoop(arg);
    break;
  case 'validate':
    validateLoop();
    break;
  default:
    process.stderr.write(`reference: unknown mode ${mode}\n`);
    process.exitCode = 2;
}
