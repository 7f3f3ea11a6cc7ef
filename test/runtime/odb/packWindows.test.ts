import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ObjectCorruptError } from '@writev/runtime';
import { PackWindows, WindowCache } from '@writev/runtime/dist/odb/packWindows';

const dir = mkdtempSync(join(tmpdir(), 'writev-windows-'));
const descriptors: number[] = [];
after(() => {
  for (const fd of descriptors) closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
});

/** A file of `size` random bytes, opened for reading. */
function file(name: string, size: number): { fd: number; bytes: Buffer; path: string } {
  const path = join(dir, name);
  const bytes = randomBytes(size);
  writeFileSync(path, bytes);
  const fd = openSync(path, 'r');
  descriptors.push(fd);
  return { fd, bytes, path };
}

const KiB = 1024;

describe('PackWindows and WindowCache', () => {
  it('reads exact bytes inside windows, across window edges and past half a window', () => {
    const f = file('one.pack', 300 * KiB);
    const windows = new PackWindows(f.fd, f.bytes.length, f.path);
    for (const [offset, length] of [
      [0, 12],
      [65_530, 20], // spans two windows: a read of its own
      [70_000, 40 * KiB], // more than half a window
      [300 * KiB - 7, 7],
      [123_456, 1],
    ] as const) {
      assert.ok(windows.read(offset, length).equals(f.bytes.subarray(offset, offset + length)), `${offset}`);
    }
    assert.throws(
      () => windows.read(300 * KiB - 3, 4),
      (err: unknown) => {
        assert.ok(err instanceof ObjectCorruptError);
        assert.match(
          err.message,
          /one\.pack at offset 307197: read of 4 bytes runs past the end of the pack/,
        );
        return true;
      },
    );
  });

  it('keeps the windows of all packs under one bound, and drops a closed pack’s windows', () => {
    const cache = new WindowCache(3);
    const a = file('a.pack', 256 * KiB);
    const b = file('b.pack', 256 * KiB);
    const wa = new PackWindows(a.fd, a.bytes.length, a.path, cache);
    const wb = new PackWindows(b.fd, b.bytes.length, b.path, cache);
    // Four windows of each pack, interleaved: never more than three held, every byte right.
    for (let w = 0; w < 4; w++) {
      const at = w * 64 * KiB + 100;
      assert.ok(wa.read(at, 50).equals(a.bytes.subarray(at, at + 50)));
      assert.ok(wb.read(at, 50).equals(b.bytes.subarray(at, at + 50)));
      assert.ok(cache.size <= 3, String(cache.size));
    }
    assert.equal(cache.size, 3);
    // Evicted windows are read again when needed.
    assert.ok(wa.read(10, 10).equals(a.bytes.subarray(10, 20)));
    wb.close();
    assert.equal(cache.size, 2, 'only pack a’s windows remain');
    assert.ok(wa.read(3 * 64 * KiB + 1, 5).equals(a.bytes.subarray(3 * 64 * KiB + 1, 3 * 64 * KiB + 6)));
  });
});
