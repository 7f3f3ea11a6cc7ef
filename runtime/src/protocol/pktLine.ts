/**
 * pkt-line framing, as Git's pack protocol defines it: each packet starts with its total length
 * (header included) as four hexadecimal digits, then its payload. Lengths 0000, 0001 and 0002 are
 * the special packets flush, delim and response-end; 0003 is never valid; 0004 is an empty data
 * packet; at most {@link LARGE_PACKET_MAX} (65520) bytes in all.
 */
import { LARGE_PACKET_MAX } from '../constants';
import { byteView } from '../writeArguments';
import { ProtocolError } from './errors';

/** The length header of every pkt-line, in bytes. */
export const PKT_HEADER_SIZE = 4;

/** A sideband packet's header: the length, then the band byte. */
export const SIDEBAND_HEADER_SIZE = 5;

/** The largest payload of one data packet: {@link LARGE_PACKET_MAX} less the header (65516 bytes). */
export const LARGE_PACKET_DATA_MAX = LARGE_PACKET_MAX - PKT_HEADER_SIZE;

/**
 * The largest packet, header included, of plain `side-band` (1000 bytes), the capability older
 * clients ask for; `side-band-64k` allows {@link LARGE_PACKET_MAX}.
 */
export const SIDEBAND_PACKET_MAX = 1000;

/** The sideband bands: pack data, progress text, and a fatal error message. */
export const Band = { data: 1, progress: 2, error: 3 } as const;

/** A decoded packet. `offset` is where its header starts in the stream, in bytes. */
export type Packet =
  | { readonly kind: 'data'; readonly payload: Uint8Array; readonly offset: number }
  | { readonly kind: 'flush' | 'delim' | 'response-end'; readonly offset: number };

const SPECIAL: readonly ('flush' | 'delim' | 'response-end')[] = ['flush', 'delim', 'response-end'];

const HEX = '0123456789abcdef';

/** Writes `value` (0..0xffff) as four lowercase hex digits at `target[at..at+4)`, as Git does. */
export function writeHex4(target: Uint8Array, at: number, value: number): void {
  target[at] = HEX.charCodeAt((value >>> 12) & 15);
  target[at + 1] = HEX.charCodeAt((value >>> 8) & 15);
  target[at + 2] = HEX.charCodeAt((value >>> 4) & 15);
  target[at + 3] = HEX.charCodeAt(value & 15);
}

function hexDigit(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x61 + 10;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x41 + 10;
  return -1;
}

/**
 * Reads the four-digit length at `bytes[at..at+4)` and checks it: hexadecimal (either case, as Git
 * accepts), not the reserved 0003, at most {@link LARGE_PACKET_MAX}.
 *
 * @param streamOffset - where `bytes[at]` is in the whole stream, for the error's offset.
 * @returns the packet's total length (0, 1 and 2 for the special packets).
 * @throws {@link ProtocolError} naming the offset and the bad header.
 */
export function parsePktLength(bytes: Uint8Array, at: number, streamOffset: number): number {
  let length = 0;
  for (let i = 0; i < PKT_HEADER_SIZE; i++) {
    const digit = hexDigit(bytes[at + i]!);
    if (digit < 0) {
      const shown = JSON.stringify(Buffer.from(bytes.subarray(at, at + PKT_HEADER_SIZE)).toString('latin1'));
      throw new ProtocolError(streamOffset, `bad pkt-line length ${shown}: not four hexadecimal digits`);
    }
    length = length * 16 + digit;
  }
  if (length === 3) throw new ProtocolError(streamOffset, 'bad pkt-line length 0003: reserved, never valid');
  if (length > LARGE_PACKET_MAX) {
    throw new ProtocolError(
      streamOffset,
      `bad pkt-line length ${length}: more than the ${LARGE_PACKET_MAX}-byte limit`,
    );
  }
  return length;
}

/** The kind of special packet a length of 0, 1 or 2 stands for; `undefined` for a data packet. */
export function specialKind(length: number): 'flush' | 'delim' | 'response-end' | undefined {
  return SPECIAL[length];
}

/** A flush packet (`0000`): ends a list or a conversation. A fresh buffer. */
export function flushPkt(): Buffer {
  return Buffer.from('0000', 'latin1');
}

/** A delim packet (`0001`), protocol v2's section separator. A fresh buffer. */
export function delimPkt(): Buffer {
  return Buffer.from('0001', 'latin1');
}

/** A response-end packet (`0002`), protocol v2's end of a stateless response. A fresh buffer. */
export function responseEndPkt(): Buffer {
  return Buffer.from('0002', 'latin1');
}

/**
 * Encodes one data packet: the header, then `payload` (a string is UTF-8). Copies the payload, so
 * it suits the short control lines of a conversation; stream bulk data with `sendSideband` or a
 * `PktBatchWriter`, which never copy it. Any ArrayBufferView is taken by its bytes.
 *
 * @throws TypeError for a payload that is neither a string nor an ArrayBufferView; RangeError when the packet would exceed {@link LARGE_PACKET_MAX} bytes.
 */
export function encodePktLine(payload: string | ArrayBufferView): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : byteView(payload, 'payload');
  const length = body.length + PKT_HEADER_SIZE;
  if (length > LARGE_PACKET_MAX) {
    throw new RangeError(`pkt-line of ${length} bytes exceeds the ${LARGE_PACKET_MAX}-byte limit`);
  }
  const packet = Buffer.allocUnsafe(length);
  writeHex4(packet, 0, length);
  packet.set(body, PKT_HEADER_SIZE);
  return packet;
}

/**
 * An `ERR <message>` packet, as a server sends it before hanging up. A message too long for one
 * packet is cut to fit (at a UTF-8 character boundary), so the client still learns why: a packet
 * over {@link LARGE_PACKET_MAX} bytes could not be sent at all. A fresh buffer.
 */
export function errPktLine(message: string): Buffer {
  const body = Buffer.from(`ERR ${message}`, 'utf8');
  if (body.length <= LARGE_PACKET_DATA_MAX) return encodePktLine(body);
  let end = LARGE_PACKET_DATA_MAX;
  // Back up over UTF-8 continuation bytes (10xxxxxx) to the start of the character cut in two.
  while (end > 0 && (body[end]! & 0xc0) === 0x80) end--;
  return encodePktLine(body.subarray(0, end));
}

/**
 * Decodes a complete stream held in memory into packets. Payloads are views into `stream`, not
 * copies. For streams read from a descriptor use `PktReader`, which does not need it all at once.
 *
 * @throws {@link ProtocolError} for a bad length or a stream that ends inside a packet.
 */
export function decodePktLines(input: ArrayBufferView): Packet[] {
  const stream = byteView(input, 'stream');
  const packets: Packet[] = [];
  let at = 0;
  while (at < stream.length) {
    if (stream.length - at < PKT_HEADER_SIZE) {
      throw new ProtocolError(at, `stream ends inside a pkt-line header (${stream.length - at} of 4 bytes)`);
    }
    const length = parsePktLength(stream, at, at);
    const kind = specialKind(length);
    if (kind !== undefined) {
      packets.push({ kind, offset: at });
      at += PKT_HEADER_SIZE;
      continue;
    }
    if (stream.length - at < length) {
      throw new ProtocolError(
        at,
        `stream ends inside a ${length}-byte pkt-line (${stream.length - at} bytes left)`,
      );
    }
    packets.push({ kind: 'data', payload: stream.subarray(at + PKT_HEADER_SIZE, at + length), offset: at });
    at += length;
  }
  return packets;
}

/**
 * The text of a data packet as Git's readers see it: UTF-8, one trailing newline removed (senders
 * add it, readers strip it, and it is optional on the wire).
 */
export function packetText(input: ArrayBufferView): string {
  const payload = byteView(input, 'payload');
  const end =
    payload.length > 0 && payload[payload.length - 1] === 0x0a ? payload.length - 1 : payload.length;
  return Buffer.from(payload.buffer, payload.byteOffset, end).toString('utf8');
}
