import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  LARGE_PACKET_MAX,
  PktBatchWriter,
  SIDEBAND_PACKET_MAX,
  sendSideband,
  sendSidebandTwoWrites,
} from '@writev/runtime';
import { bytes, scripted, SinkSys } from '../helpers/sinkSys';

/** The packets' header strings of a written stream (4 hex digits plus the band byte, if any). */
function headers(stream: Buffer, banded = true): string[] {
  const seen: string[] = [];
  for (let at = 0; at < stream.length;) {
    const length = parseInt(stream.toString('latin1', at, at + 4), 16);
    seen.push(
      banded
        ? `${stream.toString('latin1', at, at + 4)}/${stream[at + 4]}`
        : stream.toString('latin1', at, at + 4),
    );
    at += length === 0 ? 4 : length;
  }
  return seen;
}

describe('sendSideband', () => {
  it('splits data into packets of at most packetMax - 5 payload bytes with 5-byte headers', () => {
    const sink = new SinkSys();
    sendSideband(1, 1, bytes(2500), SIDEBAND_PACKET_MAX, { sys: sink });
    assert.deepEqual(headers(sink.received()), ['03e8/1', '03e8/1', '0203/1']);
  });

  it('makes one writev of [header, payload] per packet', () => {
    const sink = new SinkSys();
    sendSideband(1, 2, bytes(2000), SIDEBAND_PACKET_MAX, { sys: sink });
    assert.deepEqual(
      sink.calls.map((c) => [c.call, c.buffers, c.requested]),
      [
        ['writev', 2, 1000],
        ['writev', 2, 1000],
        ['writev', 2, 15],
      ],
    );
  });

  it('with a negative band writes 4-byte headers and still at most packetMax - 5 bytes of payload', () => {
    const sink = new SinkSys();
    sendSideband(1, -1, bytes(1000), SIDEBAND_PACKET_MAX, { sys: sink });
    assert.deepEqual(headers(sink.received(), false), ['03e7', '0009']);
  });

  it('sends nothing for empty data', () => {
    const sink = new SinkSys();
    sendSideband(1, 1, Buffer.alloc(0), LARGE_PACKET_MAX, { sys: sink });
    assert.equal(sink.calls.length, 0);
  });

  it('uses 65515-byte payloads with side-band-64k', () => {
    const sink = new SinkSys();
    sendSideband(1, 1, bytes(70000), LARGE_PACKET_MAX, { sys: sink });
    assert.deepEqual(headers(sink.received()), ['fff0/1', '118a/1']);
  });

  it('rejects a packetMax that leaves no room for payload or exceeds 65520, and a band above 255', () => {
    assert.throws(() => sendSideband(1, 1, bytes(1), 5), RangeError);
    assert.throws(() => sendSideband(1, 1, bytes(1), LARGE_PACKET_MAX + 1), RangeError);
    assert.throws(() => sendSideband(1, 256, bytes(1), 1000), RangeError);
  });

  it('finishes a packet after a short write inside its header', () => {
    const sink = new SinkSys(scripted({ kind: 'short', bytes: 2 }, { kind: 'error', code: 'EAGAIN' }));
    sendSideband(1, 1, bytes(10), 1000, { sys: sink });
    assert.deepEqual(sink.received(), Buffer.concat([Buffer.from('000f\x01', 'latin1'), bytes(10)]));
  });

  it('reports a gone reader as BrokenPipeError', () => {
    const sink = new SinkSys(scripted({ kind: 'error', code: 'EPIPE' }));
    assert.throws(() => sendSideband(1, 1, bytes(10), 1000, { sys: sink }), { name: 'BrokenPipeError' });
  });
});

describe('sendSidebandTwoWrites', () => {
  it('puts the same bytes on the wire with a write for the header and one for the payload', () => {
    const gathered = new SinkSys();
    const split = new SinkSys();
    sendSideband(1, 1, bytes(2500), 1000, { sys: gathered });
    sendSidebandTwoWrites(1, 1, bytes(2500), 1000, { sys: split });
    assert.deepEqual(split.received(), gathered.received());
    assert.deepEqual(
      split.calls.map((c) => [c.call, c.requested]),
      [
        ['write', 5],
        ['write', 995],
        ['write', 5],
        ['write', 995],
        ['write', 5],
        ['write', 510],
      ],
    );
  });
});

describe('PktBatchWriter', () => {
  it('puts the same bytes on the wire as sendSideband with one writev', () => {
    const single = new SinkSys();
    const batched = new SinkSys();
    sendSideband(1, 1, bytes(5000), 1000, { sys: single });
    sendSideband(1, 2, bytes(30), 1000, { sys: single });
    const writer = new PktBatchWriter(1, { packetMax: 1000, sys: batched });
    writer.sideband(1, bytes(5000));
    writer.sideband(2, bytes(30));
    assert.equal(batched.calls.length, 0, 'nothing is written before a flush');
    writer.flush();
    assert.deepEqual(batched.received(), single.received());
    assert.equal(batched.counts.writev, 1);
    assert.equal(single.counts.writev, 7);
  });

  it('flushes by itself before a packet that would pass IOV_MAX buffers', () => {
    const sink = new SinkSys();
    const writer = new PktBatchWriter(1, { packetMax: 1000, sys: sink });
    writer.sideband(1, bytes(995 * 600));
    writer.flush();
    assert.deepEqual(
      sink.calls.map((c) => c.buffers),
      [1024, 176],
    );
  });

  it('flushes by itself before a packet that would pass maxIoSize bytes', () => {
    const sink = new SinkSys();
    const writer = new PktBatchWriter(1, { packetMax: 1000, sys: sink, maxIoSize: 2500 });
    writer.sideband(1, bytes(995 * 5));
    writer.flush();
    assert.deepEqual(
      sink.calls.map((c) => c.requested),
      [2000, 2000, 1000],
    );
  });

  it('queues views of the payload, never copies', () => {
    const payload = bytes(3000);
    const seen: Uint8Array[] = [];
    const sink = new SinkSys();
    const spy = Object.assign(Object.create(sink) as SinkSys, {
      writev: (fd: number, bufs: readonly Uint8Array[]) => (seen.push(...bufs), sink.writev(fd, bufs)),
    });
    const writer = new PktBatchWriter(1, { packetMax: 1000, sys: spy });
    writer.sideband(1, payload);
    writer.flush();
    const payloads = seen.filter((b) => b.length > 5);
    assert.ok(payloads.every((b) => b.buffer === payload.buffer));
  });

  it('writes a flush packet, and nothing for an empty flush', () => {
    const sink = new SinkSys();
    const writer = new PktBatchWriter(1, { sys: sink });
    writer.flush();
    assert.equal(sink.calls.length, 0);
    writer.sideband(1, Buffer.from('x'));
    writer.flushPacket();
    writer.flush();
    assert.equal(sink.received().toString('latin1'), '0006\x01x0000');
  });

  it('drops its queue after a failed flush and reports the failure', () => {
    const sink = new SinkSys(scripted({ kind: 'error', code: 'ENOSPC' }));
    const writer = new PktBatchWriter(1, { sys: sink });
    writer.sideband(1, bytes(10));
    assert.throws(() => writer.flush(), { name: 'WriteError', code: 'ENOSPC' });
    assert.equal(writer.pendingBuffers, 0);
  });
});
