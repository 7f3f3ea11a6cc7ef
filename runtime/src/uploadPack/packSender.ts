/**
 * How the pack phase reaches the client: over `side-band-64k`, `side-band` or bare, and with one of
 * three ways of writing each pkt-line, so a benchmark can compare them on the same server:
 * - `'batched'`: many packets per writev (the default);
 * - `'writev'`: one writev of [header, payload] per packet, as Git does since 2.50;
 * - `'writes'`: a write for the header and one for the payload, as Git did before.
 * All three put the same bytes on the wire.
 */
import { LARGE_PACKET_MAX } from '../constants';
import type { WriteOptions } from '../options';
import { writeOrDie, writevOrDie } from '../orDie';
import { PktBatchWriter } from '../protocol/batchedWriter';
import { Band, encodePktLine, SIDEBAND_HEADER_SIZE, SIDEBAND_PACKET_MAX } from '../protocol/pktLine';
import { sendSideband, sendSidebandTwoWrites } from '../protocol/sideband';

/** How pkt-lines are written; see the module comment. */
export type WriteMode = 'batched' | 'writev' | 'writes';

/** The framing of the pack phase the client chose. */
export type Framing = 'side-band-64k' | 'side-band' | 'none';

/** The largest packet for a framing, header included. */
export function packetMaxOf(framing: Framing): number {
  return framing === 'side-band' ? SIDEBAND_PACKET_MAX : LARGE_PACKET_MAX;
}

/**
 * Pack data per read from a cached pack: a whole number of packets, as many as fill one writev of
 * IOV_MAX buffers (512 packets of 1000 bytes), but no more than about 1 MiB (16 packets of 64 KiB),
 * which keeps the input buffer in cache and the pipe busy.
 */
export function readSizeFor(framing: Framing): number {
  const payload = packetMaxOf(framing) - SIDEBAND_HEADER_SIZE;
  return payload * Math.max(1, Math.min(512, Math.floor((1 << 20) / payload)));
}

/** Sends the pack phase to one descriptor. */
export class PackSender {
  private readonly packetMax: number;
  private readonly batch: PktBatchWriter | undefined;
  private packBytes = 0;

  /**
   * @param progress - whether band-2 progress is wanted (false after `no-progress`, or bare).
   */
  constructor(
    private readonly fd: number,
    readonly framing: Framing,
    readonly mode: WriteMode,
    private readonly progressWanted: boolean,
    private readonly options: WriteOptions = {},
  ) {
    this.packetMax = packetMaxOf(framing);
    if (mode === 'batched' && framing !== 'none') {
      this.batch = new PktBatchWriter(fd, { ...options, packetMax: this.packetMax });
    }
  }

  /**
   * Sends pack bytes (band 1). In batched mode they are queued as views: the caller must call
   * {@link PackSender.flush} before it reuses or changes `chunk`.
   */
  data(chunk: Uint8Array): void {
    this.packBytes += chunk.length;
    this.send(Band.data, chunk);
  }

  /** Pack bytes handed to {@link PackSender.data} so far. */
  get packBytesSent(): number {
    return this.packBytes;
  }

  /** Sends progress text (band 2) if the client wants it; dropped otherwise. */
  progress(text: Uint8Array): void {
    if (this.progressWanted && this.framing !== 'none') this.send(Band.progress, text);
  }

  /**
   * Sends a warning on band 2 when the client has a side-band, even after `no-progress`: it is
   * not progress, and the client shows it as `remote: ...`. Without a side-band it is dropped (the
   * caller also writes it to stderr).
   */
  warning(text: string): void {
    if (this.framing !== 'none') this.send(Band.progress, Buffer.from(`${text}\n`, 'utf8'));
  }

  /**
   * Relays what pack-objects wrote on its stderr: progress when asked for, and its error messages
   * always. With a side-band they go on band 2; without one there is no channel in the stream.
   *
   * @returns whether the client got them (else the caller writes them to its own stderr).
   */
  relay(text: Uint8Array): boolean {
    if (this.framing === 'none') return false;
    this.send(Band.progress, text);
    return true;
  }

  /** Writes whatever is queued. */
  flush(): void {
    this.batch?.flush();
  }

  /**
   * Ends the pack phase: flushes, then sends the flush-pkt that closes a sideband stream (a bare
   * pack has no end marker: the connection closes).
   */
  end(): void {
    if (this.framing === 'none') return;
    if (this.batch) {
      this.batch.flushPacket();
      this.batch.flush();
    } else {
      writeOrDie(this.fd, Buffer.from('0000', 'latin1'), this.options);
    }
  }

  /**
   * Tells the client the serve failed: on band 3 after whatever was queued; without a side-band,
   * as an `ERR` pkt-line if no pack byte has been sent yet (the client reads it where the pack
   * header would be). After pack bytes a bare stream has no channel for it: the connection closes
   * early and the client finds the pack truncated.
   */
  fail(message: string): void {
    if (this.framing === 'none') {
      if (this.packBytes === 0) writeOrDie(this.fd, encodePktLine(`ERR ${message}\n`), this.options);
      return;
    }
    this.flush();
    sendSideband(this.fd, Band.error, Buffer.from(`${message}\n`, 'utf8'), this.packetMax, this.options);
  }

  private send(band: number, bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.framing === 'none') writevOrDie(this.fd, [bytes], this.options);
    else if (this.batch) this.batch.sideband(band, bytes);
    else if (this.mode === 'writev') sendSideband(this.fd, band, bytes, this.packetMax, this.options);
    else sendSidebandTwoWrites(this.fd, band, bytes, this.packetMax, this.options);
  }
}
