import { strict as assert } from 'node:assert';
import { once } from 'node:events';
import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { RESPONSE_FD, ResponseSink } from '@writev/runtime/dist/http/responseSink';

/** Bytes of chunk `n`: a pattern of its own, so a chunk overwritten by a later one shows. */
function pattern(n: number, size: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + n * 7) & 0xff;
  return bytes;
}

/**
 * Serves one POST through a ResponseSink: `rounds` rounds of `perRound` large writevs from ONE
 * source buffer the writer refills after each call (as the cached pack's read-ahead reuses its
 * buffers), waiting for the response to drain between rounds only. Resolves with what the client
 * received, what it should have, and the memory of each large chunk handed to the response.
 */
async function serveRounds(rounds: number, perRound: number, size: number) {
  const arenas: ArrayBufferLike[] = [];
  const expected: Buffer[] = [];
  const server = createServer((req, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      res.write = ((chunk: Uint8Array, ...rest: unknown[]) => {
        if (chunk.length >= size) arenas.push(chunk.buffer);
        return write(chunk, ...rest);
      }) as typeof res.write;
      const sink = new ResponseSink(res, false, () => undefined);
      const source = Buffer.allocUnsafe(size);
      void (async () => {
        let n = 0;
        for (let round = 0; round < rounds; round++) {
          for (let i = 0; i < perRound; i++, n++) {
            pattern(n, size).copy(source);
            // A pkt-line header and the payload, gathered as the batched writer hands them.
            const header = Buffer.from('fff0\u0001', 'latin1');
            sink.writev(RESPONSE_FD, [header, source]);
            expected.push(header, pattern(n, size));
          }
          await sink.drained();
        }
        sink.end();
      })();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  try {
    const received = await new Promise<Buffer>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(Buffer.concat(chunks)));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end('request');
    });
    return { received, expected: Buffer.concat(expected), arenas };
  } finally {
    server.close();
    server.closeAllConnections();
  }
}

describe('ResponseSink', () => {
  it('copies what it is given before the caller reuses it, and reuses its own copies only once the response has written them', async () => {
    const size = 1 << 20;
    const { received, expected, arenas } = await serveRounds(4, 3, size);
    assert.equal(received.length, expected.length);
    assert.ok(received.equals(expected), 'the client received every chunk as it was when written');
    assert.equal(arenas.length, 12);
    // Three chunks queue at once (nobody waits for the client within a round), so three copies
    // are live; later rounds take the copies the response has written out.
    assert.ok(new Set(arenas).size < arenas.length, 'copy buffers are reused across writes');
  });
});
