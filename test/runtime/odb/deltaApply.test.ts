import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { ObjectCorruptError } from '@writev/runtime';
import fc from 'fast-check';
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

/** One instruction of a delta: copy `size` bytes of the base at `offset`, or insert `bytes`. */
type Instruction = { copy: [offset: number, size: number] } | { insert: Buffer };

/** Encodes `instructions` as a delta (gitformat-pack), choosing which copy bytes to send as Git does. */
function encode(baseSize: number, instructions: Instruction[]): Buffer {
  const bytes: number[] = [];
  let resultSize = 0;
  for (const ins of instructions) {
    if ('insert' in ins) {
      bytes.push(ins.insert.length, ...ins.insert);
      resultSize += ins.insert.length;
      continue;
    }
    const [offset, size] = ins.copy;
    let op = 0x80;
    const args: number[] = [];
    for (let i = 0; i < 4; i++) {
      const byte = Math.floor(offset / 2 ** (8 * i)) & 0xff;
      if (byte === 0) continue;
      op |= 1 << i;
      args.push(byte);
    }
    const encodedSize = size === 0x10000 ? 0 : size;
    for (let i = 0; i < 3; i++) {
      const byte = (encodedSize >> (8 * i)) & 0xff;
      if (byte === 0) continue;
      op |= 1 << (4 + i);
      args.push(byte);
    }
    bytes.push(op, ...args);
    resultSize += size;
  }
  const head = delta(baseSize, resultSize);
  return Buffer.concat([head, Buffer.from(bytes)]);
}

/** A random valid delta over a base of `baseSize` bytes, as instructions. */
function arbitraryInstructions(baseSize: number): fc.Arbitrary<Instruction[]> {
  const insert = fc
    .uint8Array({ minLength: 1, maxLength: 127 })
    .map((b): Instruction => ({ insert: Buffer.from(b) }));
  if (baseSize === 0) return fc.array(insert, { maxLength: 8 });
  const copy = fc
    .integer({ min: 0, max: baseSize - 1 })
    .chain((offset) =>
      fc
        .integer({ min: 1, max: Math.min(baseSize - offset, 0x10000) })
        .map((size): Instruction => ({ copy: [offset, size] })),
    );
  return fc.array(fc.oneof(copy, insert), { maxLength: 12 });
}

/** The reference: each delta applied in turn, byte by byte, with no plan involved. */
function applyNaively(base: Buffer, instructions: Instruction[]): Buffer {
  const parts = instructions.map((ins) =>
    'insert' in ins ? ins.insert : base.subarray(ins.copy[0], ins.copy[0] + ins.copy[1]),
  );
  return Buffer.concat(parts);
}

describe('applyDelta on chains', () => {
  it('applies a chain of deltas exactly as a naive byte-by-byte application (fast-check)', () => {
    // Each step draws a delta over the previous object, so the chain is valid at every level.
    const chain = (depth: number, base: Buffer): fc.Arbitrary<{ deltas: Buffer[]; objects: Buffer[] }> =>
      depth === 0
        ? fc.constant({ deltas: [], objects: [] })
        : arbitraryInstructions(base.length).chain((instructions) => {
            const next = applyNaively(base, instructions);
            return chain(depth - 1, next).map(({ deltas, objects }) => ({
              deltas: [encode(base.length, instructions), ...deltas],
              objects: [next, ...objects],
            }));
          });
    const runs = Number(process.env.WRITEV_PROPERTY_RUNS ?? 300);
    fc.assert(
      fc.property(
        fc
          .uint8Array({ maxLength: 3000 })
          .chain((root) =>
            fc
              .integer({ min: 1, max: 6 })
              .chain((depth) =>
                chain(depth, Buffer.from(root)).map((c) => ({ root: Buffer.from(root), ...c })),
              ),
          ),
        ({ root, deltas, objects }) => {
          let object: Buffer = root;
          deltas.forEach((d, i) => {
            object = applyDelta(object, d, place);
            assert.ok(object.equals(objects[i]!), `level ${i + 1}`);
          });
        },
      ),
      { numRuns: runs },
    );
  });

  it('reads bases and deltas that are views into larger memory at their own offsets', () => {
    const memory = Buffer.concat([Buffer.from('garbage:'), base, Buffer.from(':more')]);
    const view = memory.subarray(8, 8 + base.length);
    const d = delta(20, 40, 0x91, 10, 10, 20, ...Buffer.from('-inserted literal--!'), 0x90, 10);
    const wrapped = Buffer.concat([Buffer.from('xx'), d, Buffer.from('yy')]).subarray(2, 2 + d.length);
    assert.equal(applyDelta(view, wrapped, place).toString(), 'abcdefghij-inserted literal--!0123456789');
  });

  it('checks each delta against the object below it, not against the root', () => {
    const first = applyDelta(base, delta(20, 4, 0x91, 0, 4), place);
    assertCorrupt(() => applyDelta(first, delta(4, 2, 0x91, 3, 2), place), /delta reaches past its base/);
    assertCorrupt(
      () => applyDelta(first, delta(20, 2, 0x91, 0, 2), place),
      /base of 20 bytes, the base has 4/,
    );
  });
});

describe('DeltaBaseCache', () => {
  const entry = (bytes: number) => ({ bytes });

  it('evicts the least recently used entries to stay within its byte limit', () => {
    const evicted: number[] = [];
    const cache = new DeltaBaseCache<{ bytes: number }>(100, (e) => evicted.push(e.bytes));
    cache.set(1, entry(40));
    cache.set(2, entry(41));
    cache.get(1);
    cache.set(3, entry(42));
    assert.equal(cache.get(2), undefined);
    assert.ok(cache.get(1));
    assert.ok(cache.get(3));
    assert.equal(cache.size, 82);
    assert.deepEqual(evicted, [41]);
  });

  it('never holds an entry larger than the limit', () => {
    const cache = new DeltaBaseCache(10);
    cache.set(1, entry(11));
    assert.equal(cache.size, 0);
    assert.equal(cache.get(1), undefined);
  });

  it('replaces an entry cached again without reporting it evicted', () => {
    const evicted: number[] = [];
    const cache = new DeltaBaseCache<{ bytes: number }>(100, (e) => evicted.push(e.bytes));
    cache.set(1, entry(30));
    cache.set(1, entry(50));
    assert.equal(cache.size, 50);
    assert.equal(cache.get(1)?.bytes, 50);
    assert.deepEqual(evicted, []);
  });

  it('gives an entry taken out back to the caller, not to onEvict, and keeps the recency order', () => {
    const evicted: number[] = [];
    const cache = new DeltaBaseCache<{ bytes: number }>(100, (e) => evicted.push(e.bytes));
    cache.set(1, entry(30));
    cache.set(2, entry(31));
    cache.set(3, entry(32));
    assert.equal(cache.take(2)?.bytes, 31);
    assert.equal(cache.take(2), undefined);
    assert.equal(cache.size, 62);
    cache.set(4, entry(60));
    // 1 is the oldest and goes to make room; 2 is not reported, and 3 stays.
    assert.deepEqual(evicted, [30]);
    assert.equal(cache.size, 92);
    assert.ok(cache.get(3));
  });
});

/** Whether two views start at the same memory. */
function sameMemory(a: Uint8Array, b: Uint8Array): boolean {
  return a.buffer === b.buffer && a.byteOffset === b.byteOffset;
}

describe('BufferPool', () => {
  it('gives memory back only after release and recycle, to a request of about the same size', () => {
    const pool = new BufferPool(1 << 20);
    const first = pool.take(10_000);
    assert.equal(first.length, 10_000);
    first.fill(1);
    const second = pool.take(10_000);
    assert.ok(!sameMemory(second, first), 'memory in use is never handed out twice');
    assert.ok(second.byteOffset >= first.byteOffset + first.length || second.buffer !== first.buffer);
    pool.release(first);
    assert.ok(!sameMemory(pool.take(10_000), first), 'not before it is recycled: it may be being written');
    pool.recycle();
    const again = pool.take(9_000);
    assert.ok(sameMemory(again, first), 'a slightly smaller object reuses it');
    assert.equal(again.length, 9_000);
    pool.release(second);
    pool.recycle();
    assert.ok(!sameMemory(pool.take(100_000), second), 'a much larger object does not fit in it');
  });

  it('takes back only its own memory, and no more than its limit', () => {
    const pool = new BufferPool(8192);
    const foreign = Buffer.alloc(8192);
    pool.release(foreign);
    pool.recycle();
    assert.notEqual(pool.take(8192).buffer, foreign.buffer);
    const a = pool.take(8192);
    const b = pool.take(8192);
    pool.release(a);
    pool.release(b); // over the limit: left to the garbage collector
    pool.recycle();
    assert.ok(sameMemory(pool.take(8192), a));
    assert.ok(!sameMemory(pool.take(8192), b));
    const large = pool.take(300_000);
    assert.equal(large.byteOffset, 0, 'a large object has memory of its own');
    pool.release(large.subarray(1)); // not the start of a piece: not taken back
    pool.recycle();
    assert.ok(!sameMemory(pool.take(300_000), large));
  });

  it('cuts objects from shared slabs without overlapping them, and recycles each piece', () => {
    const pool = new BufferPool(1 << 20);
    const pieces = Array.from({ length: 300 }, (_, i) => pool.take(1 + ((i * 97) % 20_000)));
    pieces.forEach((p, i) => p.fill(i & 0xff));
    pieces.forEach((p, i) =>
      assert.ok(
        p.every((b) => b === (i & 0xff)),
        `piece ${i} kept its bytes`,
      ),
    );
    assert.ok(new Set(pieces.map((p) => p.buffer)).size < 10, 'few allocations for many objects');
    assert.equal(pool.memoryOf(pieces[0]!), 256);
    assert.equal(pool.memoryOf(pool.take(1025)), 1280, 'an object counts its rounded memory');
    pool.release(pieces[1]!);
    assert.ok(!sameMemory(pool.take(pieces[1]!.length), pieces[1]!));
    pool.recycle();
    assert.ok(sameMemory(pool.take(pieces[1]!.length), pieces[1]!), 'a piece of a slab is reused alone');
  });
});
