/**
 * What wuu-check's rules read of one event, taken from a parsed object or
 * straight from the line's bytes.
 *
 * The rules read a few ids, the result's status and run id, the four usage
 * counters, and the JSON type of every field the schema names; no rule reads
 * text (deltas, output, arguments), which is most of a stream's bytes. So a
 * line is read by walking its top-level members once, proving each value
 * valid JSON as it is skipped (./json-bytes.ts; string values of a line
 * followed by its newline by the fenced reader's eight-byte skip,
 * lib/validate.ts), and decoding only the
 * handful of values a rule reads: one pass over the bytes, no string and no
 * object for the rest. A nested object or array of scalars only is judged in
 * the same pass; a line with deeper nesting is proven by the whole-line
 * validator (lib/validate.ts) instead. A line the walk cannot
 * vouch for (invalid, a key spelled with escapes, anything unusual) is parsed,
 * so both roads give the same fields, and a bad line gets JSON.parse's message.
 */
import { NEW, TypeSniffer } from '../type-sniff.js';
import { fencedSkip, fencedStringEnd, isFenced, isJsonEvent, type FencedSkip } from '../validate.js';
import { plainKeyEnd } from '../scan.js';
import { BACKSLASH, containerEnd, flatContainerEnd, numberEnd, QUOTE, skipSpace, stringEnd, wordEnd } from './json-bytes.js';
import { jsonType, SCHEMA, USAGE_FIELDS } from './schema.js';

/** The fields of one event the rules read. */
export interface EventFields {
  type: string;
  /** `thread_id`, `turn_id`, `item_id`, `agent_id`, `run_id`, `status` when strings. */
  thread: string | undefined;
  turn: string | undefined;
  item: string | undefined;
  agent: string | undefined;
  runId: string | undefined;
  status: string | undefined;
  /** The four usage counters ({@link USAGE_FIELDS}) when all are numbers. */
  usage: number[] | undefined;
  /** The JSON type name ({@link jsonType}) of a top-level field; undefined when absent. */
  kindOf(name: string): string | undefined;
  /** True when the event surely meets its type's schema (false: ask schemaProblemsOf). */
  schemaHolds(type: string): boolean;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function usageOf(get: (name: string) => unknown): number[] | undefined {
  const now: number[] = [];
  for (const name of USAGE_FIELDS) {
    const value = get(name);
    if (typeof value !== 'number') return undefined;
    now.push(value);
  }
  return now;
}

/** The fields of a parsed event. */
export function fieldsOfObject(type: string, event: object): EventFields {
  const get = (name: string): unknown => (Object.hasOwn(event, name) ? Reflect.get(event, name) : undefined);
  return {
    type,
    thread: str(get('thread_id')),
    turn: str(get('turn_id')),
    item: str(get('item_id')),
    agent: str(get('agent_id')),
    runId: str(get('run_id')),
    status: str(get('status')),
    usage: type === 'usage_updated' ? usageOf(get) : undefined,
    kindOf: (name) => (Object.hasOwn(event, name) ? jsonType(get(name)) : undefined),
    schemaHolds: () => false,
  };
}

const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;

// Kinds of a value, by its first byte.
const K_STRING = 1;
const K_NUMBER = 2;
const K_BOOLEAN = 3;
const K_NULL = 4;
const K_OBJECT = 5;
const K_ARRAY = 6;
const KIND_NAMES = ['', 'string', 'number', 'boolean', 'null', 'object', 'array'];

/** Every top-level field a rule reads: the schema's fields and the ids. */
const NAMES: readonly string[] = [...new Set([...[...SCHEMA.values()].flatMap((spec) => [...spec.keys()]), 'agent_id', 'item_id', 'run_id', 'type'])];
const SLOT = new Map(NAMES.map((name, slot) => [name, slot]));
const slotOf = (name: string): number => SLOT.get(name) ?? -1;
const THREAD = slotOf('thread_id');
const TURN = slotOf('turn_id');
const ITEM = slotOf('item_id');
const AGENT = slotOf('agent_id');
const RUN_ID = slotOf('run_id');
const STATUS = slotOf('status');
const TYPE = slotOf('type');
const USAGE_SLOTS = USAGE_FIELDS.map(slotOf);

// What a walk proved.
const PROVEN = 0; // a valid JSON object, every byte judged
const NESTED = 1; // well formed at the top, but a nested container was skipped unjudged
const UNSURE = 2; // not proven (invalid, or a key spelled with escapes): JSON.parse decides

/** Longest string value remembered for reuse (ids are short; text is not worth comparing). */
const MAX_REMEMBERED = 256;

const REQUIRED = 1 << 16;
// A slot fits in the low byte of a schema field.
if (NAMES.length > 0xff) throw new Error('too many field names for SCHEMA_SLOTS');

/**
 * The schema of each type by slot, one number per field: its slot, the kinds
 * it accepts as a bit mask (bit K_*) shifted by 8, and 1 << 16 when it is
 * required (a flat array: no object read per field and line).
 */
const SCHEMA_SLOTS: ReadonlyMap<string, Int32Array> = new Map(
  [...SCHEMA].map(([type, spec]) => [
    type,
    Int32Array.from([...spec], ([name, field]) => {
      const kinds = field.types.reduce((mask, kind) => mask | (kind === 'any' ? 0xfe : 1 << KIND_NAMES.indexOf(kind)), 0);
      return slotOf(name) | (kinds << 8) | (field.required ? REQUIRED : 0);
    }),
  ]),
);

/** Longest key matched (longer keys name no field a rule reads). */
const MAX_KEY = 64;
/** Each slot's name as bytes, for matching keys without making strings. */
const KEY_BYTES: Uint8Array[] = NAMES.map((name) => Buffer.from(name, 'latin1'));
/**
 * Keys by length and first byte: KEY_HEAD[length * 256 + byte] is 1 + the
 * first slot of that length and first byte (0: none), KEY_NEXT the next one
 * (-1: none). A key is matched with a few byte compares, no list walked.
 */
const KEY_HEAD = new Int16Array(MAX_KEY * 256);
const KEY_NEXT = new Int16Array(NAMES.length).fill(-1);
for (let slot = NAMES.length - 1; slot >= 0; slot--) {
  const bytes = KEY_BYTES[slot] ?? new Uint8Array(0);
  if (bytes.length === 0 || bytes.length >= MAX_KEY) continue;
  const at = bytes.length * 256 + (bytes[0] ?? 0);
  KEY_NEXT[slot] = (KEY_HEAD[at] ?? 0) - 1;
  KEY_HEAD[at] = slot + 1;
}

function keySlot(buf: Buffer, open: number, close: number): number {
  const length = close - open - 1;
  if (length <= 0 || length >= MAX_KEY) return -1;
  let slot = (KEY_HEAD[length * 256 + (buf[open + 1] ?? 0)] ?? 0) - 1;
  while (slot >= 0) {
    const bytes = KEY_BYTES[slot] ?? buf;
    let k = 1;
    while (k < length && buf[open + 1 + k] === bytes[k]) k++;
    if (k === length) return slot;
    slot = KEY_NEXT[slot] ?? -1;
  }
  return -1;
}

/** A small non-negative integer without a string; otherwise what JSON.parse makes of the (valid) number. */
function numberAt(buf: Buffer, start: number, end: number): number {
  if (end - start <= 15) {
    let value = 0;
    let k = start;
    for (; k < end; k++) {
      const digit = (buf[k] ?? 0) - 0x30;
      if (digit < 0 || digit > 9) break;
      value = value * 10 + digit;
    }
    if (k === end && k > start) return value;
  }
  return JSON.parse(buf.toString('latin1', start, end)) as number;
}

/**
 * Reads the fields of lines known to be valid JSON objects from their bytes.
 * One reader serves one checker; the fields it returns stay valid until its
 * next `read` (they are read in place, to spare an object per line).
 */
export class FieldReader implements EventFields {
  type = '';
  thread: string | undefined;
  turn: string | undefined;
  item: string | undefined;
  agent: string | undefined;
  runId: string | undefined;
  status: string | undefined;
  usage: number[] | undefined;

  private buf: Buffer = Buffer.alloc(0);
  /** Which line last set a slot (a stamp instead of clearing every slot per line). */
  private readonly stamp = new Float64Array(NAMES.length); // exact to 2^53 lines: never wraps
  private readonly kind = new Uint8Array(NAMES.length);
  private readonly from = new Int32Array(NAMES.length);
  private readonly to = new Int32Array(NAMES.length);
  private generation = 0;
  private readonly types = new TypeSniffer();
  /** Each slot's last plain ASCII string value (see {@link FieldReader.string}). */
  private readonly lastString: Array<string | undefined> = [];
  /** Their bytes, MAX_REMEMBERED per slot, and a view to read them by. */
  private readonly lastBytes = new Uint8Array(NAMES.length * MAX_REMEMBERED);
  private readonly lastWords = new DataView(this.lastBytes.buffer);
  /** How the fenced string skip reads {@link FieldReader.buf}; its `words` and `base` also serve the id compare. */
  private skip: FencedSkip = fencedSkip(this.buf);

  /**
   * Reads the line `buf[start..end)`, its type included; false when the line
   * is not proven a valid event this way (then parse it: JSON.parse has the
   * last word, and the message for a bad line).
   */
  read(buf: Buffer, start: number, end: number): boolean {
    this.generation++;
    if (buf !== this.buf) {
      // A new chunk (its lines share one buffer): its word view, made once for all of them.
      this.buf = buf;
      this.skip = fencedSkip(buf);
    }
    const walked = this.walk(buf, start, end);
    if (walked === UNSURE || (walked === NESTED && !isJsonEvent(buf, start, end)) || !this.has(TYPE, K_STRING)) return false;
    const type = this.typeString();
    this.type = type;
    this.thread = this.string(THREAD);
    this.turn = this.string(TURN);
    this.item = this.string(ITEM);
    // The rest only where a rule reads them (fieldsOfObject reads them always; no rule looks elsewhere).
    const ends = type === 'result' || type === 'error';
    this.agent = type.startsWith('subagent_') ? this.string(AGENT) : undefined;
    this.runId = ends ? this.string(RUN_ID) : undefined;
    this.status = ends ? this.string(STATUS) : undefined;
    this.usage = type === 'usage_updated' ? this.counters() : undefined;
    return true;
  }

  /**
   * The type, interned by its bytes: types alternate line by line, so the
   * one-value memory of {@link FieldReader.string} would make a new string
   * for most lines (and hash it anew in the rules' maps).
   */
  private typeString(): string {
    const id = this.types.idAt(this.buf, this.from[TYPE] ?? 0, (this.to[TYPE] ?? 0) - 1);
    if (id >= 0) return this.types.typeOf(id);
    return id === NEW ? this.types.fresh : (this.string(TYPE) ?? '');
  }

  /**
   * Whether every field the schema names for `type` is present with an
   * accepted JSON type (then there is no schema problem to word), by slot.
   */
  schemaHolds(type: string): boolean {
    const wanted = SCHEMA_SLOTS.get(type);
    if (wanted === undefined) return false;
    for (let k = 0; k < wanted.length; k++) {
      const field = wanted[k] ?? 0;
      const slot = field & 0xff;
      if (this.stamp[slot] !== this.generation) {
        if ((field & REQUIRED) !== 0) return false;
      } else if ((field & (0x100 << (this.kind[slot] ?? 0))) === 0) return false;
    }
    return true;
  }

  kindOf(name: string): string | undefined {
    const slot = SLOT.get(name);
    return slot === undefined || this.stamp[slot] !== this.generation ? undefined : KIND_NAMES[this.kind[slot] ?? 0];
  }

  /**
   * Walks the top-level members, judging each scalar value as it is skipped,
   * and records each member a rule reads (the last of duplicates wins, as in
   * JSON.parse).
   */
  private walk(buf: Buffer, start: number, end: number): number {
    // Most bytes are string values (tool output): on a line followed by its
    // newline they are skipped eight bytes a step by the fenced reader's skip.
    const fenced = isFenced(buf, end);
    const skip = this.skip;
    let at = skipSpace(buf, start);
    if (buf[at] !== LBRACE) return UNSURE;
    at = skipSpace(buf, at + 1);
    let proven = PROVEN;
    if (buf[at] === RBRACE) return this.rest(buf, at + 1, end, proven);
    for (;;) {
      if (buf[at] !== QUOTE) return UNSURE;
      const keyEnd = plainKeyEnd(buf, at, end);
      if (keyEnd < 0) return UNSURE;
      const slot = keySlot(buf, at, keyEnd - 1);
      at = skipSpace(buf, keyEnd);
      if (buf[at] !== COLON) return UNSURE;
      at = skipSpace(buf, at + 1);
      const valueStart = at;
      const first = buf[at];
      let kind: number;
      if (first === QUOTE) {
        kind = K_STRING;
        at = fenced ? fencedStringEnd(buf, skip, at + 1) : stringEnd(buf, at, end);
      } else if (first === LBRACE || first === LBRACKET) {
        kind = first === LBRACE ? K_OBJECT : K_ARRAY;
        const flat = flatContainerEnd(buf, at, end);
        if (flat >= 0) at = flat;
        else {
          at = containerEnd(buf, at, end);
          proven = NESTED;
        }
      } else if (first === 0x74 || first === 0x66 || first === 0x6e) {
        kind = first === 0x6e ? K_NULL : K_BOOLEAN;
        at = wordEnd(buf, at, end);
      } else {
        kind = K_NUMBER;
        at = numberEnd(buf, at, end);
      }
      if (at < 0) return UNSURE;
      if (slot >= 0) {
        this.stamp[slot] = this.generation;
        this.kind[slot] = kind;
        this.from[slot] = valueStart;
        this.to[slot] = at;
      }
      at = skipSpace(buf, at);
      if (at >= end) return UNSURE;
      if (buf[at] !== COMMA) return buf[at] === RBRACE ? this.rest(buf, at + 1, end, proven) : UNSURE;
      at = skipSpace(buf, at + 1);
    }
  }

  /** Only whitespace may follow the object. */
  private rest(buf: Buffer, from: number, end: number, proven: number): number {
    return from === end || (from < end && skipSpace(buf, from) >= end) ? proven : UNSURE;
  }

  private has(slot: number, kind: number): boolean {
    return this.stamp[slot] === this.generation && this.kind[slot] === kind;
  }

  /**
   * A string member's value; escapes and non-ASCII bytes are decoded as
   * JSON.parse decodes the line. The same bytes as the slot's last value give
   * the same string object back: ids repeat line after line, and a string
   * that is not new costs no garbage and hashes once for the rules' maps.
   */
  private string(slot: number): string | undefined {
    if (!this.has(slot, K_STRING)) return undefined;
    const from = (this.from[slot] ?? 0) + 1;
    const to = (this.to[slot] ?? 0) - 1;
    const buf = this.buf;
    const last = this.lastString[slot];
    const length = to - from;
    const kept = slot * MAX_REMEMBERED;
    if (last !== undefined && last.length === length) {
      // Compared with the last value's bytes four at a time (ids are tens of bytes).
      const words = this.skip.words;
      const at = this.skip.base + from;
      const lastWords = this.lastWords;
      let k = 0;
      while (k + 4 <= length && words.getInt32(at + k, true) === lastWords.getInt32(kept + k, true)) k += 4;
      while (k < length && buf[from + k] === this.lastBytes[kept + k]) k++;
      if (k === length) return last;
    }
    for (let k = from; k < to; k++) {
      const byte = buf[k] ?? 0;
      // The quotes around the value are ASCII, so its bytes decode alone exactly as within the line.
      if (byte === BACKSLASH || byte >= 0x80) return JSON.parse(buf.toString('utf8', from - 1, to + 1)) as string;
    }
    // Plain ASCII: its characters are its bytes, so the next line's bytes compare to it directly.
    const value = buf.toString('latin1', from, to);
    if (length <= MAX_REMEMBERED) {
      this.lastString[slot] = value;
      for (let k = 0; k < length; k++) this.lastBytes[kept + k] = buf[from + k] ?? 0;
    }
    return value;
  }

  private counters(): number[] | undefined {
    const now: number[] = [];
    for (const slot of USAGE_SLOTS) {
      if (!this.has(slot, K_NUMBER)) return undefined;
      now.push(numberAt(this.buf, this.from[slot] ?? 0, this.to[slot] ?? 0));
    }
    return now;
  }
}
