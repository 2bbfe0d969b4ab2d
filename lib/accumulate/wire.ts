/**
 * The fields of an event read straight from its line's bytes (issue 20): no
 * JSON.parse of the line, no object, and a value decoded only when asked for.
 *
 * `wuu exec --json` writes each event compact, with Go's escapes, keys sorted
 * (so a line's ids sit at its end, just before `type`). {@link WireFields}
 * walks a compact line member by member and keeps where each value lies, or
 * reads only the plain string members at its end ({@link WireFields.readTail}):
 * a tool output's ids without a look at the output. A value is then decoded as
 * JSON.parse would decode it: a string literal through scan.ts (JSON.parse of
 * the literal alone when it holds an escape), a number with Number() after a
 * grammar check, a nested value with JSON.parse of its bytes. A key that
 * occurs twice answers with its LAST value, as JSON.parse does; any key order
 * is read the same.
 *
 * It refuses what it cannot read exactly (whitespace, an escaped key, a cut or
 * not-object line, a line of more than {@link MAX_MEMBERS} members): the
 * caller then reads the parsed event, which also reports a bad line. A plain
 * read locates the values it does not read without checking them; the proof
 * ({@link WireFields.prove}, for Core.proves) judges each one as it skips it,
 * so a line is proven valid and read in one pass; every line reaches a core
 * proven so, or proven by the runner, or parsed. A value that turns out
 * not to be valid JSON text when read is taken from the parsed event instead
 * (which throws the line's InvalidLineError when the line is bad).
 */
import { isAscii } from 'node:buffer';
import type { WuuEvent } from '../events.js';
import type { LineRecord } from '../jsonl.js';
import { containerEnd, plainKeyEnd, stringLiteralEnd } from '../scan.js';
import { isJsonObject, PLAIN } from '../validate.js';
import { hex4, TRANSCODED, UNSUPPORTED, type Transcoder } from './canonical.js';

const [QUOTE, BACKSLASH, COLON, COMMA, LBRACE, RBRACE, LBRACKET] = [0x22, 0x5c, 0x3a, 0x2c, 0x7b, 0x7d, 0x5b] as const;

/** Members kept per line; a line with more is read from its parsed event. */
export const MAX_MEMBERS = 64;

/**
 * Longest member a proof decodes (bytes between its quotes); a longer one is
 * judged byte by byte instead: its reader may keep it from its bytes without
 * ever making a string of it (a long tool output, lib/accumulate/accumulator.ts),
 * and a string of an 8 MiB line would cost its memory twice over.
 */
export const MAX_DECODED_IN_PROOF = 64 * 1024;

/**
 * A field name, with its bytes for comparing keys in place, and the last
 * value read for it: the same thread, turn and item ids come back line after
 * line, and one string each keeps map keys cheap (a string's hash is kept).
 */
export class Key {
  readonly bytes: Buffer;
  private lastBytes: Buffer | undefined;
  private lastText = '';
  /** The last text came from a literal of plain ASCII (no escape): its characters are its bytes. */
  private lastPlain = false;

  /** @param repeats the values come back line after line (ids): worth remembering */
  constructor(
    readonly name: string,
    readonly repeats = false,
  ) {
    this.bytes = Buffer.from(name);
  }

  /** The text of the short literal between the quotes at `open` and `close`, as last time when its bytes are the same. */
  recall(source: Buffer, open: number, close: number): string | undefined {
    const length = close - open - 1;
    if (this.lastPlain) {
      const last = this.lastText;
      if (last.length === length) {
        // Ids of one run share their start (`<thread>-turn-0001-item-2`): compare from the end.
        let k = length - 1;
        while (k >= 0 && last.charCodeAt(k) === source[open + 1 + k]) k--;
        if (k < 0) return last;
      }
    } else {
      const last = this.lastBytes;
      if (last !== undefined && last.length === length) {
        let k = length - 1;
        while (k >= 0 && last[k] === source[open + 1 + k]) k--;
        if (k < 0) return this.lastText;
      }
    }
    // An id is plain ASCII as a rule: its bytes are its text, and the text is all that is kept of them.
    if (plainAscii(source, open + 1, close)) {
      this.lastText = source.toString('latin1', open + 1, close);
      this.lastPlain = true;
      this.lastBytes = undefined;
      return this.lastText;
    }
    const text = decodeLiteral(source, open, close);
    if (text !== undefined) {
      this.lastBytes = Buffer.from(source.subarray(open + 1, close));
      this.lastText = text;
      this.lastPlain = false;
    }
    return text;
  }
}

/** Whether source[from, to) is printable ASCII without a backslash: a string literal's body that is its own text. */
function plainAscii(source: Buffer, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const byte = source[k] ?? 0;
    if (byte < 0x20 || byte >= 0x80 || byte === BACKSLASH) return false;
  }
  return true;
}

/**
 * The text of the string literal between the quotes at `open` and `close`;
 * undefined when it is not valid JSON text. Only the literal is looked at
 * (never the rest of the buffer, which may be a whole input chunk): plain
 * text is sliced, one with an escape goes to JSON.parse alone.
 */
export function decodeLiteral(source: Buffer, open: number, close: number): string | undefined {
  const body = source.subarray(open + 1, close);
  if (body.indexOf(BACKSLASH) >= 0) {
    try {
      const value: unknown = JSON.parse(source.toString('utf8', open, close + 1));
      return typeof value === 'string' ? value : undefined;
    } catch {
      return undefined;
    }
  }
  const text = body.toString('utf8');
  return CONTROL.test(text) ? undefined : text;
}

const CONTROL = /[\u0000-\u001f]/;

/** Bytes an escape at `at` of `body` saves against its decoded UTF-8, and its length; undefined when it is not a JSON escape. */
function escapeSaving(body: Buffer, at: number): { saves: number; length: number } | undefined {
  const letter = body[at + 1];
  if (letter !== 0x75) return letter !== undefined && SHORT_ESCAPES.includes(letter) ? SHORT : undefined;
  const code = hex4(body, at + 2);
  if (code < 0) return undefined;
  if (code < 0x80) return U1;
  if (code < 0x800) return U2;
  // A surrogate pair is one 4-byte character; a lone surrogate encodes as U+FFFD (3 bytes), as Buffer.byteLength counts it.
  if (code >= 0xd800 && code <= 0xdbff && body[at + 6] === BACKSLASH && body[at + 7] === 0x75) {
    const low = hex4(body, at + 8);
    if (low >= 0xdc00 && low <= 0xdfff) return PAIR;
  }
  return U3;
}

const SHORT_ESCAPES = [0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74];
const SHORT = { saves: 1, length: 2 };
const U1 = { saves: 5, length: 6 };
const U2 = { saves: 4, length: 6 };
const U3 = { saves: 3, length: 6 };
const PAIR = { saves: 8, length: 12 };

/**
 * The UTF-8 byte length of the text of the literal between `open` and
 * `close`, without building the text (wuu-turns counts tool output, never
 * keeps it): for ASCII bytes, the literal's length less what each escape
 * saves; other text is decoded and measured. Undefined for a bad escape.
 */
export function literalBytes(source: Buffer, open: number, close: number): number | undefined {
  const body = source.subarray(open + 1, close);
  if (!isAscii(body)) {
    const text = decodeLiteral(source, open, close);
    return text === undefined ? undefined : Buffer.byteLength(text);
  }
  let bytes = body.length;
  let at = body.indexOf(BACKSLASH);
  while (at >= 0) {
    const escape = escapeSaving(body, at);
    if (escape === undefined) return undefined;
    bytes -= escape.saves;
    at = body.indexOf(BACKSLASH, at + escape.length);
  }
  // Raw control bytes are not looked for: the line was proven valid (see the module comment).
  return bytes;
}

/** A field key (make it once, at module level: it remembers its last value). */
export function key(name: string, repeats = false): Key {
  return new Key(name, repeats);
}

/** The fields of one event, however they were read. */
export interface EventFields {
  /** The field's value as JSON.parse gives it (own fields only); undefined when absent. */
  value(field: Key): unknown;
  /** The field's value when it is a string, else undefined. */
  string(field: Key): string | undefined;
}

/** The fields of a parsed event. */
export class ParsedFields implements EventFields {
  constructor(readonly event: WuuEvent) {}

  value(field: Key): unknown {
    return Object.hasOwn(this.event, field.name) ? (this.event as Record<string, unknown>)[field.name] : undefined;
  }

  string(field: Key): string | undefined {
    const value = this.value(field);
    return typeof value === 'string' ? value : undefined;
  }
}

/** Index just past the JSON number starting at `at` (strict grammar), or -1. */
function numberEnd(source: Buffer, at: number, limit: number): number {
  let k = at;
  if (source[k] === 0x2d) k++;
  const first = source[k];
  if (first === 0x30) k++;
  else if (first !== undefined && first >= 0x31 && first <= 0x39) while (k < limit && isDigit(source[k])) k++;
  else return -1;
  if (source[k] === 0x2e) {
    k++;
    if (!isDigit(source[k])) return -1;
    while (k < limit && isDigit(source[k])) k++;
  }
  if (source[k] === 0x65 || source[k] === 0x45) {
    k++;
    if (source[k] === 0x2b || source[k] === 0x2d) k++;
    if (!isDigit(source[k])) return -1;
    while (k < limit && isDigit(source[k])) k++;
  }
  return k <= limit ? k : -1;
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x30 && byte <= 0x39;
}

/** The JSON number (grammar already checked) in source[open, close): small integers summed digit by digit, others by Number. */
function numberValue(source: Buffer, open: number, close: number): number {
  const negative = source[open] === 0x2d;
  const from = negative ? open + 1 : open;
  if (close - from > 15) return Number(source.toString('latin1', open, close));
  let value = 0;
  for (let k = from; k < close; k++) {
    const digit = (source[k] ?? 0) - 0x30;
    if (digit < 0 || digit > 9) return Number(source.toString('latin1', open, close));
    value = value * 10 + digit;
  }
  return negative ? -value : value;
}


const LITERALS: ReadonlyArray<[number, Buffer, unknown]> = [
  [0x74, Buffer.from('true'), true],
  [0x66, Buffer.from('false'), false],
  [0x6e, Buffer.from('null'), null],
];

/** Bytes of a literal looked at by {@link literalClose}'s own loop. */
const SHORT_LITERAL = 64;

/**
 * stringLiteralEnd's answer, found by a loop when the literal closes within
 * its first {@link SHORT_LITERAL} bytes with no backslash before its quote
 * (a message delta, as a rule): a native search per member costs more than
 * so few bytes. Otherwise stringLiteralEnd itself answers.
 */
function literalClose(source: Buffer, open: number, limit: number): number {
  const stop = Math.min(limit, open + SHORT_LITERAL);
  for (let k = open + 1; k < stop; k++) {
    const byte = source[k];
    if (byte === QUOTE) return k;
    if (byte === BACKSLASH) break;
  }
  return stringLiteralEnd(source, open, limit);
}

/** Index just past the value starting at `at`, or -1 when it is not one the reader knows. */
function valueEnd(source: Buffer, at: number, limit: number): number {
  const byte = source[at];
  if (byte === QUOTE) {
    const close = stringLiteralEnd(source, at, limit);
    return close < 0 ? -1 : close + 1;
  }
  if (byte === LBRACE || byte === LBRACKET) return containerEnd(source, at, limit);
  for (const [first, word] of LITERALS) {
    if (byte !== first) continue;
    return at + word.length <= limit && source.compare(word, 0, word.length, at, at + word.length) === 0 ? at + word.length : -1;
  }
  return numberEnd(source, at, limit);
}

const HEX = new Uint8Array(256);
for (const ch of '0123456789abcdefABCDEF') HEX[ch.charCodeAt(0)] = 1;
const SHORT_ESCAPE = new Uint8Array(256);
for (const ch of '"\\/bfnrt') SHORT_ESCAPE[ch.charCodeAt(0)] = 1;

/**
 * Index of the quote closing the string opened at `open` when it is valid
 * JSON text (strict escapes, no raw control byte) and closes before `limit`;
 * else -1. Plain bytes are skipped in the tightest loop: `fenced` says a byte
 * that is not plain follows the line (its newline in the chunk), which then
 * stops that loop with no bounds test per byte.
 */
function provenStringEnd(source: Buffer, open: number, limit: number, fenced: boolean): number {
  let k = open + 1;
  for (;;) {
    if (fenced) {
      while (PLAIN[source[k] ?? 0] === 1) k++;
    } else {
      while (k < limit && PLAIN[source[k] ?? 0] === 1) k++;
    }
    if (k >= limit) return -1;
    const byte = source[k];
    if (byte === QUOTE) return k;
    if (byte !== BACKSLASH) return -1;
    const after = source[k + 1] ?? 0;
    if (SHORT_ESCAPE[after] === 1) k += 2;
    else if (after === 0x75 && HEX[source[k + 2] ?? 0] === 1 && HEX[source[k + 3] ?? 0] === 1 && HEX[source[k + 4] ?? 0] === 1 && HEX[source[k + 5] ?? 0] === 1) k += 6;
    else return -1;
  }
}

/**
 * {@link valueEnd} that also proves the value valid JSON: a string judged
 * byte by byte, a number by its strict grammar, the three words exactly, a
 * nested object by the byte validator (lib/validate.ts); -1 otherwise (a
 * nested array too: the line is then parsed, which is rare).
 */
function provenValueEnd(source: Buffer, at: number, limit: number, fenced: boolean): number {
  const byte = source[at];
  if (byte === QUOTE) {
    const close = provenStringEnd(source, at, limit, fenced);
    return close < 0 ? -1 : close + 1;
  }
  if (byte === LBRACE) {
    const after = containerEnd(source, at, limit);
    return after >= 0 && isJsonObject(source, at, after) ? after : -1;
  }
  if (byte === LBRACKET) return -1;
  return valueEnd(source, at, limit);
}

/** Whether the key between the quotes at `open` and `close` is `field`, byte for byte. */
function sameKey(source: Buffer, open: number, close: number, field: Key): boolean {
  const bytes = field.bytes;
  if (close - open - 1 !== bytes.length) return false;
  for (let k = 0; k < bytes.length; k++) if (source[open + 1 + k] !== bytes[k]) return false;
  return true;
}

/** The key every event has. */
const TYPE = new Key('type');

/**
 * The quote opening the plain string (no escape) that the quote at `close`
 * ends, searched back to `start`; -1 at a backslash or none. A loop, not
 * lastIndexOf: ids are short, and a call into the runtime costs more.
 */
function plainOpen(source: Buffer, close: number, start: number): number {
  for (let k = close - 1; k >= start; k--) {
    const byte = source[k];
    if (byte === QUOTE) return k;
    if (byte === BACKSLASH) return -1;
  }
  return -1;
}


/**
 * One line's members, read from its bytes. Reused line after line: what it
 * answers holds until the next read.
 */
export class WireFields implements EventFields {
  private rec: LineRecord | undefined;
  /** The record the last read took in whole, members all kept (see {@link WireFields.holdsAll}). */
  private whole: LineRecord | undefined;
  /** While proving: the member to decode rather than judge. */
  private decode: Key | undefined;
  /** The member decoded while proving (-1: none), and its text. */
  private decodedAt = -1;
  private decodedText = '';
  /** While proving: where the `decode` member goes as JSON (./canonical.ts) rather than decoded, if anywhere. */
  private transcoder: Transcoder | undefined;
  /** The member the transcoder holds (-1: none). */
  private transcodedAt = -1;
  /** The transcoder only measures (see {@link measured}). */
  private measuring = false;
  /** While proving: keep a copy of the `decode` member's literal once judged (see {@link prove}'s `remember`). */
  private remember = false;
  /** While proving: the member compared with the literal remembered (see {@link prove}'s `same`). */
  private same: Key | undefined;
  /** The literal last remembered, quotes included, in `proven[0, provenLength)`; -1: none. */
  private proven: Buffer = Buffer.alloc(0);
  private provenLength = -1;
  private source: Buffer = Buffer.alloc(0);
  private count = 0;
  /** Which read this is: a member's text is remembered for the read that made it (see {@link string}). */
  private generation = 0;
  private readonly textOf: Array<string | undefined> = new Array<string | undefined>(MAX_MEMBERS).fill(undefined);
  private readonly textRead = new Int32Array(MAX_MEMBERS);
  /** Members were kept from the line's end (a tail read). */
  private fromEnd = false;
  private readonly keyOpen = new Int32Array(MAX_MEMBERS);
  private readonly keyClose = new Int32Array(MAX_MEMBERS);
  private readonly valueOpen = new Int32Array(MAX_MEMBERS);
  private readonly valueClose = new Int32Array(MAX_MEMBERS);

  /** Reads every member of the line; false when it is not a compact object the reader knows. */
  read(rec: LineRecord): boolean {
    return this.walk(rec, false);
  }

  /**
   * Reads every member of the line and proves the line a valid event in the
   * same pass (Core.proves): every value judged as it is skipped, and a
   * string `type`.
   *
   * `remember.keep`: the `decode` member's literal is remembered once judged
   * valid (a copy, in a buffer reused). `remember.same`: a string member
   * whose bytes are those of the literal remembered is valid as that one
   * was, judged by one native compare instead of byte by byte (a bash
   * call's command_output_delta repeats its tool_output_delta's text). False when not proven (invalid, or a shape the reader
   * does not know: the caller parses the line). What it read holds (see
   * {@link holdsAll}) until the next read.
   *
   * `decode`: a string member the caller will decode anyway (a delta's
   * text). It is decoded now instead of judged byte by byte, and the decode
   * is its proof (JSON.parse of the literal, or a control-byte test of plain
   * text): its bytes are looked at once, natively, not twice. With a
   * `transcoder`, it is rewritten there as JSON instead (see {@link json}),
   * that pass its proof; decoded as above when it cannot be.
   */
  prove(rec: LineRecord, decode?: Key, transcoder?: Transcoder, measure = false, remember?: { keep: boolean; same?: Key }): boolean {
    this.decode = decode;
    this.transcoder = transcoder;
    this.measuring = measure;
    this.remember = remember?.keep === true;
    this.same = remember?.same;
    const walked = this.walk(rec, true);
    this.decode = undefined;
    this.same = undefined;
    if (!walked) return false;
    const type = this.find(TYPE);
    return type >= 0 && this.source[this.valueOpen[type] ?? 0] === QUOTE;
  }

  /** Whether the last read was a whole read of this very record ({@link read} or {@link prove}): every member is at hand. */
  holdsAll(rec: LineRecord): boolean {
    return this.whole === rec;
  }

  /** The member walk of {@link read}; with `validate`, every value is judged as it is skipped. */
  private walk(rec: LineRecord, validate: boolean): boolean {
    const { source, start, end } = this.begin(rec);
    this.fromEnd = false;
    if (end - start < 2 || source[start] !== LBRACE || source[end - 1] !== RBRACE) return false;
    const limit = end - 1;
    const fenced = end < source.length && PLAIN[source[end] ?? 0] === 0;
    let at = start + 1;
    if (at === limit) return this.took(rec);
    for (;;) {
      if (this.count === MAX_MEMBERS || source[at] !== QUOTE) return false;
      const keyClose = plainKeyEnd(source, at, limit) - 1;
      if (keyClose < 0 || source[keyClose + 1] !== COLON) return false;
      let after: number;
      if (!validate) after = valueEnd(source, keyClose + 2, limit);
      else if (this.decode !== undefined && source[keyClose + 2] === QUOTE && sameKey(source, at, keyClose, this.decode)) after = this.decodeMember(source, keyClose + 2, limit, fenced);
      else if (this.same !== undefined && source[keyClose + 2] === QUOTE && sameKey(source, at, keyClose, this.same)) after = this.sameAsProven(source, keyClose + 2, limit, fenced);
      else after = provenValueEnd(source, keyClose + 2, limit, fenced);
      if (after < 0) return false;
      this.keep(at, keyClose, keyClose + 2, after);
      if (after === limit) return this.took(rec);
      if (source[after] !== COMMA) return false;
      at = after + 1;
    }
  }

  /** Past the string member opened at `open` (for {@link prove}): the literal remembered when its bytes are the same, else judged byte by byte; -1 when not valid. */
  private sameAsProven(source: Buffer, open: number, limit: number, fenced: boolean): number {
    const length = this.provenLength;
    if (length > 0 && open + length <= limit && source.compare(this.proven, 0, length, open, open + length) === 0) return open + length;
    return provenValueEnd(source, open, limit, fenced);
  }

  /** Keeps a copy of the literal `source[open, after)`, just judged valid, in the buffer reused for it. */
  private keepProven(source: Buffer, open: number, after: number): void {
    if (this.proven.length < after - open) this.proven = Buffer.allocUnsafeSlow(Math.max(after - open, 2 * this.proven.length));
    this.provenLength = source.copy(this.proven, 0, open, after);
  }

  /**
   * Decodes the string member opened at `open` (for {@link prove}); past it,
   * or -1 when it is not valid JSON text. One longer than
   * {@link MAX_DECODED_IN_PROOF} is judged by its bytes instead, not decoded.
   */
  private decodeMember(source: Buffer, open: number, limit: number, fenced: boolean): number {
    const after = this.decodeValue(source, open, limit, fenced);
    if (after >= 0 && this.remember) this.keepProven(source, open, after);
    return after;
  }

  /** {@link decodeMember} but for remembering it. */
  private decodeValue(source: Buffer, open: number, limit: number, fenced: boolean): number {
    const transcoder = this.transcoder;
    // The line's end is near (a delta's ids follow it) and fences it: its end found, proven and rewritten in one pass.
    if (transcoder !== undefined && (fenced || limit + 1 >= source.length) && limit - open <= MAX_DECODED_IN_PROOF) {
      const made = this.measuring ? transcoder.measureTo(source, open, limit + 1) : transcoder.runTo(source, open, limit + 1);
      if (made === TRANSCODED) {
        this.transcodedAt = this.count;
        return transcoder.close + 1;
      }
      if (made !== UNSUPPORTED) return -1;
    }
    return this.decodeSlow(source, open, limit, fenced);
  }

  /** {@link decodeValue} with the literal's end found first. */
  private decodeSlow(source: Buffer, open: number, limit: number, fenced: boolean): number {
    const close = literalClose(source, open, limit);
    if (close < 0) return -1;
    if (close - open > MAX_DECODED_IN_PROOF) {
      const end = provenStringEnd(source, open, limit, fenced);
      return end < 0 ? -1 : end + 1;
    }
    const transcoder = this.transcoder;
    const made = transcoder === undefined ? UNSUPPORTED : this.measuring ? transcoder.measure(source, open, close) : transcoder.run(source, open, close);
    if (made === TRANSCODED) {
      this.transcodedAt = this.count;
      return close + 1;
    }
    if (this.measuring && made === UNSUPPORTED) {
      // Never decoded (its reader counts it from the bytes): judged by them.
      const end = provenStringEnd(source, open, limit, fenced);
      return end < 0 ? -1 : end + 1;
    }
    const text = made === UNSUPPORTED ? decodeLiteral(source, open, close) : undefined;
    if (text === undefined) return -1;
    this.decodedAt = this.count;
    this.decodedText = text;
    return close + 1;
  }

  /** Forgets the last read: `rec` is the record now read. */
  private begin(rec: LineRecord): LineRecord {
    this.rec = rec;
    this.whole = undefined;
    this.decodedAt = -1;
    this.transcodedAt = -1;
    this.source = rec.source;
    this.count = 0;
    this.generation++;
    return rec;
  }

  /** A whole read of `rec` succeeded. */
  private took(rec: LineRecord): true {
    this.whole = rec;
    return true;
  }

  /**
   * Reads only the members at the END of the line, back to the first of
   * `fields` (at most 31; all must be seen, or the line's start reached): every
   * one a plain string (no escape), so their values are found from the end
   * without looking at what comes before. False otherwise; then {@link read}.
   */
  readTail(rec: LineRecord, fields: readonly Key[]): boolean {
    const { source, start, end } = this.begin(rec);
    if (end - start < 2 || source[end - 1] !== RBRACE) return false;
    this.fromEnd = true;
    let missing = fields.length;
    let seen = 0;
    let at = end - 1;
    for (;;) {
      // at: the `}` or `,` after a value, which is `"..."` just before it.
      const valueClose = at - 1;
      if (this.count === MAX_MEMBERS || source[valueClose] !== QUOTE) return false;
      const valueOpen = plainOpen(source, valueClose, start);
      if (valueOpen <= start || source[valueOpen - 1] !== COLON) return false;
      const keyClose = valueOpen - 2;
      if (source[keyClose] !== QUOTE) return false;
      const keyOpen = plainOpen(source, keyClose, start);
      if (keyOpen < start + 1) return false;
      const before = source[keyOpen - 1];
      if (before !== COMMA && before !== LBRACE) return false;
      this.keep(keyOpen, keyClose, valueOpen, valueClose + 1);
      for (let j = 0; j < fields.length; j++) {
        const field = fields[j];
        if (field !== undefined && (seen & (1 << j)) === 0 && this.keyIs(this.count - 1, field)) {
          seen |= 1 << j;
          missing--;
        }
      }
      if (missing === 0) return true;
      if (before === LBRACE) return keyOpen - 1 === start;
      at = keyOpen - 1;
    }
  }

  private keep(keyOpen: number, keyClose: number, valueOpen: number, valueEnd: number): void {
    const i = this.count++;
    this.keyOpen[i] = keyOpen;
    this.keyClose[i] = keyClose;
    this.valueOpen[i] = valueOpen;
    this.valueClose[i] = valueEnd;
  }

  private keyIs(i: number, field: Key): boolean {
    const open = this.keyOpen[i] ?? 0;
    const bytes = field.bytes;
    if ((this.keyClose[i] ?? 0) - open - 1 !== bytes.length) return false;
    for (let k = 0; k < bytes.length; k++) if (this.source[open + 1 + k] !== bytes[k]) return false;
    return true;
  }

  /**
   * The member holding the field's value: the LAST one with that key in the
   * line, as JSON.parse keeps (a tail read keeps members from the end, so
   * there it is the first kept); -1 when absent.
   */
  private find(field: Key): number {
    if (this.fromEnd) {
      for (let i = 0; i < this.count; i++) if (this.keyIs(i, field)) return i;
    } else {
      for (let i = this.count - 1; i >= 0; i--) if (this.keyIs(i, field)) return i;
    }
    return -1;
  }

  /** Where the field's string literal lies (its quotes), or undefined when absent or not a string. */
  literal(field: Key): { open: number; close: number; source: Buffer } | undefined {
    const i = this.find(field);
    if (i < 0) return undefined;
    const open = this.valueOpen[i] ?? 0;
    return this.source[open] === QUOTE ? { open, close: (this.valueClose[i] ?? 0) - 1, source: this.source } : undefined;
  }

  /**
   * The transcoder holding the field's value as JSON, when the proof that
   * read this line put it there; else undefined (read it with {@link string}).
   */
  json(field: Key): Transcoder | undefined {
    const i = this.transcodedAt;
    return i >= 0 && !this.measuring && this.find(field) === i ? this.transcoder : undefined;
  }

  /** The UTF-8 bytes of the field's text when the proof that read this line measured it; else undefined. */
  measured(field: Key): number | undefined {
    const i = this.transcodedAt;
    return i >= 0 && this.measuring && this.find(field) === i ? this.transcoder?.decodedBytes : undefined;
  }

  string(field: Key): string | undefined {
    const i = this.find(field);
    if (i < 0) return undefined;
    if (i === this.decodedAt) return this.decodedText;
    if (!field.repeats) return this.decodeString(i, field);
    // A line's ids are asked for again and again (its turn, then its item's): decoded once a read. Ids only: no long text is kept alive.
    if (this.textRead[i] === this.generation) return this.textOf[i];
    const text = this.decodeString(i, field);
    this.textOf[i] = text;
    this.textRead[i] = this.generation;
    return text;
  }

  /** {@link string} of member `i`, decoded. */
  private decodeString(i: number, field: Key): string | undefined {
    const open = this.valueOpen[i] ?? 0;
    if (this.source[open] !== QUOTE) return undefined;
    const close = (this.valueClose[i] ?? 0) - 1;
    const text = field.repeats && close - open <= 65 ? field.recall(this.source, open, close) : decodeLiteral(this.source, open, close);
    return text ?? this.parsed(field, 'string');
  }

  value(field: Key): unknown {
    const i = this.find(field);
    if (i < 0) return undefined;
    const open = this.valueOpen[i] ?? 0;
    const close = this.valueClose[i] ?? 0;
    const first = this.source[open];
    if (first === QUOTE) return this.string(field);
    if (first === 0x74) return true;
    if (first === 0x66) return false;
    if (first === 0x6e) return null;
    if (first === LBRACE || first === LBRACKET) {
      try {
        return JSON.parse(this.source.toString('utf8', open, close)) as unknown;
      } catch {
        return this.parsed(field);
      }
    }
    return numberValue(this.source, open, close);
  }

  /** The field from the parsed event, when the bytes did not decode (the parse reports a bad line). */
  private parsed(field: Key, want?: 'string'): string | undefined;
  private parsed(field: Key): unknown;
  private parsed(field: Key, want?: 'string'): unknown {
    const event = this.rec?.event;
    const value = event !== undefined && Object.hasOwn(event, field.name) ? (event as Record<string, unknown>)[field.name] : undefined;
    return want === 'string' && typeof value !== 'string' ? undefined : value;
  }
}
