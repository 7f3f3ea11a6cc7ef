// A slow reader for the real-descriptor tests: reads fd 0 in 16 KiB pieces, pausing 2 ms after
// each MiB, and prints the byte count and SHA-256 of what it read as JSON.
import { createHash } from 'node:crypto';
import { readSync } from 'node:fs';

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const hash = createHash('sha256');
const buf = Buffer.alloc(16 * 1024);
let bytes = 0;
let nextPause = 1 << 20;
for (;;) {
  let n: number;
  try {
    n = readSync(0, buf, 0, buf.length, null);
  } catch (err) {
    // A socket pair's end may be non-blocking; wait for data rather than spin.
    if ((err as { code?: string }).code !== 'EAGAIN') throw err;
    Atomics.wait(sleeper, 0, 0, 1);
    continue;
  }
  if (n === 0) break;
  hash.update(buf.subarray(0, n));
  bytes += n;
  if (bytes >= nextPause) {
    Atomics.wait(sleeper, 0, 0, 2);
    nextPause += 1 << 20;
  }
}
process.stdout.write(JSON.stringify({ bytes, sha256: hash.digest('hex') }));
