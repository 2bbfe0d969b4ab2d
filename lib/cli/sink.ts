/**
 * Standard output with backpressure. A closed pipe (EPIPE) ends output
 * quietly, as `cat` does when `head` has enough; any other write error
 * (ENOSPC on /dev/full, EBADF) is kept to be reported and to fail the run.
 */
import fs from 'node:fs';
import type { Writable } from 'node:stream';

/** A write error in the words of strerror. */
export function describeWriteError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ENOSPC':
      return 'No space left on device';
    case 'EBADF':
      return 'Bad file descriptor (standard output is closed)';
    case 'EIO':
      return 'Input/output error';
    case 'EDQUOT':
      return 'Disk quota exceeded';
    case 'EFBIG':
      return 'File too large';
    default:
      return err.message;
  }
}

/** Pieces shorter than this are joined before they are written; longer ones go as they are. */
const JOIN_BELOW = 16 * 1024;

/** The most pieces one writev takes (IOV_MAX on Linux). */
const IOV_MAX = 1024;

/**
 * Pieces shorter than this are joined with their short neighbours before a
 * writev: handing the kernel a buffer costs more than copying a short one
 * (wuu-check's one message per line), not more than copying a long one.
 */
const WRITEV_JOIN_BELOW = 1024;

/** `parts` with each run of pieces shorter than {@link WRITEV_JOIN_BELOW} joined into one, empty ones left out. */
export function gather(parts: readonly Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  let run: Buffer[] = [];
  let runBytes = 0;
  const close = () => {
    const only = run.length === 1 ? run[0] : undefined;
    if (run.length > 0) out.push(only ?? Buffer.concat(run, runBytes));
    run = [];
    runBytes = 0;
  };
  for (const part of parts) {
    if (part.length >= WRITEV_JOIN_BELOW) {
      close();
      out.push(part);
    } else if (part.length > 0) {
      run.push(part);
      runBytes += part.length;
    }
  }
  close();
  return out;
}

/** Removes the first `bytes` bytes from `group` (what a short writev wrote). */
export function dropWritten(group: Buffer[], bytes: number): void {
  let left = bytes;
  while (left > 0) {
    const first = group[0];
    if (first === undefined) return;
    if (first.length > left) {
      group[0] = first.subarray(left);
      return;
    }
    left -= first.length;
    group.shift();
  }
}

/**
 * The descriptor of process.stdout (`fd`) when Node writes it synchronously: a
 * regular file or a device that is not a terminal (libuv's "file" handle,
 * /dev/null among them). Undefined for pipes, sockets and terminals, and
 * for a descriptor that cannot be examined.
 */
export function syncStdoutFd(isTTY: boolean, fd = 1): number | undefined {
  try {
    const stat = fs.fstatSync(fd);
    return stat.isFile() || (stat.isCharacterDevice() && !isTTY) ? fd : undefined;
  } catch {
    return undefined;
  }
}

/** Writes to a stream with backpressure; remembers the first real failure. */
export class OutputSink {
  closed = false;
  failure: NodeJS.ErrnoException | undefined;
  private waiters: Array<() => void> = [];

  constructor(private readonly stream: Writable) {
    stream.on('error', (err: NodeJS.ErrnoException) => this.fail(err));
    stream.on('close', () => this.close());
    stream.on('drain', () => this.wake());
  }

  private fail(err: NodeJS.ErrnoException): void {
    if (err.code !== 'EPIPE' && this.failure === undefined) this.failure = err;
    this.close();
  }

  private close(): void {
    this.closed = true;
    this.wake();
  }

  /**
   * The descriptor the stream writes to synchronously (a file or a device
   * such as /dev/null: Node's stdout is then a SyncWriteStream, one write
   * call per piece): pieces then go out in one writev each, neither joined
   * nor written one by one. See {@link syncStdoutFd}.
   */
  syncFd: number | undefined;

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /**
   * Marks the stream as a descriptor that was closed when the process started
   * (see {@link stdoutWasClosed}): the first write fails with EBADF, as in `cat`.
   */
  closedAtStart = false;

  /** Whether the stream is done with a buffer once no write is pending (see RunOptions.stdoutCopies). */
  copies = false;

  /** Whether every buffer written so far is done with: written out (or dropped), none pending. */
  get idle(): boolean {
    return this.copies && (this.closed || this.stream.writableLength === 0);
  }

  /** Writes, and waits while the stream's buffer is full. */
  async write(data: string | Buffer): Promise<void> {
    if (this.closed || data.length === 0) return;
    if (this.closedAtStart) {
      this.failEarly();
      return;
    }
    if (!this.stream.write(data)) await this.drained();
  }

  /**
   * Writes pieces as one write where the stream can (corked: a pipe or
   * socket gathers them into one writev), without joining big ones into a
   * copy: an input chunk's span of lines goes out as the view it is. Runs of
   * small pieces are joined (one syscall for them where writev is missing).
   */
  async writeParts(parts: readonly Buffer[]): Promise<void> {
    if (this.closed || parts.length === 0) return;
    if (this.closedAtStart) {
      this.failEarly();
      return;
    }
    if (this.syncFd !== undefined) {
      this.writeFd(this.syncFd, parts);
      return;
    }
    let room = true;
    this.stream.cork();
    let small: Buffer[] = [];
    let smallBytes = 0;
    const flushSmall = () => {
      if (small.length === 0) return;
      const only = small.length === 1 ? small[0] : undefined;
      room = this.stream.write(only ?? Buffer.concat(small, smallBytes)) && room;
      small = [];
      smallBytes = 0;
    };
    for (const part of parts) {
      if (part.length >= JOIN_BELOW) {
        flushSmall();
        room = this.stream.write(part) && room;
      } else if (part.length > 0) {
        small.push(part);
        smallBytes += part.length;
      }
    }
    flushSmall();
    this.stream.uncork();
    if (!room) await this.drained();
  }

  /** Writes all of `parts` with writev (at most IOV_MAX pieces a call), going on after a short write. */
  private writeFd(fd: number, pieces: readonly Buffer[]): void {
    const parts = gather(pieces);
    try {
      for (let first = 0; first < parts.length; ) {
        const group = parts.slice(first, first + IOV_MAX);
        let left = group.reduce((sum, part) => sum + part.length, 0);
        first += group.length;
        while (left > 0) {
          const written = fs.writevSync(fd, group);
          left -= written;
          if (left > 0) dropWritten(group, written);
        }
      }
    } catch (err) {
      this.fail(err as NodeJS.ErrnoException);
    }
  }

  private failEarly(): void {
    this.failure ??= Object.assign(new Error('EBADF: bad file descriptor, write'), { code: 'EBADF' });
    this.close();
  }

  private drained(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.closed) resolve();
      else this.waiters.push(resolve);
    });
  }

  /** Waits until everything written so far has been handed to the OS (or failed). */
  async settle(): Promise<void> {
    if (this.closed) return;
    await new Promise<void>((resolve) => {
      this.waiters.push(resolve);
      this.stream.write('', () => resolve());
    });
  }
}

const DEV_NULL_RDEV = (1 << 8) | 3;

/**
 * Whether file descriptor 1 was closed when the process started (`>&-`, or a
 * parent's "ignore"). Node reopens a closed standard descriptor on /dev/null
 * read-write; a user's `>/dev/null` opens it write-only. Linux only;
 * elsewhere: false. Like `cat`, a run fails on this only when it writes.
 */
export function stdoutWasClosed(): boolean {
  try {
    if (fs.fstatSync(1).rdev !== DEV_NULL_RDEV) return false;
    const flags = /^flags:\s+([0-7]+)/m.exec(fs.readFileSync('/proc/self/fdinfo/1', 'utf8'))?.[1];
    return flags !== undefined && (parseInt(flags, 8) & 3) === 2;
  } catch {
    return false;
  }
}

/**
 * A second output named by the user (`wuu-result -o FILE`): opened and
 * truncated at once, so a bad path is a usage error before any input is read
 * and a stale message from an earlier run never survives; written
 * synchronously (the message is small). A write error (`/dev/full`) is
 * reported once as `write error: FILE: ...` and the run then exits 1, as for
 * standard output; later writes are dropped.
 */
export class SideOutput {
  private readonly fd: number;
  /** Set once a write failed. */
  failed = false;

  constructor(
    readonly name: string,
    private readonly warn: (message: string) => void,
  ) {
    this.fd = fs.openSync(name, 'w');
  }

  write(data: string | Buffer): void {
    if (this.failed) return;
    try {
      fs.writeSync(this.fd, typeof data === 'string' ? Buffer.from(data) : data);
    } catch (err) {
      this.failed = true;
      this.warn(`write error: ${this.name}: ${describeWriteError(err as NodeJS.ErrnoException)}`);
    }
  }
}
