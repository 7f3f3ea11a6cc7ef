import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { ObjectCorruptError } from './errors';
import { rawLength, type HashAlgorithm } from './objectId';
import { objectTypeFromPackNumber, type ObjectType } from './objectType';
import type { PackIndex } from './packIndex';
import { PackWindows, type WindowCache } from './packWindows';

const PACK_HEADER = 12;
const PACK_SIGNATURE = 0x5041434b; // "PACK"
/** The most deltas counted against one entry: {@link PackFile.deltaChildren} says "this many or more". */
export const MANY_CHILDREN = 0xffff;
/** The bytes read at a time while scanning a pack for its delta bases. */
const SCAN_CHUNK = 1024 * 1024;
const OFS_DELTA = 6;
const REF_DELTA = 7;
/** What {@link PackFile.scanBase} says of an entry that is no delta of this pack, or is damaged. */
const NO_BASE = -1;
const DAMAGED = -2;

/** A pack entry's header: what it stores and where its zlib data starts. */
export type EntryHeader =
  | { readonly kind: 'whole'; readonly type: ObjectType; readonly size: number; readonly dataAt: number }
  | {
      readonly kind: 'ofs-delta';
      readonly size: number;
      readonly baseOffset: number;
      readonly dataAt: number;
    }
  | { readonly kind: 'ref-delta'; readonly size: number; readonly baseId: Buffer; readonly dataAt: number };

/** A pack entry read from disk: its header and its raw bytes from the entry's start to its end. */
export interface RawEntry {
  /** The entry's offset in the pack. */
  readonly offset: number;
  /** The parsed header; `dataAt` counts from the entry's start. */
  readonly header: EntryHeader;
  /** The whole entry: header, delta base reference and zlib stream. */
  readonly bytes: Buffer;
}

/**
 * A `.pack` file with its index, read through {@link PackWindows} (large positioned reads kept for
 * reuse, as Git maps its packs in windows).
 *
 * Opening checks the pack's signature, version, object count and trailing checksum against the
 * index. An entry's extent comes from the next entry's offset (a reverse index built on first use),
 * so each read fetches exactly the entry's bytes, which are checked against the index's CRC-32
 * before anything is inflated.
 */
export class PackFile {
  /** The pack's length in bytes. */
  readonly size: number;
  private readonly fd: number;
  private readonly windows: PackWindows;
  private readonly idLength: number;
  private sortedOffsets: Float64Array | undefined;
  private positionsByOffset: Uint32Array | undefined;
  /** Per entry in offset order: how many entries of this pack are deltas against it. */
  private childCounts: Uint16Array | null | undefined;

  private constructor(
    /** The `.pack` file's path. */
    readonly file: string,
    /** The pack's index. */
    readonly index: PackIndex,
    algorithm: HashAlgorithm,
    windows: WindowCache | undefined,
  ) {
    this.idLength = rawLength(algorithm);
    this.fd = openSync(file, 'r');
    let opened: PackWindows | undefined;
    try {
      this.size = fstatSync(this.fd).size;
      this.windows = opened = new PackWindows(this.fd, this.size, file, windows);
      this.checkEnds();
    } catch (err) {
      opened?.close();
      closeSync(this.fd);
      throw err;
    }
  }

  /**
   * Opens the pack at `file` described by `index`, keeping its windows in `windows` (shared by the
   * packs of a repository; by default a cache of its own).
   *
   * @throws {@link ObjectCorruptError} when the pack does not match its index or is truncated.
   */
  static open(file: string, index: PackIndex, algorithm: HashAlgorithm, windows?: WindowCache): PackFile {
    return new PackFile(file, index, algorithm, windows);
  }

  /** Closes the pack's descriptor and drops its windows. */
  close(): void {
    this.windows.close();
    closeSync(this.fd);
  }

  /**
   * Reads the entry at `offset` (checking its CRC-32 when the index has one) and parses its header.
   * `position` is the entry's position in the index when the caller knows it.
   */
  readEntry(offset: number, position?: number): RawEntry {
    const { end, position: at } = this.locate(offset, position);
    const bytes = this.windows.read(offset, end - offset);
    const expected = this.index.crcAt(at);
    if (expected !== undefined && crc32(bytes) !== expected) {
      this.fail(offset, 'entry does not match the CRC-32 in its index');
    }
    return { offset, header: this.parseHeader(bytes, offset), bytes };
  }

  /** Reads only the header of the entry at `offset` (no CRC check: the payload is not read). */
  readHeader(offset: number): EntryHeader {
    const { end } = this.locate(offset, undefined);
    return this.parseHeader(this.windows.read(offset, Math.min(end - offset, 32 + this.idLength)), offset);
  }

  /**
   * How many entries of this pack are deltas against the entry at `offset` ({@link
   * MANY_CHILDREN} standing for that many or more), or undefined until {@link
   * PackFile.findDeltaBases} has run (or when it could not read every header).
   */
  deltaChildren(offset: number): number | undefined {
    const counts = this.childCounts;
    if (counts === undefined || counts === null) return undefined;
    const rank = this.rankOf(offset);
    return rank === undefined ? undefined : counts[rank];
  }

  /**
   * Reads every entry's header once (sequentially, past the windows, so the windows keep what the
   * reads need) to count each entry's deltas: a reader keeps an object for later only while
   * objects made from it are still to come. A damaged header anywhere leaves it unknown (it is
   * reported when that entry is read, not here). Runs once; later calls return at once.
   */
  findDeltaBases(): void {
    if (this.childCounts !== undefined) return;
    this.childCounts = null;
    const sorted = (this.sortedOffsets ??= this.buildReverseIndex());
    const count = sorted.length - 1;
    const counts = new Uint16Array(count);
    const chunk = Buffer.allocUnsafe(Math.min(SCAN_CHUNK, this.size));
    let chunkAt = 0;
    let chunkLength = 0;
    const headerRoom = 32 + this.idLength;
    try {
      for (let rank = 0; rank < count; rank++) {
        const offset = sorted[rank]!;
        const length = Math.min(sorted[rank + 1]! - offset, headerRoom);
        if (offset + length > chunkAt + chunkLength) {
          chunkAt = offset;
          chunkLength = readSync(this.fd, chunk, 0, Math.min(chunk.length, this.size - offset), offset);
          if (chunkLength < length) return;
        }
        const baseOffset = this.scanBase(chunk, offset - chunkAt, length, offset);
        if (baseOffset === DAMAGED) return;
        if (baseOffset === NO_BASE) continue;
        const base = this.rankOf(baseOffset);
        if (base !== undefined && counts[base]! < MANY_CHILDREN) counts[base] = counts[base]! + 1;
      }
    } catch (err) {
      if (err instanceof ObjectCorruptError) return;
      throw err;
    }
    this.childCounts = counts;
  }

  /** The entry's extent and index position, from the reverse index. */
  private locate(offset: number, position: number | undefined): { end: number; position: number } {
    const rank = this.rankOf(offset);
    if (rank === undefined)
      this.fail(offset, 'no entry starts at this offset (a delta base offset is wrong)');
    // rank is below the last index (rankOf checks), so both reads are in bounds.
    return { end: this.sortedOffsets![rank + 1]!, position: position ?? this.positionsByOffset![rank]! };
  }

  /** The rank of the entry at `offset` in offset order, or undefined when no entry starts there. */
  private rankOf(offset: number): number | undefined {
    const sorted = (this.sortedOffsets ??= this.buildReverseIndex());
    let lo = 0;
    let hi = sorted.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! < offset) lo = mid + 1;
      else hi = mid;
    }
    return sorted[lo] !== offset || lo === sorted.length - 1 ? undefined : lo;
  }

  /**
   * Sorts the index's offsets, checking each lies inside the pack and none repeats, and records
   * each one's index position.
   */
  private buildReverseIndex(): Float64Array {
    const n = this.index.count;
    const end = this.size - this.idLength;
    const offsets = this.index.offsets();
    for (let i = 0; i < n; i++) {
      const offset = offsets[i]!;
      if (offset < PACK_HEADER || offset >= end) {
        throw new ObjectCorruptError(
          this.index.file,
          undefined,
          `object ${i} points past its pack (offset ${offset})`,
        );
      }
    }
    const order = sortPositions(offsets, end);
    const sorted = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) {
      sorted[i] = offsets[order[i]!]!; // order is a permutation of 0..n-1
      if (i > 0 && sorted[i] === sorted[i - 1]) {
        throw new ObjectCorruptError(
          this.index.file,
          undefined,
          `two objects share pack offset ${sorted[i]}`,
        );
      }
    }
    sorted[n] = end;
    this.positionsByOffset = order;
    return sorted;
  }

  /**
   * The base offset of the entry whose header starts at `at` in `bytes` (`length` bytes of it
   * there): {@link NO_BASE} for a whole object or a reference delta whose base is not in this
   * pack, {@link DAMAGED} for a header {@link PackFile.parseHeader} would refuse. The scan reads
   * every header once, cold, so parsing each into an object was a visible part of opening a large pack.
   */
  private scanBase(bytes: Buffer, at: number, length: number, offset: number): number {
    const stop = at + length;
    let byte = bytes[at++]!; // length >= 1: entries are at least a byte apart
    const typeNumber = (byte >> 4) & 7;
    for (let more = 0; byte & 0x80; more++) {
      if (at >= stop || more >= 7) return DAMAGED;
      byte = bytes[at++]!;
    }
    if (typeNumber === OFS_DELTA) {
      if (at >= stop) return DAMAGED;
      byte = bytes[at++]!;
      let distance = byte & 0x7f;
      while (byte & 0x80) {
        if (at >= stop) return DAMAGED;
        byte = bytes[at++]!;
        distance = (distance + 1) * 128 + (byte & 0x7f);
        if (distance > 2 ** 53) return DAMAGED;
      }
      return distance === 0 || distance > offset - PACK_HEADER ? DAMAGED : offset - distance;
    }
    if (typeNumber === REF_DELTA) {
      if (at + this.idLength > stop) return DAMAGED;
      const position = this.index.find(bytes.subarray(at, at + this.idLength));
      return position >= 0 ? this.index.offsetAt(position) : NO_BASE;
    }
    return objectTypeFromPackNumber(typeNumber) === undefined ? DAMAGED : NO_BASE;
  }

  /** Parses a pack entry header (gitformat-pack: type and size, then the delta base if any). */
  private parseHeader(bytes: Buffer, offset: number): EntryHeader {
    let at = 0;
    const next = (): number => {
      if (at >= bytes.length) this.fail(offset, 'entry header is cut off');
      return bytes[at++]!;
    };
    let byte = next();
    const typeNumber = (byte >> 4) & 7;
    let size = byte & 15;
    let scale = 16;
    while (byte & 0x80) {
      byte = next();
      size += (byte & 0x7f) * scale;
      scale *= 128;
      if (scale > 2 ** 53) this.fail(offset, 'entry size is too large');
    }
    if (typeNumber === OFS_DELTA) {
      // The distance back to the base: base-128, big-endian, each continuation adding one.
      byte = next();
      let distance = byte & 0x7f;
      while (byte & 0x80) {
        byte = next();
        distance = (distance + 1) * 128 + (byte & 0x7f);
        if (distance > 2 ** 53) this.fail(offset, 'delta base distance is too large');
      }
      if (distance === 0 || distance > offset - PACK_HEADER) {
        this.fail(offset, `delta base distance ${distance} points outside the pack`);
      }
      return { kind: 'ofs-delta', size, baseOffset: offset - distance, dataAt: at };
    }
    if (typeNumber === REF_DELTA) {
      if (at + this.idLength > bytes.length) this.fail(offset, 'delta base id is cut off');
      const baseId = Buffer.from(bytes.subarray(at, at + this.idLength));
      return { kind: 'ref-delta', size, baseId, dataAt: at + this.idLength };
    }
    const type = objectTypeFromPackNumber(typeNumber);
    if (type === undefined) this.fail(offset, `entry has invalid type ${typeNumber}`);
    return { kind: 'whole', type, size, dataAt: at };
  }

  /** Checks the header and the trailer against the index. */
  private checkEnds(): void {
    if (this.size < PACK_HEADER + this.idLength) this.fail(0, `pack is truncated (${this.size} bytes)`);
    const header = this.windows.read(0, PACK_HEADER);
    if (header.readUInt32BE(0) !== PACK_SIGNATURE) this.fail(0, 'not a pack file (no PACK signature)');
    const version = header.readUInt32BE(4);
    if (version !== 2 && version !== 3) this.fail(4, `unsupported pack version ${version}`);
    const count = header.readUInt32BE(8);
    if (count !== this.index.count) {
      this.fail(8, `pack holds ${count} objects, its index ${this.index.count}`);
    }
    const trailerAt = this.size - this.idLength;
    if (!this.windows.read(trailerAt, this.idLength).equals(this.index.packChecksum)) {
      this.fail(trailerAt, `pack checksum does not match the one in ${this.index.file}`);
    }
  }

  private fail(offset: number, problem: string): never {
    throw new ObjectCorruptError(this.file, offset, problem);
  }
}

/**
 * The positions of `offsets` in ascending order of offset (each below `limit`). Each offset is
 * sorted together with its position as one number (offset times the count, plus the position) by
 * the typed array's own numeric sort: sorting positions with a comparator function cost five times
 * as much, a third of a second of start-up on a 500,000-object pack. Packs too large for that
 * number to stay exact (beyond 2^53) sort with a comparator.
 */
function sortPositions(offsets: Float64Array, limit: number): Uint32Array {
  const n = offsets.length;
  const order = new Uint32Array(n);
  if (limit * n >= Number.MAX_SAFE_INTEGER) {
    for (let i = 0; i < n; i++) order[i] = i;
    return order.sort((a, b) => offsets[a]! - offsets[b]!);
  }
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = offsets[i]! * n + i;
  keys.sort();
  for (let i = 0; i < n; i++) order[i] = keys[i]! % n;
  return order;
}
