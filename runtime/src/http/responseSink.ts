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

/** The response sink of one request; see the module comment. */
export class ResponseSink implements Sys, OutputFlow {
  readonly counts: SyscallCounts = newCounts();
  private readonly head: AnswerHead;
  /** Bytes handed to the response, head and preamble aside. */
  bytes = 0;

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
    const copy = Buffer.allocUnsafe(total);
    let at = 0;
    for (const buf of bufs) {
      copy.set(buf, at);
      at += buf.length;
    }
    this.bytes += total;
    if (this.head.written) this.res.write(copy);
    else this.head.take(copy);
    this.onWrite();
    return total;
  }
}
