/**
 * writev-git-http serving inside its process answers every request with the same status, headers
 * and bytes as writev-upload-pack run as a process per request (`spawn: true`): advertisements,
 * `ls-refs`, fetches with and without negotiation, v0 rounds, gzip bodies and bad requests alike.
 */
import { strict as assert } from 'node:assert';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { createSmartHttpHandler } from '@writev/runtime';
import { git, makeRepository, Scratch } from '../uploadPack/helpers/gitRepo';
import { closeServer, httpRequest, httpTestEnv, PACK_THREADS_1, serveHandler, type Answer } from './helpers';

const REQUEST_TYPE = 'application/x-git-upload-pack-request';

function pkt(line: string): string {
  return `${(line.length + 4).toString(16).padStart(4, '0')}${line}`;
}

/** A v2 request: the command, capabilities, a delimiter, the arguments, a flush. */
function v2(command: string, args: readonly string[]): Buffer {
  return Buffer.from(
    `${pkt(`command=${command}\n`)}${pkt('agent=test\n')}${pkt('object-format=sha1\n')}0001${args
      .map((arg) => pkt(`${arg}\n`))
      .join('')}0000`,
    'latin1',
  );
}

interface Case {
  readonly name: string;
  /** What the answer holds, to know the comparison is of something. */
  readonly expect: RegExp;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly v2?: boolean;
  readonly body?: () => Buffer;
  readonly gzip?: boolean;
}

describe('in-process serving answers byte for byte as a process per request', () => {
  const scratch = new Scratch();
  const served = scratch.path('served');
  const servers: Server[] = [];
  let inProcess = '';
  let spawned = '';
  let main = '';
  let first = '';
  let topic = '';

  before(async () => {
    const source = makeRepository(scratch.dir);
    git(scratch.dir, ['clone', '-q', '--bare', source, `${served}/project.git`]);
    main = git(source, ['rev-parse', 'main']).trim();
    topic = git(source, ['rev-parse', 'topic']).trim();
    first = git(source, ['rev-list', '--max-parents=0', 'main']).trim();
    const env = httpTestEnv(PACK_THREADS_1);
    for (const spawn of [false, true]) {
      const { url, server } = await serveHandler(createSmartHttpHandler({ root: served, env, spawn }));
      servers.push(server);
      if (spawn) spawned = url;
      else inProcess = url;
    }
  });
  after(async () => {
    for (const server of servers) await closeServer(server);
    scratch.dispose();
  });

  const cases: Case[] = [
    {
      name: 'the v0 advertisement',
      expect: /^001e# service=git-upload-pack\n0000/,
      method: 'GET',
      path: '/project.git/info/refs?service=git-upload-pack',
    },
    {
      name: 'the v2 capability advertisement',
      expect: /^000eversion 2\n/,
      method: 'GET',
      path: '/project.git/info/refs?service=git-upload-pack',
      v2: true,
    },
    {
      name: 'ls-refs with symrefs, peel and a prefix',
      expect: /HEAD symref-target:refs\/heads\/main\n/,
      method: 'POST',
      path: '/project.git/git-upload-pack',
      v2: true,
      body: () => v2('ls-refs', ['symrefs', 'peel', 'ref-prefix refs/heads/', 'ref-prefix HEAD', 'unborn']),
    },
    {
      name: 'a v2 fetch with done (a pack)',
      expect: /^000dpackfile\n.....PACK/,
      method: 'POST',
      path: '/project.git/git-upload-pack',
      v2: true,
      body: () => v2('fetch', ['thin-pack', 'ofs-delta', 'no-progress', `want ${main}`, 'done']),
    },
    {
      name: 'a v2 fetch, gzip-compressed',
      expect: /^000dpackfile\n.....PACK/,
      method: 'POST',
      path: '/project.git/git-upload-pack',
      v2: true,
      gzip: true,
      body: () => v2('fetch', ['ofs-delta', 'no-progress', `want ${topic}`, `want ${main}`, 'done']),
    },
    {
      name: 'a v2 negotiation round (haves, no done)',
      expect: /^0014acknowledgments\n0031ACK [0-9a-f]{40}\n0000$/,
      method: 'POST',
      path: '/project.git/git-upload-pack',
      v2: true,
      body: () =>
        v2('fetch', [
          'no-progress',
          'wait-for-done',
          `want ${main}`,
          `have ${first}`,
          `have ${'1'.repeat(40)}`,
        ]),
    },
    {
      name: 'a v2 fetch of an object the repository lacks',
      expect: /^....ERR upload-pack: not our ref 2{40}/,
      method: 'POST',
      path: '/project.git/git-upload-pack',
      v2: true,
      body: () => v2('fetch', [`want ${'2'.repeat(40)}`, 'done']),
    },
    {
      name: 'an unknown v2 command',
      expect: /ERR writev-upload-pack: invalid command/,
      method: 'POST',
      path: '/project.git/git-upload-pack',
      v2: true,
      body: () => v2('push-everything', []),
    },
    {
      name: 'a v2 request of a lone flush (nothing)',
      expect: /^$/,
      method: 'POST',
      path: '/project.git/git-upload-pack',
      v2: true,
      body: () => Buffer.from('0000', 'latin1'),
    },
    {
      name: 'a v0 fetch with done',
      expect: /^0008NAK\n.....PACK/,
      method: 'POST',
      path: '/project.git/git-upload-pack',
      body: () =>
        Buffer.from(
          `${pkt(`want ${main} side-band-64k ofs-delta no-progress\n`)}0000${pkt('done\n')}`,
          'latin1',
        ),
    },
    {
      name: 'a v0 multi_ack_detailed round ending at a flush',
      expect: /^....ACK [0-9a-f]{40} common\n(....ACK [0-9a-f]{40} ready\n)?0008NAK\n$/,
      method: 'POST',
      path: '/project.git/git-upload-pack',
      body: () =>
        Buffer.from(
          `${pkt(`want ${main} multi_ack_detailed side-band-64k\n`)}0000${pkt(`have ${first}\n`)}0000`,
          'latin1',
        ),
    },
    {
      name: 'an empty v0 request (the client hung up)',
      expect: /ERR writev-upload-pack: the remote end hung up/,
      method: 'POST',
      path: '/project.git/git-upload-pack',
      body: () => Buffer.alloc(0),
    },
    {
      name: 'bytes that are not pkt-lines',
      expect: /ERR writev-upload-pack: protocol error at byte 0/,
      method: 'POST',
      path: '/project.git/git-upload-pack',
      body: () => Buffer.from('zzzz not a packet', 'latin1'),
    },
  ];

  function ask(base: string, c: Case): Promise<Answer> {
    const body = c.body?.();
    return httpRequest(base, c.path, {
      method: c.method,
      headers: {
        ...(c.v2 ? { 'Git-Protocol': 'version=2' } : {}),
        ...(c.method === 'POST' ? { 'Content-Type': REQUEST_TYPE } : {}),
        ...(c.gzip ? { 'Content-Encoding': 'gzip' } : {}),
      },
      ...(body ? { body: c.gzip ? gzipSync(body) : body } : {}),
    });
  }

  for (const c of cases) {
    it(c.name, async () => {
      // Once first, so that a pack comes from the cache both times (pack-objects' chunks vary).
      await ask(inProcess, c);
      const ours = await ask(inProcess, c);
      const theirs = await ask(spawned, c);
      assert.equal(ours.status, theirs.status);
      for (const header of ['content-type', 'cache-control', 'expires', 'pragma']) {
        assert.equal(ours.headers[header], theirs.headers[header], header);
      }
      assert.equal(ours.body.toString('latin1'), theirs.body.toString('latin1'));
      assert.equal(ours.status, 200);
      assert.match(ours.body.toString('latin1'), c.expect);
    });
  }
});
