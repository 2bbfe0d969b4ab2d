/**
 * The event walk: finds what to redact in a line's JSON TEXT and patches
 * only those bytes. Every string literal (key or value, at any depth) is
 * decoded into a view with a map from view offsets back to the encoded text;
 * a string that holds JSON (`arguments`) is walked the same way, one level of
 * encoding deeper. Findings are mapped back through each level and replace
 * exactly the encoded characters they cover, so numbers beyond 2^53, `1.50`,
 * key order, layout and a final newline inside `arguments` all survive.
 * Iterative (an explicit stack), so no nesting depth can overflow the stack.
 */
import { applySpans, type Redactor, type Span } from './engine.js';
import { PLACEHOLDER_ONLY } from './placeholders.js';
import { PLACEHOLDER_PATTERN } from './rule-spec.js';
import { NOT_ABOUT_SECRET, SECRET_KEY_NAME } from './rules.js';
import { isKeyedValueSecret } from './verdict.js';
import { View } from './view.js';

/** One replacement in encoded text: `[start, end)` becomes `text`. */
export type Patch = Span;

/** JSON nested in strings is walked this many levels deep; deeper text is plain text. */
const MAX_LEVEL = 8;

/** Top-level field names of the wire format: never rewritten as keys. */
export const WIRE_FIELDS: ReadonlySet<string> = new Set(
  (
    'type thread_id turn_id item_id agent_id run_id protocol_version provider model effort variant max_parallel ' +
    'workspace_root permissions cwd delta message input_tokens output_tokens cache_creation_tokens cache_read_tokens ' +
    'trace_path awaiting_auto_continuation error reason name arguments status command process_id tool_name path action ' +
    'move_path old_file_sha new_file_sha workspace_revision patch_journal_path manifest_path agent_type task_name ' +
    'agent_profile agent_path parent_id description result result_path result_bytes result_truncated todo step_index ' +
    'protocol transport replay_mode previous_response_id_used connection_reused diagnostic transport_failure_phase ' +
    'fallback_transport events_emitted fallback_active fallback_reason fallback_pin_status fallback_retry_after_ms ' +
    'fallback_ttl_ms input_items full_input_items delta_input_items message_count tool_count system_hash system_bytes ' +
    'stable_prefix_hash turn_prefix_hash tool_surface_hash prompt_cache_key system_sections retrying final_message structured_result'
  ).split(' '),
);

const PLACEHOLDERS = new RegExp(PLACEHOLDER_PATTERN, 'g');

/** Whether an object key names a secret (a placeholder inside it does not count). */
export function namesSecret(key: string): boolean {
  const known = keyCache.get(key);
  if (known !== undefined) return known;
  const plain = key.includes('<') ? key.replace(PLACEHOLDERS, ' ') : key;
  const names = SECRET_KEY_NAME.test(plain) && NOT_ABOUT_SECRET.test(plain);
  if (key.length <= 64) {
    if (keyCache.size >= 4096) keyCache.clear();
    keyCache.set(key, names);
  }
  return names;
}

/** Keys repeat across events: their verdicts are kept (bounded). */
const keyCache = new Map<string, boolean>();

/** Whether a string's text looks like a JSON object, array or string (worth a walk). */
export function looksLikeJson(text: string): boolean {
  let a = 0;
  while (a < text.length && text.charCodeAt(a) <= 0x20) a++;
  let b = text.length - 1;
  while (b > a && text.charCodeAt(b) <= 0x20) b--;
  const first = text[a];
  const last = text[b];
  return b > a && ((first === '{' && last === '}') || (first === '[' && last === ']') || (first === '"' && last === '"'));
}

/** What the walk of one line needs. */
export interface WalkOptions {
  engine: Redactor;
  hits: string[];
  /** A top-level key whose string value is not walked; its literal span goes to `onSkipped`. */
  skipKey?: string;
  onSkipped?: (start: number, end: number) => void;
  /** False: only check the structure and find the skipped literal (a line known to hold no marker). */
  scan?: boolean;
  /** Give each patch the JSON path of its string (for --report-path). */
  paths?: boolean;
  /**
   * The line's bytes, when the walked text is their decoding offset for
   * offset (ASCII) and the line is proven valid JSON: a string of the line
   * (not of JSON inside one) whose bytes hold no marker is neither decoded
   * nor scanned (see {@link quietBytes}).
   */
  raw?: Uint8Array;
}

/**
 * Whether the string literal body `src[a, b)` of the line itself (level 0)
 * certainly yields nothing: the raw test finds no marker in its bytes, and
 * its key (`key`, for a value) does not make the value a secret by itself.
 */
function quietBytes(options: WalkOptions, a: number, b: number, key: string | undefined): boolean {
  const { raw, engine } = options;
  if (raw === undefined || (key !== undefined && engine.secretKeys && namesSecret(key))) return false;
  return !engine.mayMatchBody(raw, a, b);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Index of the quote closing the literal opened at `open`, or -1. */
function closeQuote(src: string, open: number, to: number): number {
  let at = open + 1;
  for (;;) {
    const quote = src.indexOf('"', at);
    if (quote < 0 || quote >= to) return -1;
    let slashes = 0;
    for (let k = quote - 1; k > open && src.charCodeAt(k) === 0x5c; k--) slashes++;
    if (slashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

const SCALAR = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null/y;

const enum Expect {
  Value,
  ValueOrEnd,
  Key,
  KeyOrEnd,
  Colon,
  CommaOrEnd,
  Done,
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The open containers of a walk: whether each is an object, the key or index of the value being read. */
class Frames {
  readonly objects: boolean[] = [];
  readonly keys: Array<string | undefined> = [];
  readonly indexes: number[] = [];
  /** Keys as paths show them: redacted (a path never holds a secret). */
  readonly pathKeys: Array<string | undefined> = [];

  get depth(): number {
    return this.objects.length;
  }

  open(object: boolean): Expect {
    this.objects.push(object);
    this.keys.push(undefined);
    this.indexes.push(-1);
    this.pathKeys.push(undefined);
    return object ? Expect.KeyOrEnd : Expect.ValueOrEnd;
  }

  close(): Expect {
    this.objects.pop();
    this.keys.pop();
    this.indexes.pop();
    this.pathKeys.pop();
    return this.next();
  }

  /** What follows a complete value. */
  next(): Expect {
    return this.objects.length === 0 ? Expect.Done : Expect.CommaOrEnd;
  }

  /** Whether the innermost container is an object. */
  inObject(): boolean {
    return this.objects[this.objects.length - 1] === true;
  }

  /** The JSON path of the value at `depth` (keys and array indexes of the open containers). */
  path(depth: number): string {
    let path = '$';
    for (let d = 0; d < depth; d++) {
      if (this.objects[d] !== true) path += `[${this.indexes[d]}]`;
      else {
        const key = this.pathKeys[d] ?? '';
        path += IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
      }
    }
    return path;
  }
}

/** Where the walk of one JSON text stands: the text, the position, what comes next. */
interface Walk {
  src: string;
  to: number;
  level: number;
  options: WalkOptions;
  patches: Patch[];
  frames: Frames;
  i: number;
  expect: Expect;
}

/**
 * Walks the JSON text `src[from, to)` and appends the patches for what it
 * finds (in `src` offsets, sorted). Returns false, with nothing appended, when
 * the text is not one JSON value.
 */
export function walkJson(src: string, from: number, to: number, level: number, options: WalkOptions, patches: Patch[]): boolean {
  const mark = patches.length;
  const hitMark = options.hits.length;
  const w: Walk = { src, to, level, options, patches, frames: new Frames(), i: from, expect: Expect.Value };
  let ok = true;
  while (ok && w.i < to) {
    const c = src.charCodeAt(w.i);
    if (isSpace(c)) {
      w.i++;
      continue;
    }
    switch (w.expect) {
      case Expect.Value:
      case Expect.ValueOrEnd:
        ok = readValue(w, c);
        break;
      case Expect.Key:
      case Expect.KeyOrEnd:
        ok = readKey(w, c);
        break;
      case Expect.Colon:
        ok = c === 0x3a;
        w.i++;
        w.expect = Expect.Value;
        break;
      case Expect.CommaOrEnd:
        ok = readCommaOrEnd(w, c);
        break;
      default:
        ok = false;
    }
  }
  if (ok && w.expect === Expect.Done) return true;
  patches.length = mark;
  options.hits.length = hitMark;
  return false;
}

/** A value (or the end of an array) at `w.i`, whose first character is `c`. */
function readValue(w: Walk, c: number): boolean {
  const { frames, src, options } = w;
  if (c === 0x5d && w.expect === Expect.ValueOrEnd) {
    w.i++;
    w.expect = frames.close();
    return true;
  }
  const depth = frames.depth;
  if (depth > 0 && !frames.inObject()) frames.indexes[depth - 1] = (frames.indexes[depth - 1] ?? -1) + 1;
  if (c === 0x7b || c === 0x5b) {
    w.expect = frames.open(c === 0x7b);
    w.i++;
    return true;
  }
  if (c === 0x22) {
    const close = closeQuote(src, w.i, w.to);
    if (close < 0) return false;
    const key = depth > 0 && frames.inObject() ? frames.keys[depth - 1] : undefined;
    if (w.level === 0 && depth === 1 && key !== undefined && key === options.skipKey) {
      options.onSkipped?.(w.i, close + 1);
    } else if (close === w.i + 1 || options.scan === false || (w.level === 0 && quietBytes(options, w.i + 1, close, key))) {
      // Nothing to find (an empty string: not even its key is judged): not decoded (a valid line's escapes are valid).
    } else if (!stringValue(src, w.i + 1, close, key, w.level, options, w.patches, options.paths ? frames.path(depth) : undefined)) {
      return false;
    }
    w.i = close + 1;
    w.expect = frames.next();
    return true;
  }
  SCALAR.lastIndex = w.i;
  const m = SCALAR.exec(src);
  if (m === null) return false;
  w.i += m[0].length;
  w.expect = frames.next();
  return true;
}

/** An object key (or the object's end) at `w.i`. */
function readKey(w: Walk, c: number): boolean {
  const { frames, src, options } = w;
  if (c === 0x7d && w.expect === Expect.KeyOrEnd) {
    w.i++;
    w.expect = frames.close();
    return true;
  }
  if (c !== 0x22) return false;
  const close = closeQuote(src, w.i, w.to);
  if (close < 0) return false;
  const view = View.decode(src, w.i + 1, close);
  if (view === undefined) return false;
  const depth = frames.depth;
  const top = w.level === 0 && depth === 1;
  // A wire field of the top level is never scanned (keyName): no raw test either.
  if (options.scan === false || (w.level === 0 && !(top && WIRE_FIELDS.has(view.text)) && quietBytes(options, w.i + 1, close, undefined))) {
    frames.keys[depth - 1] = view.text;
    if (options.paths) frames.pathKeys[depth - 1] = view.text;
  } else {
    const at = options.paths ? frames.path(depth - 1) : undefined;
    const judged = keyName(view, top, options, w.patches, at);
    frames.keys[depth - 1] = judged.key;
    if (options.paths) frames.pathKeys[depth - 1] = judged.shown;
  }
  w.i = close + 1;
  w.expect = Expect.Colon;
  return true;
}

/** A comma or the end of the innermost container at `w.i`. */
function readCommaOrEnd(w: Walk, c: number): boolean {
  const isObject = w.frames.inObject();
  if (c === 0x2c) {
    w.i++;
    w.expect = isObject ? Expect.Key : Expect.Value;
    return true;
  }
  if (c !== (isObject ? 0x7d : 0x5d)) return false;
  w.i++;
  w.expect = w.frames.close();
  return true;
}

/** Redacts a key's text (not a wire field of the top level); returns the key as judged for secrecy. */
export function keyName(view: View, top: boolean, options: WalkOptions, patches: Patch[], path: string | undefined): { key: string; shown: string } {
  const key = view.text;
  if (top && WIRE_FIELDS.has(key)) return { key, shown: key };
  const spans = options.engine.spans(key, options.hits);
  if (spans.length === 0) return { key, shown: key };
  const redacted = applySpans(key, spans);
  pushMapped(view, spans, patches, path === undefined ? undefined : `${path}${IDENTIFIER.test(redacted) ? `.${redacted}` : `[${JSON.stringify(redacted)}]`}`);
  // The redacted key is judged too: `AKIA…password` only names a password once
  // its secret part became a placeholder, and a second pass would see it that way.
  return { key: namesSecret(key) ? key : redacted, shown: redacted };
}

/** Spans of a view as patches of its encoded text; `path`: where the string lies (inner paths follow a `|`). */
function pushMapped(view: View, spans: readonly Span[], patches: Patch[], path?: string): void {
  for (const span of spans) {
    const patch: Patch = { start: view.rawOf(span.start), end: view.rawOf(span.end), text: span.text, rule: span.rule };
    if (span.value !== undefined) patch.value = span.value;
    if (path !== undefined) patch.path = span.path === undefined ? path : `${path}|${span.path}`;
    patches.push(patch);
  }
}

/** Handles a string value `src[a, b)` (the literal's body) under `key`. */
export function stringValue(src: string, a: number, b: number, key: string | undefined, level: number, options: WalkOptions, patches: Patch[], path?: string): boolean {
  const view = View.decode(src, a, b);
  if (view === undefined) return false;
  const text = view.text;
  if (text === '') return true;
  const { engine, hits } = options;
  if (level < MAX_LEVEL && looksLikeJson(text)) {
    const inner: Patch[] = [];
    if (walkJson(text, 0, text.length, level + 1, options, inner)) {
      pushMapped(view, inner, patches, path);
      return true;
    }
  }
  if (key !== undefined && engine.secretKeys && namesSecret(key) && !PLACEHOLDER_ONLY.test(text) && isKeyedValueSecret(text, key) && engine.allow?.has(text) !== true) {
    const patch: Patch = { start: a, end: b, text: engine.placeholder('secret', 'key-value', text), rule: 'key-value' };
    if (options.paths) {
      patch.value = text;
      patch.path = path;
    }
    patches.push(patch);
    hits.push('key-value');
    return true;
  }
  pushMapped(view, engine.spans(text, hits), patches, path);
  return true;
}

/** Go's json.Encoder escapes these; a patched line keeps that style. */
export function goEscape(text: string): string {
  if (text.length <= 96) {
    // Placeholders: few distinct texts, written many times.
    let escaped = goCache.get(text);
    if (escaped === undefined) {
      escaped = text.replace(GO_ESCAPED, goChar);
      if (goCache.size >= 1024) goCache.clear();
      goCache.set(text, escaped);
    }
    return escaped;
  }
  return text.replace(GO_ESCAPED, goChar);
}

const GO_ESCAPED = /[<>&\u2028\u2029]/g;
const goChar = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
const goCache = new Map<string, string>();

/** Applies patches (sorted, disjoint) to `src`, Go-escaping their text when `go`. */
export function applyPatches(src: string, patches: readonly Patch[], go: boolean): string {
  const parts: string[] = [];
  let last = 0;
  for (const p of patches) {
    if (p.start < last) continue;
    parts.push(src.slice(last, p.start), go ? goEscape(p.text) : p.text);
    last = p.end;
  }
  parts.push(src.slice(last));
  return parts.join('');
}

/** `src.slice(a, b)` with the patches that fall inside it applied. */
export function applyRange(src: string, a: number, b: number, patches: readonly Patch[], go: boolean): string {
  const parts: string[] = [];
  let last = a;
  for (const p of patches) {
    if (p.start < last || p.end > b) continue;
    parts.push(src.slice(last, p.start), go ? goEscape(p.text) : p.text);
    last = p.end;
  }
  parts.push(src.slice(last, b));
  return parts.join('');
}
