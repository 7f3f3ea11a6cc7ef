import { strict as assert } from 'node:assert';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { request, type Server } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import {
  createSmartHttpHandler,
  GIT_UPLOAD_PACK,
  type SmartHttpHandler,
  type SmartHttpOptions,
} from '@writev/runtime';
import { git, makeRepository, Scratch } from '../uploadPack/helpers/gitRepo';
import {
  answerContent,
  closeServer,
  httpRequest,
  PACK_THREADS_1,
  httpTestEnv,
  serveHandler,
} from './helpers';

const REQUEST_TYPE = 'application/x-git-upload-pack-request';

/** Waits for `condition`, polling, up to 10 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !condition();) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A v0 stateless request for `oid`: the want with capabilities, a flush, done. */
function wantRequest(oid: string): Buffer {
  const want = `want ${oid} side-band-64k ofs-delta no-progress agent=test\n`;
  return Buffer.from(`${(want.length + 4).toString(16).padStart(4, '0')}${want}00000009done\n`, 'latin1');
}

describe('the smart HTTP handler bounds what a request may cost, and survives bad ones', () => {
  const scratch = new Scratch();
  const served = scratch.path('served');
  const pids = scratch.path('pids');
  let head: string;
  const servers: Server[] = [];

  before(() => {
    const source = makeRepository(scratch.dir);
    git(scratch.dir, ['clone', '-q', '--bare', source, join(served, 'project.git')]);
    head = git(source, ['rev-parse', 'HEAD']).trim();
    // An upload-pack that answers one pkt-line, then stays silent in a grandchild: `sleep` is what
    // must not outlive the request.
    writeFileSync(
      scratch.path('silent-upload-pack'),
      `#!/bin/sh\nsleep 600 &\necho "$$ $!" > '${pids}'\nprintf '0008NAK\\n'\nwait\n`,
      { mode: 0o755 },
    );
  });
  after(async () => {
    for (const server of servers) await closeServer(server);
    scratch.dispose();
  });

  async function serve(
    options: Partial<SmartHttpOptions> = {},
  ): Promise<{ url: string; handler: SmartHttpHandler }> {
    const handler = createSmartHttpHandler({
      root: served,
      uploadPack: GIT_UPLOAD_PACK,
      // One pack-objects thread: the same request gives the same pack bytes.
      env: httpTestEnv(PACK_THREADS_1),
      ...options,
    });
    const { url, server } = await serveHandler(handler);
    servers.push(server);
    return { url, handler };
  }

  const post = (body: Buffer, headers: Record<string, string> = {}) => ({
    method: 'POST',
    headers: { 'Content-Type': REQUEST_TYPE, ...headers },
    body,
  });

  it('answers a gzip request body as the same request uncompressed', async () => {
    const { url } = await serve();
    const plain = await httpRequest(url, '/project.git/git-upload-pack', post(wantRequest(head)));
    const gzipped = await httpRequest(
      url,
      '/project.git/git-upload-pack',
      post(gzipSync(wantRequest(head)), { 'Content-Encoding': 'gzip' }),
    );
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-type'], 'application/x-git-upload-pack-result');
    assert.match(plain.body.toString('latin1', 0, 12), /^0008NAK\n/);
    assert.ok(plain.body.length > 1000, 'a pack came back');
    assert.deepEqual(answerContent(gzipped.body), answerContent(plain.body));
  });

  it('413 for a body over the limit, by Content-Length or as it streams, and for a gzip bomb', async () => {
    // An upload-pack that reads whatever comes: only the limit can stop the body.
    const reader = { file: '/bin/sh', args: ['-c', "cat > /dev/null; printf '0008NAK\\n'", 'sh'] };
    const { url, handler } = await serve({ maxRequestBytes: 64 * 1024, uploadPack: reader });
    const declared = await httpRequest(
      url,
      '/project.git/git-upload-pack',
      post(Buffer.alloc(100_000, 0x30)),
    );
    assert.equal(declared.status, 413);
    assert.match(
      declared.body.toString(),
      /^request body larger than 65536 bytes \(Content-Length: 100000\)\n$/,
    );
    assert.equal(declared.headers.connection, 'close');
    // Chunked, so only counting can tell.
    const streamed = await httpRequest(url, '/project.git/git-upload-pack', {
      ...post(Buffer.alloc(200_000, 0x30)),
      headers: { 'Content-Type': REQUEST_TYPE, 'Transfer-Encoding': 'chunked' },
    });
    assert.equal(streamed.status, 413);
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024));
    assert.ok(bomb.length < 64 * 1024, 'the bomb itself is under the limit');
    const inflated = await httpRequest(
      url,
      '/project.git/git-upload-pack',
      post(bomb, { 'Content-Encoding': 'gzip' }),
    );
    assert.equal(inflated.status, 413);
    assert.match(inflated.body.toString(), /^request body larger than 65536 bytes once decompressed\n$/);
    await until(() => handler.running === 0, 'no upload-pack runs');
  });

  it('400 for a damaged gzip body', async () => {
    const { url } = await serve();
    const damaged = gzipSync(wantRequest(head));
    damaged.writeUInt8(damaged.readUInt8(damaged.length - 5) ^ 0xff, damaged.length - 5); // the CRC
    const answer = await httpRequest(
      url,
      '/project.git/git-upload-pack',
      post(damaged, { 'Content-Encoding': 'gzip' }),
    );
    assert.equal(answer.status, 400);
    assert.match(answer.body.toString(), /^gzip request body: /);
  });

  it('408 for a body that stops arriving, and upload-pack is stopped', async () => {
    const { url, handler } = await serve({ requestTimeoutMs: 300 });
    const { port } = new URL(url);
    const req = request({
      host: '127.0.0.1',
      port,
      path: '/project.git/git-upload-pack',
      method: 'POST',
      headers: { 'Content-Type': REQUEST_TYPE, 'Content-Length': '1000' },
    });
    req.write(wantRequest(head).subarray(0, 20));
    const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage];
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    await once(res, 'end');
    req.destroy();
    assert.equal(res.statusCode, 408);
    assert.match(Buffer.concat(chunks).toString(), /^request body not received within 0.3 s\n$/);
    await until(() => handler.running === 0, 'no upload-pack runs');
  });

  it('a client that hangs up mid-answer stops upload-pack and what it started', async () => {
    const { url, handler } = await serve({
      uploadPack: { file: scratch.path('silent-upload-pack'), args: [] },
    });
    const { port } = new URL(url);
    const req = request({ host: '127.0.0.1', port, path: '/project.git/info/refs?service=git-upload-pack' });
    req.on('error', () => undefined);
    req.end();
    const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage];
    assert.equal(res.statusCode, 200);
    await once(res, 'data');
    const [shell, sleep] = readFileSync(pids, 'utf8').trim().split(' ').map(Number) as [number, number];
    assert.ok(alive(shell) && alive(sleep), 'the child and its own child run while the client listens');
    res.on('error', () => undefined);
    req.destroy();
    await until(() => !alive(shell) && !alive(sleep), 'the child and its child are gone');
    await until(() => handler.running === 0, 'the handler forgot it');
  });

  it('an upload-pack that falls silent is stopped and the response cut off, not ended', async () => {
    const { url, handler } = await serve({
      uploadPack: { file: scratch.path('silent-upload-pack'), args: [] },
      idleTimeoutMs: 300,
    });
    await assert.rejects(
      httpRequest(url, '/project.git/info/refs?service=git-upload-pack'),
      /aborted|ECONNRESET|socket hang up/,
    );
    const [shell, sleep] = readFileSync(pids, 'utf8').trim().split(' ').map(Number) as [number, number];
    await until(() => !alive(shell) && !alive(sleep), 'the silent child and its child are gone');
    assert.equal(handler.running, 0);
  });

  it('500 for an upload-pack that cannot start or fails before answering', async () => {
    const missing = await serve({ uploadPack: { file: scratch.path('no-such-program'), args: [] } });
    const answer = await httpRequest(missing.url, '/project.git/info/refs?service=git-upload-pack');
    assert.equal(answer.status, 500);
    assert.match(answer.body.toString(), /^cannot run '.*no-such-program': spawn .* ENOENT\n$/);
    const failing = await serve({ uploadPack: { file: 'false', args: [] } });
    const failed = await httpRequest(failing.url, '/project.git/info/refs?service=git-upload-pack');
    assert.equal(failed.status, 500);
    assert.equal(failed.body.toString(), 'upload-pack exited with status 1 before answering\n');
  });

  it('garbage on the connection, odd targets and odd headers leave the server serving', async () => {
    const { url } = await serve();
    const { port } = new URL(url);
    for (const junk of [
      'GARBAGE\r\n\r\n',
      'GET /project.git/info/refs?service=git-upload-pack HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      `GET /${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      'GET http://elsewhere/project.git/info/refs?service=git-upload-pack HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET * HTTP/1.1\r\nHost: x\r\n\r\n',
      'POST /project.git/git-upload-pack HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-git-upload-pack-request\r\nContent-Length: 5\r\n\r\n00',
    ]) {
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.end(junk);
      socket.resume();
      await once(socket, 'close');
    }
    const answer = await httpRequest(url, '/project.git/info/refs?service=git-upload-pack');
    assert.equal(answer.status, 200);
    assert.match(answer.body.toString('latin1'), /^001e# service=git-upload-pack\n0000/);
  });
});
