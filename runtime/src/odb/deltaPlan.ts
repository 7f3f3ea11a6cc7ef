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

/** Results at least this large are refused: a delta's sizes are checked before anything is allocated. */
const MAX_RESULT = 2 ** 32;
/** Pieces up to this length are copied byte by byte: making a view for `set` costs more. */
const SHORT_COPY = 24;
/** What one piece costs in memory besides its literal bytes (three numbers and a reference). */
const PIECE_OVERHEAD = 32;

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
 * An object described as pieces of a base object and of literal bytes: what a chain of deltas makes
 * of the object at its root, without building the objects in between.
 *
 * Git applies each delta of a chain in turn, copying the whole intermediate object every time; a
 * blob five deltas above its root is copied five times. A plan is instead composed delta by delta
 * (each copy instruction is mapped onto the pieces of the plan below it, a cost in instructions, not
 * in bytes) and the object is built once, from the root, by {@link DeltaPlan.build}. Plans are
 * small (a few pieces per edit), so they are also what the delta-base cache keeps for the objects
 * inside a chain.
 *
 * A plan is immutable. Literal pieces are views of the inflated deltas it was composed from; it
 * keeps them alive and never modifies them.
 */
export class DeltaPlan {
  private constructor(
    /** The length of the base the plan reads, in bytes. */
    readonly baseLength: number,
    /** The length of the object it builds, in bytes. */
    readonly length: number,
    /** Each piece's source: undefined for the base, else the delta whose literal bytes it takes. */
    private readonly sources: readonly (Uint8Array | undefined)[],
    /** Each piece's first byte in its source. */
    private readonly starts: readonly number[],
    /** Each piece's end in the built object (exclusive), ascending: pieces are found by bisection. */
    private readonly ends: readonly number[],
    /** Approximate bytes held: the memory of the deltas it keeps alive and the pieces themselves. */
    readonly memory: number,
  ) {}

  /** The plan that builds a base of `length` bytes unchanged: where every chain starts. */
  static identity(length: number): DeltaPlan {
    return length === 0
      ? new DeltaPlan(0, 0, [], [], [], 0)
      : new DeltaPlan(length, length, [undefined], [0], [length], PIECE_OVERHEAD);
  }

  /**
   * The plan of the object `delta` makes from this plan's object. Every instruction is
   * bounds-checked as when applying the delta: its base size must be this plan's length, a copy must
   * lie inside it, an insert inside the delta, nothing may write past the declared result size, and
   * the result must be filled exactly. Damage is reported, not obeyed.
   *
   * `delta` is kept (not copied) by the new plan: the caller must not modify it afterwards.
   *
   * @throws {@link ObjectCorruptError} naming `place` for any violation.
   */
  compose(delta: Uint8Array, place: Place): DeltaPlan {
    const fail = (problem: string): never => {
      throw new ObjectCorruptError(place.file, place.offset, problem);
    };
    const { baseSize, resultSize, instructionsAt } = readDeltaSizes(delta, place);
    if (baseSize !== this.length)
      fail(`delta expects a base of ${baseSize} bytes, the base has ${this.length}`);
    if (resultSize >= MAX_RESULT) fail(`delta result of ${resultSize} bytes is too large`);
    const out = new PlanBuilder();
    let at = instructionsAt;
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
        if (offset + size > this.length) fail('delta reaches past its base');
        if (out.length + size > resultSize) fail('delta writes past the result size it declares');
        this.copyRange(offset, size, out);
      } else if (op !== 0) {
        // Insert: the next `op` bytes of the delta are literal result bytes.
        if (at + op > delta.length) fail('delta insert instruction is cut off');
        if (out.length + op > resultSize) fail('delta writes past the result size it declares');
        out.push(delta, at, op);
        at += op;
      } else {
        fail('delta uses the reserved instruction 0');
      }
    }
    if (out.length !== resultSize) fail(`delta produces ${out.length} bytes, its header says ${resultSize}`);
    return new DeltaPlan(this.baseLength, resultSize, out.sources, out.starts, out.ends, out.memory);
  }

  /**
   * Builds the object from `base`, which must be the object at the root of the chain this plan was
   * composed along.
   *
   * @param allocate - makes the (uninitialised) result buffer; every byte of it is written.
   * @throws {@link ObjectCorruptError} naming `place` when `base` does not have the expected length.
   */
  build(base: Uint8Array, place: Place, allocate: (size: number) => Buffer = Buffer.allocUnsafe): Buffer {
    if (base.length !== this.baseLength) {
      throw new ObjectCorruptError(
        place.file,
        place.offset,
        `delta chain expects a base of ${this.baseLength} bytes, the base has ${base.length}`,
      );
    }
    const out = allocate(this.length);
    let written = 0;
    for (let i = 0; i < this.ends.length; i++) {
      const source = this.sources[i] ?? base;
      const start = this.starts[i];
      const size = this.ends[i] - written;
      if (size <= SHORT_COPY) {
        for (let k = 0; k < size; k++) out[written + k] = source[start + k];
      } else {
        out.set(new Uint8Array(source.buffer, source.byteOffset + start, size), written);
      }
      written += size;
    }
    return out;
  }

  /** Appends to `out` the pieces that make bytes `offset` to `offset + size` of this plan's object. */
  private copyRange(offset: number, size: number, out: PlanBuilder): void {
    const { ends, starts, sources } = this;
    let lo = 0;
    let hi = ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ends[mid] <= offset) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; size > 0; i++) {
      const begin = i === 0 ? 0 : ends[i - 1];
      const take = Math.min(ends[i] - offset, size);
      out.push(sources[i], starts[i] + (offset - begin), take);
      offset += take;
      size -= take;
    }
  }
}

/**
 * Applies `delta` to `base` and returns the new object's bytes, bounds-checked as
 * {@link DeltaPlan.compose} describes.
 *
 * @throws {@link ObjectCorruptError} naming `place` for any violation.
 */
export function applyDelta(base: Uint8Array, delta: Uint8Array, place: Place): Buffer {
  return DeltaPlan.identity(base.length).compose(delta, place).build(base, place);
}

/** The pieces of a plan being composed; a piece continuing the previous one merges with it. */
class PlanBuilder {
  readonly sources: (Uint8Array | undefined)[] = [];
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  length = 0;
  memory = 0;
  private readonly kept = new Set<ArrayBufferLike>();

  push(source: Uint8Array | undefined, start: number, size: number): void {
    const last = this.ends.length - 1;
    if (
      last >= 0 &&
      this.sources[last] === source &&
      this.starts[last] + (this.ends[last] - (last === 0 ? 0 : this.ends[last - 1])) === start
    ) {
      this.ends[last] += size;
    } else {
      this.sources.push(source);
      this.starts.push(start);
      this.ends.push(this.length + size);
      this.memory += PIECE_OVERHEAD;
      // What a literal piece keeps alive is its source's whole memory, which may be larger than the
      // view (a pooled allocation), so that is what counts.
      if (source !== undefined && !this.kept.has(source.buffer)) {
        this.kept.add(source.buffer);
        this.memory += source.buffer.byteLength;
      }
    }
    this.length += size;
  }
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
