import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { IOV_MAX, xwrite, xwritev } from '@writev/runtime';
import { bytes, scripted, SinkSys } from './helpers/sinkSys';

describe('xwrite', () => {
  it('clamps one call to maxIoSize and reports the short write', () => {
    const sink = new SinkSys();
    assert.equal(xwrite(1, bytes(100), { sys: sink, maxIoSize: 7 }), 7);
    assert.deepEqual(sink.received(), bytes(100).subarray(0, 7));
  });

  it('restarts on EINTR without waiting', () => {
    const sink = new SinkSys(scripted({ kind: 'error', code: 'EINTR' }, { kind: 'error', code: 'EINTR' }));
    assert.equal(xwrite(1, bytes(10), { sys: sink }), 10);
    assert.equal(sink.calls.length, 3);
    assert.equal(sink.counts.waits, 0);
  });

  it('waits after EAGAIN and restarts, counting the consecutive attempts', () => {
    const sink = new SinkSys(scripted({ kind: 'eagain-burst', length: 3 }));
    assert.equal(xwrite(1, bytes(10), { sys: sink }), 10);
    assert.deepEqual(sink.waits, [0, 1, 2]);
  });

  it('never returns EAGAIN, even through a storm of 10,000', () => {
    const sink = new SinkSys(scripted({ kind: 'eagain-burst', length: 10_000 }));
    assert.equal(xwrite(1, bytes(10), { sys: sink }), 10);
    assert.equal(sink.counts.errors.EAGAIN, 10_000);
    assert.deepEqual(sink.received(), bytes(10));
  });

  it('passes EPIPE and EBADF to the caller with their code', () => {
    for (const code of ['EPIPE', 'EBADF']) {
      const sink = new SinkSys(scripted({ kind: 'error', code }));
      assert.throws(() => xwrite(1, bytes(10), { sys: sink }), { code });
    }
  });

  it('rejects a maxIoSize that could make no progress', () => {
    assert.throws(() => xwrite(1, bytes(1), { sys: new SinkSys(), maxIoSize: 0 }), RangeError);
  });
});

describe('xwritev', () => {
  it('makes no call for an empty list', () => {
    const sink = new SinkSys();
    assert.equal(xwritev(1, [], { sys: sink }), 0);
    assert.equal(sink.calls.length, 0);
  });

  it('passes only the leading buffers whose sum fits maxIoSize', () => {
    const sink = new SinkSys();
    assert.equal(xwritev(1, [bytes(4), bytes(4), bytes(4)], { sys: sink, maxIoSize: 10 }), 8);
    assert.deepEqual(
      sink.calls.map((c) => [c.call, c.buffers]),
      [['writev', 2]],
    );
  });

  it('hands a first buffer larger than maxIoSize to xwrite, clamped', () => {
    const sink = new SinkSys();
    assert.equal(xwritev(1, [bytes(20), bytes(4)], { sys: sink, maxIoSize: 8 }), 8);
    assert.deepEqual(
      sink.calls.map((c) => [c.call, c.requested]),
      [['write', 8]],
    );
  });

  it('passes at most IOV_MAX buffers in one call', () => {
    const sink = new SinkSys();
    const bufs = Array.from({ length: IOV_MAX + 10 }, (_, i) => bytes(1, i));
    assert.equal(xwritev(1, bufs, { sys: sink }), IOV_MAX);
    assert.equal(sink.calls[0]!.buffers, IOV_MAX);
  });

  it('restarts on EINTR and EAGAIN with the same buffers', () => {
    const sink = new SinkSys(scripted({ kind: 'error', code: 'EINTR' }, { kind: 'error', code: 'EAGAIN' }));
    assert.equal(xwritev(1, [bytes(3, 1), bytes(3, 2)], { sys: sink }), 6);
    assert.equal(sink.calls.length, 3);
    assert.deepEqual(sink.received(), Buffer.concat([bytes(3, 1), bytes(3, 2)]));
  });

  it("does not modify the caller's list", () => {
    const bufs = [bytes(4), bytes(4), bytes(4)];
    const copy = [...bufs];
    xwritev(1, bufs, { sys: new SinkSys(), maxIoSize: 5 });
    assert.deepEqual(bufs, copy);
  });
});
