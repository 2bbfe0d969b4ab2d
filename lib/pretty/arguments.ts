/**
 * A tool call's arguments (the JSON-encoded string of tool_started, maybe
 * "", partial or invalid) summarized on one line: the command for bash, the
 * path for file tools, else a compact `key=value` list. Terminal-safe.
 */
import { isObject } from '../events.js';
import { escapeControls } from '../text.js';
import { clip, keyValues, compactValue, plural } from './format.js';

const PATH_KEYS = ['path', 'file_path', 'filepath', 'file', 'filename', 'target_file', 'notebook_path'];
const MOVE_KEYS = ['move_path', 'new_path', 'destination', 'to'];
const FILE_TOOL_RE = /file|patch|dir|^(read|write|edit|view|ls|cat|checkpoint)$/i;

/** Options of {@link summarizeArguments}. */
export interface SummaryOptions {
  /** Longest summary, in columns. Default 80. */
  max?: number;
  /** Shows a path (for example relative to the workspace). */
  showPath?: (path: string) => string;
}

/** Parses the arguments text; undefined when it is not JSON (partial arguments are normal). */
export function parseArguments(argumentsText: unknown): unknown {
  if (typeof argumentsText !== 'string') return argumentsText;
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    return parsed;
  } catch {
    return undefined;
  }
}

/** The bash command of a call's arguments, or undefined. */
export function commandOf(argumentsText: unknown): string | undefined {
  const args = parseArguments(argumentsText);
  return isObject(args) && typeof args.command === 'string' ? args.command : undefined;
}

/**
 * A one-line summary of a tool call's arguments: the command for bash, the
 * path for file tools, else a compact `key=value` list. Never throws; every
 * piece of data is passed through escapeControls.
 */
export function summarizeArguments(name: string, argumentsText: unknown, options: SummaryOptions = {}): string {
  const max = options.max ?? 80;
  const showPath = options.showPath ?? ((p: string) => p);
  let args: unknown = argumentsText;
  if (typeof argumentsText === 'string') {
    args = parseArguments(argumentsText);
    if (args === undefined) return clip(escapeControls(argumentsText.replace(/\s+/g, ' ').trim()), max);
  }
  if (!isObject(args)) return args === undefined || args === '' ? '' : compactValue(args, max);
  const object = args;
  if (typeof object.command === 'string' && (name === 'bash' || name === 'shell' || name === '')) {
    return clip(commandLine(object.command), max);
  }
  if (FILE_TOOL_RE.test(name)) {
    const path = firstText(object, PATH_KEYS);
    if (path !== undefined) {
      const move = firstText(object, MOVE_KEYS);
      const shown = showPath(escapeControls(path));
      return clip(move === undefined ? shown : `${shown} → ${showPath(escapeControls(move))}`, max);
    }
    const patch = [object.patch, object.input, object.diff].find((v): v is string => typeof v === 'string');
    if (patch !== undefined) {
      const files = patchFiles(patch).map((f) => showPath(escapeControls(f)));
      if (files.length > 0) return clip(files.length > 3 ? `${files.slice(0, 3).join(', ')} (+${files.length - 3} more)` : files.join(', '), max);
    }
  }
  return clip(keyValues(object, new Set(), 40), max);
}

/** The first non-empty string among the fields `keys` name, in that order. */
function firstText(object: Readonly<Record<string, unknown>>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = object[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** The first line of a command, with a count of the lines left out. */
function commandLine(command: string): string {
  const lines = command.trim().split('\n');
  const first = escapeControls(lines[0] ?? '');
  return lines.length === 1 ? first : `${first.trimEnd()} …(+${plural(lines.length - 1, 'line')})`;
}

/** File names named by a patch (`*** Update File: x` or `+++ b/x` headers), at most 100. */
function patchFiles(patch: string): string[] {
  const files: string[] = [];
  for (const match of patch.matchAll(/^(?:\*\*\* (?:Add|Update|Delete) File: (.+)|\+\+\+ (?:b\/)?(.+))$/gm)) {
    const file = (match[1] ?? match[2] ?? '').trim();
    if (file !== '' && file !== '/dev/null' && !files.includes(file)) files.push(file);
    if (files.length >= 100) break;
  }
  return files;
}
