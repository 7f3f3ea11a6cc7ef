/**
 * Memory for delta results, recycled from the delta-base cache's evictions. A frontend asking for
 * many blobs makes the reader apply several deltas per blob, each into a fresh buffer of tens of
 * kilobytes; most are intermediate bases that only the cache ever sees. Allocating each anew cost
 * as much system time (page faults) and garbage collection as the inflating itself, so buffers the
 * cache drops come back here and are reused for the next results of about the same size.
 *
 * Only memory this pool allocated is ever taken back, and only from the cache, which never hands
 * its buffers to callers (they get copies): a recycled buffer is referenced by nobody.
 */

/** Sizes are rounded up to this granularity, so versions of a file of similar size share buffers. */
const GRANULE = 4096;
/** How many granules above the requested size a recycled buffer may be. */
const SLACK_GRANULES = 4;
/** Buffers below this size are left to Node's own pool. */
const MIN_POOLED = 16 * 1024;

/** A pool of result buffers bounded in bytes. */
export class BufferPool {
  private readonly free = new Map<number, ArrayBuffer[]>();
  private readonly ours = new WeakSet<ArrayBuffer>();
  private bytes = 0;

  constructor(
    /** The most bytes kept for reuse. */
    readonly limit: number,
  ) {}

  /** An uninitialised buffer of `size` bytes: the caller must fill all of it. */
  take(size: number): Buffer {
    if (size < MIN_POOLED) return Buffer.allocUnsafe(size);
    const granules = Math.ceil(size / GRANULE);
    for (let g = granules; g <= granules + SLACK_GRANULES; g++) {
      const list = this.free.get(g);
      const memory = list?.pop();
      if (memory !== undefined) {
        this.bytes -= memory.byteLength;
        return Buffer.from(memory, 0, size);
      }
    }
    const memory = new ArrayBuffer(granules * GRANULE);
    this.ours.add(memory);
    return Buffer.from(memory, 0, size);
  }

  /** Takes back a buffer from {@link BufferPool.take} that nothing references any more. */
  release(buf: Buffer): void {
    const memory = buf.buffer;
    if (!(memory instanceof ArrayBuffer) || !this.ours.has(memory)) return;
    if (this.bytes + memory.byteLength > this.limit) return;
    const granules = memory.byteLength / GRANULE;
    let list = this.free.get(granules);
    if (list === undefined) this.free.set(granules, (list = []));
    list.push(memory);
    this.bytes += memory.byteLength;
  }
}
