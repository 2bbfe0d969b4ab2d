/**
 * JSONPath censoring (`wuu-redact '$..arguments'`): the selected values become
 * `"<redacted>"` (or the empty value of their type), or are removed. Paths
 * are checked up front (a malformed one is a usage error) and quoted unions
 * (`$..["arguments","command"]`) are rewritten to the form jsonpath-plus reads.
 */
import { checkPath, JsonPathError, selectPointers } from '../jsonpath.js';
import { censored } from './placeholders.js';

/** Rewrites `["a","b"]` / `['a','b']` unions of plain names to `[a,b]`. */
function normalizeUnions(path: string): string {
  return path.replace(/\[\s*(["'][A-Za-z0-9_$-]*["'](?:\s*,\s*["'][A-Za-z0-9_$-]*["'])+)\s*\]/g, (_m, list: string) =>
    `[${list.split(',').map((s) => s.trim().slice(1, -1)).join(',')}]`,
  );
}

/** Whether brackets, parentheses and quotes balance, and no step is empty. */
function wellFormed(path: string): boolean {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < path.length; i++) {
    const c = path.charAt(i);
    if (quote !== '') {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '[') {
      depth++;
      if (path[i + 1] === ']') return false;
    } else if (c === ']') {
      if (--depth < 0) return false;
    }
  }
  return depth === 0 && quote === '' && !/\.\.\.|\.$|\[\s*,|,\s*\]/.test(path);
}

/** Whether a value already is what censoring makes of it. */
function isCensored(value: unknown): boolean {
  if (value === '<redacted>' || value === 0 || value === false || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

/** Checks and normalizes a path; throws {@link JsonPathError} for one that cannot be used. */
export function preparePath(path: string): string {
  if (!wellFormed(path)) throw new JsonPathError(`JSONPath '${path}' is malformed (unbalanced brackets or quotes, or an empty step)`);
  // Checked as written: the shared grammar wants quoted names in brackets, and
  // the bare `[a,b]` form made for jsonpath-plus would be refused by it.
  checkPath(path);
  return normalizeUnions(path);
}

/** Applies censors to a copy of `event`; undefined when no path selects anything. */
export function censorEvent(event: Record<string, unknown>, paths: readonly string[], remove: boolean, hits: string[]): Record<string, unknown> | undefined {
  let copy: Record<string, unknown> | undefined;
  for (const path of paths) {
    const pointers = selectPointers(path, copy ?? event)
      .filter((p) => p.length > 0 && !(p.length === 1 && p[0] === 'type'))
      .reverse(); // array removals from the end keep earlier indexes valid
    for (const pointer of pointers) {
      copy ??= structuredClone(event);
      let parent: unknown = copy;
      for (const step of pointer.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[step];
      const leaf = pointer[pointer.length - 1]!;
      if (parent === null || typeof parent !== 'object') continue;
      const container = parent as Record<string | number, unknown>;
      const before = container[leaf];
      if (remove) {
        if (Array.isArray(container)) container.splice(Number(leaf), 1);
        else delete container[leaf];
      } else {
        container[leaf] = censored(before);
        if (isCensored(before)) continue; // already censored: nothing new (idempotence)
      }
      hits.push('jsonpath');
    }
  }
  return copy;
}

export { JsonPathError };
