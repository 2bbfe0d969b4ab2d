/**
 * Token usage in the producer's convention (../shared/WIRE-FORMAT.md, trap 1):
 * `input_tokens` EXCLUDES cached tokens, so the prompt a turn sent is
 * uncached input + cache write + cache read, and the cache hit ratio is
 * cache read / prompt. Snapshots are cumulative per (thread, turn): the last
 * one is the turn's usage, and a run's usage is the sum over its root turns.
 */
import { formatCount, num } from './format.js';

/** One usage figure, in the producer's exclusive convention. */
export interface Usage {
  /** Uncached input tokens (`input_tokens`). */
  input: number;
  /** Cache write (`cache_creation_tokens`). */
  cacheWrite: number;
  /** Cache read (`cache_read_tokens`). */
  cacheRead: number;
  output: number;
}

/** A usage of zero. */
export function zeroUsage(): Usage {
  return { input: 0, cacheWrite: 0, cacheRead: 0, output: 0 };
}

/** Reads the four counters of a usage_updated, turn_completed or subagent_* event. */
export function usageOf(e: Record<string, unknown>): Usage {
  return {
    input: num(e.input_tokens),
    cacheWrite: num(e.cache_creation_tokens),
    cacheRead: num(e.cache_read_tokens),
    output: num(e.output_tokens),
  };
}

/** Prompt total: uncached input + cache write + cache read. */
export function promptTokens(u: Usage): number {
  return u.input + u.cacheWrite + u.cacheRead;
}

/** Cache hit ratio (cache read / prompt), or undefined for an empty prompt. */
export function cacheHit(u: Usage): number | undefined {
  const prompt = promptTokens(u);
  return prompt > 0 ? u.cacheRead / prompt : undefined;
}

/** Whether any counter is non-zero. */
export function hasUsage(u: Usage): boolean {
  return u.input + u.cacheWrite + u.cacheRead + u.output > 0;
}

/** Adds `b` into `a`. */
export function addUsage(a: Usage, b: Usage): void {
  a.input += b.input;
  a.cacheWrite += b.cacheWrite;
  a.cacheRead += b.cacheRead;
  a.output += b.output;
}

/** The parts of a usage as labelled figures, for every renderer. */
export interface UsageParts {
  prompt: string;
  /** `9,800 uncached + 4,096 cache write + 4,096 cache read`, or '' without cache. */
  breakdown: string;
  /** `22.8%`, or '' without cache. */
  hit: string;
  output: string;
}

/** Labelled figures of a usage. */
export function usageParts(u: Usage): UsageParts {
  const cached = u.cacheWrite + u.cacheRead > 0;
  const hit = cacheHit(u);
  return {
    prompt: formatCount(promptTokens(u)),
    breakdown: cached ? `${formatCount(u.input)} uncached + ${formatCount(u.cacheWrite)} cache write + ${formatCount(u.cacheRead)} cache read` : '',
    hit: cached && hit !== undefined ? `${(hit * 100).toFixed(1)}%` : '',
    output: formatCount(u.output),
  };
}

/**
 * One line: `prompt 17,992 (9,800 uncached + 4,096 cache write + 4,096 cache
 * read, 22.8% cache hit) · output 420`; without cache counts just
 * `prompt 3,000 · output 90`.
 */
export function describeUsage(u: Usage): string {
  const p = usageParts(u);
  const detail = p.breakdown === '' ? '' : ` (${p.breakdown}, ${p.hit} cache hit)`;
  return `prompt ${p.prompt}${detail} · output ${p.output}`;
}
