/**
 * Follow mode (`-f`): read a file as it grows, like `tail -F`. The file may
 * not exist yet (we wait for it), may be truncated (we read again from its
 * start) or replaced, as by log rotation (we finish the old file, then open
 * the new one). Growth is noticed through fs.watch on the file's directory,
 * with a poll as the fallback where watching is not available; the poll is
 * slow (250 ms) when it is only a safety net beside a working watcher.
 */
import fs from 'node:fs';
import path from 'node:path';

/** How often to look without a watcher, and beside one (ms). */
export const FOLLOW_POLL_MS = 250;
const SAFETY_POLL_MS = 1000;
const READ_SIZE = 1 << 20;

/** Waits for news about one path: a change event or a poll tick. */
class ChangeWaiter {
  private watcher: fs.FSWatcher | undefined;
  private wake: (() => void) | undefined;
  private dirty = false;

  constructor(file: string) {
    const base = path.basename(file);
    try {
      this.watcher = fs.watch(path.dirname(file), { persistent: true }, (_event, name) => {
        if (name === null || name === base || String(name) === base) this.poke();
      });
      this.watcher.on('error', () => {
        this.watcher?.close();
        this.watcher = undefined;
      });
    } catch {
      this.watcher = undefined; // no watching here (missing directory, no inotify): poll
    }
  }

  private poke(): void {
    this.dirty = true;
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** Resolves on a change, a poll tick or `stop`. */
  async wait(stop: AbortSignal): Promise<void> {
    if (this.dirty) {
      this.dirty = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stop.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.watcher ? SAFETY_POLL_MS : FOLLOW_POLL_MS);
      stop.addEventListener('abort', done);
      this.wake = done;
    });
    this.dirty = false;
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }
}

/**
 * Yields the bytes of `file` as they are written, until `stop` aborts.
 * Errors other than "does not exist (yet)" are thrown. `onMissing` is told
 * (and awaited) each time the file is found missing after being there, and
 * at the start when it does not exist yet.
 */
export async function* followFile(file: string, stop: AbortSignal, onMissing?: () => void | Promise<void>): AsyncGenerator<Buffer> {
  const waiter = new ChangeWaiter(file);
  let handle: fs.promises.FileHandle | undefined;
  let ino = -1;
  let pos = 0;
  let told = false;
  try {
    while (!stop.aborted) {
      if (handle === undefined) {
        try {
          handle = await fs.promises.open(file, 'r');
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          if (!told) await onMissing?.();
          told = true;
          await waiter.wait(stop);
          continue;
        }
        told = false;
        const stat = await handle.stat();
        if (stat.isDirectory()) throw Object.assign(new Error('Is a directory'), { code: 'EISDIR' });
        ino = stat.ino;
        pos = 0;
      }
      const buffer = Buffer.allocUnsafe(READ_SIZE);
      const { bytesRead } = await handle.read(buffer, 0, READ_SIZE, pos);
      if (bytesRead > 0) {
        pos += bytesRead;
        yield buffer.subarray(0, bytesRead);
        continue;
      }
      // At the end of what is there: replaced, truncated, or just not grown yet?
      let current: fs.Stats | undefined;
      try {
        current = await fs.promises.stat(file);
      } catch {
        current = undefined;
      }
      if (current === undefined || current.ino !== ino) {
        // Rotated away (the old file was read to its end): take the new one.
        await handle.close();
        handle = undefined;
        if (current === undefined) await waiter.wait(stop);
        continue;
      }
      if (current.size < pos) {
        pos = 0; // truncated: the file starts over
        continue;
      }
      await waiter.wait(stop);
    }
  } finally {
    waiter.close();
    await handle?.close().catch(() => undefined);
  }
}
