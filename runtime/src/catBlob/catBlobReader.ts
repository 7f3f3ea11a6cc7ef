import type { Readable } from 'node:stream';
import { CatBlobProtocolError } from './errors';

/** One parsed cat-blob response. */
export type CatBlobAnswer =
  | { readonly oid: string; readonly type: 'blob'; readonly size: number; readonly data: Buffer }
  | { readonly oid: string; readonly type: 'missing' };

/** Options of a {@link CatBlobReader}. */
export interface CatBlobReaderOptions {
  /** The longest header line accepted, in bytes (default 256). */
  maxHeaderLength?: number;
  /** The largest blob accepted, in bytes (default: the largest Buffer). */
  maxBlobSize?: number;
}

const LF = 10;
/** Bytes buffered beyond what the current answer needs before the stream is paused. */
const READ_AHEAD = 1024 * 1024;
const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) (?:blob (0|[1-9][0-9]{0,15})|missing)$/;

/**
 * Parses the answers git fast-import (or `writev-cat-blob`) writes to its cat-blob descriptor, as a
 * frontend reads them: a header `<oid> blob <size>\n` followed by exactly `size` bytes and an LF, or
 * `<oid> missing\n`. Reads from a Node stream (for example the `--cat-blob-fd` end of a child
 * process) and consumes only as much as each answer needs, so answers can be awaited one by one
 * while requests are still being sent.
 *
 * Anything else is a {@link CatBlobProtocolError} with the stream offset: a malformed header, a
 * payload not followed by LF, an answer for another object than the one asked for, or the stream
 * ending inside an answer. Only one `read` may be outstanding at a time.
 */
export class CatBlobReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private consumed = 0;
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private readonly maxHeader: number;
  private readonly maxBlob: number;

  constructor(
    private readonly stream: Readable,
    options: CatBlobReaderOptions = {},
  ) {
    this.maxHeader = options.maxHeaderLength ?? 256;
    this.maxBlob = options.maxBlobSize ?? Number.MAX_SAFE_INTEGER;
    stream.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      // Backpressure: stop the flow while nobody waits and enough is buffered; more() resumes it.
      if (this.wake === undefined && this.buffered > READ_AHEAD) stream.pause();
      this.notify();
    });
    stream.on('end', () => {
      this.ended = true;
      this.notify();
    });
    stream.on('error', (err: Error) => {
      this.failure = err;
      this.notify();
    });
  }

  /** Bytes of the stream consumed by the answers returned so far. */
  get offset(): number {
    return this.consumed;
  }

  /**
   * The next answer. With `expectedOid`, an answer for any other object is a protocol error.
   * Returns undefined when the stream ends cleanly between answers.
   */
  async read(expectedOid?: string): Promise<CatBlobAnswer | undefined> {
    const headerAt = this.consumed;
    const lf = await this.waitForLf();
    if (lf === -1) return undefined;
    const line = this.take(lf + 1).toString('latin1', 0, lf);
    const match = HEADER.exec(line);
    if (!match) throw new CatBlobProtocolError(`malformed header ${JSON.stringify(line)}`, headerAt);
    const oid = match[1]!;
    if (expectedOid !== undefined && oid !== expectedOid.toLowerCase()) {
      throw new CatBlobProtocolError(`answer for ${oid}, but ${expectedOid} was asked for`, headerAt);
    }
    if (match[2] === undefined) return { oid, type: 'missing' };
    const size = Number(match[2]);
    if (size > this.maxBlob) {
      throw new CatBlobProtocolError(
        `blob of ${size} bytes is larger than the ${this.maxBlob} accepted`,
        headerAt,
      );
    }
    await this.waitFor(size + 1, `${size}-byte payload of ${oid} and its LF`);
    const payload = this.take(size + 1);
    if (payload[size] !== LF) {
      throw new CatBlobProtocolError(
        `payload of ${oid} (${size} bytes) is not followed by LF`,
        this.consumed - 1,
      );
    }
    return { oid, type: 'blob', size, data: payload.subarray(0, size) };
  }

  /** Waits until the buffer holds an LF within the header limit; -1 at a clean end of stream. */
  private async waitForLf(): Promise<number> {
    let searched = 0;
    for (;;) {
      const lf = this.findLf(searched);
      if (lf !== -1) return lf;
      searched = this.buffered;
      if (this.buffered > this.maxHeader) {
        throw new CatBlobProtocolError(`no LF within ${this.maxHeader} bytes of a header`, this.consumed);
      }
      if (this.ended) {
        if (this.buffered === 0) return -1;
        throw new CatBlobProtocolError(`stream ends inside a header (${this.buffered} bytes)`, this.consumed);
      }
      await this.more();
    }
  }

  /** Waits until `count` bytes are buffered. */
  private async waitFor(count: number, what: string): Promise<void> {
    while (this.buffered < count) {
      if (this.ended) {
        throw new CatBlobProtocolError(
          `stream ends after ${this.buffered} bytes of the ${what}`,
          this.consumed,
        );
      }
      await this.more();
    }
  }

  private findLf(from: number): number {
    let base = 0;
    for (const chunk of this.chunks) {
      if (base + chunk.length > from) {
        const at = chunk.indexOf(LF, Math.max(0, from - base));
        if (at !== -1) return base + at;
      }
      base += chunk.length;
    }
    return -1;
  }

  /** Removes and returns the first `count` buffered bytes (a view when one chunk holds them). */
  private take(count: number): Buffer {
    let out: Buffer;
    const first = this.chunks[0];
    if (first !== undefined && first.length >= count) {
      out = first.subarray(0, count);
      if (first.length === count) this.chunks.shift();
      else this.chunks[0] = first.subarray(count);
    } else {
      out = Buffer.allocUnsafe(count);
      let filled = 0;
      while (filled < count) {
        const chunk = this.chunks[0]!;
        const n = Math.min(chunk.length, count - filled);
        chunk.copy(out, filled, 0, n);
        filled += n;
        if (n === chunk.length) this.chunks.shift();
        else this.chunks[0] = chunk.subarray(n);
      }
    }
    this.buffered -= count;
    this.consumed += count;
    return out;
  }

  private more(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve) => {
      this.wake = resolve;
      this.stream.resume();
    });
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
