/**
 * Git's `send_sideband`: split data into pkt-lines of at most `packetMax` bytes, each tagged with a
 * band. Since Git 2.50 each packet goes out with one gathered write of [header, payload]; before,
 * with two writes. Both are here: the first is the API, the second is kept so benchmarks can show
 * what the change saves.
 */
import { LARGE_PACKET_MAX } from '../constants';
import type { WriteOptions } from '../options';
import { writeOrDie, writevOrDie } from '../orDie';
import { byteView, checkFd } from '../writeArguments';
import { PKT_HEADER_SIZE, SIDEBAND_HEADER_SIZE, writeHex4 } from './pktLine';

/**
 * Checks the arguments every sideband writer shares; a wrong one would put invalid packets on the
 * wire, so it is the caller's error.
 */
export function checkSidebandArgs(band: number, packetMax: number): void {
  if (!Number.isInteger(band) || band > 255) {
    throw new RangeError(`band must be an integer up to 255 (negative for none), got ${band}`);
  }
  if (!Number.isInteger(packetMax) || packetMax <= SIDEBAND_HEADER_SIZE || packetMax > LARGE_PACKET_MAX) {
    throw new RangeError(`packetMax must be an integer in 6..${LARGE_PACKET_MAX}, got ${packetMax}`);
  }
}

/**
 * Writes the header of one packet carrying `payloadLength` bytes into `target` at `at`: with
 * `band >= 0` the length of payload + 5 in hex and the band byte, with a negative band the length
 * of payload + 4 only.
 *
 * @returns the header's size, 5 or 4 bytes.
 * @throws TypeError when `target` is not a `Uint8Array`, RangeError when the header does not fit.
 */
export function writeSidebandHeader(
  target: Uint8Array,
  at: number,
  payloadLength: number,
  band: number,
): number {
  // Indexing any other view would store whole elements, not the bytes of the header.
  if (!(target instanceof Uint8Array)) throw new TypeError('target must be a Uint8Array (or a Buffer)');
  const size = band < 0 ? PKT_HEADER_SIZE : SIDEBAND_HEADER_SIZE;
  if (!Number.isInteger(at) || at < 0 || at + size > target.length) {
    throw new RangeError(
      `at must leave ${size} bytes for the header in target (${target.length} bytes), got ${at}`,
    );
  }
  if (band < 0) {
    writeHex4(target, at, payloadLength + PKT_HEADER_SIZE);
    return PKT_HEADER_SIZE;
  }
  writeHex4(target, at, payloadLength + SIDEBAND_HEADER_SIZE);
  target[at + PKT_HEADER_SIZE] = band;
  return SIDEBAND_HEADER_SIZE;
}

/**
 * The packets of `data` on `band`, framed as Git's send_sideband frames them: [header, payload view]
 * pairs. The arguments are checked before the first packet. One header buffer serves every packet,
 * so each pair must be written before the next is taken.
 */
function* sidebandPackets(
  fd: number,
  band: number,
  data: ArrayBufferView,
  packetMax: number,
): Generator<[Uint8Array, Uint8Array]> {
  checkFd(fd);
  checkSidebandArgs(band, packetMax);
  const bytes = byteView(data, 'data');
  const chunk = packetMax - SIDEBAND_HEADER_SIZE;
  const header = Buffer.allocUnsafe(SIDEBAND_HEADER_SIZE);
  for (let at = 0; at < bytes.length; at += chunk) {
    const payload = bytes.subarray(at, Math.min(at + chunk, bytes.length));
    yield [header.subarray(0, writeSidebandHeader(header, 0, payload.length, band)), payload];
  }
}

/**
 * Sends `data` on `band` as Git's send_sideband does: packets of at most `packetMax - 5` payload
 * bytes (also with a negative band, which drops the band byte and writes a 4-byte header), each
 * written with one {@link writevOrDie} of [header, payload slice]. Empty data sends nothing.
 *
 * The payload is never copied: each slice is a view of `data`, which is not modified.
 *
 * @param data - any ArrayBufferView, split and counted in bytes.
 * @param band - 1 pack data, 2 progress, 3 error; negative for plain pkt-lines without a band.
 * @param packetMax - the largest packet, header included: 65520 for `side-band-64k`, 1000 for
 *   `side-band`.
 * @throws {@link BrokenPipeError} when the reader has gone, {@link WriteError} for other failures.
 */
export function sendSideband(
  fd: number,
  band: number,
  data: ArrayBufferView,
  packetMax: number,
  options: WriteOptions = {},
): void {
  for (const packet of sidebandPackets(fd, band, data, packetMax)) writevOrDie(fd, packet, options);
}

/**
 * The same packets as {@link sendSideband}, each written with two {@link writeOrDie} calls (header,
 * then payload), as Git did before it gathered them. Kept for comparison in benchmarks: the bytes
 * on the wire are identical, the syscalls are twice as many.
 */
export function sendSidebandTwoWrites(
  fd: number,
  band: number,
  data: ArrayBufferView,
  packetMax: number,
  options: WriteOptions = {},
): void {
  for (const [header, payload] of sidebandPackets(fd, band, data, packetMax)) {
    writeOrDie(fd, header, options);
    writeOrDie(fd, payload, options);
  }
}
