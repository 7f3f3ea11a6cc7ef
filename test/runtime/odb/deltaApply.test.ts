import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { ObjectCorruptError } from '@writev/runtime';
import { applyDelta, readDeltaSizes } from '@writev/runtime/dist/odb/deltaApply';
import { BufferPool } from '@writev/runtime/dist/odb/bufferPool';
import { DeltaBaseCache } from '@writev/runtime/dist/odb/deltaBaseCache';

const place = { file: 'pack-1a2b.pack', offset: 4096 };
const base = Buffer.from('0123456789abcdefghij');

/** A delta with the given sizes and instruction bytes. */
function delta(baseSize: number, resultSize: number, ...instructions: number[]): Buffer {
  const size = (n: number): number[] => {
    const out: number[] = [];
    do {
      out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
      n = Math.floor(n / 128);
    } while (n > 0);
    return out;
  };
  return Buffer.from([...size(baseSize), ...size(resultSize), ...instructions]);
}

function assertCorrupt(run: () => unknown, problem: RegExp): void {
  assert.throws(run, (err: unknown) => {
    assert.ok(err instanceof ObjectCorruptError);
    assert.equal(err.message.startsWith('pack-1a2b.pack at offset 4096: '), true, err.message);
    assert.match(err.message, problem);
    return true;
  });
}

describe('applyDelta', () => {
  it('copies from the base and inserts literal bytes', () => {
    // copy offset 10 size 4 ("abcd"), insert "XY", copy offset 0 size 2 ("01")
    const d = delta(20, 8, 0x91, 10, 4, 2, 0x58, 0x59, 0x90, 2);
    assert.equal(applyDelta(base, d, place).toString(), 'abcdXY01');
  });

  it('reads a copy size of zero as 64 KiB', () => {
    const big = Buffer.alloc(0x10000, 7);
    assert.ok(applyDelta(big, delta(0x10000, 0x10000, 0x80), place).equals(big));
  });

  it('reads multi-byte sizes', () => {
    assert.deepEqual(readDeltaSizes(delta(300, 70000), place), {
      baseSize: 300,
      resultSize: 70000,
      instructionsAt: 5,
    });
  });

  it('reports a copy that reaches past its base', () => {
    assertCorrupt(() => applyDelta(base, delta(20, 8, 0x91, 18, 8), place), /delta reaches past its base/);
  });

  it('reports a copy or insert that writes past the declared result', () => {
    assertCorrupt(() => applyDelta(base, delta(20, 2, 0x90, 4), place), /writes past the result size/);
    assertCorrupt(() => applyDelta(base, delta(20, 1, 2, 0x41, 0x42), place), /writes past the result size/);
  });

  it('reports cut-off instructions and headers', () => {
    assertCorrupt(() => applyDelta(base, delta(20, 4, 0x91, 1), place), /copy instruction is cut off/);
    assertCorrupt(() => applyDelta(base, delta(20, 4, 4, 0x41), place), /insert instruction is cut off/);
    assertCorrupt(() => applyDelta(base, Buffer.from([0x94]), place), /delta header is cut off/);
  });

  it('reports the reserved instruction, a wrong base size and a short result', () => {
    assertCorrupt(() => applyDelta(base, delta(20, 1, 0), place), /reserved instruction 0/);
    assertCorrupt(() => applyDelta(base, delta(19, 1, 1, 0x41), place), /base of 19 bytes, the base has 20/);
    assertCorrupt(
      () => applyDelta(base, delta(20, 3, 1, 0x41), place),
      /produces 1 bytes, its header says 3/,
    );
  });

  it('reports absurd sizes instead of allocating them', () => {
    const huge = Buffer.from([20, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]);
    assertCorrupt(() => applyDelta(base, huge, place), /too large/);
  });
});

describe('DeltaBaseCache', () => {
  const entry = (n: number) => ({ type: 'blob' as const, data: Buffer.alloc(n) });

  it('evicts the least recently used entries to stay within its byte limit', () => {
    const cache = new DeltaBaseCache(100);
    cache.set(1, entry(40));
    cache.set(2, entry(40));
    cache.get(1);
    cache.set(3, entry(40));
    assert.equal(cache.get(2), undefined);
    assert.ok(cache.get(1));
    assert.ok(cache.get(3));
    assert.equal(cache.size, 80);
  });

  it('never holds an object larger than the limit', () => {
    const cache = new DeltaBaseCache(10);
    cache.set(1, entry(11));
    assert.equal(cache.size, 0);
  });
});

describe('BufferPool', () => {
  it('reuses memory released after eviction for a result of about the same size', () => {
    const pool = new BufferPool(1 << 20);
    const first = pool.take(40_000);
    pool.release(first);
    const second = pool.take(39_000);
    assert.equal(second.buffer, first.buffer);
    assert.equal(second.length, 39_000);
  });

  it('never takes back memory it did not allocate, nor more than its limit', () => {
    const pool = new BufferPool(50_000);
    const foreign = Buffer.alloc(40_000);
    pool.release(foreign);
    assert.notEqual(pool.take(40_000).buffer, foreign.buffer);
    const a = pool.take(40_000);
    const b = pool.take(40_000);
    pool.release(a);
    pool.release(b); // over the limit: dropped
    assert.equal(pool.take(40_000).buffer, a.buffer);
    assert.notEqual(pool.take(40_000).buffer, b.buffer);
  });

  it('is fed by the cache’s evictions', () => {
    const evicted: number[] = [];
    const cache = new DeltaBaseCache(100, (base) => evicted.push(base.data.length));
    cache.set(1, { type: 'blob', data: Buffer.alloc(60) });
    cache.set(2, { type: 'blob', data: Buffer.alloc(50) });
    assert.deepEqual(evicted, [60]);
  });
});
