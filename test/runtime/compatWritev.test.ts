import { strict as assert } from 'node:assert';
import { readFileSync, mkdtempSync, openSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { compatWritev, createSys, writevInFull } from '@writev/runtime';
import { bytes } from './helpers/sinkSys';

function recorder(): { write: (fd: number, buf: Uint8Array) => number; seen: Uint8Array[] } {
  const seen: Uint8Array[] = [];
  return { seen, write: (_fd, buf) => (seen.push(buf), buf.length) };
}

describe('compatWritev', () => {
  it('rejects an empty list with EINVAL', () => {
    const r = recorder();
    assert.throws(() => compatWritev(r.write, 1, []), { code: 'EINVAL' });
    assert.equal(r.seen.length, 0);
  });

  it('rejects more buffers than iovMax with EINVAL', () => {
    const r = recorder();
    const bufs = Array.from({ length: 5 }, () => bytes(1));
    assert.throws(() => compatWritev(r.write, 1, bufs, { iovMax: 4 }), { code: 'EINVAL' });
    assert.equal(r.seen.length, 0);
  });

  it('rejects a total beyond the ssize maximum with EINVAL, before writing anything', () => {
    const r = recorder();
    assert.throws(() => compatWritev(r.write, 1, [bytes(10), bytes(10)], { ssizeMax: 19 }), {
      code: 'EINVAL',
    });
    assert.equal(r.seen.length, 0);
    assert.equal(compatWritev(r.write, 1, [bytes(10), bytes(9)], { ssizeMax: 19 }), 10);
  });

  it('writes only the first non-empty buffer, so one call never tears', () => {
    const r = recorder();
    const first = bytes(3, 1);
    assert.equal(compatWritev(r.write, 1, [Buffer.alloc(0), first, bytes(5, 2)]), 3);
    assert.deepEqual(r.seen, [first]);
  });

  it('returns 0 without writing when every buffer is empty', () => {
    const r = recorder();
    assert.equal(compatWritev(r.write, 1, [Buffer.alloc(0), new Uint8Array(0)]), 0);
    assert.equal(r.seen.length, 0);
  });

  it('passes a short write of the chosen buffer through', () => {
    assert.equal(
      compatWritev(() => 2, 1, [bytes(8)]),
      2,
    );
  });

  it('still delivers everything through writevInFull on a real file, one write per buffer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'writev-compat-'));
    try {
      const path = join(dir, 'out');
      const fd = openSync(path, 'w');
      const sys = createSys({ writev: 'compat' });
      const bufs = [bytes(100, 1), Buffer.alloc(0), bytes(5000, 2), bytes(1, 3)];
      assert.equal(writevInFull(fd, bufs, { sys }), 5101);
      closeSync(fd);
      assert.deepEqual(readFileSync(path), Buffer.concat(bufs));
      assert.equal(sys.counts.writev, 0);
      assert.equal(sys.counts.write, 3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
