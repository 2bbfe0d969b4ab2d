/**
 * re2js, the linear-time regular expression engine of user patterns
 * (wuu-filter --where, wuu-redact's user rules), loaded on first use: a run
 * without a user pattern never needs it, and loading the library (260 KB)
 * costs about 10 ms of start-up. Its CommonJS build, through require.
 */
import { createRequire } from 'node:module';
import type { RE2JS as RE2JSClass } from 're2js';

export type RE2JS = RE2JSClass;

let re2: typeof RE2JSClass | undefined;

/** The RE2JS class. */
export function re2js(): typeof RE2JSClass {
  re2 ??= (createRequire(import.meta.url)('re2js') as { RE2JS: typeof RE2JSClass }).RE2JS;
  return re2;
}
