import { constants as bufferConstants } from 'node:buffer';
import { readSync } from 'node:fs';
import { ObjectCorruptError } from './errors';

/** The size of one window, in bytes; windows start at multiples of it. */
const WINDOW_SIZE = 64 * 1024;
/**
 * The most windows kept by one {@link WindowCache} (256 MiB), least recently used dropped first.
 * Delta chains send reads all over a pack (each file's roots and deltas lie far apart), so the
 * windows must cover as much of it as memory allows: with 64 windows of 1 MiB over a 141 MB pack, a
 * 100,000-blob request read 14.5 GB of windows (each about 100 times); with these, 188 MB. Small
 * windows waste little when a window holds one wanted entry. Git maps up to 8 GiB of packs
 * (core.packedGitLimit) for the same reason; these are reads into memory, not mappings, so the bound
 * is lower, and like Git's it holds for all the packs of a repository together.
 */
const MAX_WINDOWS = 4096;

/**
 * The windows of several packs under one memory bound: a repository with dozens of packs (before a
 * `git gc`) holds no more than one with a single pack.
 */
export class WindowCache {
  /** The window tables of the packs sharing this cache. */
  private readonly tables = new Set<Map<number, Window>>();
  private count = 0;
  private clock = 0;

  constructor(
    /** The most windows held at once. */
    readonly maxWindows: number = MAX_WINDOWS,
  ) {}

  /** The number of windows held. */
  get size(): number {
    return this.count;
  }

  /** A pack's table of windows by number, which this cache bounds. */
  register(): Map<number, Window> {
    const table = new Map<number, Window>();
    this.tables.add(table);
    return table;
  }

  /** The next use stamp: a window's last stamp says how recently it was used. */
  stamp(): number {
    return ++this.clock;
  }

  /**
   * Keeps `data` as window `index` of `table`, first dropping the least recently used window of any
   * pack when full. Finding it scans every window, as Git does when it must unmap one: a hit costs
   * only a stamp, and a scan is cheap next to the read that made the miss.
   */
  add(table: Map<number, Window>, index: number, data: Buffer): Window {
    if (this.count >= this.maxWindows) this.evictOldest();
    const window = { data, lastUsed: this.stamp() };
    table.set(index, window);
    this.count++;
    return window;
  }

  /** Drops a pack's table and its windows (its pack is closed). */
  forget(table: Map<number, Window>): void {
    this.count -= table.size;
    table.clear();
    this.tables.delete(table);
  }

  private evictOldest(): void {
    let oldest: { table: Map<number, Window>; index: number; lastUsed: number } | undefined;
    for (const table of this.tables) {
      for (const [index, window] of table) {
        if (oldest === undefined || window.lastUsed < oldest.lastUsed) {
          oldest = { table, index, lastUsed: window.lastUsed };
        }
      }
    }
    if (oldest === undefined) return;
    oldest.table.delete(oldest.index);
    this.count--;
  }
}

/** A window: a range of a pack in memory, and when it was last used. */
interface Window {
  readonly data: Buffer;
  lastUsed: number;
}

/**
 * Reads a pack through windows kept in memory, as Git maps its packs in windows: entries that lie
 * inside a window are views of it, so reading the many small entries a delta chain walks costs
 * neither a system call nor an allocation each. A read that spans two windows, or is larger than
 * half a window, is a positioned read of its own.
 *
 * Views share the window's memory: callers must not modify them.
 */
export class PackWindows {
  /** This pack's windows by number (offset / window size). */
  private readonly windows: Map<number, Window>;

  constructor(
    private readonly fd: number,
    /** The file's length in bytes. */
    private readonly size: number,
    /** The file's path, for errors. */
    private readonly file: string,
    /** Where the windows are kept, shared by the packs of a repository. */
    private readonly cache: WindowCache = new WindowCache(),
  ) {
    this.windows = cache.register();
  }

  /** Drops this pack's windows from the shared cache. */
  close(): void {
    this.cache.forget(this.windows);
  }

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
      const data = this.pread(start, Math.min(WINDOW_SIZE, this.size - start));
      window = this.cache.add(this.windows, index, data);
    } else {
      window.lastUsed = this.cache.stamp();
    }
    return window.data.subarray(offset - start, offset - start + length);
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
