/**
 * Encodes values the way the wuu producer's Go `json.Encoder.Encode` writes
 * them (WIRE-FORMAT-REFERENCE.md section 1), byte for byte, so that events
 * made by wuu-import look to every downstream tool like a wuu run's:
 * - maps: keys sorted byte-wise, at every depth;
 * - Go structs ({@link struct}): fields in declaration order, never sorted;
 * - compact, no spaces;
 * - strings: `"` `\` escaped, `\n \r \t \b \f` short, other bytes below 0x20
 *   as `\u00xx` (lowercase hex), `< > &` and U+2028/U+2029 as `\u003c`
 *   `\u003e` `\u0026` `\u2028` `\u2029`; everything else raw UTF-8 (DEL and
 *   C1 included), `/` not escaped; a lone surrogate (invalid text) becomes the
 *   raw U+FFFD, as text from tools or the model arrives;
 * - integers plain; other numbers in Go's shortest form (`1e+21`, `1e-7`),
 *   which is what JavaScript's number formatting writes too.
 *
 * The walk keeps its own stack: values copied from another producer's stream
 * can nest as deep as that producer let them, and recursion would turn deep
 * data into a stack overflow.
 */

/** A Go struct value: its fields keep the order given here. */
export class GoStruct {
  constructor(readonly fields: ReadonlyArray<readonly [string, unknown]>) {}
}

/** A struct whose fields are written in the object's own key order. */
export function struct(fields: Record<string, unknown>): GoStruct {
  return new GoStruct(Object.entries(fields));
}

const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/**
 * What Go escapes: quotes, backslash, controls, `< > &`, U+2028/U+2029, and a
 * surrogate without its partner (invalid text, written as U+FFFD).
 */
// eslint-disable-next-line no-control-regex
const ESCAPE = /["\\\u0000-\u001f<>&\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function escapeChar(ch: string): string {
  const short = SHORT[ch];
  if (short !== undefined) return short;
  const c = ch.charCodeAt(0);
  if (c >= 0xd800 && c <= 0xdfff) return '\ufffd';
  return `\\u${c.toString(16).padStart(4, '0')}`;
}

/** A Go-encoded JSON string literal. */
export function goString(s: string): string {
  return `"${s.replace(ESCAPE, escapeChar)}"`;
}

/** Arrays, structs and maps: written member by member (any object's members read by name are `unknown`). */
function isContainer(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null;
}

/** Anything but a container. */
function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Go cannot encode ${value}`);
    return String(value);
  }
  throw new Error(`cannot encode ${typeof value}`);
}

/** One open container on the walk's stack: its members still to write. */
interface Frame {
  /** Keys (objects, structs) or undefined (arrays). */
  keys: readonly string[] | undefined;
  values: readonly unknown[];
  next: number;
  close: string;
}

function open(value: Readonly<Record<string, unknown>>): Frame {
  if (Array.isArray(value)) return { keys: undefined, values: value, next: 0, close: ']' };
  if (value instanceof GoStruct) {
    return { keys: value.fields.map((f) => f[0]), values: value.fields.map((f) => f[1]), next: 0, close: '}' };
  }
  const keys = sortedKeys(value);
  return { keys, values: keys.map((k) => value[k]), next: 0, close: '}' };
}

/** Encodes one value (no newline). */
export function goJson(value: unknown): string {
  if (!isContainer(value)) return scalar(value);
  const parts: string[] = [];
  const stack: Frame[] = [];
  const enter = (v: Readonly<Record<string, unknown>>) => {
    const frame = open(v);
    parts.push(frame.close === ']' ? '[' : '{');
    stack.push(frame);
  };
  enter(value);
  for (let frame = stack.at(-1); frame !== undefined; frame = stack.at(-1)) {
    if (frame.next >= frame.values.length) {
      parts.push(frame.close);
      stack.pop();
      continue;
    }
    const i = frame.next++;
    if (i > 0) parts.push(',');
    const key = frame.keys?.[i];
    if (key !== undefined) parts.push(goString(key), ':');
    const member = frame.values[i];
    if (isContainer(member)) enter(member);
    else parts.push(scalar(member));
  }
  return parts.join('');
}

/**
 * Keys in byte-wise (UTF-8) order. Below U+D800, UTF-16 code-unit order (the
 * default sort) is the same order, and much cheaper than comparing bytes.
 */
const HIGH = /[\ud800-\uffff]/;

function sortedKeys(value: object): string[] {
  const keys = Object.keys(value);
  return keys.some((k) => HIGH.test(k)) ? keys.sort(byteOrder) : keys.sort();
}

/** Byte-wise (UTF-8) order, as Go sorts map keys. */
export function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** One event line as the producer writes it: the encoded map and `\n`. */
export function goLine(event: Record<string, unknown>): string {
  return `${goJson(event)}\n`;
}
