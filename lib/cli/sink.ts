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

/** Writes to a stream with backpressure; remembers the first real failure. */
export class OutputSink {
  closed = false;
  failure: NodeJS.ErrnoException | undefined;
  private waiters: Array<() => void> = [];

  constructor(private readonly stream: Writable) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && this.failure === undefined) this.failure = err;
      this.close();
    });
    stream.on('close', () => this.close());
    stream.on('drain', () => this.wake());
  }

  private close(): void {
    this.closed = true;
    this.wake();
  }

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
