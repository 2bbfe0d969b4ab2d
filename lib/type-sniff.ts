/**
 * The type of a line in the producer's shape, read from the line's tail
 * without allocating: the per-line fast path of the runner. Go sorts keys, so
 * almost every event ends in `,"type":"X"}` (see lastMemberOpen in scan.ts);
 * the bytes of X are looked up in a small table of the types seen so far, and
 * the same string object comes back for the same bytes, so a line costs a
 * hash of a dozen bytes instead of a new string (and its garbage).
 */
import { lastMemberOpen } from './scan.js';

const TYPE_KEY = Buffer.from('type');
/** Longer type values are left to the general scan (no event type comes near). */
const MAX_TYPE_BYTES = 64;
/** Distinct types kept; a stream has a few dozen. Beyond: the general scan. */
const MAX_TYPES = 1024;

/** Slots of the open-addressed table: a power of two, well over MAX_TYPES. */
const SLOTS = 2048;

/** Interns the type values of lines, by their bytes. */
export class TypeSniffer {
  /** The bytes and string of each type seen, by id (the order first seen). */
  private readonly bytes: Buffer[] = [];
  private readonly types: string[] = [];
  /** Open addressing on the bytes' hash: id + 1 per slot, 0 for a free one. */
  private readonly slots = new Int32Array(SLOTS);

  /**
   * The value of the line's last member when it is `"type":"X"` with X plain
   * printable ASCII (as every event type is), as an interned string;
   * undefined otherwise (the caller reads the line the general way). Like the
   * scan it replaces, it reads the type, it does not validate the line.
   */
  sniff(buf: Buffer, start: number, end: number): string | undefined {
    const id = this.sniffId(buf, start, end);
    return id >= 0 ? this.types[id] : id === NEW ? this.fresh : undefined;
  }

  /** The type of an id from {@link sniffId}. */
  typeOf(id: number): string {
    return this.types[id] ?? '';
  }

  /** The string of the last type {@link sniffId} found past the table's size (it answered NEW). */
  fresh = '';

  /**
   * As {@link sniff}, as a small number: the type's id (its index in the order
   * first seen, < MAX_TYPES), -1 for no sniffable type, or NEW for a type
   * found once the table is full (its string is then in `fresh`). A caller
   * can keep what it decided per type in an array, with no string hashing.
   */
  sniffId(buf: Buffer, start: number, end: number): number {
    const open = lastMemberOpen(buf, TYPE_KEY, start, end, MAX_TYPE_BYTES);
    if (open < 0) return -1;
    // lastMemberOpen vouches that the value is closed by `"}` at the line's
    // end (whitespace aside).
    let close = end - 1;
    while (buf[close] !== 0x7d) close--;
    return this.idAt(buf, open, close - 1);
  }

  /**
   * The id (as {@link sniffId}) of the string whose quotes are at `open` and
   * `close`, found some other way (a validating scan): -1 unless it is plain
   * printable ASCII with no backslash, at most MAX_TYPE_BYTES long.
   */
  idAt(buf: Buffer, open: number, close: number): number {
    const length = close - open - 1;
    if (length > MAX_TYPE_BYTES) return -1;
    // Hashed on the length and the first and last two bytes (types differ
    // there); a match is then compared byte for byte. The bytes were checked
    // plain when their entry was made, so a match needs no check.
    const ends = length < 2 ? 0 : ((buf[open + 1] ?? 0) << 8) ^ ((buf[open + 2] ?? 0) << 16) ^ ((buf[close - 1] ?? 0) << 4) ^ ((buf[close - 2] ?? 0) << 12);
    const hash = Math.imul(length ^ ends, 0x9e3779b1);
    let slot = (hash >>> 20) & (SLOTS - 1);
    for (;;) {
      const id = (this.slots[slot] ?? 0) - 1;
      if (id < 0) break;
      const bytes = this.bytes[id];
      if (bytes !== undefined && bytes.length === length && sameBytes(bytes, buf, open + 1)) return id;
      slot = (slot + 1) & (SLOTS - 1);
    }
    for (let k = open + 1; k < close; k++) {
      const byte = buf[k] ?? 0;
      if (byte < 0x20 || byte > 0x7e || byte === 0x5c) return -1;
    }
    const type = buf.toString('latin1', open + 1, close);
    if (this.types.length >= MAX_TYPES) {
      this.fresh = type;
      return NEW;
    }
    this.slots[slot] = this.types.length + 1;
    this.bytes.push(Buffer.from(type, 'latin1'));
    this.types.push(type);
    return this.types.length - 1;
  }
}

/** What {@link TypeSniffer.sniffId} answers for a type past the table's size. */
export const NEW = -2;

function sameBytes(bytes: Buffer, buf: Buffer, at: number): boolean {
  for (let k = 0; k < bytes.length; k++) if (bytes[k] !== buf[at + k]) return false;
  return true;
}
