import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ObjectCorruptError } from './errors';
import { rawLength, type HashAlgorithm } from './objectId';

const V2_MAGIC = 0xff744f63; // "\377tOc"
const FANOUT_ENTRIES = 256;
const FANOUT_BYTES = FANOUT_ENTRIES * 4;
/** The bit of a 4-byte v2 offset that says "look in the 8-byte table instead". */
const LARGE_OFFSET_FLAG = 0x80000000;

/**
 * A pack's `.idx` file (gitformat-pack, versions 1 and 2): the sorted object ids of the pack, each
 * with the offset of its entry in the `.pack` file and, in version 2, the CRC-32 of that entry.
 *
 * The whole file is read and its trailing checksum verified when it is opened, so a flipped byte
 * anywhere in it is reported at once instead of sending a lookup to the wrong place; the fan-out
 * table and the large-offset references are checked too.
 */
export class PackIndex {
  /** The index format version, 1 or 2. */
  readonly version: 1 | 2;
  /** The number of objects in the pack. */
  readonly count: number;
  /** The checksum of the `.pack` file this index describes, as recorded in the index trailer. */
  readonly packChecksum: Buffer;

  private readonly idLength: number;
  private readonly fanoutAt: number;
  private readonly namesAt: number;
  private readonly nameStride: number;
  private readonly crcsAt: number;
  private readonly offsetsAt: number;
  private readonly largeAt: number;
  private readonly largeCount: number;

  private constructor(
    /** The `.idx` file's path. */
    readonly file: string,
    private readonly data: Buffer,
    algorithm: HashAlgorithm,
  ) {
    const idLength = rawLength(algorithm);
    this.idLength = idLength;
    const trailer = 2 * idLength;
    if (data.length >= 8 && data.readUInt32BE(0) === V2_MAGIC) {
      const version = data.readUInt32BE(4);
      if (version !== 2) this.fail(4, `unsupported index version ${version}`);
      this.version = 2;
      this.fanoutAt = 8;
      this.count = this.checkFanout(8);
      this.namesAt = 8 + FANOUT_BYTES;
      this.nameStride = idLength;
      this.crcsAt = this.namesAt + this.count * idLength;
      this.offsetsAt = this.crcsAt + this.count * 4;
      this.largeAt = this.offsetsAt + this.count * 4;
      const rest = data.length - trailer - this.largeAt;
      if (rest < 0 || rest % 8 !== 0) {
        this.fail(undefined, `index of ${this.count} objects cannot be ${data.length} bytes long`);
      }
      this.largeCount = rest / 8;
    } else {
      this.version = 1;
      this.fanoutAt = 0;
      this.count = this.checkFanout(0);
      this.namesAt = FANOUT_BYTES + 4;
      this.nameStride = 4 + idLength;
      this.crcsAt = -1;
      this.offsetsAt = FANOUT_BYTES;
      this.largeAt = -1;
      this.largeCount = 0;
      if (data.length !== FANOUT_BYTES + this.count * this.nameStride + trailer) {
        this.fail(undefined, `version 1 index of ${this.count} objects cannot be ${data.length} bytes long`);
      }
    }
    const body = data.length - idLength;
    const actual = createHash(algorithm).update(data.subarray(0, body)).digest();
    if (!actual.equals(data.subarray(body))) this.fail(body, 'index checksum does not match its content');
    this.packChecksum = Buffer.from(data.subarray(body - idLength, body));
  }

  /**
   * Reads and checks the index at `file`.
   *
   * @throws {@link ObjectCorruptError} when its layout or checksum is wrong.
   */
  static open(file: string, algorithm: HashAlgorithm): PackIndex {
    return new PackIndex(file, readFileSync(file), algorithm);
  }

  /** The position of `id` (binary, {@link rawLength} bytes) in the sorted table, or -1. */
  find(id: Uint8Array): number {
    const first = id[0];
    if (first === undefined || id.length !== this.idLength) {
      throw new RangeError(`${this.file}: an object id here has ${this.idLength} bytes, not ${id.length}`);
    }
    let lo = first === 0 ? 0 : this.fanout(first - 1);
    let hi = this.fanout(first);
    const data = this.data;
    const n = this.idLength;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.namesAt + mid * this.nameStride;
      let cmp = 0;
      for (let i = 0; i < n; i++) {
        // Both reads are in bounds: the names table's extent was checked on open, and i < id.length.
        const d = data[at + i]! - id[i]!;
        if (d !== 0) {
          cmp = d;
          break;
        }
      }
      if (cmp === 0) return mid;
      if (cmp < 0) lo = mid + 1;
      else hi = mid;
    }
    return -1;
  }

  /** The object id at `position`, as a view of the index data (do not modify). */
  idAt(position: number): Buffer {
    const at = this.namesAt + position * this.nameStride;
    return this.data.subarray(at, at + this.idLength);
  }

  /**
   * Every entry's pack offset, by index position: {@link PackIndex.offsetAt} for all of them in
   * one pass. Reading a pack's whole table runs once, cold (not yet compiled): a call per entry
   * through `readUInt32BE` and its bounds checks was a visible part of opening a large pack; the bytes
   * are read here directly (the table lies inside the data, checked when the index was opened).
   */
  offsets(): Float64Array {
    const n = this.count;
    const out = new Float64Array(n);
    if (this.version === 1) {
      for (let i = 0; i < n; i++) out[i] = this.offsetAt(i);
      return out;
    }
    const d = this.data;
    for (let i = 0, at = this.offsetsAt; i < n; i++, at += 4) {
      // In bounds: the offset table's extent was checked against the data's length at opening.
      const small = d[at]! * 0x1000000 + ((d[at + 1]! << 16) | (d[at + 2]! << 8) | d[at + 3]!);
      out[i] = small < LARGE_OFFSET_FLAG ? small : this.offsetAt(i);
    }
    return out;
  }

  /** The offset of the pack entry at `position`. */
  offsetAt(position: number): number {
    if (this.version === 1) return this.data.readUInt32BE(this.offsetsAt + position * this.nameStride);
    const small = this.data.readUInt32BE(this.offsetsAt + position * 4);
    if ((small & LARGE_OFFSET_FLAG) === 0) return small;
    const large = small & ~LARGE_OFFSET_FLAG;
    if (large >= this.largeCount) {
      this.fail(this.offsetsAt + position * 4, `large offset ${large} is past the large offset table`);
    }
    const value = this.data.readBigUInt64BE(this.largeAt + large * 8);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) {
      this.fail(this.largeAt + large * 8, `offset ${value} is beyond any readable pack`);
    }
    return Number(value);
  }

  /** The CRC-32 of the compressed pack entry at `position` (version 2 only; else undefined). */
  crcAt(position: number): number | undefined {
    return this.version === 2 ? this.data.readUInt32BE(this.crcsAt + position * 4) : undefined;
  }

  private fanout(byte: number): number {
    return this.data.readUInt32BE(this.fanoutAt + byte * 4);
  }

  /** Checks the fan-out table at `at` (never decreasing) and returns the object count it gives. */
  private checkFanout(at: number): number {
    if (this.data.length < at + FANOUT_BYTES + 2 * this.idLength) {
      this.fail(undefined, `index is truncated (${this.data.length} bytes)`);
    }
    let previous = 0;
    for (let i = 0; i < FANOUT_ENTRIES; i++) {
      const value = this.data.readUInt32BE(at + i * 4);
      if (value < previous) this.fail(at + i * 4, `fan-out entry ${i} goes down (${value} < ${previous})`);
      previous = value;
    }
    return previous;
  }

  private fail(offset: number | undefined, problem: string): never {
    throw new ObjectCorruptError(this.file, offset, problem);
  }
}
