import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { BrokenPipeError, gitExit, WriteError, writeOrDie, writevOrDie } from '@writev/runtime';
import { bytes, scripted, SinkSys } from './helpers/sinkSys';

describe('writeOrDie and writevOrDie', () => {
  it('return normally when everything was written', () => {
    const sink = new SinkSys(scripted({ kind: 'short', bytes: 1 }));
    writevOrDie(1, [bytes(4), bytes(4)], { sys: sink });
    writeOrDie(1, bytes(4), { sys: sink });
    assert.equal(sink.received().length, 12);
  });

  it('throw a WriteError worded like Git for ENOSPC', () => {
    const sink = new SinkSys(scripted({ kind: 'short', bytes: 3 }, { kind: 'error', code: 'ENOSPC' }));
    assert.throws(
      () => writevOrDie(4, [bytes(10)], { sys: sink }),
      (err: unknown) => {
        assert.ok(err instanceof WriteError);
        assert.ok(!(err instanceof BrokenPipeError));
        assert.equal(err.message, 'writev error: No space left on device');
        assert.equal(err.code, 'ENOSPC');
        assert.equal(err.fd, 4);
        assert.equal(err.bytesWritten, 3);
        return true;
      },
    );
  });

  it('word a failed plain write as "write error"', () => {
    const sink = new SinkSys(scripted({ kind: 'error', code: 'EBADF' }));
    assert.throws(() => writeOrDie(4, bytes(10), { sys: sink }), {
      name: 'WriteError',
      message: 'write error: Bad file descriptor',
      code: 'EBADF',
    });
  });

  it('throw BrokenPipeError for EPIPE', () => {
    const sink = new SinkSys(scripted({ kind: 'error', code: 'EPIPE' }));
    assert.throws(() => writevOrDie(1, [bytes(1)], { sys: sink }), BrokenPipeError);
  });
});

describe('gitExit', () => {
  it('exits quietly with 141 for a broken pipe', () => {
    assert.deepEqual(gitExit(new BrokenPipeError('writev', 1, 0)), { status: 141 });
  });

  it('exits with 128 and a fatal message otherwise', () => {
    assert.deepEqual(gitExit(new WriteError('writev', 'ENOSPC', 1, 0)), {
      status: 128,
      message: 'fatal: writev error: No space left on device',
    });
  });
});
