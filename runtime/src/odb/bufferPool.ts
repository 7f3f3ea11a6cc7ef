/**
 * Memory for the objects the reader builds, recycled from the delta-base cache's evictions. A
 * request for many blobs makes a new object of a few to tens of kilobytes per answer; allocating
 * each anew cost page faults, `malloc` and garbage collection of the external memory (a fifth of
 * the process on a real history), while the cache drops an object of about the same size for each
 * one it takes. So dropped objects' memory comes back here and serves the next objects of about
 * their size.
 *
 * Only memory this pool allocated is taken back, and only once nothing refers to it: the cache
 * hands its objects out without a copy only to callers who say when they are done with them
 * (`Repository.readObjectShared`, `Repository.releaseShared`).
 */

import type { SharedCopier } from './sharedCopy';

/**
 * Objects up to this size are cut from slabs of {@link SLAB_SIZE} bytes. Memory of its own per
 * object (an ArrayBuffer each) grew costly once the cache was full: V8 accounts every buffer's
 * external memory, and the allocations of mid-sized objects became a large part of a request for a
 * real history. A slab is one allocation for a hundred objects.
 */
const SLAB_OBJECT = 256 * 1024;
const SLAB_SIZE = 1024 * 1024;
/** Objects up to this size are rounded up to {@link SMALL_GRANULE}, larger ones to {@link GRANULE}. */
const SMALL_LIMIT = 4096;
const SMALL_GRANULE = 256;
/** Sizes are rounded up to this granularity, so versions of a file of similar size share memory. */
const GRANULE = 4096;
/**
 * How much larger than asked a recycled buffer may be: {@link SLACK_CLASSES} size classes, or
 * {@link SLACK_SHARE} of the size for large objects.
 */
const SLACK_CLASSES = 3;
const SLACK_SHARE = 0.25;

/** Where a pool takes memory it has never had (see `ArenaCarver`). */
export interface MemorySource {
  /** `bytes` of memory, or undefined to let the pool allocate its own (as when none is given). */
  take(bytes: number): Buffer | undefined;
  /** Copies inside the memory taken, faster than JavaScript's own (see sharedCopy). */
  readonly copier?: SharedCopier;
}

/** A pool of object buffers, bounded in bytes. */
export class BufferPool {
  /** Free pieces of memory (views of their whole extent) by their length in bytes. */
  private readonly free = new Map<number, Buffer[]>();
  /** The slabs, each with the extent of every piece cut from it, by the piece's offset. */
  private readonly slabs = new WeakMap<ArrayBufferLike, Map<number, number>>();
  /** Memory of its own given to one large object. */
  private readonly own = new WeakSet<ArrayBufferLike>();
  /** Pieces released but maybe still referenced: reusable after {@link BufferPool.recycle}. */
  private readonly dropped: Buffer[] = [];
  /** The free pieces in the order they became free (a Set iterates in insertion order). */
  private readonly unused = new Set<Buffer>();
  private bytes = 0;
  /** The slab new pieces are cut from, and how much of it is cut. */
  private slab: Buffer = Buffer.allocUnsafeSlow(0);
  private slabUsed = 0;

  constructor(
    /** The most bytes kept for reuse. */
    readonly limit: number,
    /** Where new memory comes from before the pool allocates its own (see {@link MemorySource}). */
    private readonly source?: MemorySource,
  ) {}

  /**
   * An uninitialised buffer of `size` bytes: the caller must fill it. Memory of an object the
   * cache dropped (recycled) when one of about this size is free, else a new piece of a slab (or
   * memory of its own for a large object).
   */
  take(size: number): Buffer {
    const granule = size <= SMALL_LIMIT ? SMALL_GRANULE : GRANULE;
    const rounded = Math.max(granule, Math.ceil(size / granule) * granule);
    const most =
      rounded + Math.max(SLACK_CLASSES * granule, Math.floor((rounded * SLACK_SHARE) / granule) * granule);
    for (let length = rounded; length <= most; length += granule) {
      const piece = this.free.get(length)?.pop();
      if (piece !== undefined) {
        this.unused.delete(piece);
        this.bytes -= piece.length;
        return piece.subarray(0, size);
      }
    }
    if (rounded > SLAB_OBJECT) {
      const given = this.source?.take(rounded);
      if (given !== undefined) return this.cut(given, 0, rounded).subarray(0, size);
      const fresh = Buffer.allocUnsafeSlow(rounded);
      this.own.add(fresh.buffer);
      return fresh.subarray(0, size);
    }
    if (this.slabUsed + rounded > this.slab.length) {
      this.slab = this.source?.take(SLAB_SIZE) ?? Buffer.allocUnsafeSlow(SLAB_SIZE);
      this.slabUsed = 0;
    }
    const at = this.slabUsed;
    this.slabUsed += rounded;
    return this.cut(this.slab, at, rounded).subarray(0, size);
  }

  /** The memory `buf` (from {@link BufferPool.take}) keeps in use, in bytes. */
  memoryOf(buf: Uint8Array): number {
    return this.extentOf(buf) ?? (buf.length + 7) & ~7;
  }

  /**
   * Takes back the memory of a buffer from {@link BufferPool.take} that the cache dropped. It is
   * reused only after {@link BufferPool.recycle}: callers may still be writing it out.
   */
  release(buf: Uint8Array): void {
    const extent = this.extentOf(buf);
    if (extent === undefined || extent > this.limit) return;
    // When full, the longest unused memory goes: a pool full of sizes nobody asks for any more
    // would otherwise refuse every size that is asked for.
    for (const oldest of this.unused) {
      if (this.bytes + extent <= this.limit) break;
      this.unused.delete(oldest);
      const list = this.free.get(oldest.length)!;
      list.splice(list.indexOf(oldest), 1);
      this.bytes -= oldest.length;
    }
    if (this.bytes + extent > this.limit) return;
    this.dropped.push(Buffer.from(buf.buffer, buf.byteOffset, extent));
    this.bytes += extent;
  }

  /** Makes the memory released so far reusable: nothing refers to it any more. */
  recycle(): void {
    for (const piece of this.dropped) {
      let list = this.free.get(piece.length);
      if (list === undefined) this.free.set(piece.length, (list = []));
      list.push(piece);
      this.unused.add(piece);
    }
    this.dropped.length = 0;
  }

  /** Drops every free buffer. */
  clear(): void {
    this.free.clear();
    this.dropped.length = 0;
    this.unused.clear();
    this.bytes = 0;
  }

  /**
   * The piece of `rounded` bytes at `at` in `memory`, remembered by its place in the underlying
   * buffer (memory from a {@link MemorySource} may share one buffer across many slabs).
   */
  private cut(memory: Buffer, at: number, rounded: number): Buffer {
    let extents = this.slabs.get(memory.buffer);
    if (extents === undefined) this.slabs.set(memory.buffer, (extents = new Map<number, number>()));
    extents.set(memory.byteOffset + at, rounded);
    return memory.subarray(at, at + rounded);
  }

  /** The extent of the pool's piece that `buf` starts, or undefined when `buf` is not the pool's. */
  private extentOf(buf: Uint8Array): number | undefined {
    const memory = buf.buffer;
    if (this.own.has(memory)) return buf.byteOffset === 0 ? memory.byteLength : undefined;
    return this.slabs.get(memory)?.get(buf.byteOffset);
  }
}
