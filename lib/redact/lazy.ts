/**
 * What only some runs need, loaded on first use (issue 21: start-up is most
 * of a short run). re2js, the linear-time engine of user rules: a run with
 * the built-in rules only never compiles a user pattern, and loading the
 * library (260 KB) was about 10 ms of every run's start-up; loaded as
 * lib/where.ts loads it (its CommonJS build, through require). node:crypto,
 * for the HMACs of --pseudonymize placeholders and --report/--allow
 * fingerprints (about 3 ms to load).
 */
import { createRequire } from 'node:module';
import type { Hmac } from 'node:crypto';
import type { RE2JS as RE2JSClass } from 're2js';

export type RE2JS = RE2JSClass;

const require = createRequire(import.meta.url);

let re2: typeof RE2JSClass | undefined;

/** The RE2JS class. */
export function re2js(): typeof RE2JSClass {
  re2 ??= (require('re2js') as { RE2JS: typeof RE2JSClass }).RE2JS;
  return re2;
}

let crypto: typeof import('node:crypto') | undefined;

/** crypto.createHmac. */
export function createHmac(algorithm: string, key: string): Hmac {
  crypto ??= require('node:crypto') as typeof import('node:crypto');
  return crypto.createHmac(algorithm, key);
}
