/**
 * Views built from one event's fields, with no state: the session, a todo
 * list (a struct, a bare list, or null), the fields of an unknown event.
 * Data stays raw here; renderers escape it for their medium.
 */
import { isObject } from '../events.js';
import { compactValue, num, str } from './format.js';
import type { SessionView, TodoItem, TodoView } from './renderer.js';

type Fields = Record<string, unknown>;

/** session_configured as a view; `verbose` adds protocol and parallelism. */
export function sessionView(e: Fields, verbose: boolean): SessionView {
  const permissions: Array<[string, string]> = [];
  if (isObject(e.permissions)) {
    for (const [k, v] of Object.entries(e.permissions)) permissions.push([k, compactValue(v, 40)]);
  }
  return {
    model: str(e.model) || 'unknown model',
    facts: [str(e.provider), str(e.effort) === '' ? '' : `effort ${str(e.effort)}`, str(e.variant) === '' ? '' : `variant ${str(e.variant)}`].filter(Boolean),
    workspace: str(e.workspace_root).replace(/\/+$/, ''),
    permissions,
    more: verbose ? [`protocol ${compactValue(e.protocol_version, 40) || '?'}`, `max parallel ${num(e.max_parallel)}`] : [],
  };
}

/** One todo entry: a string, or an object with content/text/title and status. */
function todoItem(entry: unknown): TodoItem {
  if (typeof entry === 'string') return { text: entry, status: '' };
  const o: Fields = isObject(entry) ? entry : {};
  const text = str(o.content) || str(o.text) || str(o.title) || str(o.description) || str(o.task) || compactValue(entry, 80);
  const status = str(o.status) || (o.done === true || o.completed === true ? 'completed' : '');
  return { text: text.replace(/\s+/g, ' ').trim(), status: status.toLowerCase() };
}

/** todo_updated's `todo` (`{explanation?, todos}`, a bare list, or null) as a view. */
export function todoView(todo: unknown): TodoView {
  const object = isObject(todo) ? todo : undefined;
  const list: unknown = Array.isArray(todo) ? todo : object ? (object.todos ?? object.items) : undefined;
  let items: TodoItem[] | undefined;
  if (Array.isArray(list)) items = list.map(todoItem);
  else if (todo === null || list === null) items = []; // `todo: null` and `todos: null` are an empty list upstream
  const done = items === undefined ? 0 : items.filter((t) => t.status === 'completed' || t.status === 'done').length;
  return { items, raw: items === undefined ? compactValue(todo, Number.POSITIVE_INFINITY) : '', done, explanation: object ? str(object.explanation) : '' };
}

const HIDDEN_FIELDS = new Set(['type', 'thread_id', 'turn_id']);
const HIDDEN_WITH_STEP = new Set([...HIDDEN_FIELDS, 'step_index']);

/** `key=value` of an unknown or diagnostic event, empty values and ids left out. */
export function keyValuesOf(e: Fields, hideStep: boolean): string {
  const skip = hideStep ? HIDDEN_WITH_STEP : HIDDEN_FIELDS;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(e)) {
    if (skip.has(key)) continue;
    if (value === '' || value === null || value === false || value === 0 || value === undefined) continue;
    parts.push(`${key}=${typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : (JSON.stringify(value) ?? '')}`);
  }
  return parts.join(' ');
}
