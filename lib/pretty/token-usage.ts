/**
 * Token usage for the renderers, in the producer's convention as lib/events.ts
 * states it once (../shared/WIRE-FORMAT.md, trap 1): `input_tokens` EXCLUDES
 * cached tokens, so the prompt a turn sent is uncached input + cache write +
 * cache read, and the cache hit ratio is cache read / prompt. Snapshots are cumulative per (thread, turn): the last
 * one is the turn's usage, and a run's usage is the sum over its root turns.
 */
import { cacheHitRatio, promptTokens, TOKEN_FIELDS, type Tokens } from '../events.js';
import { formatCount } from './format.js';

/** A usage of zero. */
export function zeroUsage(): Tokens {
  return { input_tokens: 0, cache_creation_tokens: 0, cache_read_tokens: 0, output_tokens: 0 };
}

/** Whether any counter is non-zero. */
export function hasUsage(u: Tokens): boolean {
  return promptTokens(u) + u.output_tokens > 0;
}

/** Adds `b` into `a`. */
export function addUsage(a: Tokens, b: Tokens): void {
  for (const f of TOKEN_FIELDS) a[f] += b[f];
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
export function usageParts(u: Tokens): UsageParts {
  const cached = u.cache_creation_tokens + u.cache_read_tokens > 0;
  const hit = cacheHitRatio(u);
  return {
    prompt: formatCount(promptTokens(u)),
    breakdown: cached
      ? `${formatCount(u.input_tokens)} uncached + ${formatCount(u.cache_creation_tokens)} cache write + ${formatCount(u.cache_read_tokens)} cache read`
      : '',
    hit: cached && hit !== null ? `${(hit * 100).toFixed(1)}%` : '',
    output: formatCount(u.output_tokens),
  };
}

/**
 * One line: `prompt 17,992 (9,800 uncached + 4,096 cache write + 4,096 cache
 * read, 22.8% cache hit) · output 420`; without cache counts just
 * `prompt 3,000 · output 90`.
 */
export function describeUsage(u: Tokens): string {
  const p = usageParts(u);
  const detail = p.breakdown === '' ? '' : ` (${p.breakdown}, ${p.hit} cache hit)`;
  return `prompt ${p.prompt}${detail} · output ${p.output}`;
}
