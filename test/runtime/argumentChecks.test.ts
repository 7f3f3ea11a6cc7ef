import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  ChunkSource,
  compatWritev,
  decodePktLines,
  encodePktLine,
  newCounts,
  FdSource,
  PktBatchWriter,
  sendSideband,
  sendSidebandTwoWrites,
  writeInFull,
  writeInFullAsync,
  writeOrDie,
  writeOrDieAsync,
  writevInFull,
  writevInFullAsync,
  writevOrDie,
  writevOrDieAsync,
  xwrite,
  xwriteAsync,
  xwritev,
  xwritevAsync,
  type Sys,
} from '@writev/runtime';
import { asyncSink, scripted, SinkSys } from './helpers/sinkSys';

/** Calls `fn` with an untyped argument, as a JavaScript caller could. */
function loose<T>(value: unknown): T {
  return value as T;
}

/** The bytes of any view, in memory order. */
function bytesOf(view: ArrayBufferView): Buffer {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

describe('arguments of the write functions', () => {
  it('writevOrDie refuses a Buffer where an array of buffers belongs, naming bufs, and writes nothing', () => {
    const sys = new SinkSys();
    assert.throws(
      () => writevOrDie(3, loose(Buffer.from('abc')), { sys }),
      (err: Error) =>
        err instanceof TypeError && /^bufs must be an array\b.*got an instance of Buffer/.test(err.message),
    );
    assert.equal(sys.calls.length, 0);
  });

  it('names the index of an element that is not a buffer: [buf, 5], [ArrayBuffer], [undefined]', () => {
    for (const [bufs, pattern] of [
      [[Buffer.from('x'), 5], /^bufs\[1\] must be a Buffer, TypedArray or DataView, got number 5$/],
      [[new ArrayBuffer(4)], /^bufs\[0\] .* got an instance of ArrayBuffer$/],
      [[Buffer.from('a'), Buffer.from('b'), undefined], /^bufs\[2\] .* got undefined/],
      [['text'], /^bufs\[0\] .* got a string/],
    ] as const) {
      const sys = new SinkSys();
      assert.throws(
        () => writevOrDie(3, loose(bufs), { sys }),
        (err: Error) => err instanceof TypeError && pattern.test(err.message),
      );
      assert.throws(() => writevInFull(3, loose(bufs), { sys }), TypeError);
      assert.throws(() => xwritev(3, loose(bufs), { sys }), TypeError);
      assert.equal(sys.calls.length, 0, 'nothing may be written before the check');
    }
  });

  it('writes a DataView, a Uint16Array and a view into a larger ArrayBuffer by their bytes', () => {
    const backing = new ArrayBuffer(64);
    new Uint8Array(backing).forEach((_, i, a) => (a[i] = i));
    const dataView = new DataView(backing, 3, 5);
    const u16 = new Uint16Array(backing, 8, 4); // bytes 8..15
    const f64 = new Float64Array(backing, 16, 2); // bytes 16..31
    const sys = new SinkSys();
    assert.equal(writevOrDie(3, [dataView, u16, f64], { sys }), undefined);
    assert.deepEqual(sys.received(), Buffer.concat([bytesOf(dataView), bytesOf(u16), bytesOf(f64)]));
    assert.equal(sys.received().length, 5 + 8 + 16);
    const single = new SinkSys();
    assert.equal(writeInFull(3, u16, { sys: single }), 8);
    assert.deepEqual(single.received(), bytesOf(u16));
  });

  it('continues a short write of a Uint16Array at the right byte', () => {
    const u32 = Uint32Array.from({ length: 100 }, (_, i) => 0x01020304 * (i + 1));
    // 7 bytes, then 1 byte: offsets that fall inside elements.
    const sys = new SinkSys(scripted({ kind: 'short', bytes: 7 }, { kind: 'short', bytes: 1 }));
    assert.equal(writevInFull(3, [u32], { sys }), 400);
    assert.deepEqual(sys.received(), bytesOf(u32));
  });

  it('writevInFull sends every byte of a 2 MiB Uint16Array into a child’s stdin', async () => {
    const child = spawn(
      process.execPath,
      [
        '-e',
        `const h = require('crypto').createHash('sha256'); let n = 0;
         process.stdin.on('data', (d) => { n += d.length; h.update(d); });
         process.stdin.on('end', () => process.stdout.write(JSON.stringify({ n, sha: h.digest('hex') })));`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    const closed = new Promise((resolve) => child.once('close', resolve));
    const payload = new Uint16Array(1 << 20);
    for (let i = 0; i < payload.length; i++) payload[i] = (i * 2654435761) >>> 16;
    const fd = (child.stdin as unknown as { _handle: { fd: number } })._handle.fd;
    let returned: number;
    try {
      returned = writevInFull(fd, [payload]);
    } finally {
      child.stdin.end();
      await closed;
    }
    assert.equal(returned, 2 * (1 << 20));
    assert.deepEqual(JSON.parse(out), { n: 2 * (1 << 20), sha: sha256(bytesOf(payload)) });
  });

  it('refuses descriptors that are not non-negative integers, without wrapping them as WriteError', () => {
    const sys = new SinkSys();
    const buf = Buffer.from('x');
    for (const fd of [-1, 1.5, NaN, 2 ** 31]) {
      assert.throws(
        () => writevOrDie(fd, [buf], { sys }),
        (err: Error) => err instanceof RangeError && /^fd must be a file descriptor/.test(err.message),
      );
      assert.throws(() => writeOrDie(fd, buf, { sys }), RangeError);
      assert.throws(() => xwrite(fd, buf, { sys }), RangeError);
    }
    for (const fd of ['1', null, undefined]) {
      assert.throws(() => writevOrDie(loose(fd), [buf], { sys }), TypeError);
    }
    assert.equal(sys.calls.length, 0);
  });

  it('lets a TypeError or RangeError from the system layer through writevOrDie unwrapped', () => {
    // Node's own argument errors carry a code too (ERR_OUT_OF_RANGE): they are not failed writes.
    const nodeError = Object.assign(new RangeError('The value of "fd" is out of range'), {
      code: 'ERR_OUT_OF_RANGE',
    });
    const sys: Sys = {
      counts: newCounts(),
      write: () => {
        throw nodeError;
      },
      writev: () => {
        throw nodeError;
      },
      waitWritable: () => undefined,
      release: () => undefined,
    };
    assert.throws(
      () => writevOrDie(3, [Buffer.from('x')], { sys }),
      (err) => err === nodeError,
    );
    assert.throws(
      () => writeOrDie(3, Buffer.from('x'), { sys }),
      (err) => err === nodeError,
    );
    // The real fs layer: a descriptor far beyond any open one is EBADF, a real failed write.
    assert.throws(() => writeOrDie(1 << 30, Buffer.from('x')), { name: 'WriteError', code: 'EBADF' });
  });

  it('makes the promise twins reject, not throw, for bad arguments', async () => {
    const sink = new SinkSys();
    const sys = asyncSink(sink);
    const calls: Array<() => Promise<unknown>> = [
      () => writevInFullAsync(3, loose(Buffer.from('abc')), { sys }),
      () => writeInFullAsync(3, loose([Buffer.from('abc')]), { sys }),
      () => writevOrDieAsync(3, loose([Buffer.from('a'), 5]), { sys }),
      () => writeOrDieAsync(-1, Buffer.from('a'), { sys }),
      () => xwriteAsync(3, loose('abc'), { sys }),
      () => xwritevAsync(3, loose(new ArrayBuffer(3)), { sys }),
    ];
    for (const call of calls) {
      let promise: Promise<unknown> | undefined;
      assert.doesNotThrow(() => (promise = call()));
      await assert.rejects(promise!, (err: Error) => err instanceof TypeError || err instanceof RangeError);
    }
    assert.equal(sink.calls.length, 0);
  });

  it('compatWritev counts a TypedArray in bytes and refuses a non-array', () => {
    const seen: Uint8Array[] = [];
    const write = (_fd: number, buf: Uint8Array): number => (seen.push(buf), buf.length);
    assert.equal(compatWritev(write, 3, [new Uint16Array(0), new Float32Array([1, 2])]), 8);
    assert.ok(seen[0] instanceof Uint8Array);
    assert.throws(
      () => compatWritev(write, 3, loose(Buffer.from('abc'))),
      /^TypeError: bufs must be an array/,
    );
    // Byte totals, not element counts, meet the ssizeMax check.
    assert.throws(() => compatWritev(write, 3, [new Uint32Array(2)], { ssizeMax: 7 }), { code: 'EINVAL' });
  });
});

describe('arguments of the pkt-line and sideband writers', () => {
  it('sendSideband splits a Uint16Array by bytes, into the same packets as its Buffer', () => {
    const u16 = Uint16Array.from({ length: 1500 }, (_, i) => i * 7);
    for (const send of [sendSideband, sendSidebandTwoWrites]) {
      const typed = new SinkSys();
      const plain = new SinkSys();
      send(3, 1, u16, 1000, { sys: typed });
      send(3, 1, bytesOf(u16), 1000, { sys: plain });
      assert.deepEqual(typed.received(), plain.received());
      const packets = decodePktLines(typed.received());
      assert.deepEqual(
        Buffer.concat(packets.map((p) => (p.kind === 'data' ? p.payload.subarray(1) : Buffer.alloc(0)))),
        bytesOf(u16),
      );
    }
  });

  it('PktBatchWriter queues a DataView by its bytes and refuses what is not a buffer', () => {
    const sys = new SinkSys();
    const writer = new PktBatchWriter(3, { sys });
    const view = new DataView(new ArrayBuffer(10), 2, 6);
    writer.sideband(2, view);
    writer.flush();
    assert.deepEqual(sys.received(), Buffer.concat([Buffer.from('000b\x02', 'latin1'), bytesOf(view)]));
    assert.throws(
      () => writer.sideband(1, loose([1, 2, 3])),
      /^TypeError: data must be a Buffer, TypedArray or DataView, got an instance of Array/,
    );
    assert.throws(() => new PktBatchWriter(-1, { sys }), RangeError);
    assert.throws(() => sendSideband(3, 1, loose('text'), 1000, { sys }), TypeError);
  });

  it('encodePktLine, decodePktLines and ChunkSource take any view by its bytes', () => {
    const u16 = new Uint16Array([0x6968, 0x0a21]); // "hi!\n" on a little-endian machine
    assert.deepEqual(encodePktLine(u16), Buffer.concat([Buffer.from('0008'), bytesOf(u16)]));
    assert.throws(() => encodePktLine(loose(42)), TypeError);
    const stream = encodePktLine('abcdef');
    const asU16 = new Uint16Array(stream.buffer.slice(stream.byteOffset, stream.byteOffset + stream.length));
    const [packet] = decodePktLines(asU16);
    assert.equal(packet?.kind === 'data' && Buffer.from(packet.payload).toString(), 'abcdef');
    const target = Buffer.alloc(16);
    assert.equal(new ChunkSource([new Uint32Array([0x64636261])]).read(target), 4);
    assert.throws(() => new ChunkSource(loose(Buffer.from('ab'))), TypeError);
    assert.throws(() => new FdSource(-3), RangeError);
  });
});
