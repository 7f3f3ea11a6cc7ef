import { DEFAULT_IO_BUFFER_SIZE, LARGE_PACKET_MAX } from '../constants';
import type { ByteSource } from './byteSource';
import { ProtocolError, RemoteError } from './errors';
import { PKT_HEADER_SIZE, packetText, parsePktLength, specialKind, type Packet } from './pktLine';

/**
 * Reads pkt-lines from a {@link ByteSource} through one input buffer of
 * {@link DEFAULT_IO_BUFFER_SIZE} (128 KiB) by default: one `read` brings in many packets, instead
 * of one read for each header and each payload.
 *
 * Payloads are views into that buffer, valid only until the next call to {@link PktReader.next};
 * copy what must outlive it.
 */
export class PktReader {
  private readonly buffer: Buffer;
  private start = 0;
  private end = 0;
  /** Stream offset of `buffer[start]`. */
  private position = 0;
  private ended = false;

  /**
   * @param bufferSize - the input buffer's size in bytes; at least {@link LARGE_PACKET_MAX}, so any
   *   packet fits whole.
   */
  constructor(
    private readonly source: ByteSource,
    bufferSize: number = DEFAULT_IO_BUFFER_SIZE,
  ) {
    if (!Number.isInteger(bufferSize) || bufferSize < LARGE_PACKET_MAX) {
      throw new RangeError(
        `bufferSize must be an integer of at least ${LARGE_PACKET_MAX}, got ${bufferSize}`,
      );
    }
    this.buffer = Buffer.allocUnsafe(bufferSize);
  }

  /** The stream offset, in bytes, of the next packet. */
  get offset(): number {
    return this.position;
  }

  /**
   * The next packet, or `undefined` when the stream ends cleanly between packets.
   *
   * @throws {@link ProtocolError} for a bad length or a stream that ends inside a packet.
   */
  next(): Packet | undefined {
    const at = this.position;
    if (!this.fill(PKT_HEADER_SIZE)) {
      if (this.end === this.start) return undefined;
      throw new ProtocolError(
        at,
        `stream ends inside a pkt-line header (${this.end - this.start} of 4 bytes)`,
      );
    }
    const length = parsePktLength(this.buffer, this.start, at);
    const kind = specialKind(length);
    if (kind !== undefined) {
      this.consume(PKT_HEADER_SIZE);
      return { kind, offset: at };
    }
    if (!this.fill(length)) {
      throw new ProtocolError(
        at,
        `stream ends inside a ${length}-byte pkt-line (${this.end - this.start} bytes arrived)`,
      );
    }
    const payload = this.buffer.subarray(this.start + PKT_HEADER_SIZE, this.start + length);
    this.consume(length);
    return { kind: 'data', payload, offset: at };
  }

  /**
   * The next packet, or `undefined` when the stream ends before that packet is whole: git's
   * "gentle on EOF" read, where a peer that hangs up part-way through the packet that would start
   * a new message has only ended the conversation.
   *
   * @throws {@link ProtocolError} for a bad length.
   */
  nextUnlessEnded(): Packet | undefined {
    if (!this.fill(PKT_HEADER_SIZE)) return undefined;
    const length = parsePktLength(this.buffer, this.start, this.position);
    if (specialKind(length) === undefined && !this.fill(length)) return undefined;
    return this.next();
  }

  /**
   * The next packet's text (see {@link packetText}), or `undefined` for a flush packet: the way
   * line-based phases such as a ref advertisement or a request are read.
   *
   * @throws {@link RemoteError} for an `ERR <reason>` packet; {@link ProtocolError} when the stream
   *   ends or a delim or response-end packet arrives instead of a line or a flush.
   */
  readLine(): string | undefined {
    const packet = this.next();
    if (packet === undefined) {
      throw new ProtocolError(this.position, 'stream ended where a pkt-line or flush was expected');
    }
    if (packet.kind === 'flush') return undefined;
    if (packet.kind !== 'data') {
      throw new ProtocolError(packet.offset, `unexpected ${packet.kind} packet in a protocol v0 exchange`);
    }
    const text = packetText(packet.payload);
    if (text.startsWith('ERR ')) throw new RemoteError(text.slice(4));
    return text;
  }

  /**
   * Whether the stream has ended with no bytes left, waiting for input if none is buffered: a peer
   * that hangs up between messages is told apart from one that sends a truncated packet.
   */
  atEnd(): boolean {
    return !this.fill(1);
  }

  private consume(n: number): void {
    this.start += n;
    this.position += n;
  }

  /** Makes at least `n` bytes available from `start`; false if the stream ends first. */
  private fill(n: number): boolean {
    while (this.end - this.start < n) {
      if (this.ended) return false;
      if (this.buffer.length - this.start < n) {
        // Not enough room after the unread bytes: move them to the front (at most one packet).
        this.buffer.copyWithin(0, this.start, this.end);
        this.end -= this.start;
        this.start = 0;
      }
      const got = this.source.read(this.buffer.subarray(this.end));
      if (got === 0) this.ended = true;
      this.end += got;
    }
    return true;
  }
}
