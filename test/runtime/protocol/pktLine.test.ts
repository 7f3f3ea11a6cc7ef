import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  ChunkSource,
  decodePktLines,
  delimPkt,
  encodePktLine,
  flushPkt,
  LARGE_PACKET_MAX,
  packetText,
  PktReader,
  ProtocolError,
  RemoteError,
  responseEndPkt,
} from '@writev/runtime';

const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');

describe('pkt-line encoding', () => {
  it('prefixes the payload with its total length in four lowercase hex digits', () => {
    assert.equal(encodePktLine('want abc\n').toString(), '000dwant abc\n');
    assert.equal(encodePktLine(Buffer.alloc(0xfa)).subarray(0, 4).toString(), '00fe');
  });

  it('encodes an empty payload as 0004, not as a flush', () => {
    assert.equal(encodePktLine('').toString(), '0004');
  });

  it('encodes the special packets flush, delim and response-end', () => {
    assert.equal(flushPkt().toString(), '0000');
    assert.equal(delimPkt().toString(), '0001');
    assert.equal(responseEndPkt().toString(), '0002');
  });

  it('accepts a packet of exactly LARGE_PACKET_MAX bytes and refuses one more', () => {
    assert.equal(
      encodePktLine(Buffer.alloc(LARGE_PACKET_MAX - 4))
        .subarray(0, 4)
        .toString(),
      'fff0',
    );
    assert.throws(() => encodePktLine(Buffer.alloc(LARGE_PACKET_MAX - 3)), RangeError);
  });

  it('counts UTF-8 bytes, not characters', () => {
    assert.equal(encodePktLine('é').toString('latin1').slice(0, 4), '0006');
  });
});

describe('pkt-line decoding', () => {
  it('decodes data, flush, delim and response-end packets with their offsets', () => {
    const packets = decodePktLines(ascii('0009hello00000001000200060a'));
    assert.deepEqual(
      packets.map((p) => [p.kind, p.offset, p.kind === 'data' ? Buffer.from(p.payload).toString() : '']),
      [
        ['data', 0, 'hello'],
        ['flush', 9, ''],
        ['delim', 13, ''],
        ['response-end', 17, ''],
        ['data', 21, '0a'],
      ],
    );
  });

  it('decodes 0004 as an empty data packet', () => {
    assert.deepEqual(decodePktLines(ascii('0004')), [{ kind: 'data', payload: Buffer.alloc(0), offset: 0 }]);
  });

  it('accepts upper-case hex digits, as git does', () => {
    const stream = Buffer.concat([ascii('00FF'), Buffer.alloc(0xfb)]);
    assert.equal(decodePktLines(stream).length, 1);
  });

  it('rejects a length that is not hexadecimal, naming the offset', () => {
    assert.throws(
      () => decodePktLines(ascii('0000zz12')),
      (err: unknown) => {
        assert.ok(err instanceof ProtocolError);
        assert.equal(err.offset, 4);
        assert.match(err.message, /byte 4: bad pkt-line length "zz12"/);
        return true;
      },
    );
  });

  it('rejects the reserved length 0003', () => {
    assert.throws(() => decodePktLines(ascii('0003')), { name: 'ProtocolError', offset: 0, message: /0003/ });
  });

  it('rejects a length above 65520', () => {
    assert.throws(() => decodePktLines(ascii('fff1')), { offset: 0, message: /65521: more than the 65520/ });
  });

  it('rejects a stream truncated inside a header or a payload', () => {
    assert.throws(() => decodePktLines(ascii('0000000')), { offset: 4, message: /inside a pkt-line header/ });
    assert.throws(() => decodePktLines(ascii('0009hel')), { offset: 0, message: /inside a 9-byte pkt-line/ });
  });

  it('strips one trailing newline from a line, as readers do', () => {
    assert.equal(packetText(ascii('NAK\n')), 'NAK');
    assert.equal(packetText(ascii('NAK')), 'NAK');
    assert.equal(packetText(ascii('a\n\n')), 'a\n');
  });
});

describe('PktReader', () => {
  it('reads packets cut at every byte boundary', () => {
    const stream = Buffer.concat([encodePktLine('one\n'), flushPkt(), encodePktLine('two'), delimPkt()]);
    const oneByteReads = [...stream].map((b) => Uint8Array.of(b));
    const reader = new PktReader(new ChunkSource(oneByteReads));
    assert.equal(reader.readLine(), 'one');
    assert.equal(reader.readLine(), undefined);
    assert.equal(reader.readLine(), 'two');
    assert.deepEqual(reader.next(), { kind: 'delim', offset: 19 });
    assert.equal(reader.next(), undefined);
  });

  it('turns an ERR line into a RemoteError with the reason', () => {
    const reader = new PktReader(new ChunkSource([encodePktLine('ERR upload-pack: not our ref 1234\n')]));
    assert.throws(
      () => reader.readLine(),
      (err: unknown) => {
        assert.ok(err instanceof RemoteError);
        assert.equal(err.remoteMessage, 'upload-pack: not our ref 1234');
        return true;
      },
    );
  });

  it('reports a stream that ends where a line was expected', () => {
    const reader = new PktReader(new ChunkSource([encodePktLine('x')]));
    reader.readLine();
    assert.throws(() => reader.readLine(), { name: 'ProtocolError', offset: 5 });
  });

  it('ends gently when the stream stops inside the packet that would come next, unless its length is bad', () => {
    for (const cut of ['', '0', '000', '0009', '0009hel']) {
      const reader = new PktReader(new ChunkSource([encodePktLine('one'), ascii(cut)]));
      assert.equal(reader.nextUnlessEnded()?.kind, 'data');
      assert.equal(reader.nextUnlessEnded(), undefined, `cut ${JSON.stringify(cut)}`);
    }
    const whole = new PktReader(new ChunkSource([ascii('0009hello'), flushPkt()]));
    assert.deepEqual(whole.nextUnlessEnded(), { kind: 'data', payload: ascii('hello'), offset: 0 });
    assert.deepEqual(whole.nextUnlessEnded(), { kind: 'flush', offset: 9 });
    assert.throws(() => new PktReader(new ChunkSource([ascii('zzzz')])).nextUnlessEnded(), {
      name: 'ProtocolError',
      message: /bad pkt-line length/,
    });
  });

  it('reads many packets per read through its 128 KiB buffer', () => {
    const packets = Array.from({ length: 1000 }, (_, i) => encodePktLine(`line ${i}\n`));
    let reads = 0;
    const source = new ChunkSource([Buffer.concat(packets)]);
    const counting = { read: (t: Uint8Array) => (reads++, source.read(t)) };
    const reader = new PktReader(counting);
    for (let i = 0; i < 1000; i++) assert.equal(reader.readLine(), `line ${i}`);
    assert.equal(reader.next(), undefined);
    assert.equal(reads, 2); // the data, then the end of the stream
  });

  it('refuses a buffer too small for the largest packet', () => {
    assert.throws(() => new PktReader(new ChunkSource([]), 1000), RangeError);
  });
});
