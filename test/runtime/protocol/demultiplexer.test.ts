import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  ChunkSource,
  demultiplexSideband,
  encodePktLine,
  PktReader,
  ProtocolError,
  RemoteError,
} from '@writev/runtime';

const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');
const band = (n: number, text: string | Buffer): Buffer =>
  encodePktLine(Buffer.concat([Uint8Array.of(n), typeof text === 'string' ? ascii(text) : text]));

function run(stream: Buffer): { data: Buffer; progress: string[] } {
  const chunks: Buffer[] = [];
  const progress: string[] = [];
  demultiplexSideband(new PktReader(new ChunkSource([stream])), {
    data: (chunk) => chunks.push(Buffer.from(chunk)),
    progress: (piece) => progress.push(piece),
  });
  return { data: Buffer.concat(chunks), progress };
}

function failure(stream: Buffer): unknown {
  try {
    run(stream);
  } catch (err) {
    return err;
  }
  return assert.fail('expected the stream to be refused');
}

describe('demultiplexSideband', () => {
  it('passes band 1 to the data sink in order and stops at the flush', () => {
    const stream = Buffer.concat([band(1, 'PACK'), band(1, 'rest'), ascii('0000'), ascii('trailing')]);
    assert.equal(run(stream).data.toString(), 'PACKrest');
  });

  it('splits progress into pieces ending in CR or LF, joining pieces cut across packets', () => {
    const stream = Buffer.concat([
      band(2, 'Counting: 1%\rCount'),
      band(2, 'ing: 100%\r'),
      band(2, 'done.\nTotal 3'),
      band(1, 'x'),
      band(2, ' (delta 0)\n'),
      ascii('0000'),
    ]);
    assert.deepEqual(run(stream).progress, [
      'Counting: 1%\r',
      'Counting: 100%\r',
      'done.\n',
      'Total 3 (delta 0)\n',
    ]);
  });

  it('passes leftover progress without a terminator when the stream ends', () => {
    assert.deepEqual(run(Buffer.concat([band(2, 'almost'), ascii('0000')])).progress, ['almost']);
  });

  it('keeps a UTF-8 character cut between two progress packets whole', () => {
    const e = Buffer.from('é\n');
    const stream = Buffer.concat([band(2, e.subarray(0, 1)), band(2, e.subarray(1)), ascii('0000')]);
    assert.deepEqual(run(stream).progress, ['é\n']);
  });

  it("turns band 3 into a RemoteError with the remote's message", () => {
    const err = failure(Buffer.concat([band(1, 'PA'), band(3, 'pack-objects died\n')]));
    assert.ok(err instanceof RemoteError);
    assert.equal(err.remoteMessage, 'pack-objects died');
  });

  it('refuses a band other than 1, 2 or 3, naming its offset', () => {
    const err = failure(Buffer.concat([band(1, 'ab'), band(4, 'x')]));
    assert.ok(err instanceof ProtocolError);
    assert.equal(err.offset, 7);
    assert.match(err.message, /unknown band 4/);
  });

  it('refuses a packet without a band byte', () => {
    assert.throws(() => run(ascii('00040000')), {
      name: 'ProtocolError',
      offset: 0,
      message: /without a band/,
    });
  });

  it('refuses bad lengths: not hex, 0003, above 65520', () => {
    for (const [header, message] of [
      ['00g5', /not four hexadecimal/],
      ['0003', /reserved/],
      ['fff1', /more than the 65520/],
    ] as const) {
      const err = failure(Buffer.concat([band(1, 'x'), ascii(header), ascii('.....')]));
      assert.ok(err instanceof ProtocolError);
      assert.equal(err.offset, 6);
      assert.match(err.message, message);
    }
  });

  it('refuses a stream truncated inside a packet, or ended before the flush', () => {
    assert.throws(() => run(band(1, 'abc').subarray(0, 6)), {
      offset: 0,
      message: /inside a 8-byte pkt-line/,
    });
    assert.throws(() => run(band(1, 'abc')), { offset: 8, message: /ended before its flush/ });
  });

  it('refuses delim and response-end packets inside a sideband stream', () => {
    assert.throws(() => run(ascii('0001')), { offset: 0, message: /unexpected delim/ });
    assert.throws(() => run(ascii('0002')), { offset: 0, message: /unexpected response-end/ });
  });
});
