import { resolveLimits, type WriteOptions } from './options';
import { writevOrDie } from './orDie';

/**
 * Buffers queued for one gathered write: what every batching writer of the runtime (pkt-lines,
 * cat-blob answers) shares. {@link GatheredWrites.makeRoom} flushes before an item that would take
 * the queue past `iovMax` buffers or `maxIoSize` bytes, so each flush is normally one system call;
 * the items themselves (a packet's header and payload, an answer's three buffers) stay whole.
 *
 * Ownership: views are kept until the next flush; the caller must not modify or reuse their
 * memory before `flush()` returns. Buffers are never modified.
 */
export class GatheredWrites {
  /** The most buffers, and bytes, one flush passes (the write options' limits, resolved). */
  readonly iovMax: number;
  readonly maxIoSize: number;
  private readonly iov: Uint8Array[] = [];
  private bytes = 0;

  /** @throws RangeError for a limit below 1. */
  constructor(
    /** The descriptor written to. */
    readonly fd: number,
    private readonly options: WriteOptions = {},
  ) {
    const limits = resolveLimits(options);
    this.iovMax = limits.iovMax;
    this.maxIoSize = limits.maxIoSize;
  }

  /** Buffers queued and not yet written. */
  get pendingBuffers(): number {
    return this.iov.length;
  }

  /** Bytes queued and not yet written. */
  get pendingBytes(): number {
    return this.bytes;
  }

  /** Flushes first when `buffers` more buffers or `size` more bytes would pass a bound. */
  makeRoom(buffers: number, size: number): void {
    if (this.iov.length === 0) return;
    if (this.iov.length + buffers > this.iovMax || this.bytes + size > this.maxIoSize) this.flush();
  }

  /** Queues `buf` (a view kept until the next flush). */
  push(buf: Uint8Array): void {
    this.iov.push(buf);
    this.bytes += buf.length;
  }

  /**
   * Writes everything queued, in order, with one {@link writevOrDie}, and forgets the views.
   * Returns whether there was anything to write.
   *
   * @throws {@link BrokenPipeError} when the reader has gone, {@link WriteError} otherwise; the
   *   queue is dropped either way.
   */
  flush(): boolean {
    if (this.iov.length === 0) return false;
    try {
      writevOrDie(this.fd, this.iov, this.options);
    } finally {
      this.iov.length = 0;
      this.bytes = 0;
    }
    return true;
  }
}
