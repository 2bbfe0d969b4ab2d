/**
 * JSONPath, through jsonpath-plus with script evaluation switched off.
 * Filter expressions (`?()`) and script expressions (`()`) are refused,
 * because evaluating them is how the library's past RCE bugs were reached.
 */
import { createRequire } from 'node:module';

type Engine = typeof import('jsonpath-plus').JSONPath;
let engine: Engine | undefined;

/**
 * jsonpath-plus, loaded on first use (its CommonJS build, synchronously): a
 * binary started without a JSONPath does not pay for it at start-up.
 */
function jsonPath(): Engine {
  engine ??= (createRequire(import.meta.url)('jsonpath-plus') as typeof import('jsonpath-plus')).JSONPath;
  return engine;
}

/** Thrown for a path that cannot be used. */
export class JsonPathError extends Error {
  override name = 'JsonPathError';
}

/** Returns every value `path` selects in `json` (never evaluates scripts). */
export function selectAll(path: string, json: unknown): unknown[] {
  return jsonPath()({ path, json: json as object, eval: false, wrap: true }) as unknown[];
}

/** Checks a path once, up front, so a bad one is a usage error rather than a failure mid-stream. */
export function checkPath(path: string): void {
  if (!path.startsWith('$')) throw new JsonPathError(`JSONPath '${path}' must start with '$'`);
  try {
    selectAll(path, { type: 'probe', nested: { type: 'probe' }, list: [{ type: 'probe' }] });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new JsonPathError(
      /prevented/i.test(reason)
        ? `JSONPath '${path}': filter and script expressions are disabled for safety`
        : `JSONPath '${path}': ${reason}`,
    );
  }
}

/** Every location `path` selects, as arrays of keys from the root (for rewriting). */
export function selectPointers(path: string, json: unknown): Array<Array<string | number>> {
  const JSONPath = jsonPath();
  const found = JSONPath({ path, json: json as object, eval: false, wrap: true, resultType: 'path' }) as string[];
  return found.map((p) => JSONPath.toPathArray(p).slice(1));
}
