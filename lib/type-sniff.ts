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

interface Entry {
  bytes: Buffer;
  type: string;
}

/** Interns the type values of lines, by their bytes. */
export class TypeSniffer {
  private readonly buckets = new Map<number, Entry[]>();
  private size = 0;

  /**
   * The value of the line's last member when it is `"type":"X"` with X plain
   * printable ASCII (as every event type is), as an interned string;
   * undefined otherwise (the caller reads the line the general way). Like the
   * scan it replaces, it reads the type, it does not validate the line.
   */
  sniff(buf: Buffer, start: number, end: number): string | undefined {
    const open = lastMemberOpen(buf, TYPE_KEY, start, end, MAX_TYPE_BYTES);
    if (open < 0) return undefined;
    // lastMemberOpen vouches that no quote or backslash sits between the quotes.
    const close = buf.indexOf(0x22, open + 1);
    let hash = 0x811c9dc5;
    for (let k = open + 1; k < close; k++) {
      const byte = buf[k] ?? 0;
      if (byte < 0x20 || byte > 0x7e) return undefined;
      hash = Math.imul(hash ^ byte, 0x01000193);
    }
    const length = close - open - 1;
    const bucket = this.buckets.get(hash);
    if (bucket !== undefined) {
      for (const entry of bucket) {
        if (entry.bytes.length === length && sameBytes(entry.bytes, buf, open + 1)) return entry.type;
      }
    }
    const type = buf.toString('latin1', open + 1, close);
    if (this.size < MAX_TYPES) {
      this.size++;
      const entry = { bytes: Buffer.from(type, 'latin1'), type };
      if (bucket === undefined) this.buckets.set(hash, [entry]);
      else bucket.push(entry);
    }
    return type;
  }
}

function sameBytes(bytes: Buffer, buf: Buffer, at: number): boolean {
  for (let k = 0; k < bytes.length; k++) if (bytes[k] !== buf[at + k]) return false;
  return true;
}
