/**
 * Git's delta format: reading a delta's sizes and applying it to its base.
 */
import { ObjectCorruptError } from './errors';
import type { SharedCopier } from './sharedCopy';
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

/** Results at least this large are refused: a delta's sizes are checked before anything is allocated. */
const MAX_RESULT = 2 ** 32;
/** Copies up to this length are a byte loop: making the view a native copy needs costs more. */
const SHORT_COPY = 24;

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

/** How many argument bytes follow a copy instruction, by its low seven bits. */
const COPY_ARGUMENTS = Uint8Array.from({ length: 128 }, (_, op) => {
  let n = 0;
  for (let bits = op; bits !== 0; bits >>= 1) n += bits & 1;
  return n;
});

/**
 * Applies `delta` to `base` and returns the new object's bytes (gitformat-pack, "Deltified
 * representation"). Every instruction is bounds-checked: the delta's base size must be the base's
 * length, a copy must lie inside the base, an insert inside the delta, nothing may write past the
 * declared result size, and the result must be filled exactly. Damage is reported, not obeyed.
 *
 * The instructions are read in one pass and each copies straight into the result with one native
 * copy (`TypedArray.set`); a copy too short to be worth a call is a byte loop. Nothing is built per
 * instruction: no piece, no array, only the view a native copy needs.
 *
 * @param allocate - makes the (uninitialised) result buffer; every byte of it is written.
 * @param copier - when the result and the base (or the delta) lie in its shared memory, each copy
 *   from the base (or insert from the delta) is one `memory.copy` (JavaScript copies shared
 *   memory at half speed: see sharedCopy).
 * @throws {@link ObjectCorruptError} naming `place` for any violation.
 */
export function applyDelta(
  base: Uint8Array,
  delta: Uint8Array,
  place: Place,
  allocate: (size: number) => Buffer = (size) => Buffer.allocUnsafe(size),
  copier?: SharedCopier,
): Buffer {
  const fail = (problem: string): never => {
    throw new ObjectCorruptError(place.file, place.offset, problem);
  };
  const { baseSize, resultSize, instructionsAt } = readDeltaSizes(delta, place);
  if (baseSize !== base.length)
    fail(`delta expects a base of ${baseSize} bytes, the base has ${base.length}`);
  if (resultSize >= MAX_RESULT) fail(`delta result of ${resultSize} bytes is too large`);
  const out = allocate(resultSize);
  const inArena = copier !== undefined && copier.holds(out);
  const shared = inArena && copier.holds(base) ? copier.copy : undefined;
  const sharedInserts = inArena && copier.holds(delta) ? copier.copy : undefined;
  const outAt = out.byteOffset;
  const end = delta.length;
  const baseBuffer = base.buffer;
  const baseAt = base.byteOffset;
  const deltaBuffer = delta.buffer;
  const deltaAt = delta.byteOffset;
  let at = instructionsAt;
  let written = 0;
  // The `!` reads below are inside bounds already checked: `at < end` for the opcode, the
  // COPY_ARGUMENTS check for a copy's argument bytes, `offset + size <= base.length` for a copy.
  while (at < end) {
    const op = delta[at++]!;
    if (op & 0x80) {
      // Copy: bits 0-3 say which offset bytes follow, bits 4-6 which size bytes (little-endian).
      if (at + COPY_ARGUMENTS[op & 0x7f]! > end) fail('delta copy instruction is cut off');
      let offset = 0;
      let size = 0;
      if (op & 0x01) offset = delta[at++]!;
      if (op & 0x02) offset |= delta[at++]! << 8;
      if (op & 0x04) offset |= delta[at++]! << 16;
      if (op & 0x08) offset += delta[at++]! * 0x1000000;
      if (op & 0x10) size = delta[at++]!;
      if (op & 0x20) size |= delta[at++]! << 8;
      if (op & 0x40) size |= delta[at++]! << 16;
      if (size === 0) size = 0x10000;
      if (offset + size > base.length) fail('delta reaches past its base');
      if (written + size > resultSize) fail('delta writes past the result size it declares');
      if (shared !== undefined) {
        shared(outAt + written, baseAt + offset, size);
      } else if (size <= SHORT_COPY) {
        for (let k = 0; k < size; k++) out[written + k] = base[offset + k]!;
      } else {
        out.set(new Uint8Array(baseBuffer, baseAt + offset, size), written);
      }
      written += size;
    } else if (op !== 0) {
      // Insert: the next `op` bytes of the delta are literal result bytes.
      if (at + op > end) fail('delta insert instruction is cut off');
      if (written + op > resultSize) fail('delta writes past the result size it declares');
      if (sharedInserts !== undefined) {
        sharedInserts(outAt + written, deltaAt + at, op);
      } else if (op <= SHORT_COPY) {
        for (let k = 0; k < op; k++) out[written + k] = delta[at + k]!;
      } else {
        out.set(new Uint8Array(deltaBuffer, deltaAt + at, op), written);
      }
      written += op;
      at += op;
    } else {
      fail('delta uses the reserved instruction 0');
    }
  }
  if (written !== resultSize) fail(`delta produces ${written} bytes, its header says ${resultSize}`);
  return out;
}

function readSize(bytes: Uint8Array, start: number, place: Place): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  let at = start;
  for (;;) {
    if (at >= bytes.length) throw new ObjectCorruptError(place.file, place.offset, 'delta header is cut off');
    const byte = bytes[at++]!; // at < bytes.length, checked above
    value += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) break;
    scale *= 128;
    if (scale > 2 ** 49) throw new ObjectCorruptError(place.file, place.offset, 'delta size is too large');
  }
  return { value, next: at };
}
