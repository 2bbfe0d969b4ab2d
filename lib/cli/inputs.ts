/**
 * Inputs: what a name stands for (a file, stdin, a directory's *.jsonl and
 * *.jsonl.gz files), how it is opened (gzip recognised by its magic bytes,
 * whatever the name), and why it could not be read, in the words of `cat`.
 * This is the one place that opens inputs and words their errors.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** Why an input could not be read, in the words of `cat` and `grep`. */
export function describeInputError(err: NodeJS.ErrnoException): string {
  if (err.code === undefined && err.message) return err.message;
  switch (err.code) {
    case 'ENOENT':
      return 'No such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'Permission denied';
    case 'EISDIR':
      return 'Is a directory';
    case 'ELOOP':
      return 'Too many levels of symbolic links';
    case 'ENOTDIR':
      return 'Not a directory';
    case 'ENXIO':
      return 'No such device or address';
    case 'EIO':
      return 'Input/output error';
    case 'EMFILE':
    case 'ENFILE':
      return 'Too many open files';
    case 'Z_BUF_ERROR':
      return 'gzip data cut off (unexpected end of file)';
    case 'Z_DATA_ERROR':
      return `damaged gzip data (${err.message})`;
    default:
      return err.message;
  }
}

/** The display name of an input in messages. */
export function displayName(name: string): string {
  return name === '-' ? '<stdin>' : name;
}

/** One input a name stands for, or the reason it stands for none. */
export interface InputEntry {
  name: string;
  /** Set when this entry cannot be read; `name` is then the path at fault. */
  error?: string;
}

const JSONL_RE = /\.jsonl(\.gz)?$/;

/**
 * Lists what a name stands for: itself, or a directory's *.jsonl(.gz) files
 * (recursively, sorted by name). An unreadable subdirectory or a symlink loop
 * is an entry with an error; so is a directory with nothing to read.
 */
export function listInputs(name: string): InputEntry[] {
  if (name === '-') return [{ name }];
  let stat: fs.Stats;
  try {
    stat = fs.statSync(name);
  } catch {
    return [{ name }]; // the open reports the error
  }
  if (!stat.isDirectory()) return [{ name }];
  const found: InputEntry[] = [];
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      found.push({ name: dir, error: describeInputError(err as NodeJS.ErrnoException) });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (JSONL_RE.test(entry.name)) found.push({ name: full });
    }
  };
  walk(name);
  if (!found.some((entry) => entry.error === undefined)) {
    if (found.length === 0) found.push({ name, error: 'no *.jsonl or *.jsonl.gz files in this directory' });
  }
  return found;
}

/**
 * Lists the inputs a name stands for, as paths (compatible form of
 * {@link listInputs}: a path at fault is listed so that opening it reports it;
 * a directory with nothing to read gives no path).
 */
export function expandInput(name: string): string[] {
  return listInputs(name).flatMap((entry) => (entry.error === undefined || entry.name !== name ? [entry.name] : []));
}

/**
 * stdin redirected from a file (`< run.jsonl`) is read in 1 MiB chunks like a
 * named file, instead of the 64 KiB reads of process.stdin; pipes and
 * terminals are read as they come, so a live producer is seen at once.
 */
function stdinStream(stdin: Readable): Readable {
  if (stdin !== process.stdin) return stdin;
  try {
    if (fs.fstatSync(0).isFile()) return fs.createReadStream('', { fd: 0, highWaterMark: 1 << 20, autoClose: false });
  } catch {
    // fall back to process.stdin
  }
  return stdin;
}

/** Opens one input's raw bytes (stdin for '-'). */
export function openRaw(name: string, stdin: Readable): Readable {
  return name === '-' ? stdinStream(stdin) : fs.createReadStream(name, { highWaterMark: 1 << 20 });
}

/**
 * The buffer reads go into, used again for every read while `free()` says
 * nothing holds the bytes of the last one (the core kept no view, the output
 * has written them). Fresh buffers per read are garbage the collector frees
 * late: reading 200 MB in fresh 1 MiB buffers peaks some 35 MiB above
 * reading it into one.
 */
export class ReadBuffers {
  private buffer: Buffer | undefined;

  constructor(
    private readonly free: () => boolean,
    readonly size = 1 << 20,
  ) {}

  /** The buffer for the next read: the last one when it is free, else a new one (which is then kept). */
  take(): Buffer {
    if (this.buffer === undefined || !this.free()) this.buffer = Buffer.allocUnsafeSlow(this.size);
    return this.buffer;
  }
}

/** Reads into `buffer` at the file's position; the count read (0 at its end). */
function readInto(fd: number, buffer: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    fs.read(fd, buffer, 0, buffer.length, null, (err, bytesRead) => (err ? reject(err) : resolve(bytesRead)));
  });
}

/** Opens a file for reading. */
function openFile(name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    fs.open(name, 'r', (err, fd) => (err ? reject(err) : resolve(fd)));
  });
}

/**
 * The chunks of a regular file (or of stdin redirected from one) read into
 * `buffers`: each chunk is a view that the next read may overwrite, so the
 * caller must be done with it before asking for the next. Undefined for
 * anything else (pipes, FIFOs, terminals, a name that cannot be stat'ed),
 * which {@link openRaw} reads as a stream.
 */
export function openFileChunks(name: string, stdin: Readable, buffers: ReadBuffers): AsyncIterable<Buffer> | undefined {
  try {
    if (name === '-' ? stdin !== process.stdin || !fs.fstatSync(0).isFile() : !fs.statSync(name).isFile()) return undefined;
  } catch {
    return undefined;
  }
  return fileChunks(name, buffers);
}

async function* fileChunks(name: string, buffers: ReadBuffers): AsyncGenerator<Buffer> {
  const fd = name === '-' ? 0 : await openFile(name);
  try {
    for (;;) {
      const buffer = buffers.take();
      const bytesRead = await readInto(fd, buffer);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    // stdin stays open, as the read stream of fd 0 left it.
    if (fd !== 0) fs.close(fd, () => {});
  }
}

/**
 * Abandons a read stream of `name` whose open has not completed. Opening a
 * FIFO blocks until a writer comes, in a thread of libuv's pool; that thread
 * would keep the process from exiting (libuv joins its threads at exit), so a
 * FIFO is released by opening its write end for an instant.
 */
export function abandonRaw(raw: Readable & { pending?: boolean; bytesRead?: number }, name: string): void {
  // fs.ReadStream's `pending` is also true once it has closed (fd null again).
  const pending = raw.pending === true && !raw.closed && raw.bytesRead === 0;
  raw.destroy();
  if (!pending || name === '-') return;
  releaseFifoOpen(name, new Promise((resolve) => raw.once('close', resolve)));
}

/**
 * Releases a pending open of `name` when it is a FIFO without a writer, by
 * opening its write end for an instant. The open may not have reached the
 * kernel yet (then a writer's open fails with ENXIO), so it keeps knocking
 * until `settled` resolves.
 */
export function releaseFifoOpen(name: string, settled: Promise<unknown>): void {
  try {
    if (!fs.statSync(name).isFIFO()) return;
  } catch {
    return;
  }
  const release = () => {
    try {
      fs.closeSync(fs.openSync(name, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
    } catch {
      // no reader waiting yet, or the FIFO is gone
    }
  };
  release();
  const knocking = setInterval(release, 10);
  const done: Promise<unknown> = settled.finally(() => {
    clearInterval(knocking);
    releasing.delete(done);
  });
  releasing.add(done);
}

/** FIFO opens still being released (see fifoReleases). */
const releasing = new Set<Promise<unknown>>();

/**
 * Resolves when every pending FIFO open has been released. process.exit must
 * wait for it: at exit libuv joins its pool's threads, and one still blocked
 * in open() would hang the process for good. Under load the first knock can
 * come before the thread's open() reaches the kernel (ENXIO), and an exit
 * right after a signal then caught the open in between (a CI run hung there).
 */
export function fifoReleases(): Promise<void> {
  return Promise.all(Array.from(releasing)).then(() => undefined);
}

/** Whether bytes start with the gzip magic (1f 8b). */
export function isGzip(head: Buffer): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/** Each chunk of `source` copied. */
async function* copies(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const chunk of source) yield Buffer.from(chunk);
}

/**
 * The bytes of an input, decompressed when they are gzip (decided by the
 * magic bytes, not the name). Everything that could be decompressed is
 * yielded before a damaged gzip stream (cut off, trailing garbage) throws.
 * `reused`: the source's chunks are views of a buffer each read overwrites.
 */
export async function* inputBytes(source: AsyncIterable<Buffer>, reused = false): AsyncGenerator<Buffer> {
  const it = source[Symbol.asyncIterator]();
  let finished = false;
  try {
    let head: Buffer = Buffer.alloc(0);
    // Two bytes decide; a first read of one byte (a slow pipe) waits for the next.
    while (head.length < 2) {
      const next = await it.next();
      if (next.done) {
        finished = true;
        if (head.length > 0) yield head;
        return;
      }
      head = head.length === 0 ? next.value : Buffer.concat([head, next.value]);
      // A chunk of a reused buffer (openFileChunks) is overwritten by the next read.
      if (reused && head.length < 2) head = Buffer.from(head);
    }
    const rest: AsyncIterable<Buffer> = {
      [Symbol.asyncIterator]: () => it,
    };
    if (!isGzip(head)) {
      yield head;
      yield* rest;
    } else {
      // Loaded only for gzip input: plain JSONL never pays for zlib.
      const { gunzip } = await import('./gunzip.js');
      // The inflater keeps compressed bytes across reads: it gets copies of reused chunks.
      yield* reused ? gunzip(Buffer.from(head), copies(rest)) : gunzip(head, rest);
    }
    finished = true;
  } finally {
    // Left early (the output closed after the first chunk, a stop): the source
    // is let go too, or a followed file's watcher would keep the process alive.
    if (!finished) await it.return?.();
  }
}

