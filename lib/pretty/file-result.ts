/**
 * The result of a file tool (read_file, write_file, edit_file, glob...) as
 * people want to see it. The producer writes these results as JSON objects
 * (`{"content":…,"path":…}`, `{"action":"edit","new_file_sha":…,"path":…}`):
 * shown raw they are one clipped line of escapes and hashes. Here they become
 * the action and path, then the content or the listed files as lines. A
 * result that is not such an object is left to the ordinary output view.
 */
import { isObject } from '../events.js';
import { OutputFold, type Folded } from './fold.js';

/** Tools whose results are about files (see also arguments.ts). */
const FILE_TOOL_RE = /file|patch|dir|glob|grep|search|find|^(read|write|edit|view|ls|cat|checkpoint|list)$/i;
/** Result text held to be read whole; a bigger one is shown as ordinary output. */
export const FILE_RESULT_CAP = 128 * 1024;
const LIST_KEYS = ['files', 'matches', 'paths', 'results', 'entries', 'changed_files', 'restored_files'];

/** Whether a tool's result is read as a file result. */
export function isFileTool(name: string): boolean {
  return FILE_TOOL_RE.test(name);
}


const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** One listed entry: a string, or an object's path (with its action when given). */
function entryLine(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (!isObject(entry)) return undefined;
  const o = entry;
  const path = text(o.path) || text(o.file) || text(o.name);
  if (path === '') return undefined;
  const action = text(o.action);
  const line = typeof o.line === 'number' ? `:${o.line}` : '';
  return `${action === '' ? '' : `${action} `}${path}${line}`;
}

/** The verb a tool's name implies (`read_file` → read). */
function verbOf(name: string): string {
  return name.replace(/[_-]?(file|files)$/i, '').replace(/_/g, ' ') || name;
}

/**
 * The view of a file tool's whole result `raw`, folded as `fold` would be,
 * or undefined when it is not a JSON object naming a path, content or files.
 * `showPath` shortens paths (relative to the workspace).
 */
export function fileResultView(name: string, raw: string, fold: () => OutputFold, showPath: (path: string) => string): Folded | undefined {
  const trimmed = raw.trim();
  if (!trimmed.startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (!isObject(parsed)) return undefined;
  const o = parsed;
  const path = text(o.path) || text(o.file_path) || text(o.file);
  const content = typeof o.content === 'string' ? o.content : undefined;
  const list = LIST_KEYS.map((key) => o[key]).find((value): value is unknown[] => Array.isArray(value));
  if (path === '' && content === undefined && list === undefined) return undefined;
  const out = fold();
  if (path !== '') {
    const move = text(o.move_path);
    const action = text(o.action) || verbOf(name);
    out.write(`${action} ${showPath(path)}${move === '' ? '' : ` → ${showPath(move)}`}\n`);
  }
  if (content !== undefined) {
    out.write(content.endsWith('\n') || content === '' ? content : `${content}\n`);
  } else if (list !== undefined) {
    for (const entry of list) {
      const line = entryLine(entry);
      if (line !== undefined) out.write(`${showPath(line)}\n`);
    }
  }
  return out.finish();
}
