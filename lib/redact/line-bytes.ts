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
  const line = LineBytes.of(raw, src, go);
  return line !== undefined && line.add(ranges) ? line.bytes() : undefined;
}

const EMPTY = Buffer.alloc(0);

/**
 * A patched line built range by range (a delta of megabytes is scanned in
 * windows, each window's findings patched in and dropped), in one buffer.
 */
export class LineBytes {
  private out = EMPTY;
  private total = 0;
  /** Where the ranges added so far end: a source offset and its byte offset in `raw`. */
  private readonly mapped = { src: 0, byte: 0 };

  private constructor(
    private readonly raw: Buffer,
    private readonly src: string,
    private readonly ascii: boolean,
    private readonly go: boolean,
    private readonly reserve: number,
  ) {}

  /**
   * Undefined unless `raw` is valid UTF-8 (see {@link patchedBytes}).
   * `reserve`: bytes to take at once for a line built in many ranges (see
   * {@link literalPatcher}); without it, each add takes what it needs.
   */
  static of(raw: Buffer, src: string, go: boolean, reserve = 0): LineBytes | undefined {
    const ascii = isAscii(raw);
    return ascii || isUtf8(raw) ? new LineBytes(raw, src, ascii, go, reserve) : undefined;
  }

  /** Appends the next ranges, patched; false (and nothing added) when a patch cuts a surrogate pair. */
  add(ranges: readonly PatchRange[]): boolean {
    const size = new Writer(this.raw, this.src, this.ascii, { ...this.mapped }, undefined);
    if (!size.run(ranges, this.go)) return false;
    const need = this.total + size.at;
    if (need > this.out.length) this.grow(need);
    const writer = new Writer(this.raw, this.src, this.ascii, this.mapped, this.out);
    writer.at = this.total;
    writer.run(ranges, this.go);
    this.total = need;
    return true;
  }

  /** Room for `need` bytes: the reserve, else twice what is there (a one-range line: exactly `need`). */
  private grow(need: number): void {
    const size = Math.max(need, this.reserve, this.total > 0 ? 2 * this.out.length : 0);
    const out = size === need && this.total === 0 ? Buffer.allocUnsafe(size) : Buffer.allocUnsafeSlow(size);
    this.out.copy(out, 0, 0, this.total);
    this.out = out;
  }

  /** The line so far (a view of the buffer when it has room left). */
  bytes(): Buffer {
    return this.total === this.out.length ? this.out : this.out.subarray(0, this.total);
  }
}

/** Whether offset `i` of `src` falls between the halves of a surrogate pair. */
function splitsPair(src: string, i: number): boolean {
  if (i <= 0 || i >= src.length) return false;
  const low = src.charCodeAt(i);
  const high = src.charCodeAt(i - 1);
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff;
}

/** One pass over ranges: counts their output's bytes, or writes them into `out`. */
class Writer {
  /** Bytes of output so far. */
  at = 0;

  constructor(
    private readonly raw: Buffer,
    private readonly src: string,
    private readonly ascii: boolean,
    /** The last source offset mapped and its byte offset (offsets only move forward). */
    private readonly mapped: { src: number; byte: number },
    private readonly out: Buffer | undefined,
  ) {}

  /** False when a patch cuts a surrogate pair. */
  run(ranges: readonly PatchRange[], go: boolean): boolean {
    for (const { from, to, patches } of ranges) {
      let last = from;
      for (const p of patches) {
        if (p.start < last || p.end > to) continue;
        if (!this.ascii && (splitsPair(this.src, p.start) || splitsPair(this.src, p.end))) return false;
        this.copy(last, p.start);
        this.text(go ? goEscape(p.text) : p.text);
        last = p.end;
      }
      this.copy(last, to);
    }
    return true;
  }

  /** The byte offset of source offset `i`. */
  private byteOf(i: number): number {
    if (this.ascii) return i;
    const mapped = this.mapped;
    if (i !== mapped.src) {
      mapped.byte += Buffer.byteLength(this.src.slice(mapped.src, i));
      mapped.src = i;
    }
    return mapped.byte;
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

/** Where a delta literal lies in its line's text, and the way from its decoded text back (view.ts). */
export interface Literal {
  /** `src[start, end)` is the literal, quotes included. */
  start: number;
  end: number;
  /** The encoded offset of a decoded offset. */
  rawOf(i: number): number;
  /** The decoded text's length. */
  length: number;
}

/**
 * A line whose delta literal is patched window by window (deltas.ts scans a
 * delta of megabytes in windows): the line up to the literal at once, then
 * each window's findings (offsets in the decoded text, up to `to`), then the
 * rest of the line with `patches` at `done`. Undefined when `raw` is not
 * valid UTF-8; `add` false when a window cannot be patched in the bytes.
 */
export function literalPatcher(
  raw: Buffer,
  src: string,
  literal: Literal,
  patches: readonly Patch[],
  go: boolean,
): { add(spans: readonly Patch[], to: number): boolean; done(): Buffer } | undefined {
  // The output in one buffer, not in pieces joined at the end (a second copy
  // of a line of megabytes): taken big, as pages are only resident once
  // written (findings seldom more than triple a line); more doubles it.
  const line = LineBytes.of(raw, src, go, 4 * raw.length + 64 * 1024);
  // The patches after the literal are checked now: done() cannot fail once the windows are in.
  if (line === undefined || patches.some((p) => splitsPair(src, p.start) || splitsPair(src, p.end))) return undefined;
  line.add([{ from: 0, to: literal.start, patches }]);
  let at = literal.start;
  return {
    add(spans, to) {
      for (const span of spans) {
        span.start = literal.rawOf(span.start);
        span.end = literal.rawOf(span.end);
      }
      const end = to === literal.length ? literal.end : literal.rawOf(to);
      if (splitsPair(src, end) || !line.add([{ from: at, to: end, patches: spans }])) return false;
      at = end;
      return true;
    },
    done() {
      line.add([{ from: literal.end, to: src.length, patches }]);
      return line.bytes();
    },
  };
}
