import { strict as assert } from 'node:assert';
import { createHash, randomFillSync } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  IOV_MAX,
  compatWritev,
  newCounts,
  writeInFull,
  writevInFull,
  writevInFullAsync,
  writevOrDie,
  xwritev,
  type AsyncSys,
  type Sys,
} from '@writev/runtime';
import { CheckingSys, type ScheduledFault } from './helpers/checkingSys';

const RUNS = Number(process.env.WRITEV_PROPERTY_RUNS ?? 1000);
const MiB = 1 << 20;
/**
 * All buffers are views of one random pool, so layouts cost no allocation. It owns its
 * ArrayBuffer, so a view of any element size can start at any aligned offset of it.
 */
const POOL = randomFillSync(Buffer.from(new ArrayBuffer(2 * MiB)));

/** Every kind of ArrayBufferView, and how to make one over `length` bytes at `byteOffset`. */
const VIEW_KINDS: ReadonlyArray<{
  name: string;
  bytesPerElement: number;
  make: (byteOffset: number, length: number) => ArrayBufferView;
}> = [
  { name: 'Buffer', bytesPerElement: 1, make: (o, n) => POOL.subarray(o, o + n) },
  { name: 'DataView', bytesPerElement: 1, make: (o, n) => new DataView(POOL.buffer, o, n) },
  ...[
    Uint8Array,
    Int8Array,
    Uint8ClampedArray,
    Int16Array,
    Uint16Array,
    Int32Array,
    Uint32Array,
    Float32Array,
    Float64Array,
    BigInt64Array,
    BigUint64Array,
  ].map((Kind) => ({
    name: Kind.name,
    bytesPerElement: Kind.BYTES_PER_ELEMENT,
    make: (o: number, n: number) => new Kind(POOL.buffer, o, n / Kind.BYTES_PER_ELEMENT),
  })),
];

/** The bytes a view covers, as a Uint8Array over the same memory. */
function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

const faultArb: fc.Arbitrary<ScheduledFault> = fc.oneof(
  { arbitrary: fc.constant({ kind: 'ok' as const }), weight: 4 },
  {
    arbitrary: fc
      .double({ min: 0, max: 1, noNaN: true })
      .map((fraction) => ({ kind: 'short' as const, fraction })),
    weight: 3,
  },
  { arbitrary: fc.constant({ kind: 'EINTR' as const }), weight: 1 },
  {
    arbitrary: fc.integer({ min: 1, max: 30 }).map((burst) => ({ kind: 'EAGAIN' as const, burst })),
    weight: 1,
  },
);

/** Buffer sizes: mostly small, empty ones included, rarely up to `largest`. */
function sizeArb(largest: number): fc.Arbitrary<number> {
  return fc.oneof(
    { arbitrary: fc.constant(0), weight: 2 },
    { arbitrary: fc.integer({ min: 1, max: Math.min(64, largest) }), weight: 10 },
    { arbitrary: fc.integer({ min: 0, max: largest }), weight: 1 },
  );
}

/**
 * A view of the pool of a size drawn by `sizeArb`: mostly a Buffer, else any other kind of
 * ArrayBufferView, its offset and size rounded down to whole elements.
 */
function viewArb(largest: number): fc.Arbitrary<ArrayBufferView> {
  const kindArb = fc.oneof(
    { arbitrary: fc.constant(VIEW_KINDS[0]!), weight: 3 },
    { arbitrary: fc.constantFrom(...VIEW_KINDS), weight: 2 },
  );
  return fc.tuple(kindArb, sizeArb(largest), fc.nat(MiB)).map(([kind, size, at]) => {
    const step = kind.bytesPerElement;
    return kind.make(at - (at % step), size - (size % step));
  });
}

interface Scenario {
  maxIoSize: number;
  bufs: ArrayBufferView[];
  faults: ScheduledFault[];
}

/**
 * A random layout (0 to 2,000 buffers) for a MAX_IO_SIZE that splits almost every buffer (1, 7), a
 * page, or Git's default (8 MiB), and a random fault schedule. Tiny limits get small buffers so a run
 * stays within a few thousand calls.
 */
const scenarioArb: fc.Arbitrary<Scenario> = fc.constantFrom(1, 7, 4096, 8 * MiB).chain((maxIoSize) => {
  const largest = maxIoSize === 1 ? 4 : maxIoSize === 7 ? 64 : MiB;
  return fc.record({
    maxIoSize: fc.constant(maxIoSize),
    // Mostly short lists with buffers up to 1 MiB, but a third of the runs spread over the whole
    // range of lengths, with buffers up to 4 KiB so that a run stays a few megabytes at most.
    bufs: fc.oneof(
      { arbitrary: fc.array(viewArb(largest), { maxLength: 2000 }), weight: 2 },
      { arbitrary: fc.array(viewArb(Math.min(largest, 4096)), { maxLength: 2000, size: 'max' }), weight: 1 },
    ),
    faults: fc.array(faultArb, { maxLength: 60 }),
  });
});

function sha256(bufs: readonly ArrayBufferView[]): string {
  const h = createHash('sha256');
  for (const b of bufs) h.update(bytesOf(b));
  return h.digest('hex');
}

/** Total length in bytes, whatever the element size. */
function byteTotal(bufs: readonly ArrayBufferView[]): number {
  return bufs.reduce((s, b) => s + b.byteLength, 0);
}

/**
 * The bound documented on writevInFull: successful calls <= 2 * ceil(T / M) + ceil(N / (IOV_MAX - 1))
 * + 2 * (short writes) + 1, for T bytes in N non-empty buffers; failed calls are exactly the
 * injected EINTRs and EAGAINs.
 */
function assertCallBound(sys: CheckingSys, bufs: readonly ArrayBufferView[], maxIoSize: number): void {
  const total = byteTotal(bufs);
  const nonEmpty = bufs.filter((b) => b.byteLength > 0).length;
  const bound = 2 * Math.ceil(total / maxIoSize) + Math.ceil(nonEmpty / (IOV_MAX - 1)) + 2 * sys.shorts + 1;
  assert.ok(sys.successful <= bound, `${sys.successful} successful calls, bound ${bound}`);
  assert.equal(sys.counts.write + sys.counts.writev, sys.successful + sys.failed);
}

function checkDelivery(sys: CheckingSys, bufs: readonly ArrayBufferView[], returned: number): void {
  const total = byteTotal(bufs);
  assert.equal(returned, total);
  assert.equal(sys.received, total);
  assert.equal(sys.digest(), sha256(bufs), 'bytes reaching the sink differ from the concatenation');
}

function toAsync(sys: Sys): AsyncSys {
  return {
    counts: sys.counts,
    write: async (fd, buf) => sys.write(fd, buf),
    writev: async (fd, bufs) => sys.writev(fd, bufs),
    waitWritable: async (fd, attempt) => sys.waitWritable(fd, attempt),
    release: async (fd) => sys.release(fd),
  };
}

describe('properties of the writev stack (fast-check)', () => {
  it('writevInFull delivers every byte in order, nothing lost or doubled, within the call bound', () => {
    fc.assert(
      fc.property(scenarioArb, ({ maxIoSize, bufs, faults }) => {
        const sys = new CheckingSys(faults, maxIoSize);
        checkDelivery(sys, bufs, writevInFull(3, bufs, { sys, maxIoSize }));
        assertCallBound(sys, bufs, maxIoSize);
      }),
      { numRuns: RUNS },
    );
  });

  it('writeInFull delivers one buffer whole under any fault schedule', () => {
    fc.assert(
      fc.property(scenarioArb, ({ maxIoSize, bufs, faults }) => {
        // One view of any kind: the first of the layout, or a Float64Array over several of them.
        const joined = Buffer.concat(bufs.slice(0, 50).map(bytesOf));
        const floats = new Float64Array(joined.length >> 3);
        bytesOf(floats).set(joined.subarray(0, floats.byteLength));
        const buf = bufs.length % 2 === 0 ? (bufs[0] ?? joined) : floats;
        const sys = new CheckingSys(faults, maxIoSize);
        checkDelivery(sys, [buf], writeInFull(3, buf, { sys, maxIoSize }));
        assertCallBound(sys, [buf], maxIoSize);
      }),
      { numRuns: RUNS },
    );
  });

  it('the promise twin delivers the same bytes as the synchronous one', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ maxIoSize, bufs, faults }) => {
        const sys = new CheckingSys(faults, maxIoSize);
        checkDelivery(sys, bufs, await writevInFullAsync(3, bufs, { sys: toAsync(sys), maxIoSize }));
        assertCallBound(sys, bufs, maxIoSize);
      }),
      { numRuns: RUNS },
    );
  });

  it('through the emulation, every byte still arrives in order', () => {
    fc.assert(
      fc.property(scenarioArb, ({ maxIoSize, bufs, faults }) => {
        const inner = new CheckingSys(faults, maxIoSize);
        const sys: Sys = {
          counts: newCounts(),
          write: (fd, buf) => inner.write(fd, buf),
          writev: (fd, list) => compatWritev((f, b) => inner.write(f, b), fd, list),
          waitWritable: () => undefined,
          release: () => undefined,
        };
        checkDelivery(inner, bufs, writevInFull(3, bufs, { sys, maxIoSize }));
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses any bufs that is not an array with a TypeError naming it, before any call', () => {
    fc.assert(
      fc.property(
        fc
          .anything({ withTypedArray: true, withBigInt: true, withMap: true, withSet: true })
          .filter((v) => !Array.isArray(v)),
        (value) => {
          const sys = new CheckingSys([], MiB);
          for (const write of [writevInFull, writevOrDie, xwritev]) {
            assert.throws(
              () => write(3, value as Uint8Array[], { sys }),
              (err: Error) => err instanceof TypeError && err.message.startsWith('bufs must be an array'),
            );
          }
          if (ArrayBuffer.isView(value)) {
            // A single view is what writeInFull takes: it is written whole, by its bytes.
            const single = new CheckingSys([], MiB);
            checkDelivery(single, [value], writeInFull(3, value, { sys: single }));
          } else {
            assert.throws(
              () => writeInFull(3, value as Uint8Array, { sys }),
              (err: Error) => err instanceof TypeError && err.message.startsWith('buf must be'),
            );
          }
          assert.equal(sys.counts.write + sys.counts.writev, 0);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('refuses an array holding anything but an ArrayBufferView, naming its index, before any call', () => {
    fc.assert(
      fc.property(
        fc.array(viewArb(64), { maxLength: 20 }),
        fc.anything({ withBigInt: true, withMap: true, withSet: true }).filter((v) => !ArrayBuffer.isView(v)),
        fc.nat(),
        (views, intruder, at) => {
          const index = at % (views.length + 1);
          const bufs = [...views.slice(0, index), intruder, ...views.slice(index)];
          const sys = new CheckingSys([], MiB);
          for (const write of [writevInFull, writevOrDie, xwritev]) {
            assert.throws(
              () => write(3, bufs as Uint8Array[], { sys }),
              (err: Error) => err instanceof TypeError && err.message.startsWith(`bufs[${index}] must be`),
            );
          }
          assert.equal(sys.counts.write + sys.counts.writev, 0);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
