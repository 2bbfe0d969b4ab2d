/**
 * The package version for --version, read cheaply: one small file read, no
 * directory walk (lib/cli/ in the sources, dist/lib/cli/ when built).
 */
import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** Compiled into the bundled binaries by scripts/bundle.mjs (undefined in tsc output). */
declare const __WUU_VERSION__: string | undefined;

/** This package's version from its package.json, or 'unknown'. */
export function packageVersion(): string {
  if (cached !== undefined) return cached;
  if (typeof __WUU_VERSION__ === 'string') return (cached = __WUU_VERSION__);
  cached = 'unknown';
  for (const relative of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'wuu-stream' && typeof pkg.version === 'string') {
        cached = pkg.version;
        break;
      }
    } catch {
      // not at this level
    }
  }
  return cached;
}
