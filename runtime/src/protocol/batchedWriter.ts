import { IOV_MAX, LARGE_PACKET_MAX } from '../constants';
import { GatheredWrites } from '../gatheredWrites';
import type { WriteOptions } from '../options';
import { byteView, checkFd } from '../writeArguments';
import { PKT_HEADER_SIZE, SIDEBAND_HEADER_SIZE } from './pktLine';
import { checkSidebandArgs, writeSidebandHeader } from './sideband';

/** Options of a {@link PktBatchWriter}. */
export interface PktBatchWriterOptions extends WriteOptions {
  /** The largest packet, header included (default {@link LARGE_PACKET_MAX}; 1000 for `side-band`). */
  packetMax?: number;
}

/**
 * Gathers many pkt-lines into one `writev`: the same bytes on the wire as {@link sendSideband},
 * far fewer system calls. Beyond Git, which writes each packet on its own.
 *
 * Packets are queued as [header, payload view] pairs; only the headers are built (in one reused
 * arena), payload bytes are never copied. The queue is written with one {@link writevOrDie} when
 * {@link PktBatchWriter.flush} is called, and before a packet that would take it past `iovMax`
 * buffers or `maxIoSize` bytes (so each flush is normally a single system call).
 *
 * Ownership: the writer keeps views of the data it is given until the next flush, so the caller
 * must not modify or reuse that memory before `flush()` returns. Buffers are never modified.
 * Nothing queued is written until a flush: call `flush()` before handing the descriptor to
 * anything else, and before exiting.
 */
export class PktBatchWriter {
  /** The descriptor written to. */
  readonly fd: number;
  private readonly packetMax: number;
  private readonly queue: GatheredWrites;
  private headers: Buffer;
  private headerAt = 0;
  private readonly fullHeaders = new Map<number, Uint8Array>();

  constructor(fd: number, options: PktBatchWriterOptions = {}) {
    const { packetMax = LARGE_PACKET_MAX, ...writeOptions } = options;
    checkFd(fd);
    checkSidebandArgs(1, packetMax);
    this.queue = new GatheredWrites(fd, writeOptions);
    this.fd = fd;
    this.packetMax = packetMax;
    // Every queued packet holds at least one buffer, so with the default bounds at most IOV_MAX
    // headers are pending at once; larger custom bounds grow the arena on demand.
    this.headers = Buffer.allocUnsafe((Math.min(this.queue.iovMax, IOV_MAX) + 1) * SIDEBAND_HEADER_SIZE);
  }

  /** Buffers queued and not yet written. */
  get pendingBuffers(): number {
    return this.queue.pendingBuffers;
  }

  /** Bytes queued and not yet written. */
  get pendingBytes(): number {
    return this.queue.pendingBytes;
  }

  /**
   * Queues `data` on `band` in packets of at most `packetMax - 5` payload bytes, split exactly as
   * {@link sendSideband} splits it (a negative band gives plain pkt-lines with 4-byte headers).
   * Empty data queues nothing. Keeps views of `data` until the next flush. `data` may be any
   * ArrayBufferView; it is split and counted in bytes.
   */
  sideband(band: number, data: ArrayBufferView): void {
    checkSidebandArgs(band, this.packetMax);
    const bytes = byteView(data, 'data');
    const chunk = this.packetMax - SIDEBAND_HEADER_SIZE;
    const headerSize = band < 0 ? PKT_HEADER_SIZE : SIDEBAND_HEADER_SIZE;
    for (let at = 0; at < bytes.length; at += chunk) {
      const payload = bytes.subarray(at, Math.min(at + chunk, bytes.length));
      this.queue.makeRoom(2, headerSize + payload.length);
      let header: Uint8Array;
      if (payload.length === chunk) {
        header = this.fullHeader(band);
      } else {
        header = this.takeHeader(headerSize);
        writeSidebandHeader(header, 0, payload.length, band);
      }
      this.queue.push(header);
      this.queue.push(payload);
    }
  }

  /** Queues a flush packet (`0000`), e.g. the end of a sideband stream. */
  flushPacket(): void {
    this.queue.makeRoom(1, PKT_HEADER_SIZE);
    const header = this.takeHeader(PKT_HEADER_SIZE);
    header.write('0000', 'latin1');
    this.queue.push(header);
  }

  /**
   * Writes everything queued, in order, with {@link writevOrDie} (one system call unless the kernel
   * takes less), then forgets the views it held. Does nothing when the queue is empty.
   *
   * @throws {@link BrokenPipeError} when the reader has gone, {@link WriteError} otherwise. After a
   *   failure the queue is dropped: what was written cannot be known better than `bytesWritten`.
   */
  flush(): void {
    try {
      this.queue.flush();
    } finally {
      this.headerAt = 0;
    }
  }

  /**
   * The header of a full-size packet on `band`, built once: every full packet on a band has the
   * same header, so one buffer serves them all (writev may name it many times), sparing an
   * allocation per packet. Never written to after it is built.
   */
  private fullHeader(band: number): Uint8Array {
    let header = this.fullHeaders.get(band);
    if (header === undefined) {
      header = Buffer.allocUnsafe(band < 0 ? PKT_HEADER_SIZE : SIDEBAND_HEADER_SIZE);
      writeSidebandHeader(header, 0, this.packetMax - SIDEBAND_HEADER_SIZE, band);
      this.fullHeaders.set(band, header);
    }
    return header;
  }

  /** The next `size` bytes of the header arena; a full arena is replaced, never overwritten. */
  private takeHeader(size: number): Buffer {
    if (this.headerAt + size > this.headers.length) {
      // Queued headers still point into the old arena, which stays alive through those views.
      this.headers = Buffer.allocUnsafe(this.headers.length * 2);
      this.headerAt = 0;
    }
    const header = this.headers.subarray(this.headerAt, this.headerAt + size);
    this.headerAt += size;
    return header;
  }
}
