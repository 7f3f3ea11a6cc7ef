import { ObjectCorruptError } from './errors';
import type { Place } from './zlibInflate';

/** The two sizes a delta starts with, and where its instructions begin. */
export interface DeltaSizes {
  /** The length the base must have, in bytes. */
  readonly baseSize: number;
  /** The length of the object the delta produces, in bytes. */
  readonly resultSize: number;
  /** The offset of the first instruction in the delta. */
  readonly instructionsAt: number;
}

/**
 * Reads the base and result sizes at the start of a delta (gitformat-pack, "Deltified
 * representation"): two little-endian base-128 numbers. `delta` may be just the delta's first
 * bytes, which is how the header of a deltified object is read without applying it.
 *
 * @throws {@link ObjectCorruptError} naming `place` when a size is cut off or too large.
 */
export function readDeltaSizes(delta: Uint8Array, place: Place): DeltaSizes {
  const base = readSize(delta, 0, place);
  const result = readSize(delta, base.next, place);
  return { baseSize: base.value, resultSize: result.value, instructionsAt: result.next };
}

/**
 * Applies `delta` to `base` and returns the new object's bytes. Every instruction is bounds-checked:
 * a copy must lie inside the base, an insert inside the delta, and neither may write past the
 * result size the delta declares; the base must have the declared size and the result must be
 * filled exactly. Nothing out of range is ever read or written, so damage is reported, not obeyed.
 *
 * @param allocate - makes the (uninitialised) result buffer; every byte of it is written.
 * @throws {@link ObjectCorruptError} naming `place` for any violation.
 */
export function applyDelta(
  base: Uint8Array,
  delta: Uint8Array,
  place: Place,
  allocate: (size: number) => Buffer = Buffer.allocUnsafe,
): Buffer {
  const { baseSize, resultSize, instructionsAt } = readDeltaSizes(delta, place);
  const fail = (problem: string): never => {
    throw new ObjectCorruptError(place.file, place.offset, problem);
  };
  if (baseSize !== base.length)
    fail(`delta expects a base of ${baseSize} bytes, the base has ${base.length}`);
  if (resultSize >= 2 ** 32) fail(`delta result of ${resultSize} bytes is too large`);
  const out = allocate(resultSize);
  let at = instructionsAt;
  let written = 0;
  while (at < delta.length) {
    const op = delta[at++];
    if (op & 0x80) {
      // Copy: bits 0-3 say which offset bytes follow, bits 4-6 which size bytes (little-endian).
      let offset = 0;
      let size = 0;
      for (let bit = 0; bit < 7; bit++) {
        if ((op & (1 << bit)) === 0) continue;
        if (at >= delta.length) fail('delta copy instruction is cut off');
        const value = delta[at++];
        if (bit < 4) offset += value * 2 ** (8 * bit);
        else size += value * 2 ** (8 * (bit - 4));
      }
      if (size === 0) size = 0x10000;
      if (offset + size > base.length) fail('delta reaches past its base');
      if (written + size > resultSize) fail('delta writes past the result size it declares');
      written += copyBytes(base, offset, size, out, written);
    } else if (op !== 0) {
      // Insert: the next `op` bytes of the delta are literal result bytes.
      if (at + op > delta.length) fail('delta insert instruction is cut off');
      if (written + op > resultSize) fail('delta writes past the result size it declares');
      written += copyBytes(delta, at, op, out, written);
      at += op;
    } else {
      fail('delta uses the reserved instruction 0');
    }
  }
  if (written !== resultSize) fail(`delta produces ${written} bytes, its header says ${resultSize}`);
  return out;
}

/**
 * Copies `size` bytes of `from` at `start` into `to` at `at`. Short runs (most inserts and many
 * copies) go byte by byte: creating a view for `set` costs more than the copy itself there.
 */
function copyBytes(from: Uint8Array, start: number, size: number, to: Buffer, at: number): number {
  if (size <= 32) {
    for (let i = 0; i < size; i++) to[at + i] = from[start + i];
  } else {
    to.set(new Uint8Array(from.buffer, from.byteOffset + start, size), at);
  }
  return size;
}

function readSize(bytes: Uint8Array, start: number, place: Place): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  let at = start;
  for (;;) {
    if (at >= bytes.length) throw new ObjectCorruptError(place.file, place.offset, 'delta header is cut off');
    const byte = bytes[at++];
    value += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) break;
    scale *= 128;
    if (scale > 2 ** 49) throw new ObjectCorruptError(place.file, place.offset, 'delta size is too large');
  }
  return { value, next: at };
}
