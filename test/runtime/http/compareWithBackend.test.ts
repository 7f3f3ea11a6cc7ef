import { strict as assert } from 'node:assert';
import { symlinkSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { createGitHttpBackendHandler, createSmartHttpHandler, GIT_UPLOAD_PACK } from '@writev/runtime';
import { git, makeRepository, Scratch } from '../uploadPack/helpers/gitRepo';
import {
  answerContent,
  closeServer,
  httpRequest,
  httpTestEnv,
  PACK_THREADS_1,
  serveHandler,
  type Answer,
} from './helpers';

const ADVERTISE = '/project.git/info/refs?service=git-upload-pack';
const REQUEST_TYPE = 'application/x-git-upload-pack-request';

function pkt(text: string): string {
  return `${(text.length + 4).toString(16).padStart(4, '0')}${text}`;
}

type Request = Parameters<typeof httpRequest>[2];

/**
 * The handler against git http-backend, both behind the same Node HTTP server and both running git's
 * own upload-pack: what a client sees must be the same, except where the handler is stricter.
 */
describe('the smart HTTP handler answers as git http-backend does', () => {
  const scratch = new Scratch();
  const served = scratch.path('served');
  const servers: Server[] = [];
  let ours: string;
  let backend: string;
  let head: string;

  before(async () => {
    const source = makeRepository(scratch.dir);
    head = git(source, ['rev-parse', 'HEAD']).trim();
    git(scratch.dir, ['clone', '-q', '--bare', source, join(served, 'project.git')]);
    git(scratch.dir, ['clone', '-q', '--bare', source, scratch.path('outside.git')]);
    symlinkSync(scratch.path('outside.git'), join(served, 'escape.git'));
    const env = httpTestEnv(PACK_THREADS_1);
    const a = await serveHandler(createSmartHttpHandler({ root: served, uploadPack: GIT_UPLOAD_PACK, env }));
    const b = await serveHandler(createGitHttpBackendHandler({ root: served, env }));
    servers.push(a.server, b.server);
    ours = a.url;
    backend = b.url;
  });
  after(async () => {
    for (const server of servers) await closeServer(server);
    scratch.dispose();
  });

  async function both(path: string, request: Request = {}): Promise<[Answer, Answer]> {
    return [await httpRequest(ours, path, request), await httpRequest(backend, path, request)];
  }

  function sameHeaders(mine: Answer, git: Answer, what: string): void {
    assert.equal(mine.status, git.status, `${what}: status (ours: ${mine.body.toString()})`);
    for (const name of ['content-type', 'cache-control', 'pragma', 'expires', 'allow']) {
      assert.equal(mine.headers[name], git.headers[name], `${what}: ${name}`);
    }
  }

  it('the v0 advertisement: status, type, cache headers and bytes, with the service preamble', async () => {
    const [mine, git] = await both(ADVERTISE);
    sameHeaders(mine, git, 'v0 info/refs');
    assert.equal(mine.status, 200);
    assert.equal(mine.headers['content-type'], 'application/x-git-upload-pack-advertisement');
    assert.equal(mine.headers['cache-control'], 'no-cache, max-age=0, must-revalidate');
    assert.deepEqual(mine.body, git.body);
    assert.match(
      mine.body.toString('latin1'),
      /^001e# service=git-upload-pack\n0000[0-9a-f]{4}[0-9a-f]{40} HEAD\0/,
    );
  });

  it('the v2 advertisement for a Git-Protocol: version=2 request: the same bytes, no preamble', async () => {
    const [mine, git] = await both(ADVERTISE, { headers: { 'Git-Protocol': 'version=2' } });
    sameHeaders(mine, git, 'v2 info/refs');
    assert.deepEqual(mine.body, git.body);
    assert.match(mine.body.toString('latin1'), /^000eversion 2\n/);
    const [headMine, headGit] = await both(ADVERTISE, { method: 'HEAD' });
    sameHeaders(headMine, headGit, 'HEAD info/refs');
  });

  it('a v0 fetch, plain and gzip, and a v2 ls-refs: the same result type and content', async () => {
    const want = Buffer.from(
      `${pkt(`want ${head} side-band-64k ofs-delta no-progress\n`)}0000${pkt('done\n')}`,
    );
    const requests: [string, Request][] = [
      ['v0 fetch', { method: 'POST', headers: { 'Content-Type': REQUEST_TYPE }, body: want }],
      [
        'v0 fetch, gzip',
        {
          method: 'POST',
          headers: { 'Content-Type': REQUEST_TYPE, 'Content-Encoding': 'gzip' },
          body: gzipSync(want),
        },
      ],
    ];
    for (const [what, request] of requests) {
      const [mine, git] = await both('/project.git/git-upload-pack', request);
      sameHeaders(mine, git, what);
      assert.equal(mine.headers['content-type'], 'application/x-git-upload-pack-result');
      assert.deepEqual(answerContent(mine.body), answerContent(git.body), what);
    }
    const lsRefs = Buffer.from(`${pkt('command=ls-refs\n')}0001${pkt('symrefs\n')}${pkt('peel\n')}0000`);
    const [mine, git] = await both('/project.git/git-upload-pack', {
      method: 'POST',
      headers: { 'Content-Type': REQUEST_TYPE, 'Git-Protocol': 'version=2' },
      body: lsRefs,
    });
    sameHeaders(mine, git, 'v2 ls-refs');
    assert.deepEqual(mine.body, git.body);
    assert.match(mine.body.toString('latin1'), /refs\/heads\/main/);
  });

  it('the same status (and Allow) for pushes, other services, missing repositories, methods and types', async () => {
    const cases: [string, string, Request][] = [
      ['receive-pack advertisement', '/project.git/info/refs?service=git-receive-pack', {}],
      ['receive-pack', '/project.git/git-receive-pack', { method: 'POST', body: Buffer.from('0000') }],
      ['another service', '/project.git/info/refs?service=git-frobnicate', {}],
      ['no repository', '/nope.git/info/refs?service=git-upload-pack', {}],
      ['another path', '/project.git/frobnicate', {}],
      ['POST to info/refs', ADVERTISE, { method: 'POST', body: Buffer.from('0000') }],
      ['GET of git-upload-pack', '/project.git/git-upload-pack', {}],
      [
        'a POST of the wrong type',
        '/project.git/git-upload-pack',
        { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: Buffer.from('0000') },
      ],
    ];
    for (const [what, path, request] of cases) {
      const [mine, git] = await both(path, request);
      assert.ok(mine.status >= 400, `${what}: refused`);
      assert.equal(mine.status, git.status, `${what}: status (ours: ${mine.body.toString()})`);
      assert.equal(mine.headers.allow, git.headers.allow, `${what}: Allow`);
      assert.equal(mine.headers['cache-control'], git.headers['cache-control'], `${what}: Cache-Control`);
    }
  });

  it('the CGI gateway answers 400 for a path it cannot hand to CGI (a NUL) and keeps serving', async () => {
    const answer = await httpRequest(backend, '/project.git%00/info/refs?service=git-upload-pack');
    assert.equal(answer.status, 400);
    assert.match(
      answer.body.toString(),
      /^bad path '\/project\.git%00\/info\/refs\?service=git-upload-pack'/,
    );
    assert.equal((await httpRequest(backend, ADVERTISE)).status, 200);
  });

  it('stricter than git http-backend: symlinks out of the folder, .. in the path, the dumb protocol', async () => {
    const cases: [string, string, number, number][] = [
      // [what, path, git http-backend's status, ours]
      ['a symlink out of the folder', '/escape.git/info/refs?service=git-upload-pack', 200, 403],
      ['.. in the path', '/escape.git/../project.git/info/refs?service=git-upload-pack', 500, 400],
      ['dumb info/refs', '/project.git/info/refs', 200, 403],
      ['a dumb file', '/project.git/HEAD', 200, 404],
    ];
    for (const [what, path, theirs, expected] of cases) {
      const [mine, git] = await both(path);
      assert.equal(git.status, theirs, `${what}: git http-backend`);
      assert.equal(mine.status, expected, `${what}: ours`);
    }
  });
});
