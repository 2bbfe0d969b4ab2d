/**
 * JSONPath, through jsonpath-plus with script evaluation switched off.
 *
 * Paths are checked against a strict grammar before the library sees them,
 * because the library quietly accepts broken ones (`$.[`, `$[`, `$..`) and
 * matches nothing. Refused on purpose:
 * - filter and script expressions (`?()`, `()`): evaluating them is how the
 *   library's past RCE bugs were reached;
 * - more than one recursive descent (`..`): `$..*..*..*` visits the product of
 *   every subtree with every other (34 s and 1.5 GB on a 230 KB event), while a
 *   single `..` visits each node of an event once.
 * The library is loaded on first use only, so a tool run without a path does
 * not pay for it.
 */
import { createRequire } from 'node:module';
import type { JSONPath as JSONPathFunction } from 'jsonpath-plus';

/** Thrown for a path that cannot be used. */
export class JsonPathError extends Error {
  override name = 'JsonPathError';
}

let library: typeof JSONPathFunction | undefined;

function jsonPath(): typeof JSONPathFunction {
  if (library === undefined) {
    const require = createRequire(import.meta.url);
    const exported: { JSONPath: typeof JSONPathFunction } = require('jsonpath-plus');
    library = exported.JSONPath;
  }
  return library;
}

/** Returns every value `path` selects in `json` (never evaluates scripts). */
export function selectAll(path: string, json: object): unknown[] {
  const found: unknown[] = jsonPath()({ path, json, eval: false, wrap: true });
  return found;
}

/** A dot-notation member name: letters, digits, `_`, `-`, `$` and anything beyond ASCII. */
const NAME = /^(?:[A-Za-z0-9_$-]|[^\x00-\x7f])+/;
/** One bracket entry: `*`, an index, a slice, or a quoted name. */
const ENTRY = /^(?:\*|-?\d*:-?\d*(?::-?\d*)?|-?\d+|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")/;

/**
 * The components of a path (for callers that look at its shape), or a
 * JsonPathError saying what is wrong: `$`, then `.name`, `.*`, `..name`,
 * `..*`, `..[...]` and `[...]` segments, where a bracket holds `*`, indexes,
 * slices or quoted names (a union separated by commas).
 */
export function parsePath(path: string): string[] {
  const fail: (at: number, what: string) => never = (at, what) => {
    throw new JsonPathError(`JSONPath '${path}': ${what} at position ${at}`);
  };
  if (!path.startsWith('$')) throw new JsonPathError(`JSONPath '${path}' must start with '$'`);
  if (/\[\s*\??\s*\(/.test(path)) throw new JsonPathError(`JSONPath '${path}': filter and script expressions are disabled for safety`);
  const parts: string[] = [];
  let descents = 0;
  let at = 1;
  while (at < path.length) {
    const rest = path.slice(at);
    if (rest.startsWith('.')) {
      const descent = rest.startsWith('..');
      if (descent) {
        descents++;
        if (descents > 1) throw new JsonPathError(`JSONPath '${path}': at most one recursive descent (..) per path`);
        parts.push('..');
      }
      at += descent ? 2 : 1;
      if (descent && path[at] === '[') continue;
      const member = path[at] === '*' ? '*' : NAME.exec(path.slice(at))?.[0];
      if (member === undefined) fail(at, descent ? "a name, '*' or '[' expected after '..'" : "a name or '*' expected after '.'");
      parts.push(member);
      at += member.length;
    } else if (rest.startsWith('[')) {
      at++;
      for (;;) {
        while (path[at] === ' ') at++;
        const entry = ENTRY.exec(path.slice(at))?.[0];
        if (entry === undefined) fail(at, "'*', an index, a slice or a quoted name expected in '[ ]'");
        parts.push(entry.startsWith("'") || entry.startsWith('"') ? unquote(entry) : entry);
        at += entry.length;
        while (path[at] === ' ') at++;
        if (path[at] === ',') {
          at++;
          continue;
        }
        if (path[at] !== ']') fail(at, "']' expected");
        at++;
        break;
      }
    } else {
      fail(at, `unexpected '${path[at]}'`);
    }
  }
  return parts;
}

function unquote(quoted: string): string {
  return quoted.slice(1, -1).replace(/\\(.)/g, '$1');
}

/** Checks a path once, up front, so a bad one is a usage error rather than a failure mid-stream. */
export function checkPath(path: string): void {
  parsePath(path);
  try {
    selectAll(path, { type: 'probe', nested: { type: 'probe' }, list: [{ type: 'probe' }] });
  } catch (err) {
    throw new JsonPathError(`JSONPath '${path}': ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Every location `path` selects, as arrays of keys from the root (for rewriting). */
export function selectPointers(path: string, json: object): Array<Array<string | number>> {
  const JSONPath = jsonPath();
  const found: string[] = JSONPath({ path, json, eval: false, wrap: true, resultType: 'path' });
  return found.map((p) => JSONPath.toPathArray(p).slice(1));
}
