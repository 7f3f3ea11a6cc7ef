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

/**
 * Objects up to this size are cut from slabs of {@link SLAB_SIZE} bytes: a slab lives while any of
 * its objects does, so slabs are kept small (sixteen objects at least).
 */
const SLAB_OBJECT = 1024;
const SLAB_SIZE = 16 * 1024;
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

/** A pool of object buffers, bounded in bytes. */
export class BufferPool {
  /** Free memory by its length in bytes. */
  private readonly free = new Map<number, ArrayBuffer[]>();
  private readonly ours = new WeakSet<ArrayBufferLike>();
  /** Memory released but maybe still referenced: reusable after {@link BufferPool.recycle}. */
  private readonly dropped: ArrayBuffer[] = [];
  /** The free memory in the order it became free (a Set iterates in insertion order). */
  private readonly unused = new Set<ArrayBuffer>();
  private bytes = 0;
  /** The slab small objects are cut from, and how much of it is used. */
  private slab = Buffer.allocUnsafeSlow(0);
  private slabUsed = 0;

  constructor(
    /** The most bytes kept for reuse. */
    readonly limit: number,
  ) {}

  /**
   * An uninitialised buffer of `size` bytes: the caller must fill it. Small ones are cut from a
   * shared slab (a memory allocation each cost more than reading the object: a third of the
   * process for 100,000 blobs of 440 bytes) and never recycled; larger ones have memory of their
   * own.
   */
  take(size: number): Buffer {
    if (size <= SLAB_OBJECT) {
      if (this.slabUsed + size > this.slab.length) {
        this.slab = Buffer.allocUnsafeSlow(SLAB_SIZE);
        this.slabUsed = 0;
      }
      const piece = this.slab.subarray(this.slabUsed, this.slabUsed + size);
      // Pieces start 8-byte aligned, as separate allocations would.
      this.slabUsed += (size + 7) & ~7;
      return piece;
    }
    const granule = size <= SMALL_LIMIT ? SMALL_GRANULE : GRANULE;
    const rounded = Math.max(granule, Math.ceil(size / granule) * granule);
    const most =
      rounded + Math.max(SLACK_CLASSES * granule, Math.floor((rounded * SLACK_SHARE) / granule) * granule);
    for (let length = rounded; length <= most; length += granule) {
      const memory = this.free.get(length)?.pop();
      if (memory !== undefined) {
        this.unused.delete(memory);
        this.bytes -= memory.byteLength;
        return Buffer.from(memory, 0, size);
      }
    }
    const fresh = Buffer.allocUnsafeSlow(rounded);
    this.ours.add(fresh.buffer);
    return rounded === size ? fresh : fresh.subarray(0, size);
  }

  /** The memory `buf` (from {@link BufferPool.take}) keeps in use, in bytes. */
  memoryOf(buf: Uint8Array): number {
    return this.ours.has(buf.buffer) ? buf.buffer.byteLength : (buf.length + 7) & ~7;
  }

  /**
   * Takes back the memory of a buffer from {@link BufferPool.take} that the cache dropped. It is
   * reused only after {@link BufferPool.recycle}: callers may still be writing it out.
   */
  release(buf: Uint8Array): void {
    const memory = buf.buffer;
    if (!(memory instanceof ArrayBuffer) || !this.ours.has(memory)) return;
    if (memory.byteLength > this.limit) return;
    // When full, the longest unused memory goes: a pool full of sizes nobody asks for any more
    // would otherwise refuse every size that is asked for.
    for (const oldest of this.unused) {
      if (this.bytes + memory.byteLength <= this.limit) break;
      this.unused.delete(oldest);
      const list = this.free.get(oldest.byteLength)!;
      list.splice(list.indexOf(oldest), 1);
      this.bytes -= oldest.byteLength;
    }
    if (this.bytes + memory.byteLength > this.limit) return;
    this.dropped.push(memory);
    this.bytes += memory.byteLength;
  }

  /** Makes the memory released so far reusable: nothing refers to it any more. */
  recycle(): void {
    for (const memory of this.dropped) {
      let list = this.free.get(memory.byteLength);
      if (list === undefined) this.free.set(memory.byteLength, (list = []));
      list.push(memory);
      this.unused.add(memory);
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
}
