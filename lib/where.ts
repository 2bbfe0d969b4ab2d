/**
 * wuu-filter's `--where` conditions: `PATH`, or `PATH OP VALUE` with OP one of
 * `==`, `!=`, `<`, `<=`, `>`, `>=`, `~=` (regex match, re2js: linear time,
 * whatever the pattern). VALUE is JSON when it parses as JSON (`"bash"`, `3`,
 * `null`, `true`), otherwise a bare word taken as a string.
 *
 * A path may reach into `arguments` (`$.arguments.command`): the wire carries
 * a tool's arguments as a JSON-encoded string, which is decoded for the match
 * (left a string when it is not JSON, such as a partial `{"path":"x`).
 */
import { re2js } from './re2.js';
import { stringField, type WuuEvent } from './events.js';
import { checkPath, JsonPathError, parsePath, selectAll } from './jsonpath.js';

/** The comparison operators, longest first so `<=` is not read as `<`. */
export const WHERE_OPERATORS = ['==', '!=', '<=', '>=', '~=', '<', '>'] as const;

type Operator = (typeof WHERE_OPERATORS)[number];

interface WherePath {
  path: string;
  /** The path reads into the decoded `arguments`. */
  readsArguments: boolean;
}

/** One parsed condition; {@link holds} evaluates it on an event. */
export type WhereCondition =
  /** The path selects anything. */
  | (WherePath & { operator?: undefined })
  /** `~=`: the pattern (`value`) compiled. */
  | (WherePath & { operator: '~='; value: string; matches: (text: string) => boolean })
  /** A comparison with a JSON value or a bare-word string. */
  | (WherePath & { operator: Exclude<Operator, '~='>; value: unknown });

/** Where the operator starts: the first one outside brackets and quotes, or -1. */
function operatorAt(expression: string): number {
  let depth = 0;
  let quote: string | undefined;
  for (let at = 0; at < expression.length; at++) {
    const ch = expression.charAt(at);
    if (quote !== undefined) {
      if (ch === '\\') at++;
      else if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '[') depth++;
    else if (ch === ']') depth--;
    else if (depth === 0 && '=!<>~'.includes(ch)) return at;
  }
  return -1;
}

function compilePattern(pattern: string): (text: string) => boolean {
  try {
    const re = re2js().compile(pattern);
    return (text) => re.matcher(text).find();
  } catch (err) {
    throw new JsonPathError(`--where: bad regular expression '${pattern}': ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Parses one `--where` expression; a JsonPathError says what is wrong with it. */
export function parseWhere(expression: string): WhereCondition {
  const at = operatorAt(expression);
  const path = (at < 0 ? expression : expression.slice(0, at)).trim();
  checkPath(path);
  const parts = parsePath(path);
  const argumentsAt = parts.indexOf('arguments');
  const readsArguments = argumentsAt >= 0 && argumentsAt < parts.length - 1;
  if (at < 0) return { path, readsArguments };
  const operator = WHERE_OPERATORS.find((op) => expression.startsWith(op, at));
  if (operator === undefined) {
    throw new JsonPathError(`--where '${expression}': unknown operator; use one of ${WHERE_OPERATORS.join(' ')}`);
  }
  const text = expression.slice(at + operator.length);
  if (operator === '~=') return { path, operator, value: text, matches: compilePattern(text), readsArguments };
  let value: unknown = text;
  try {
    value = JSON.parse(text);
  } catch {
    // a bare word: compared as a string
  }
  if ((operator !== '==' && operator !== '!=') && typeof value !== 'number' && typeof value !== 'string') {
    throw new JsonPathError(`--where '${expression}': ${operator} compares numbers or strings`);
  }
  return { path, operator, value, readsArguments };
}

/** Objects and arrays: their members read by key (each unknown until checked). */
function isContainer(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null;
}

/** JSON equality: same type and value; objects whatever their key order (no recursion). */
function jsonEquals(left: unknown, right: unknown): boolean {
  const stack: Array<[unknown, unknown]> = [[left, right]];
  for (let pair = stack.pop(); pair !== undefined; pair = stack.pop()) {
    const [a, b] = pair;
    if (a === b) continue;
    if (!isContainer(a) || !isContainer(b)) return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(b, key)) return false;
      stack.push([a[key], b[key]]);
    }
  }
  return true;
}

function compares(operator: Operator, selected: unknown, value: unknown): boolean {
  if (typeof selected === 'number' && typeof value === 'number') return ordered(operator, selected, value);
  if (typeof selected === 'string' && typeof value === 'string') return ordered(operator, selected, value);
  return false;
}

/** `a operator b` for two numbers or two strings. */
function ordered(operator: Operator, a: number | string, b: number | string): boolean {
  switch (operator) {
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    default:
      return a >= b;
  }
}

/** The event as a path sees it: with `arguments` decoded when the path reads into it. */
function viewOf(condition: WhereCondition, event: WuuEvent): object {
  const args = condition.readsArguments ? stringField(event, 'arguments') : undefined;
  if (args === undefined) return event;
  let decoded: unknown;
  try {
    decoded = JSON.parse(args);
  } catch {
    return event;
  }
  return { ...event, arguments: decoded };
}

/** Whether `condition` holds for `event`. */
export function holds(condition: WhereCondition, event: WuuEvent): boolean {
  const selected = selectAll(condition.path, viewOf(condition, event));
  switch (condition.operator) {
    case undefined:
      return selected.length > 0;
    case '==':
      return selected.some((found) => jsonEquals(found, condition.value));
    case '!=':
      return !selected.some((found) => jsonEquals(found, condition.value));
    case '~=': {
      const { matches } = condition;
      return selected.some((found) => (typeof found === 'string' || typeof found === 'number' || typeof found === 'boolean') && matches(String(found)));
    }
    default: {
      const { operator, value } = condition;
      return selected.some((found) => compares(operator, found, value));
    }
  }
}
