import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { IOV_MAX, writeInFull, writevInFull, type Sys, newCounts } from '@writev/runtime';
import { bytes, scripted, SinkSys } from './helpers/sinkSys';

describe('writeInFull', () => {
  it('loops over short writes until every byte is out', () => {
    const sink = new SinkSys(scripted({ kind: 'short', bytes: 3 }, { kind: 'short', bytes: 1 }));
    assert.equal(writeInFull(1, bytes(10), { sys: sink }), 10);
    assert.deepEqual(sink.received(), bytes(10));
    assert.deepEqual(
      sink.calls.map((c) => c.requested),
      [10, 7, 6],
    );
  });

  it('makes no call for an empty buffer', () => {
    const sink = new SinkSys();
    assert.equal(writeInFull(1, Buffer.alloc(0), { sys: sink }), 0);
    assert.equal(sink.calls.length, 0);
  });

  it('turns a zero-byte write into ENOSPC, with the bytes already written', () => {
    const sink = new SinkSys(scripted({ kind: 'short', bytes: 4 }, { kind: 'short', bytes: 0 }));
    assert.throws(() => writeInFull(5, bytes(10), { sys: sink }), { code: 'ENOSPC', fd: 5, bytesWritten: 4 });
  });

  it('writes a buffer larger than maxIoSize in clamped pieces', () => {
    const sink = new SinkSys();
    assert.equal(writeInFull(1, bytes(25), { sys: sink, maxIoSize: 10 }), 25);
    assert.deepEqual(
      sink.calls.map((c) => c.requested),
      [10, 10, 5],
    );
  });
});

describe('writevInFull', () => {
  it('sends two buffers with one writev when the kernel takes them', () => {
    const sink = new SinkSys();
    assert.equal(writevInFull(1, [bytes(5, 1), bytes(7, 2)], { sys: sink }), 12);
    assert.equal(sink.counts.writev, 1);
    assert.equal(sink.counts.write, 0);
  });

  it('makes no call for an empty list or all-empty buffers', () => {
    const sink = new SinkSys();
    assert.equal(writevInFull(1, [], { sys: sink }), 0);
    assert.equal(writevInFull(1, [Buffer.alloc(0), new Uint8Array(0)], { sys: sink }), 0);
    assert.equal(sink.calls.length, 0);
  });

  it('continues inside a partly written buffer after a short write in its middle', () => {
    const bufs = [bytes(10, 1), bytes(10, 2), bytes(10, 3)];
    const sink = new SinkSys(scripted({ kind: 'short', bytes: 15 }));
    assert.equal(writevInFull(1, bufs, { sys: sink }), 30);
    assert.deepEqual(sink.received(), Buffer.concat(bufs));
    assert.deepEqual(
      sink.calls.map((c) => [c.buffers, c.requested]),
      [
        [3, 30],
        [2, 15],
      ],
    );
  });

  it("passes views of the caller's buffers, never copies of the payload", () => {
    const payload = bytes(100);
    const firstViews: Uint8Array[] = [];
    let calls = 0;
    const sys: Sys = {
      counts: newCounts(),
      write: () => assert.fail('no plain write expected'),
      writev: (_fd, bufs) => {
        firstViews.push(bufs[0]!);
        return ++calls === 1 ? 30 : bufs.reduce((s, b) => s + b.length, 0);
      },
      waitWritable: () => undefined,
      release: () => undefined,
    };
    writevInFull(1, [payload], { sys });
    assert.equal(firstViews[1]!.buffer, payload.buffer);
    assert.equal(firstViews[1]!.byteOffset, payload.byteOffset + 30);
  });

  it('skips empty buffers and does not spend kernel slots on them', () => {
    const sink = new SinkSys();
    const bufs = [Buffer.alloc(0), bytes(3), Buffer.alloc(0), Buffer.alloc(0), bytes(2)];
    assert.equal(writevInFull(1, bufs, { sys: sink }), 5);
    assert.equal(sink.calls[0]!.buffers, 2);
  });

  it('splits 2,000 buffers into IOV_MAX-sized calls', () => {
    const sink = new SinkSys();
    const bufs = Array.from({ length: 2000 }, (_, i) => bytes(3, i));
    assert.equal(writevInFull(1, bufs, { sys: sink }), 6000);
    assert.deepEqual(
      sink.calls.map((c) => c.buffers),
      [IOV_MAX, 2000 - IOV_MAX],
    );
    assert.deepEqual(sink.received(), Buffer.concat(bufs));
  });

  it('turns a zero-byte writev into ENOSPC, with fd and bytes already written', () => {
    const sink = new SinkSys(scripted({ kind: 'short', bytes: 6 }, { kind: 'short', bytes: 0 }));
    assert.throws(() => writevInFull(9, [bytes(5), bytes(5)], { sys: sink }), {
      code: 'ENOSPC',
      fd: 9,
      bytesWritten: 6,
    });
  });

  it('reports EPIPE as the system error with how far it got', () => {
    const sink = new SinkSys(scripted({ kind: 'short', bytes: 2 }, { kind: 'error', code: 'EPIPE' }));
    assert.throws(() => writevInFull(1, [bytes(5)], { sys: sink }), { code: 'EPIPE', bytesWritten: 2 });
  });

  it("leaves the caller's array and buffers exactly as they were", () => {
    const bufs = [bytes(10, 1), bytes(10, 2)];
    const before = bufs.map((b) => Buffer.from(b));
    const list = [...bufs];
    const sink = new SinkSys(scripted({ kind: 'short', bytes: 13 }, { kind: 'short', bytes: 1 }));
    writevInFull(1, bufs, { sys: sink, maxIoSize: 4 });
    assert.deepEqual(bufs, list);
    bufs.forEach((b, i) => {
      assert.equal(b, list[i]);
      assert.deepEqual(b, before[i]);
    });
  });

  it('survives an EINTR and EAGAIN storm between short writes', () => {
    const faults = Array.from({ length: 300 }, (_, i) =>
      i % 3 === 0
        ? { kind: 'error' as const, code: 'EINTR' }
        : i % 3 === 1
          ? { kind: 'error' as const, code: 'EAGAIN' }
          : { kind: 'short' as const, bytes: 1 },
    );
    const bufs = [bytes(50, 1), bytes(70, 2)];
    const sink = new SinkSys(scripted(...faults));
    assert.equal(writevInFull(1, bufs, { sys: sink }), 120);
    assert.deepEqual(sink.received(), Buffer.concat(bufs));
  });
});
