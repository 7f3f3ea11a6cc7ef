import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { BufferPool } from '@writev/runtime/dist/odb/bufferPool';
import {
  allocateArena,
  ArenaCarver,
  ArenaToucher,
  PAGE_BYTES,
  PageToucher,
} from '@writev/runtime/dist/odb/memoryArena';

const faults = (): number => process.resourceUsage().minorPageFault;

describe('memory arena', () => {
  it('carves whole pages in order, never the same memory twice, until it is used up', () => {
    const memory = allocateArena(10 * PAGE_BYTES);
    const carver = new ArenaCarver(memory);
    const a = carver.carve(100)!;
    const b = carver.carve(PAGE_BYTES + 1)!;
    const c = carver.carve(PAGE_BYTES)!;
    assert.deepEqual(
      [a, b, c].map((p) => [p.byteOffset, p.length]),
      [
        [0, 100],
        [PAGE_BYTES, PAGE_BYTES + 1],
        [3 * PAGE_BYTES, PAGE_BYTES],
      ],
    );
    assert.ok(a.buffer === memory.data && c.buffer === memory.data);
    assert.ok(a.every((byte) => byte === 0));
    assert.equal(carver.remaining, 6 * PAGE_BYTES);
    assert.equal(carver.carve(6 * PAGE_BYTES + 1), undefined, 'more than remains');
    assert.equal(carver.carve(6 * PAGE_BYTES)!.byteOffset, 4 * PAGE_BYTES, 'what remains is still given');
    assert.equal(carver.carve(1), undefined);
  });

  it('touches only pages in front of the carver, up to its distance, and says when it is done', () => {
    const memory = allocateArena(64 * PAGE_BYTES);
    const carver = new ArenaCarver(memory);
    const toucher = new ArenaToucher(memory, 8 * PAGE_BYTES);
    assert.equal(toucher.touch(3), true);
    assert.equal(toucher.pagesTouched, 3);
    assert.equal(toucher.touch(100), true);
    assert.equal(toucher.pagesTouched, 8, 'no further than its distance ahead');
    assert.equal(toucher.touch(100), false, 'nothing to do until the carver moves');
    carver.carve(20 * PAGE_BYTES);
    assert.equal(toucher.touch(100), true);
    assert.equal(
      toucher.pagesTouched,
      28,
      'the pages the carver passed are its own: touching resumes after them',
    );
    carver.carve(44 * PAGE_BYTES);
    assert.equal(toucher.touch(100), false, 'the arena is all carved');
  });

  it('never changes a byte, even of pages carved and written after it looked', () => {
    const memory = allocateArena(16 * PAGE_BYTES);
    const toucher = new ArenaToucher(memory, 16 * PAGE_BYTES);
    // As if another thread had carved and filled the arena but not yet said so.
    const bytes = Buffer.from(memory.data);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + 7) & 0xff;
    const before = Buffer.from(bytes);
    assert.equal(toucher.touch(16), true);
    assert.ok(bytes.equals(before));
  });

  it('maps the pages it touches, so writing them later takes no page fault', () => {
    const pages = 1024;
    const cold = allocateArena(pages * PAGE_BYTES);
    let start = faults();
    Buffer.from(cold.data).fill(1);
    const coldFaults = faults() - start;

    const warm = allocateArena(pages * PAGE_BYTES);
    const toucher = new ArenaToucher(warm, pages * PAGE_BYTES);
    while (toucher.touch(64));
    const piece = new ArenaCarver(warm).carve(pages * PAGE_BYTES)!;
    start = faults();
    piece.fill(1);
    const warmFaults = faults() - start;
    assert.ok(coldFaults >= pages / 2, `writing fresh memory faults (${coldFaults} faults)`);
    assert.ok(warmFaults < pages / 10, `writing touched memory hardly does (${warmFaults} faults)`);
  });
});

describe('page toucher', () => {
  it('maps a whole shared buffer a few pages at a time, keeping its bytes', () => {
    const pages = 512;
    const memory = new SharedArrayBuffer(pages * PAGE_BYTES + 100);
    const bytes = Buffer.from(memory);
    bytes.fill(0x5a, 0, 3 * PAGE_BYTES); // already written by the other thread
    const toucher = new PageToucher(memory);
    let steps = 0;
    while (toucher.touch(64)) steps++;
    assert.equal(steps, Math.ceil((pages + 1) / 64));
    assert.ok(bytes.subarray(0, 3 * PAGE_BYTES).every((b) => b === 0x5a));
    assert.ok(bytes.subarray(3 * PAGE_BYTES).every((b) => b === 0));
    const start = faults();
    bytes.fill(1);
    assert.ok(faults() - start < pages / 10, 'writing it takes hardly any page fault');
  });
});

describe('BufferPool with a memory source', () => {
  it('cuts slabs and large objects from the source, and recycles each piece on its own', () => {
    const memory = allocateArena(8 * 1024 * 1024);
    const carver = new ArenaCarver(memory);
    const pool = new BufferPool(1 << 20, (bytes) => carver.carve(bytes));
    const pieces = Array.from({ length: 200 }, (_, i) => pool.take(1 + ((i * 131) % 30_000)));
    const large = pool.take(300_000);
    assert.ok(
      [...pieces, large].every((p) => p.buffer === memory.data),
      'all from the source',
    );
    pieces.forEach((p, i) => p.fill(i & 0xff));
    large.fill(0xee);
    pieces.forEach((p, i) =>
      assert.ok(
        p.every((b) => b === (i & 0xff)),
        `piece ${i} kept its bytes`,
      ),
    );
    // Pieces of different slabs of the one shared buffer are told apart by their place.
    const early = pieces[0]!;
    const late = pieces.at(-1)!;
    pool.release(early);
    pool.release(late);
    pool.release(large);
    pool.recycle();
    const again = [pool.take(late.length), pool.take(early.length), pool.take(300_000)];
    assert.deepEqual(
      again.map((p) => p.byteOffset),
      [late.byteOffset, early.byteOffset, large.byteOffset],
    );
  });

  it('allocates its own memory once the source has none', () => {
    const carver = new ArenaCarver(allocateArena(1024 * 1024));
    const pool = new BufferPool(1 << 20, (bytes) => carver.carve(bytes));
    const first = pool.take(1000);
    assert.ok(first.buffer instanceof SharedArrayBuffer);
    const slabs = Array.from({ length: 6 }, () => pool.take(200_000));
    assert.ok(
      slabs.some((p) => p.buffer instanceof ArrayBuffer),
      'past the source: memory of its own',
    );
  });
});
