/**
 * Bounded holders used by the accumulator: text kept up to a byte cap (head
 * and tail), an oldest-first queue of keys for evicting open units, and the
 * key of the turn lines keep naming.
 */
import { turnKey } from '../threads.js';

/** Length of `buf` without a multi-byte UTF-8 character cut at its end. */
function utf8HeadEnd(buf: Buffer): number {
  let lead = buf.length - 1;
  while (lead >= 0 && lead > buf.length - 4 && ((buf[lead] ?? 0) & 0xc0) === 0x80) lead--;
  const byte = buf[lead];
  if (byte === undefined) return buf.length;
  const size = byte < 0x80 ? 1 : byte >> 5 === 0b110 ? 2 : byte >> 4 === 0b1110 ? 3 : byte >> 3 === 0b11110 ? 4 : 1;
  return lead + size > buf.length ? lead : buf.length;
}

/** Offset of the first whole UTF-8 character in `buf` (skips continuation bytes of a cut one). */
function utf8TailStart(buf: Buffer): number {
  let at = 0;
  while (at < buf.length && at < 3 && ((buf[at] ?? 0) & 0xc0) === 0x80) at++;
  return at;
}

/**
 * Text accumulated up to a byte cap. While it fits it is kept whole (as the
 * exact strings appended); past the cap only the first half and the last half
 * of the cap are kept, so a runaway output costs at most about twice the cap.
 */
export class CappedText {
  private parts: string[] = [];
  private head: Buffer | undefined;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** UTF-8 bytes appended in all. */
  bytes = 0;

  constructor(private readonly cap: number) {}

  /** Counts `bytes` more without keeping any text: only for a cap of 0. */
  count(bytes: number): void {
    if (this.cap !== 0) throw new Error('CappedText.count needs a cap of 0');
    this.bytes += bytes;
  }

  append(text: string): void {
    this.bytes += Buffer.byteLength(text);
    if (this.head === undefined) {
      if (this.bytes <= this.cap) {
        this.parts.push(text);
        return;
      }
      const all = Buffer.from(this.parts.join('') + text);
      this.parts = [];
      // Copies, so the big joined buffer is not retained by views.
      this.head = Buffer.from(all.subarray(0, Math.ceil(this.cap / 2)));
      this.pushTail(all.subarray(this.head.length), false);
      return;
    }
    this.pushTail(Buffer.from(text), true);
  }

  /**
   * Appends ASCII text given as its bytes (a view, copied only in the part
   * kept): what `append(bytes.toString('latin1'))` does, without making a
   * string of a long piece of which only the head and tail are kept.
   */
  appendAscii(bytes: Buffer): void {
    if (this.head === undefined && this.bytes + bytes.length <= this.cap) {
      this.append(bytes.toString('latin1'));
      return;
    }
    this.bytes += bytes.length;
    if (this.head !== undefined) {
      this.pushTail(bytes, false);
      return;
    }
    const before = Buffer.from(this.parts.join(''));
    this.parts = [];
    const headBytes = Math.ceil(this.cap / 2);
    if (before.length >= headBytes) {
      this.head = Buffer.from(before.subarray(0, headBytes));
      this.pushTail(before.subarray(headBytes), false);
      this.pushTail(bytes, false);
      return;
    }
    const fromPiece = headBytes - before.length;
    this.head = Buffer.concat([before, bytes.subarray(0, fromPiece)]);
    this.pushTail(bytes.subarray(fromPiece), false);
  }

  private get tailCap(): number {
    return this.cap - Math.ceil(this.cap / 2);
  }

  /** Adds to the tail; `owned`: `buf` is this holder's own copy, else what is kept is copied. */
  private pushTail(buf: Buffer, owned: boolean): void {
    const cap = this.tailCap;
    if (cap === 0 || buf.length === 0) return;
    if (buf.length >= cap) {
      // The piece alone fills the tail: only its end counts.
      this.tail = [Buffer.from(buf.subarray(buf.length - cap))];
      this.tailBytes = cap;
      return;
    }
    this.tail.push(owned ? buf : Buffer.from(buf));
    this.tailBytes += buf.length;
    // Trim only past twice the cap: amortised O(1) per byte, whatever the piece sizes.
    if (this.tailBytes > 2 * cap) {
      const joined = Buffer.concat(this.tail, this.tailBytes);
      const kept = Buffer.from(joined.subarray(joined.length - cap));
      this.tail = [kept];
      this.tailBytes = kept.length;
    }
  }

  /** The kept text and the number of bytes left out (cut on character boundaries). */
  result(): { text: string; truncatedBytes: number } {
    // With a cap of 0 nothing is kept: every byte counted (count or append) was left out.
    if (this.head === undefined) return { text: this.parts.join(''), truncatedBytes: this.cap === 0 ? this.bytes : 0 };
    const head = this.head.subarray(0, utf8HeadEnd(this.head));
    let tail = Buffer.concat(this.tail, this.tailBytes);
    if (tail.length > this.tailCap) tail = tail.subarray(tail.length - this.tailCap);
    tail = tail.subarray(utf8TailStart(tail));
    return { text: head.toString('utf8') + tail.toString('utf8'), truncatedBytes: this.bytes - head.length - tail.length };
  }
}

/**
 * Keys in the order they were added, oldest first, for evicting from a Map or
 * Set that churns. (Iterating a V8 Map from its start after many deletions
 * walks over the holes they leave: evicting that way is quadratic.) Keys
 * already gone from the owner are skipped when they reach the front.
 */
export class OldestFirst {
  private keys: string[] = [];
  private head = 0;

  push(key: string): void {
    this.keys.push(key);
  }

  /** The oldest key for which `alive` holds, removed from the queue; undefined when none. */
  shift(alive: (key: string) => boolean): string | undefined {
    while (this.head < this.keys.length) {
      const key = this.keys[this.head++];
      if (this.head > 1024 && this.head * 2 > this.keys.length) {
        this.keys = this.keys.slice(this.head);
        this.head = 0;
      }
      if (key !== undefined && alive(key)) return key;
    }
    return undefined;
  }

  /**
   * The one eviction loop: while `over()` holds, hands the oldest key for
   * which `alive` holds to `evict` (taken off the queue first); stops when
   * no live key is left.
   */
  evictWhile(over: () => boolean, alive: (key: string) => boolean, evict: (key: string) => void): void {
    while (over()) {
      const key = this.shift(alive);
      if (key === undefined) return;
      evict(key);
    }
  }

  /** Drops every key (the owner was cleared). */
  clear(): void {
    this.keys = [];
    this.head = 0;
  }
}


/**
 * The turn key of a thread and turn id, one string while they repeat (the
 * lines of one turn come in runs): a Map lookup then hashes nothing new, as a
 * string keeps its hash once computed.
 */
export class TurnKeys {
  private threadId = '';
  private turnId = '';
  private key = turnKey('', '');

  of(threadId: string, turnId: string): string {
    if (threadId !== this.threadId || turnId !== this.turnId) {
      this.threadId = threadId;
      this.turnId = turnId;
      this.key = turnKey(threadId, turnId);
    }
    return this.key;
  }
}
