import { constants as bufferConstants } from 'node:buffer';
import { readSync } from 'node:fs';
import { ObjectCorruptError } from './errors';

/** The size of one window, in bytes; windows start at multiples of it. */
const WINDOW_SIZE = 64 * 1024;
/**
 * The most windows kept per pack (256 MiB), least recently used dropped first. Delta chains send
 * reads all over a pack (each file's roots and deltas lie far apart), so the windows must cover as
 * much of it as memory allows: with 64 windows of 1 MiB over a 141 MB pack, a 100,000-blob request
 * read 14.5 GB of windows (each about 100 times); with these, 188 MB. Small windows waste little
 * when a window holds one wanted entry. Git maps up to
 * 8 GiB of pack (core.packedGitLimit) for the same reason; these are reads into memory, not
 * mappings, so the bound is lower.
 */
const MAX_WINDOWS = 4096;

/**
 * Reads a pack through windows kept in memory, as Git maps its packs in windows: entries that lie
 * inside a window are views of it, so reading the many small entries a delta chain walks costs
 * neither a system call nor an allocation each. A read that spans two windows, or is larger than
 * half a window, is a positioned read of its own.
 *
 * Views share the window's memory: callers must not modify them.
 */
export class PackWindows {
  private readonly windows = new Map<number, Buffer>();

  constructor(
    private readonly fd: number,
    /** The file's length in bytes. */
    private readonly size: number,
    /** The file's path, for errors. */
    private readonly file: string,
  ) {}

  /**
   * Exactly `length` bytes at `offset`; running into the end of the file is corruption.
   *
   * @throws {@link ObjectCorruptError} for a read past the end of the file or beyond a buffer's limit.
   */
  read(offset: number, length: number): Buffer {
    if (offset + length > this.size) {
      throw new ObjectCorruptError(
        this.file,
        offset,
        `read of ${length} bytes runs past the end of the pack`,
      );
    }
    const index = Math.floor(offset / WINDOW_SIZE);
    const start = index * WINDOW_SIZE;
    if (length > WINDOW_SIZE / 2 || offset + length > start + WINDOW_SIZE) return this.pread(offset, length);
    let window = this.windows.get(index);
    if (window === undefined) {
      window = this.pread(start, Math.min(WINDOW_SIZE, this.size - start));
      if (this.windows.size >= MAX_WINDOWS) this.windows.delete(this.windows.keys().next().value as number);
    } else {
      this.windows.delete(index);
    }
    this.windows.set(index, window);
    return window.subarray(offset - start, offset - start + length);
  }

  private pread(offset: number, length: number): Buffer {
    if (length >= bufferConstants.MAX_LENGTH) {
      throw new ObjectCorruptError(this.file, offset, `entry of ${length} bytes is too large to read`);
    }
    const buf = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const n = readSync(this.fd, buf, done, length - done, offset + done);
      if (n === 0) throw new ObjectCorruptError(this.file, offset + done, 'pack is truncated');
      done += n;
    }
    return buf;
  }
}
