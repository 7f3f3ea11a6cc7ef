/**
 * What serving inside the HTTP server's process must survive, with real HTTP clients and real git:
 * a client that leaves mid-pack, a client that reads slowly, a pack-objects that dies, the server's
 * shutdown, and eight clones at once. After each: no pack-objects left running, no descriptor left
 * open in this process (the server's), and the server still serving.
 */
import { strict as assert } from 'node:assert';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { createSmartHttpHandler, type SmartHttpHandler, type SmartHttpOptions } from '@writev/runtime';
import { git, makeRepository, run, Scratch } from '../uploadPack/helpers/gitRepo';
import { closeServer, httpRequest, httpTestEnv, serveHandler } from './helpers';

const REQUEST_TYPE = 'application/x-git-upload-pack-request';

function pkt(line: string): string {
  return `${(line.length + 4).toString(16).padStart(4, '0')}${line}`;
}

/** A v2 fetch of `oid` with done: the whole pack, at once. */
function fetchRequest(oid: string): Buffer {
  return Buffer.from(
    `${pkt('command=fetch\n')}${pkt('object-format=sha1\n')}0001${pkt('no-progress\n')}${pkt(`want ${oid}\n`)}${pkt('done\n')}0000`,
    'latin1',
  );
}

/** Waits for `condition`, polling, up to 20 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 20_000; !condition();) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The descriptors this process holds open. */
function openDescriptors(): number {
  return readdirSync('/proc/self/fd').length;
}

/** The pids of the `git pack-objects` processes working in `repo`. */
function packObjectsIn(repo: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'latin1').split('\0');
      if (cmdline.includes('pack-objects') && readlinkSync(`/proc/${name}/cwd`) === repo)
        pids.push(Number(name));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

describe('serving inside the process survives what one request can do to it', () => {
  const scratch = new Scratch();
  const served = scratch.path('served');
  const repo = join(served, 'big.git');
  const servers: Server[] = [];
  let tip = '';

  before(() => {
    // 24 MiB that do not compress: a pack far larger than any buffer between server and client.
    // Stored without compression (zlib would only spend its time finding nothing to shorten) and
    // packed, so each of the many fetches below copies the object from the pack rather than
    // compressing 24 MiB again. Random bytes do not shrink, so the pack is as large either way.
    const source = makeRepository(scratch.dir);
    writeFileSync(join(source, 'noise.bin'), randomBytes(24 << 20));
    git(source, ['-c', 'core.compression=0', 'add', 'noise.bin']);
    git(source, ['commit', '-q', '-m', 'noise']);
    git(scratch.dir, ['clone', '-q', '--bare', source, repo]);
    git(repo, ['-c', 'pack.compression=0', 'repack', '-a', '-d', '-q']);
    tip = git(repo, ['rev-parse', 'HEAD']).trim();
  });
  after(async () => {
    for (const server of servers) await closeServer(server);
    scratch.dispose();
  });

  /** A handler on a server of its own; `watch` sees every response it answers. */
  async function serve(
    options: Partial<SmartHttpOptions> = {},
    watch: (res: ServerResponse) => void = () => undefined,
  ): Promise<{ url: string; handler: SmartHttpHandler }> {
    const handler = createSmartHttpHandler({
      root: served,
      env: httpTestEnv({ WRITEV_UPLOAD_PACK_CACHE: 'off' }),
      ...options,
    });
    const { url, server } = await serveHandler((req: IncomingMessage, res: ServerResponse) => {
      watch(res);
      handler(req, res);
    });
    servers.push(server);
    return { url, handler };
  }

  /** Starts a fetch of the whole pack; resolves with the response, not yet read. */
  function startFetch(url: string): Promise<{ res: IncomingMessage; abort: () => void }> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const req = request({
        host: hostname,
        port,
        path: '/big.git/git-upload-pack',
        method: 'POST',
        headers: { 'Content-Type': REQUEST_TYPE, 'Git-Protocol': 'version=2' },
        agent: false,
      });
      req.on('error', () => undefined);
      req.on('response', (res) => {
        res.on('error', () => undefined);
        resolve({ res, abort: () => req.destroy() });
      });
      req.once('error', reject);
      req.end(fetchRequest(tip));
    });
  }

  /** A whole fetch still works: the answer ends with the pack's closing flush. */
  async function stillServes(url: string): Promise<void> {
    const answer = await httpRequest(url, '/big.git/git-upload-pack', {
      method: 'POST',
      headers: { 'Content-Type': REQUEST_TYPE, 'Git-Protocol': 'version=2' },
      body: fetchRequest(tip),
    });
    assert.equal(answer.status, 200);
    assert.ok(answer.body.length > 24 << 20, `a whole pack, not ${answer.body.length} bytes`);
    assert.equal(answer.body.toString('latin1', answer.body.length - 4), '0000');
  }

  it('a client that leaves mid-pack stops its pack-objects, and leaves no descriptor open', async () => {
    const { url, handler } = await serve();
    await stillServes(url); // the first request loads what every later one shares
    const descriptors = openDescriptors();
    const { res, abort } = await startFetch(url);
    let received = 0;
    await new Promise<void>((resolve) => {
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > 256 << 10) resolve();
      });
    });
    assert.equal(packObjectsIn(repo).length, 1, 'pack-objects runs while the pack streams');
    abort();
    await until(() => handler.running === 0, 'the handler has let go of the request');
    await until(() => packObjectsIn(repo).length === 0, 'pack-objects is gone');
    await until(() => openDescriptors() <= descriptors, `descriptors back to ${descriptors}`);
    await stillServes(url);
  });

  it('a client that leaves while a cached pack streams closes the cache entry', async () => {
    const cache = scratch.path('cache');
    const { url, handler } = await serve({ env: httpTestEnv({ WRITEV_UPLOAD_PACK_CACHE: cache }) });
    await stillServes(url); // fills the cache
    await stillServes(url);
    const descriptors = openDescriptors();
    const { res, abort } = await startFetch(url);
    await new Promise<void>((resolve) => res.once('data', () => resolve()));
    abort();
    await until(() => handler.running === 0, 'the handler has let go of the request');
    await until(() => openDescriptors() <= descriptors, `descriptors back to ${descriptors}`);
    assert.deepEqual(packObjectsIn(repo), []);
  });

  for (const source of ['pack-objects', 'the cache'] as const) {
    it(`a client that does not read holds back the pack from ${source}, not piles it up in memory`, async () => {
      const responses: ServerResponse[] = [];
      const env = httpTestEnv({
        WRITEV_UPLOAD_PACK_CACHE: source === 'the cache' ? scratch.path('cache-slow') : 'off',
      });
      const { url } = await serve({ env }, (res) => responses.push(res));
      if (source === 'the cache') await stillServes(url);
      const { res } = await startFetch(url);
      res.pause();
      const response = responses.at(-1)!;
      // Wait until the server has stopped sending: the socket's buffers are full.
      let queuedMax = 0;
      let sent = -1;
      let still = 0;
      await until(() => {
        queuedMax = Math.max(queuedMax, response.writableLength);
        const now = response.socket?.bytesWritten ?? 0;
        still = now === sent ? still + 1 : 0;
        sent = now;
        // Not before pack bytes flow: pack-objects compresses a large object whole before writing it.
        return (now > 1 << 20 && still > 25) || response.writableFinished;
      }, 'the server stops sending to a client that does not read');
      assert.ok(!response.writableFinished, 'the pack did not fit the buffers between');
      assert.ok(queuedMax < 4 << 20, `at most a few chunks queued in the server, not ${queuedMax} bytes`);
      // Then reading resumes, and the whole pack arrives.
      let received = 0;
      let tail = '';
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        tail = (tail + chunk.toString('latin1')).slice(-4);
      });
      res.resume();
      await new Promise((resolve) => res.once('end', resolve));
      assert.ok(received > 24 << 20, `the whole pack, not ${received} bytes`);
      assert.equal(tail, '0000');
    });
  }

  it('a pack-objects that dies mid-pack fails that clone with its reason, and only that one', async () => {
    // The hook runs pack-objects, passes on its first 64 KiB, and dies of a signal.
    const hook = scratch.path('dying-pack-objects');
    writeFileSync(hook, '#!/bin/sh\n"$@" | head -c 65536\nkill -9 $$\n', { mode: 0o755 });
    const { url, handler } = await serve({
      env: httpTestEnv({ WRITEV_UPLOAD_PACK_CACHE: 'off', WRITEV_UPLOAD_PACK_HOOK: hook }),
    });
    const descriptors = openDescriptors();
    const dest = scratch.path('dying-clone');
    const clone = await run('git', ['clone', '-q', '--bare', `${url}big.git`, dest], {
      env: httpTestEnv(),
      timeoutMs: 60_000,
    });
    assert.notEqual(clone.status, 0);
    assert.match(
      clone.stderr,
      /remote error: writev-upload-pack: git pack-objects died of signal SIGKILL|pack-objects/,
    );
    await until(() => handler.running === 0, 'the handler has let go of the request');
    await until(() => openDescriptors() <= descriptors, `descriptors back to ${descriptors}`);
    const good = await serve();
    await stillServes(good.url);
  });

  it('terminate() stops a serve under way and its pack-objects', async () => {
    const { url, handler } = await serve();
    const { res } = await startFetch(url);
    res.pause();
    await until(() => packObjectsIn(repo).length === 1, 'pack-objects runs');
    const ended = new Promise<string>((resolve) => {
      res.once('end', () => resolve('ended'));
      res.once('aborted', () => resolve('aborted'));
      res.once('error', () => resolve('aborted'));
      res.once('close', () => resolve('closed'));
    });
    handler.terminate();
    res.resume();
    assert.notEqual(await ended, 'ended', 'a cut-off answer does not end as a whole one');
    assert.equal(handler.running, 0);
    await until(() => packObjectsIn(repo).length === 0, 'pack-objects is gone');
  });
});

describe('eight clones at once, served inside the process', () => {
  const scratch = new Scratch();
  const served = scratch.path('served');
  const servers: Server[] = [];
  let source = '';

  before(() => {
    source = makeRepository(scratch.dir);
    git(scratch.dir, ['clone', '-q', '--bare', source, join(served, 'project.git')]);
  });
  after(async () => {
    for (const server of servers) await closeServer(server);
    scratch.dispose();
  });

  for (const protocol of ['2', '0']) {
    it(`all complete, fsck-clean, with every object (protocol v${protocol})`, async () => {
      const handler = createSmartHttpHandler({
        root: served,
        env: httpTestEnv({ WRITEV_UPLOAD_PACK_CACHE: scratch.path(`cache-${protocol}`) }),
      });
      const { url, server } = await serveHandler(handler);
      servers.push(server);
      const env = httpTestEnv();
      const expected = git(source, ['rev-list', '--objects', '--all'], { env }).trim().split('\n').sort();
      // Eight at once, the first of them filling the cache while the others wait on the same key.
      const clones = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          run(
            'git',
            [
              '-c',
              `protocol.version=${protocol}`,
              'clone',
              '-q',
              '--mirror',
              `${url}project.git`,
              scratch.path(`v${protocol}-${i}`),
            ],
            { env, timeoutMs: 120_000 },
          ),
        ),
      );
      for (const [i, clone] of clones.entries()) {
        assert.equal(clone.status, 0, `clone ${i}: ${clone.stderr}`);
        const dest = scratch.path(`v${protocol}-${i}`);
        git(dest, ['fsck', '--strict', '--no-progress'], { env });
        assert.deepEqual(
          git(dest, ['rev-list', '--objects', '--all'], { env }).trim().split('\n').sort(),
          expected,
        );
      }
      assert.equal(handler.running, 0);
    });
  }
});

describe('the body limits hold for a serve inside the process', () => {
  const scratch = new Scratch();
  const served = scratch.path('served');
  const servers: Server[] = [];
  let url = '';
  let handler: SmartHttpHandler;
  let head = '';

  before(async () => {
    const source = makeRepository(scratch.dir);
    git(scratch.dir, ['clone', '-q', '--bare', source, join(served, 'project.git')]);
    head = git(source, ['rev-parse', 'HEAD']).trim();
    handler = createSmartHttpHandler({
      root: served,
      env: httpTestEnv(),
      maxRequestBytes: 64 * 1024,
      requestTimeoutMs: 500,
    });
    const started = await serveHandler(handler);
    url = started.url;
    servers.push(started.server);
  });
  after(async () => {
    for (const server of servers) await closeServer(server);
    scratch.dispose();
  });

  const post = (body: Buffer, headers: Record<string, string> = {}) => ({
    method: 'POST',
    headers: { 'Content-Type': REQUEST_TYPE, 'Git-Protocol': 'version=2', ...headers },
    body,
  });

  it('413 for a body that grows past the limit as it streams, or once decompressed', async () => {
    const streamed = await httpRequest(url, '/project.git/git-upload-pack', {
      ...post(Buffer.alloc(200_000, 0x30)),
      headers: { 'Content-Type': REQUEST_TYPE, 'Transfer-Encoding': 'chunked' },
    });
    assert.equal(streamed.status, 413);
    assert.match(streamed.body.toString(), /^request body larger than 65536 bytes\n$/);
    const bomb = await httpRequest(
      url,
      '/project.git/git-upload-pack',
      post(gzipSync(Buffer.alloc(50 << 20)), { 'Content-Encoding': 'gzip' }),
    );
    assert.equal(bomb.status, 413);
    assert.match(bomb.body.toString(), /^request body larger than 65536 bytes once decompressed\n$/);
    assert.equal(handler.running, 0);
  });

  it('400 for a damaged gzip body, with nothing served from it', async () => {
    const damaged = gzipSync(fetchRequest(head));
    damaged.writeUInt8(damaged.readUInt8(damaged.length - 5) ^ 0xff, damaged.length - 5); // the CRC
    const answer = await httpRequest(
      url,
      '/project.git/git-upload-pack',
      post(damaged, { 'Content-Encoding': 'gzip' }),
    );
    assert.equal(answer.status, 400);
    assert.match(answer.body.toString(), /^gzip request body: /);
  });

  it('408 for a body that stops arriving', async () => {
    const { port } = new URL(url);
    const req = request({
      host: '127.0.0.1',
      port,
      path: '/project.git/git-upload-pack',
      method: 'POST',
      headers: { 'Content-Type': REQUEST_TYPE, 'Content-Length': '1000' },
    });
    req.on('error', () => undefined);
    req.write(fetchRequest(head).subarray(0, 20));
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    await once(res, 'end');
    req.destroy();
    assert.equal(res.statusCode, 408);
    assert.match(Buffer.concat(chunks).toString(), /^request body not received within 0.5 s\n$/);
    await until(() => handler.running === 0, 'the request is let go');
  });
});
