import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  newCounts,
  systemError,
  writevInFullAsync,
  writevOrDieAsync,
  WriteError,
  type AsyncSys,
} from '@writev/runtime';
import { asyncSink, bytes, scripted, SinkSys } from './helpers/sinkSys';

describe('the promise twins', () => {
  it('keep the event loop running while they wait for room', async () => {
    let refusals = 20;
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const sys: AsyncSys = {
      counts: newCounts(),
      write: async () => assert.fail('no plain write expected'),
      writev: async (_fd, bufs) => {
        if (refusals-- > 0) throw systemError('EAGAIN', 'writev');
        return bufs.reduce((s, b) => s + b.length, 0);
      },
      waitWritable: () => new Promise((resolve) => setTimeout(() => resolve(undefined), 2)),
      release: async () => undefined,
    };
    try {
      assert.equal(await writevInFullAsync(1, [bytes(10)], { sys }), 10);
    } finally {
      clearInterval(timer);
    }
    assert.ok(ticks >= 5, `other timers ran only ${ticks} times during the waits`);
  });

  it("loop over short writes and keep the caller's buffers intact", async () => {
    const sink = new SinkSys(
      scripted({ kind: 'short', bytes: 4 }, { kind: 'error', code: 'EINTR' }, { kind: 'short', bytes: 1 }),
    );
    const bufs = [bytes(6, 1), bytes(6, 2)];
    assert.equal(await writevInFullAsync(1, bufs, { sys: asyncSink(sink) }), 12);
    assert.deepEqual(sink.received(), Buffer.concat(bufs));
  });

  it('reject with a WriteError worded like Git when the disk is full', async () => {
    const sink = new SinkSys(scripted({ kind: 'short', bytes: 0 }));
    await assert.rejects(writevOrDieAsync(2, [bytes(3)], { sys: asyncSink(sink) }), (err: unknown) => {
      assert.ok(err instanceof WriteError);
      assert.equal(err.message, 'writev error: No space left on device');
      return true;
    });
  });
});
