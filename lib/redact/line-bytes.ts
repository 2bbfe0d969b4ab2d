/**
 * A changed line written as its input bytes with the replacements patched
 * in, instead of as a string rebuilt whole and encoded again: for a line of
 * megabytes with many findings, the list of its pieces (two per finding), the
 * joined text and the encoded copy are not made. The bytes are those that
 * `Buffer.from(applyRange(...) + ...)` gives, so the output does not change.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { goEscape, type Patch } from './walk.js';

/** The patches of `src[from, to)`, applied as walk.ts's applyRange applies them (one out of order or crossing `to` is skipped). */
export interface PatchRange {
  from: number;
  to: number;
  patches: readonly Patch[];
}

/**
 * `raw` with each range's patches applied. Offsets are in `src`, the line
 * decoded; the ranges cover it in order. Undefined unless `raw` is valid
 * UTF-8 (then `src` is its exact decoding and each offset has its byte), or
 * when a patch cuts a surrogate pair (the string path writes U+FFFD there).
 */
export function patchedBytes(raw: Buffer, src: string, ranges: readonly PatchRange[], go: boolean): Buffer | undefined {
  const ascii = isAscii(raw);
  if (!ascii && !isUtf8(raw)) return undefined;
  const size = new Writer(raw, src, ascii, undefined);
  if (!size.run(ranges, go)) return undefined;
  const out = Buffer.allocUnsafe(size.at);
  new Writer(raw, src, ascii, out).run(ranges, go);
  return out;
}

/** One pass over the ranges: counts the output's bytes, or writes them into `out`. */
class Writer {
  /** Bytes of output so far. */
  at = 0;
  /** The last source offset mapped, and its byte offset in `raw`. */
  private srcAt = 0;
  private byteAt = 0;

  constructor(
    private readonly raw: Buffer,
    private readonly src: string,
    private readonly ascii: boolean,
    private readonly out: Buffer | undefined,
  ) {}

  /** False when a patch cuts a surrogate pair. */
  run(ranges: readonly PatchRange[], go: boolean): boolean {
    for (const { from, to, patches } of ranges) {
      let last = from;
      for (const p of patches) {
        if (p.start < last || p.end > to) continue;
        if (this.splitsPair(p.start) || this.splitsPair(p.end)) return false;
        this.copy(last, p.start);
        this.text(go ? goEscape(p.text) : p.text);
        last = p.end;
      }
      this.copy(last, to);
    }
    return true;
  }

  private splitsPair(i: number): boolean {
    if (this.ascii || i <= 0 || i >= this.src.length) return false;
    const low = this.src.charCodeAt(i);
    const high = this.src.charCodeAt(i - 1);
    return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff;
  }

  /** The byte offset of source offset `i` (offsets only move forward). */
  private byteOf(i: number): number {
    if (this.ascii) return i;
    if (i !== this.srcAt) {
      this.byteAt += Buffer.byteLength(this.src.slice(this.srcAt, i));
      this.srcAt = i;
    }
    return this.byteAt;
  }

  /** The input's bytes for `src[a, b)`. */
  private copy(a: number, b: number): void {
    const start = this.byteOf(a);
    const end = this.byteOf(b);
    if (this.out !== undefined) this.raw.copy(this.out, this.at, start, end);
    this.at += end - start;
  }

  private text(text: string): void {
    this.at += this.out === undefined ? Buffer.byteLength(text) : this.out.write(text, this.at);
  }
}
