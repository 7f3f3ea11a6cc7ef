/**
 * Memory for the objects the reader builds, recycled from the delta-base cache's evictions. A
 * request for many blobs makes a new object of a few to tens of kilobytes per answer; allocating
 * each anew cost page faults, `malloc` and garbage collection of the external memory (a fifth of
 * the process on a real history), while the cache drops an object of about the same size for each
 * one it takes. So dropped objects' memory comes back here and serves the next objects of about
 * their size.
 *
 * Only memory this pool allocated is taken back, and only once nothing refers to it: the cache
 * hands its objects out only to callers who promise to be done with them before the next read
 * (`Repository.readObjectShared`).
 */

/** Objects up to this size are rounded up to {@link SMALL_GRANULE}, larger ones to {@link GRANULE}. */
const SMALL_LIMIT = 4096;
const SMALL_GRANULE = 256;
/** Sizes are rounded up to this granularity, so versions of a file of similar size share memory. */
const GRANULE = 4096;
/** How many size classes above the rounded size a recycled buffer may be taken from. */
const SLACK_CLASSES = 3;

/** A pool of object buffers, bounded in bytes. */
export class BufferPool {
  /** Free memory by its length in bytes. */
  private readonly free = new Map<number, ArrayBuffer[]>();
  private readonly ours = new WeakSet<ArrayBufferLike>();
  private bytes = 0;

  constructor(
    /** The most bytes kept for reuse. */
    readonly limit: number,
  ) {}

  /** An uninitialised buffer of `size` bytes, with memory of its own: the caller must fill it. */
  take(size: number): Buffer {
    const granule = size <= SMALL_LIMIT ? SMALL_GRANULE : GRANULE;
    const rounded = Math.max(granule, Math.ceil(size / granule) * granule);
    for (let n = 0, length = rounded; n <= SLACK_CLASSES; n++, length += granule) {
      const memory = this.free.get(length)?.pop();
      if (memory !== undefined) {
        this.bytes -= memory.byteLength;
        return Buffer.from(memory, 0, size);
      }
    }
    const fresh = Buffer.allocUnsafeSlow(rounded);
    this.ours.add(fresh.buffer);
    return rounded === size ? fresh : fresh.subarray(0, size);
  }

  /** Takes back the memory of a buffer from {@link BufferPool.take} that nothing refers to any more. */
  release(buf: Uint8Array): void {
    const memory = buf.buffer;
    if (!(memory instanceof ArrayBuffer) || !this.ours.has(memory)) return;
    if (this.bytes + memory.byteLength > this.limit) return;
    let list = this.free.get(memory.byteLength);
    if (list === undefined) this.free.set(memory.byteLength, (list = []));
    list.push(memory);
    this.bytes += memory.byteLength;
  }

  /** Drops every free buffer. */
  clear(): void {
    this.free.clear();
    this.bytes = 0;
  }
}
