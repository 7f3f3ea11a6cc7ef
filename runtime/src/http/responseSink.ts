/**
 * An HTTP response as the writev stack's sink: a {@link Sys} whose `writev` hands the gathered
 * buffers to a `ServerResponse`, so upload-pack's own writers (pkt-lines, sideband batches, the
 * cached pack) answer a request served inside the HTTP server's process.
 *
 * What a descriptor gave for free is made explicit here:
 * - the bytes are copied at once, one buffer per call: the writers reuse their buffers as soon as a
 *   call returns (the cached pack's read-ahead buffers), while a response keeps what it is given
 *   until the socket takes it;
 * - a write never blocks: the response queues instead, and `congested`/`drained()` (an
 *   {@link OutputFlow}) let the pack wait for a slow client rather than pile up in memory;
 * - a response that is gone (the client hung up) fails the next write with EPIPE, which the stack
 *   turns into a `BrokenPipeError` as it does for a pipe whose reader left.
 */
import type { ServerResponse } from 'node:http';
import { systemError } from '../errno';
import { newCounts, type Sys, type SyscallCounts } from '../syscall';
import type { OutputFlow } from '../uploadPack/packSources';
import { AnswerHead } from './answer';

/**
 * The descriptor number the serve writes "to": only the name the sink is called with. It is no
 * descriptor of this process, so a write that missed the sink fails (EBADF) instead of landing on
 * the server's own output.
 */
export const RESPONSE_FD = 0x3fffffff;

/**
 * Writes at least this large are copied into buffers the sink reuses once the response has
 * written them out: a cached pack arrives in writes of about 1 MiB, and a fresh buffer for each
 * cost its page faults and, being memory outside the heap, a garbage collection every few writes.
 * Smaller writes (pkt-lines) take a new buffer each, from Node's own pool.
 */
const REUSED_COPY_MIN = 64 * 1024;

/** Buffers kept for reuse: the pack waits for the response to drain, so two are in flight at most. */
const REUSED_COPIES = 2;

/** The response sink of one request; see the module comment. */
export class ResponseSink implements Sys, OutputFlow {
  readonly counts: SyscallCounts = newCounts();
  private readonly head: AnswerHead;
  /** Bytes handed to the response, head and preamble aside. */
  bytes = 0;
  /** Copy buffers the response has written out, free for the next large write. */
  private readonly spare: Buffer[] = [];

  constructor(
    private readonly res: ServerResponse,
    advertise: boolean,
    /** Called after every write (the idle timer). */
    private readonly onWrite: () => void,
    readonly signal?: AbortSignal,
  ) {
    this.head = new AnswerHead(res, advertise);
  }

  /** Whether any byte of the answer was given to the sink. */
  get answered(): boolean {
    return this.bytes > 0;
  }

  write(_fd: number, buf: Uint8Array): number {
    this.counts.write++;
    return this.take([buf]);
  }

  writev(_fd: number, bufs: readonly Uint8Array[]): number {
    this.counts.writev++;
    return this.take(bufs);
  }

  /** Never called: the sink never answers EAGAIN. */
  waitWritable(): number | undefined {
    return undefined;
  }

  release(): void {}

  get congested(): boolean {
    return this.res.writableNeedDrain && !this.res.destroyed;
  }

  drained(): Promise<void> {
    if (!this.congested) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  /** Ends the answer: the head first when nothing was written yet (an answer of no bytes). */
  end(): void {
    if (!this.head.written) this.head.write();
    this.res.end();
  }

  private take(bufs: readonly Uint8Array[]): number {
    if (this.res.destroyed || this.res.writableEnded || this.signal?.aborted) {
      this.counts.errors.EPIPE = (this.counts.errors.EPIPE ?? 0) + 1;
      throw systemError('EPIPE', 'writev');
    }
    let total = 0;
    for (const buf of bufs) total += buf.length;
    if (total === 0) return 0;
    // One copy, one chunk of the response (one chunk header under chunked encoding).
    const reuse = total >= REUSED_COPY_MIN && this.head.written;
    const store = reuse ? this.spareFor(total) : Buffer.allocUnsafe(total);
    const copy = store.length === total ? store : store.subarray(0, total);
    let at = 0;
    for (const buf of bufs) {
      copy.set(buf, at);
      at += buf.length;
    }
    this.bytes += total;
    if (!this.head.written) this.head.take(copy);
    // The callback runs once the socket has written the chunk (never, if the response is
    // destroyed first: the buffer is then simply not reused).
    else if (reuse) this.res.write(copy, () => this.keep(store));
    else this.res.write(copy);
    this.onWrite();
    return total;
  }

  /** A spare copy buffer of at least `size` bytes, or a new one. */
  private spareFor(size: number): Buffer {
    const at = this.spare.findIndex((b) => b.length >= size);
    if (at >= 0) return this.spare.splice(at, 1)[0]!;
    return Buffer.allocUnsafe(size);
  }

  /** Keeps a written-out copy buffer for reuse, the largest few. */
  private keep(buffer: Buffer): void {
    this.spare.push(buffer);
    if (this.spare.length > REUSED_COPIES) {
      this.spare.sort((a, b) => b.length - a.length);
      this.spare.length = REUSED_COPIES;
    }
  }
}
