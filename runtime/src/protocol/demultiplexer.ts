import { ProtocolError, RemoteError } from './errors';
import type { PktReader } from './pktReader';
import { Band, packetText } from './pktLine';

/** Where a demultiplexed sideband stream goes. */
export interface SidebandHandlers {
  /** Band 1, the pack: called per packet with a view that is valid only during the call. */
  data(chunk: Uint8Array): void;
  /**
   * Band 2, progress text, in pieces that each end in `\r` or `\n` (the terminator included) as
   * git prints them after "remote: "; a piece split across packets is joined first. Text left
   * without a terminator when the stream ends is passed last as it is.
   */
  progress?(piece: string): void;
}

const CR = 0x0d;
const LF = 0x0a;

/** Splits band-2 bytes into pieces ending in CR or LF, keeping an unfinished piece for later. */
class ProgressPieces {
  private partial: Buffer = Buffer.alloc(0);

  constructor(private readonly emit: ((piece: string) => void) | undefined) {}

  add(bytes: Uint8Array): void {
    let from = 0;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] !== CR && bytes[i] !== LF) continue;
      this.send(bytes.subarray(from, i + 1));
      from = i + 1;
    }
    if (from < bytes.length) this.partial = Buffer.concat([this.partial, bytes.subarray(from)]);
  }

  finish(): void {
    if (this.partial.length > 0) this.send(new Uint8Array(0));
  }

  private send(tail: Uint8Array): void {
    // Splitting at CR and LF bytes never cuts a UTF-8 character, so each piece decodes whole.
    const piece = this.partial.length > 0 ? Buffer.concat([this.partial, tail]) : Buffer.from(tail);
    this.partial = Buffer.alloc(0);
    this.emit?.(piece.toString('utf8'));
  }
}

/**
 * Reads a sideband stream (the pack phase of a fetch with `side-band` or `side-band-64k`) from
 * `reader` up to and including its closing flush packet: band 1 goes to `handlers.data`, band 2 to
 * `handlers.progress`, band 3 ends the stream with a {@link RemoteError} carrying the remote's
 * message.
 *
 * @throws {@link RemoteError} for band 3 (or an `ERR` line where a packet was expected).
 * @throws {@link ProtocolError} naming the byte offset: a bad length, a stream that ends inside a
 *   packet or before its flush, a packet without a band byte, a band other than 1, 2 or 3, or a
 *   delim or response-end packet.
 */
export function demultiplexSideband(reader: PktReader, handlers: SidebandHandlers): void {
  const progress = new ProgressPieces(handlers.progress?.bind(handlers));
  for (;;) {
    const packet = reader.next();
    if (packet === undefined) {
      progress.finish();
      throw new ProtocolError(reader.offset, 'sideband stream ended before its flush packet');
    }
    if (packet.kind === 'flush') {
      progress.finish();
      return;
    }
    if (packet.kind !== 'data') {
      throw new ProtocolError(packet.offset, `unexpected ${packet.kind} packet in a sideband stream`);
    }
    const { payload } = packet;
    if (payload.length === 0) {
      throw new ProtocolError(packet.offset, 'sideband packet without a band byte');
    }
    switch (payload[0]) {
      case Band.data:
        handlers.data(payload.subarray(1));
        break;
      case Band.progress:
        progress.add(payload.subarray(1));
        break;
      case Band.error:
        progress.finish();
        throw new RemoteError(packetText(payload.subarray(1)));
      default:
        throw new ProtocolError(packet.offset, `sideband packet on unknown band ${payload[0]}`);
    }
  }
}
