import { createHash } from 'node:crypto';

/** A deterministic pseudo-random pool (xorshift32), so a child process and the test agree on it. */
function pool(seed: number, size: number): Buffer {
  const buf = Buffer.alloc(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    buf.writeUInt32LE(x >>> 0, i);
  }
  return buf;
}

/** Buffer sizes the layouts cycle through: tiny, odd, page, pipe-sized, large, empty. */
const SIZES = [1, 100, 4096, 0, 65536, 300_001, 7, 1 << 20, 13, 70_000];

/**
 * A layout of `total` bytes as many buffers of varied sizes, all views of one pool: the same
 * `total` and `seed` always give the same bytes.
 */
export function payloadLayout(total: number, seed: number): Buffer[] {
  const data = pool(seed, 2 << 20);
  const bufs: Buffer[] = [];
  let left = total;
  for (let i = 0; left > 0; i++) {
    const size = Math.min(left, SIZES[i % SIZES.length]!);
    const at = (i * 7919) % (1 << 20);
    bufs.push(data.subarray(at, at + size));
    left -= size;
  }
  return bufs;
}

/** SHA-256 of the concatenation of `bufs`. */
export function digestOf(bufs: readonly Uint8Array[]): string {
  const hash = createHash('sha256');
  for (const buf of bufs) hash.update(buf);
  return hash.digest('hex');
}
