/**
 * Where a reader's bytes come from. A small synchronous interface, so the same pkt-line reader
 * serves a descriptor (stdin of a server, a FIFO, a file) and memory (tests, captures).
 */
import { readSync } from 'node:fs';
import { hasCode } from '../errno';
import { backoffDelay } from '../waitWritable';
import { byteViews, checkFd } from '../writeArguments';

/** A synchronous source of bytes. */
export interface ByteSource {
  /**
   * Reads at most `target.length` bytes into `target`, blocking until at least one is available.
   * @returns the bytes read; 0 only at the end of the stream.
   */
  read(target: Uint8Array): number;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Reads a descriptor with `read(2)`, restarting on EINTR. On EAGAIN (a non-blocking descriptor,
 * such as the socket pairs `child_process.spawn` creates, or a stdin another process made
 * non-blocking) it sleeps with the write stack's backoff and retries, so callers never see it and
 * no core spins. Counts its calls in `reads`.
 */
export class FdSource implements ByteSource {
  /** `read(2)` calls made, failed ones included. */
  reads = 0;

  constructor(readonly fd: number) {
    checkFd(fd);
  }

  read(target: Uint8Array): number {
    for (let attempt = 0; ;) {
      this.reads++;
      try {
        return readSync(this.fd, target, 0, target.length, null);
      } catch (err) {
        if (hasCode(err, 'EINTR')) continue;
        if (hasCode(err, 'EOF')) return 0; // Windows reports the end of a pipe this way
        if (!hasCode(err, 'EAGAIN')) throw err;
      }
      Atomics.wait(sleeper, 0, 0, backoffDelay(attempt++));
    }
  }
}

/**
 * Serves bytes from memory in the pieces given, one piece (or what fits of it) per read: tests use
 * it to cut a stream at every possible place.
 */
export class ChunkSource implements ByteSource {
  private index = 0;
  private offset = 0;

  private readonly chunks: readonly Uint8Array[];

  /** @param chunks - ArrayBufferViews of any kind, served by their bytes; not copied. */
  constructor(chunks: readonly ArrayBufferView[]) {
    this.chunks = byteViews(chunks, 'chunks');
  }

  read(target: Uint8Array): number {
    while (this.index < this.chunks.length && this.offset === this.chunks[this.index]!.length) {
      this.index++;
      this.offset = 0;
    }
    if (this.index === this.chunks.length || target.length === 0) return 0;
    const chunk = this.chunks[this.index]!;
    const n = Math.min(target.length, chunk.length - this.offset);
    target.set(chunk.subarray(this.offset, this.offset + n));
    this.offset += n;
    return n;
  }
}
