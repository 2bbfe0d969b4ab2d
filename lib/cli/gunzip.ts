/**
 * Gzip decoding that gives everything an archive holds before it names the
 * damage.
 *
 * Node's Gunzip decodes the members of an archive in one native call per
 * write, and when the bytes after a member are not another member (trailing
 * garbage: a log with junk appended, two files glued together) it fails that
 * whole call, dropping the output of the member's last piece: the last events
 * of a run, its `result` among them, were lost. So the members are framed here
 * (RFC 1952 header and trailer) and each body is inflated raw: raw inflate
 * stops at the end of the deflate data and leaves the bytes after it to us.
 *
 * Damage is thrown after everything before it was yielded, as an Error whose
 * `code` says which kind (describeInputError in ./inputs.ts words it):
 * `Z_BUF_ERROR` for a cut archive (a body or trailer that ends early),
 * `Z_DATA_ERROR` for bytes that are not what gzip says (a bad header, a
 * corrupt body, a checksum that does not match), and no code for trailing
 * garbage.
 */
import type { InflateRaw } from 'node:zlib';

/** node:zlib, with crc32 optional: it came in Node 20.15, and engines allow 20.0. */
type Zlib = Omit<typeof import('node:zlib'), 'crc32'> & { crc32?: (data: Buffer, value?: number) => number };

/** Compressed bytes are fed in pieces this size, so one piece of a gzip bomb inflates to a bounded amount. */
const PIECE = 16 * 1024;
/** A header longer than this (a file name or comment without its end) is damage, not a reason to buffer. */
const MAX_HEADER = 64 * 1024;

const FHCRC = 2;
const FEXTRA = 4;
const FNAME = 8;
const FCOMMENT = 16;

function damage(message: string, code?: 'Z_BUF_ERROR' | 'Z_DATA_ERROR'): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

/** Compressed bytes not yet used: what was read ahead, then the source. */
class Bytes {
  private done = false;
  constructor(
    private buf: Buffer,
    private readonly it: AsyncIterator<Buffer>,
  ) {}

  /** At least `n` bytes buffered, or all that is left. */
  async fill(n: number): Promise<Buffer> {
    while (this.buf.length < n && !this.done) {
      const next = await this.it.next();
      if (next.done) this.done = true;
      else this.buf = this.buf.length === 0 ? next.value : Buffer.concat([this.buf, next.value]);
    }
    return this.buf;
  }

  /** The next piece of at most `max` bytes; undefined at the end. */
  async take(max: number): Promise<Buffer | undefined> {
    const buf = await this.fill(1);
    if (buf.length === 0) return undefined;
    const piece = buf.subarray(0, max);
    this.buf = buf.subarray(piece.length);
    return piece;
  }

  skip(n: number): void {
    this.buf = this.buf.subarray(n);
  }

  /** Puts bytes the inflater did not use back in front. */
  unread(bytes: Buffer): void {
    this.buf = this.buf.length === 0 ? bytes : Buffer.concat([bytes, this.buf]);
  }
}

/**
 * The length of the member header at the start of `buf` (RFC 1952 2.3), or
 * 'more' when `buf` (of an input that may go on) is too short to tell.
 */
export function gzipHeaderLength(buf: Buffer): number | 'more' {
  if (buf.length < 10) return 'more';
  if (buf[0] !== 0x1f || buf[1] !== 0x8b) throw damage('not a gzip member header', 'Z_DATA_ERROR');
  if (buf[2] !== 8) throw damage(`unknown compression method ${buf[2]}`, 'Z_DATA_ERROR');
  const flags = buf[3] ?? 0;
  let at = 10;
  if (flags & FEXTRA) {
    if (buf.length < at + 2) return 'more';
    at += 2 + buf.readUInt16LE(at);
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if (!(flags & flag)) continue;
    const end = buf.indexOf(0, at);
    if (end < 0) return 'more';
    at = end + 1;
  }
  if (flags & FHCRC) at += 2;
  return buf.length < at ? 'more' : at;
}

/**
 * Inflates one member's body from `bytes`, yielding its output as it comes;
 * returns its length and CRC-32, with the bytes after the body put back.
 */
async function* inflateBody(zlib: Zlib, bytes: Bytes): AsyncGenerator<Buffer, { size: number; crc: number }> {
  const inflater: InflateRaw = zlib.createInflateRaw();
  const out: Buffer[] = [];
  let ended = false;
  let failure: Error | undefined;
  let size = 0;
  let crc = 0;
  // Output is taken as zlib produces it (push), not through the readable side,
  // which a failing stream empties; the end of the deflate data is a push(null).
  inflater.push = (chunk: unknown) => {
    if (chunk === null) ended = true;
    else out.push(chunk as Buffer);
    return true;
  };
  inflater.on('error', (err: Error) => {
    failure ??= err;
  });
  // A step is done at its callback, or at an error (then no callback comes), plus one turn.
  const step = (piece?: Buffer) =>
    new Promise<void>((resolve) => {
      let settled = false;
      const done = () => {
        if (settled) return;
        settled = true;
        inflater.off('error', done);
        setImmediate(resolve);
      };
      inflater.on('error', done);
      if (piece === undefined) inflater.end(done);
      else inflater.write(piece, done);
    });
  const take = function* () {
    for (const chunk of out.splice(0, out.length)) {
      size += chunk.length;
      if (zlib.crc32) crc = zlib.crc32(chunk, crc);
      yield chunk;
    }
  };
  let fed = 0;
  try {
    for (;;) {
      const piece = await bytes.take(PIECE);
      await step(piece);
      yield* take();
      if (failure !== undefined) throw failure;
      if (piece === undefined) return { size, crc };
      fed += piece.length;
      if (ended) {
        // Raw inflate stopped at the end of the deflate data: the rest of this piece is not the body's.
        const unused = fed - inflater.bytesWritten;
        if (unused > 0) bytes.unread(piece.subarray(piece.length - unused));
        return { size, crc };
      }
    }
  } finally {
    inflater.destroy();
  }
}

/**
 * The decompressed bytes of a gzip archive whose first bytes are `head` and
 * whose rest comes from `rest`, member after member. Zero bytes after the last
 * member are padding (gzip(1) and Node accept them); anything else is trailing
 * garbage, thrown after all members were given.
 */
export async function* gunzip(head: Buffer, rest: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const zlib: Zlib = await import('node:zlib');
  const bytes = new Bytes(head, rest[Symbol.asyncIterator]());
  for (let member = 0; ; member++) {
    let header: number | 'more' = 'more';
    for (let want = 10; header === 'more'; want *= 2) {
      const buf = await bytes.fill(want);
      if (member > 0 && buf.length > 0 && buf[0] === 0) return await zeroPadding(bytes);
      if (member > 0 && buf.length === 0) return;
      if (member > 0 && (buf[0] !== 0x1f || (buf.length > 1 && buf[1] !== 0x8b))) throw damage('trailing garbage after the gzip data');
      header = gzipHeaderLength(buf);
      if (header === 'more' && (buf.length < want || want > MAX_HEADER)) throw damage('gzip data cut off (unexpected end of file)', 'Z_BUF_ERROR');
    }
    bytes.skip(header);
    const body = yield* inflateBody(zlib, bytes);
    const trailer = await bytes.fill(8);
    if (trailer.length < 8) throw damage('gzip data cut off (unexpected end of file)', 'Z_BUF_ERROR');
    // CRC-32 is checked where Node has it (20.15 and later); the length always.
    if (zlib.crc32 && trailer.readUInt32LE(0) !== body.crc >>> 0) throw damage('incorrect data check', 'Z_DATA_ERROR');
    if (trailer.readUInt32LE(4) !== body.size % 2 ** 32) throw damage('incorrect length check', 'Z_DATA_ERROR');
    bytes.skip(8);
  }
}

/** Reads zero padding to the end; a non-zero byte in it is trailing garbage. */
async function zeroPadding(bytes: Bytes): Promise<void> {
  for (;;) {
    const piece = await bytes.take(PIECE);
    if (piece === undefined) return;
    if (piece.some((b) => b !== 0)) throw damage('trailing garbage after the gzip data');
  }
}
