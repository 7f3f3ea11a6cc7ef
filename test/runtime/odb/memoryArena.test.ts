import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { BufferPool } from '@writev/runtime/dist/odb/bufferPool';
import { applyDelta } from '@writev/runtime/dist/odb/deltaApply';
import {
  allocateArena,
  ArenaCarver,
  ArenaToucher,
  PAGE_BYTES,
  PageToucher,
} from '@writev/runtime/dist/odb/memoryArena';
import { deltaHeader } from './helpers/packWriter';

const faults = (): number => process.resourceUsage().minorPageFault;

describe('memory arena', () => {
  it('carves whole pages in order, never the same memory twice, until it is used up', () => {
    const memory = allocateArena(10 * PAGE_BYTES);
    const total = memory.data.byteLength;
    assert.equal(total % PAGE_BYTES, 0);
    assert.ok(total >= 10 * PAGE_BYTES);
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
    const rest = total - 4 * PAGE_BYTES;
    assert.equal(carver.remaining, rest);
    assert.equal(carver.carve(rest + 1), undefined, 'more than remains');
    assert.equal(carver.carve(rest)!.byteOffset, 4 * PAGE_BYTES, 'what remains is still given');
    assert.equal(carver.carve(1), undefined);
  });

  it('touches only pages in front of the carver, up to its distance, and says when it is done', () => {
    const memory = allocateArena(64 * PAGE_BYTES);
    assert.equal(memory.data.byteLength, 64 * PAGE_BYTES, 'exactly four 64 KiB WebAssembly pages');
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

describe('shared copier', () => {
  it('copies inside the shared memory as memmove does, overlapping ranges included', () => {
    const memory = allocateArena(64 * 1024);
    const copier = new ArenaCarver(memory).copier;
    const bytes = Buffer.from(memory.data);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + 3) & 0xff;
    const expected = Buffer.from(bytes);
    for (const [to, from, length] of [
      [1000, 0, 5000], // forward, overlapping
      [0, 1500, 6000], // backward, overlapping
      [60_000, 10, 5536], // up to the last byte
      [7, 7, 100],
      [9, 9000, 0],
    ] as const) {
      copier.copy(to, from, length);
      expected.copyWithin(to, from, from + length);
      assert.ok(bytes.equals(expected), `copy(${to}, ${from}, ${length})`);
    }
    assert.throws(() => copier.copy(60_000, 0, 5537), WebAssembly.RuntimeError, 'past the end is refused');
    assert.ok(bytes.equals(expected), 'and changes nothing');
  });

  it('applies deltas to the same bytes with the copier as without', () => {
    const memory = allocateArena(1024 * 1024);
    const carver = new ArenaCarver(memory);
    let x = 11;
    const base = carver.carve(70_000)!;
    for (let i = 0; i < base.length; i++) base[i] = (x = (x * 1103515245 + 12345) % 2 ** 31) >> 23;
    const delta = Buffer.from([
      ...[0x80 | 0x01, 1], // copy: offset 1, no size byte (a size of 0x10000)
      ...[3, 0xaa, 0xbb, 0xcc], // insert 3 bytes
      ...[0x80 | 0x07 | 0x10, 0x88, 0x0d, 0x01, 30], // copy 30 bytes from 69,000
      ...[0x80 | 0x01 | 0x10, 17, 5], // copy 5 bytes from 17
    ]);
    const full = Buffer.concat([deltaHeader(base.length, 0x10000 + 3 + 30 + 5), delta]);
    const place = { file: 'pack', offset: 12 };
    const plain = applyDelta(Buffer.from(base), full, place);
    const shared = applyDelta(base, full, place, (n) => carver.carve(n)!, carver.copier);
    assert.equal(shared.buffer, memory.data, 'the result is in the arena');
    assert.ok(shared.equals(plain));
    // The delta in the arena too: its inserts are copies inside it as well.
    const deltaInArena = carver.carve(full.length)!;
    full.copy(deltaInArena);
    const inserts = applyDelta(base, deltaInArena, place, (n) => carver.carve(n)!, carver.copier);
    assert.ok(inserts.equals(plain));
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
    const pool = new BufferPool(1 << 20, carver);
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
    const pool = new BufferPool(1 << 20, carver);
    const first = pool.take(1000);
    assert.ok(first.buffer instanceof SharedArrayBuffer);
    const slabs = Array.from({ length: 6 }, () => pool.take(200_000));
    assert.ok(
      slabs.some((p) => p.buffer instanceof ArrayBuffer),
      'past the source: memory of its own',
    );
  });
});
