import { createHash, type Hash } from 'node:crypto';

/**
 * Checks a pack's trailer while the pack streams past: a pack ends with the hash (SHA-1, or SHA-256
 * in a sha256 repository) of every byte before it. The last bytes seen are held back until the
 * next chunk shows they are not the trailer, so the whole pack never needs to be in memory.
 */
export class PackChecksum {
  private readonly hash: Hash;
  private readonly size: number;
  /** The last `size` bytes seen (fewer at the start): the trailer candidate. */
  private tail: Buffer = Buffer.alloc(0);
  /** Bytes seen so far. */
  length = 0;

  constructor(objectFormat: 'sha1' | 'sha256') {
    this.hash = createHash(objectFormat === 'sha256' ? 'sha256' : 'sha1');
    this.size = objectFormat === 'sha256' ? 32 : 20;
  }

  /** Feeds the next bytes of the pack. Does not keep `chunk` beyond the trailer's size. */
  update(chunk: Uint8Array): void {
    this.length += chunk.length;
    if (chunk.length >= this.size) {
      this.hash.update(this.tail);
      this.hash.update(chunk.subarray(0, chunk.length - this.size));
      this.tail = Buffer.from(chunk.subarray(chunk.length - this.size));
      return;
    }
    const joined = Buffer.concat([this.tail, chunk]);
    const spill = joined.length - this.size;
    if (spill > 0) this.hash.update(joined.subarray(0, spill));
    this.tail = spill > 0 ? joined.subarray(spill) : joined;
  }

  /**
   * Whether the bytes fed so far are a pack whose trailer matches its contents (and which is long
   * enough to hold a header and a trailer). Call once, at the end.
   */
  matches(): boolean {
    if (this.length < 12 + this.size) return false;
    return this.hash.digest().equals(this.tail);
  }
}

/** Whether `header` starts like a pack: `PACK`, then version 2 or 3. */
export function looksLikePack(header: Uint8Array): boolean {
  if (header.length < 12) return false;
  const magic = Buffer.from(header.buffer, header.byteOffset, 4).toString('latin1');
  const version = Buffer.from(header.buffer, header.byteOffset, 12).readUInt32BE(4);
  return magic === 'PACK' && (version === 2 || version === 3);
}
