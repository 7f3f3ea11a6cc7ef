import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { ObjectCorruptError } from '@writev/runtime';
import fc from 'fast-check';
import { applyDelta, DeltaPlan, readDeltaSizes } from '@writev/runtime/dist/odb/deltaPlan';
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

describe('DeltaPlan', () => {
  it('builds a chain of deltas from its root exactly as applying them one by one (fast-check)', () => {
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
          let plan = DeltaPlan.identity(root.length);
          deltas.forEach((d, i) => {
            plan = plan.compose(d, place);
            assert.ok(plan.build(root, place).equals(objects[i]), `level ${i + 1}`);
          });
          assert.equal(plan.length, objects.at(-1)!.length);
        },
      ),
      { numRuns: runs },
    );
  });

  it('takes a copy that spans several pieces of the plan below from each of them', () => {
    // "abcdXY01" over the base, then a copy of "dXY0" and an insert "!".
    const first = DeltaPlan.identity(20).compose(delta(20, 8, 0x91, 10, 4, 2, 0x58, 0x59, 0x90, 2), place);
    const second = first.compose(delta(8, 5, 0x91, 3, 4, 1, 0x21), place);
    assert.equal(second.build(base, place).toString(), 'dXY0!');
  });

  it('checks each delta against the object below it, not against the root', () => {
    const first = DeltaPlan.identity(20).compose(delta(20, 4, 0x91, 0, 4), place);
    assertCorrupt(() => first.compose(delta(4, 2, 0x91, 3, 2), place), /delta reaches past its base/);
    assertCorrupt(() => first.compose(delta(20, 2, 0x91, 0, 2), place), /base of 20 bytes, the base has 4/);
  });

  it('refuses to build from a root of the wrong length', () => {
    const plan = DeltaPlan.identity(20).compose(delta(20, 4, 0x91, 0, 4), place);
    assertCorrupt(
      () => plan.build(base.subarray(0, 19), place),
      /expects a base of 20 bytes, the base has 19/,
    );
  });

  it('keeps only a few pieces for copies that continue each other, and counts the memory it keeps', () => {
    const bytes = delta(20, 12, 0x91, 0, 4, 0x91, 4, 4, 0x91, 8, 2, 2, 0x41, 0x42);
    const own = new Uint8Array(bytes); // memory of its own, exactly as long as the delta
    const plan = DeltaPlan.identity(20).compose(own, place);
    assert.equal(plan.build(base, place).toString(), '0123456789AB');
    // One piece of the base (three continuing copies) and one of the delta's literal bytes.
    assert.ok(plan.memory >= own.length && plan.memory < own.length + 100, String(plan.memory));
    // A view of a larger allocation (Node's shared pool) keeps all of it alive: all of it counts.
    const pooled = DeltaPlan.identity(20).compose(bytes, place);
    assert.ok(bytes.buffer.byteLength > bytes.length);
    assert.ok(pooled.memory >= bytes.buffer.byteLength, String(pooled.memory));
  });
});

describe('DeltaBaseCache', () => {
  const whole = (bytes: number) => ({ kind: 'whole' as const, bytes });
  const derived = (bytes: number) => ({ kind: 'derived' as const, bytes });

  it('evicts the least recently used entries to stay within its byte limit', () => {
    const cache = new DeltaBaseCache(100);
    cache.set(1, whole(40));
    cache.set(2, whole(40));
    cache.get(1);
    cache.set(3, whole(40));
    assert.equal(cache.get(2), undefined);
    assert.ok(cache.get(1));
    assert.ok(cache.get(3));
    assert.equal(cache.size, 80);
  });

  it('never holds an entry larger than the limit', () => {
    const cache = new DeltaBaseCache(10);
    cache.set(1, whole(11));
    assert.equal(cache.size, 0);
  });

  it('lets derived bases fill the room whole objects leave, but keeps whole objects from them', () => {
    const cache = new DeltaBaseCache(800);
    for (let key = 1; key <= 8; key++) cache.set(key, derived(100));
    assert.equal(cache.size, 800); // no whole objects: derived bases may use everything
    cache.set(100, whole(600));
    assert.ok(cache.get(100));
    for (let key = 9; key <= 20; key++) cache.set(key, derived(100));
    // The stream of derived bases evicts derived bases, never the whole object.
    assert.ok(cache.get(100));
    assert.equal(cache.size, 800);
    assert.equal(cache.get(8), undefined);
    assert.ok(cache.get(20));
  });

  it('keeps an eighth of the limit for derived bases however many whole objects arrive', () => {
    const cache = new DeltaBaseCache(800);
    cache.set(1, derived(100));
    for (let key = 10; key < 20; key++) cache.set(key, whole(100));
    assert.ok(cache.get(1));
    assert.equal(cache.get(10), undefined);
    assert.equal(cache.size, 800);
  });

  it('moves an entry cached again under another kind', () => {
    const cache = new DeltaBaseCache(100);
    cache.set(1, derived(30));
    cache.set(1, whole(50));
    assert.equal(cache.size, 50);
    assert.equal(cache.get(1)?.kind, 'whole');
  });
});
