import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  ChunkSource,
  demultiplexSideband,
  flushPkt,
  LARGE_PACKET_MAX,
  PktBatchWriter,
  PktReader,
  SIDEBAND_PACKET_MAX,
  sendSideband,
  writeOrDie,
} from '@writev/runtime';
import { SinkSys, type Fault } from '../helpers/sinkSys';

const RUNS = 1000;

const faultArb: fc.Arbitrary<Fault> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Fault>({ kind: 'ok' }) },
  {
    weight: 3,
    arbitrary: fc.integer({ min: 1, max: 70_000 }).map<Fault>((bytes) => ({ kind: 'short', bytes })),
  },
  { weight: 1, arbitrary: fc.constant<Fault>({ kind: 'error', code: 'EINTR' }) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 20 }).map<Fault>((length) => ({ kind: 'eagain-burst', length })),
  },
);

/**
 * The faults, cycled, each followed by one clean call so that every write makes progress (a
 * zero-byte write would mean a full disk, so none is generated).
 */
function schedule(faults: Fault[]): (call: number) => Fault {
  let next = 0;
  let clean = false;
  return () => {
    clean = !clean;
    return clean ? faults[next++ % faults.length]! : { kind: 'ok' };
  };
}

const messageArb = (maxLength: number) =>
  fc.record({ band: fc.constantFrom(1, 1, 1, 2), data: fc.uint8Array({ minLength: 0, maxLength }) });

/** Cuts `stream` into reads of the given sizes (cycled), as a pipe might deliver it. */
function cut(stream: Buffer, sizes: number[]): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0, i = 0; at < stream.length; i++) {
    const n = sizes[i % sizes.length]!;
    chunks.push(stream.subarray(at, at + n));
    at += n;
  }
  return chunks;
}

function readBack(stream: Buffer, sizes: number[]): { data: Buffer; progress: string } {
  const data: Buffer[] = [];
  let progress = '';
  demultiplexSideband(new PktReader(new ChunkSource(cut(stream, sizes))), {
    data: (chunk) => data.push(Buffer.from(chunk)),
    progress: (piece) => (progress += piece),
  });
  return { data: Buffer.concat(data), progress };
}

const expected = (messages: { band: number; data: Uint8Array }[], band: number): Buffer =>
  Buffer.concat(messages.filter((m) => m.band === band).map((m) => m.data));

describe('sideband round trip (property)', () => {
  it('any payload sent with sendSideband, short writes and EAGAIN injected, reads back identical', () => {
    fc.assert(
      fc.property(
        fc.array(messageArb(40_000), { maxLength: 6 }),
        fc.constantFrom(SIDEBAND_PACKET_MAX, LARGE_PACKET_MAX, 6, 7, 4096),
        fc.array(faultArb, { minLength: 1, maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 100_000 }), { minLength: 1, maxLength: 10 }),
        (messages, packetMax, faults, sizes) => {
          const sink = new SinkSys(schedule(faults));
          for (const m of messages) sendSideband(1, m.band, m.data, packetMax, { sys: sink });
          writeOrDie(1, flushPkt(), { sys: sink });
          const back = readBack(sink.received(), sizes);
          assert.deepEqual(back.data, expected(messages, 1));
          assert.equal(back.progress, Buffer.from(expected(messages, 2)).toString('utf8'));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('any payload sent with the batched writer, faults injected, reads back identical with far fewer calls', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 7, 4096, 8 * 1024 * 1024).chain((maxIoSize) =>
          // Tiny write limits mean one call per byte or so: keep those payloads short.
          fc.tuple(
            fc.constant(maxIoSize),
            fc.array(messageArb(maxIoSize < 4096 ? 300 : 40_000), { maxLength: 6 }),
          ),
        ),
        fc.constantFrom(SIDEBAND_PACKET_MAX, LARGE_PACKET_MAX, 6, 4096),
        fc.array(faultArb, { minLength: 1, maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 100_000 }), { minLength: 1, maxLength: 10 }),
        fc.boolean(),
        ([maxIoSize, messages], packetMax, faults, sizes, flushEach) => {
          const sink = new SinkSys(schedule(faults));
          const writer = new PktBatchWriter(1, { packetMax, maxIoSize, sys: sink });
          for (const m of messages) {
            writer.sideband(m.band, m.data);
            if (flushEach) writer.flush();
          }
          writer.flushPacket();
          writer.flush();
          const reference = new SinkSys();
          for (const m of messages) sendSideband(1, m.band, m.data, packetMax, { sys: reference, maxIoSize });
          writeOrDie(1, flushPkt(), { sys: reference, maxIoSize });
          assert.deepEqual(sink.received(), reference.received(), 'the same bytes as sendSideband');
          assert.deepEqual(readBack(sink.received(), sizes).data, expected(messages, 1));
          // Without faults, batching never takes more calls than one writev per packet.
          const clean = new SinkSys();
          const again = new PktBatchWriter(1, { packetMax, maxIoSize, sys: clean });
          for (const m of messages) again.sideband(m.band, m.data);
          again.flushPacket();
          again.flush();
          assert.ok(clean.calls.length <= reference.calls.length, 'never more calls than one per packet');
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('progress text sent on band 2 comes back as pieces whose concatenation is the text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z0-9 %\r\n]{0,300}$/), { maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 5 }),
        (texts, sizes) => {
          const sink = new SinkSys();
          for (const t of texts) sendSideband(1, 2, Buffer.from(t), 100, { sys: sink });
          writeOrDie(1, flushPkt(), { sys: sink });
          const pieces: string[] = [];
          demultiplexSideband(new PktReader(new ChunkSource(cut(sink.received(), sizes))), {
            data: () => assert.fail('no band 1 expected'),
            progress: (p) => pieces.push(p),
          });
          assert.equal(pieces.join(''), texts.join(''));
          pieces.slice(0, -1).forEach((p) => assert.match(p, /[\r\n]$/));
        },
      ),
      { numRuns: RUNS },
    );
  });
});
