/**
 * What only some runs need, loaded on first use (issue 21: start-up is most
 * of a short run): node:crypto, for the HMACs of --pseudonymize placeholders
 * and --report/--allow fingerprints (about 3 ms to load). re2js, for user
 * rules, loads the same way (../re2.ts).
 */
import { createRequire } from 'node:module';
import type { Hmac } from 'node:crypto';

let crypto: typeof import('node:crypto') | undefined;

/** crypto.createHmac. */
export function createHmac(algorithm: string, key: string): Hmac {
  crypto ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return crypto.createHmac(algorithm, key);
}
