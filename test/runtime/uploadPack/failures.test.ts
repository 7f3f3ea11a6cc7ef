import { strict as assert } from 'node:assert';
import {
  chmodSync,
  existsSync,
  openSync,
  closeSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
  statSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodePktLines, encodePktLine, flushPkt, packetText } from '@writev/runtime';
import { gitEnv } from '../helpers/gitEnv';
import { ours, theirs } from './helpers/advertisement';
import { BIN, git, makeRepository, run, Scratch, uploadPackCommand } from './helpers/gitRepo';

/** The relay that hides side-band from git (see helpers/noSidebandProxy.ts). */
const PROXY = join(__dirname, 'helpers', 'noSidebandProxy.js');

/** The server's text lines (band-less pkt-lines), in order. */
function lines(stdout: Buffer): string[] {
  return decodePktLines(stdout).map((p) => (p.kind === 'data' ? packetText(p.payload) : `<${p.kind}>`));
}

describe('writev-upload-pack failures reach the client, never a hang', () => {
  const scratch = new Scratch();
  let source: string;
  let head: string;
  const cache = scratch.path('cache');
  const env = gitEnv({ WRITEV_UPLOAD_PACK_CACHE: cache });

  before(() => {
    source = makeRepository(scratch.dir);
    head = git(source, ['rev-parse', 'HEAD']).trim();
  });
  after(() => scratch.dispose());

  const clone = (dest: string, cmd = uploadPackCommand()) =>
    run('git', ['clone', '-q', `--upload-pack=${cmd}`, `file://${source}`, scratch.path(dest)], { env });
  const packsIn = (dir: string) =>
    existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.pack')) : [];

  /** Overwrites bytes in the middle of the one cached pack in `dir`. */
  function corruptEntry(dir: string): void {
    const [entry] = packsIn(dir);
    const path = `${dir}/${entry}`;
    chmodSync(path, 0o644);
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.from('garbage'), 0, 7, Math.floor(statSync(path).size / 2));
    closeSync(fd);
  }

  it('warns of a corrupt cached pack, removes it, serves the clone without it and refills it', async () => {
    const first = await clone('fill');
    assert.equal(first.status, 0, first.stderr);
    corruptEntry(cache);

    const served = await clone('served');
    assert.equal(served.status, 0, served.stderr);
    assert.match(
      served.stderr,
      /warning: writev-upload-pack: cached pack .* is corrupt \(its trailer does not match its contents\); removed it/,
    );
    git(scratch.path('served'), ['fsck', '--full']);
    assert.equal(packsIn(cache).length, 1, 'refilled');

    const again = await clone('again');
    assert.equal(again.status, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /warning/);
  });

  describe('a client without side-band (the real git client, the side-band capabilities hidden)', () => {
    const bareCache = scratch.path('bare-cache');
    const bareClone = (dest: string, ...args: string[]) =>
      run(
        'git',
        [
          // Protocol v0: a v2 packfile section is always on side-band-64k.
          '-c',
          'protocol.version=0',
          'clone',
          `--upload-pack=${[process.execPath, PROXY].map((a) => `'${a}'`).join(' ')} ${uploadPackCommand(...args)}`,
          `file://${source}`,
          scratch.path(dest),
        ],
        { env: gitEnv({ WRITEV_UPLOAD_PACK_CACHE: bareCache }), timeoutMs: 20_000 },
      );

    it('clones, and clones again past a corrupt cache entry', async () => {
      const fill = await bareClone('bare-fill');
      assert.equal(fill.status, 0, fill.stderr);
      corruptEntry(bareCache);
      const result = await bareClone('bare-corrupt');
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stderr, /cached pack .* is corrupt/);
      git(scratch.path('bare-corrupt'), ['fsck', '--full']);
    });

    it('gets an ERR packet where the pack would start when pack-objects fails first', async () => {
      const hook = scratch.path('fail-at-once.sh');
      writeFileSync(hook, '#!/bin/sh\ncat > /dev/null\necho "out of luck" >&2\nexit 3\n', { mode: 0o755 });
      const request = Buffer.concat([
        encodePktLine(`want ${head} ofs-delta\n`),
        flushPkt(),
        encodePktLine('done\n'),
      ]);
      const wire = await run(process.execPath, [BIN, '--no-cache', `--pack-objects-hook=${hook}`, source], {
        env,
        input: request,
      });
      assert.equal(wire.status, 128);
      assert.deepEqual(lines(wire.stdout).slice(-2), [
        'NAK',
        'ERR writev-upload-pack: git pack-objects failed with exit status 3',
      ]);
      assert.match(wire.stderr, /out of luck/, "pack-objects' own message reaches stderr");

      const result = await bareClone('bare-err', '--no-cache', `--pack-objects-hook=${hook}`);
      assert.equal(result.status, 128);
      assert.match(result.stderr, /pack signature mismatch|protocol error/);
      assert.match(result.stderr, /git pack-objects failed with exit status 3/);
    });

    it('gets a truncated pack, which it detects, when pack-objects dies midway', async () => {
      const hook = scratch.path('bare-die-midway.sh');
      writeFileSync(hook, '#!/bin/sh\n"$@" | head -c 3000\nkill -9 $$\n', { mode: 0o755 });
      const result = await bareClone('bare-cut', '--no-cache', `--pack-objects-hook=${hook}`);
      assert.notEqual(result.status, 0);
      assert.match(result.stderr, /early EOF|truncated|premature end/i);
    });
  });

  it('reports a killed pack-objects and leaves no cache entry or temporary file', async () => {
    const hook = scratch.path('die-midway.sh');
    writeFileSync(hook, '#!/bin/sh\n"$@" | head -c 3000\nkill -9 $$\n', { mode: 0o755 });
    const killedCache = scratch.path('killed-cache');
    const result = await run(
      'git',
      [
        'clone',
        '-q',
        `--upload-pack=${uploadPackCommand(`--pack-objects-hook=${hook}`)}`,
        `file://${source}`,
        scratch.path('killed'),
      ],
      { env: gitEnv({ WRITEV_UPLOAD_PACK_CACHE: killedCache }) },
    );
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /git pack-objects (died of signal SIGKILL|failed with exit status 137)/);
    const left = existsSync(killedCache) ? readdirSync(killedCache) : [];
    assert.deepEqual(
      left.filter((f) => f.endsWith('.pack') || f.endsWith('.stamp') || f.startsWith('writev-fill-')),
      [],
    );
  });

  it('refuses a want that was not advertised with ERR "not our ref" and exit 128', async () => {
    const bogus = 'f'.repeat(40);
    const request = Buffer.concat([
      encodePktLine(`want ${bogus} side-band-64k\n`),
      flushPkt(),
      encodePktLine('done\n'),
    ]);
    const result = await run(process.execPath, [BIN, source], { env, input: request });
    assert.equal(result.status, 128);
    assert.equal(lines(result.stdout).at(-1), `ERR upload-pack: not our ref ${bogus}`);
  });

  it('answers a path that is not a repository with ERR', async () => {
    const result = await run(process.execPath, [BIN, scratch.path('nowhere')], {
      env,
      input: Buffer.alloc(0),
    });
    assert.equal(result.status, 128);
    assert.match(
      lines(result.stdout)[0]!,
      /^ERR writev-upload-pack: '.*nowhere' does not appear to be a git repository$/,
    );
  });

  it('answers a repository whose HEAD is a FIFO with ERR, without hanging', async () => {
    const odd = scratch.path('fifo-head.git');
    git(scratch.dir, ['init', '-q', '--bare', odd]);
    rmSync(`${odd}/HEAD`);
    execFileSync('mkfifo', [`${odd}/HEAD`]);
    const result = await run(process.execPath, [BIN, '--strict', odd], {
      env,
      input: Buffer.alloc(0),
      timeoutMs: 10_000,
    });
    assert.equal(result.status, 128);
    assert.match(lines(result.stdout)[0]!, /does not appear to be a git repository/);
  });

  it('exits 128 on bytes that are not pkt-lines, naming the offset', async () => {
    const result = await run(process.execPath, [BIN, source], {
      env,
      input: Buffer.from('GET / HTTP/1.1\r\n'),
    });
    assert.equal(result.status, 128);
    assert.match(result.stderr, /protocol error at byte 0: bad pkt-line length "GET "/);
  });

  // `git ls-remote` over v0 ends with a flush after the advertisement; a client killed there sends
  // nothing. Git exits 0 for the first and dies for the second (v2 ends its session either way).
  for (const [label, input, v2, status] of [
    ['a v0 flush (git ls-remote)', flushPkt(), false, 0],
    ['a v0 hang-up with no byte sent', Buffer.alloc(0), false, 128],
    ['a v2 flush', flushPkt(), true, 0],
    ['a v2 hang-up with no byte sent', Buffer.alloc(0), true, 0],
  ] as const) {
    it(`exits ${status} as git upload-pack does after ${label} right after the advertisement`, async () => {
      const protocol = v2 ? { GIT_PROTOCOL: 'version=2' } : {};
      const [mine, gits] = await Promise.all([
        ours(source, input, { ...protocol, WRITEV_UPLOAD_PACK_CACHE: cache }),
        theirs(source, input, protocol),
      ]);
      assert.equal(gits.status, status, `git: ${gits.stderr}`);
      assert.equal(mine.status, status, `ours: ${mine.stderr}`);
      const fatal = (stderr: string): string =>
        stderr.trim().replace(/^fatal: writev-upload-pack: /, 'fatal: ');
      assert.equal(fatal(mine.stderr), fatal(gits.stderr));
    });
  }

  it('exits 128 when the client hangs up during negotiation', async () => {
    const request = Buffer.concat([
      encodePktLine(`want ${head}\n`),
      flushPkt(),
      encodePktLine(`have ${head}\n`),
    ]);
    const result = await run(process.execPath, [BIN, source], { env, input: request });
    assert.equal(result.status, 128);
    assert.match(result.stderr, /hung up during negotiation/);
  });

  for (const [stream, redirect] of [
    ['standard output', '>&-'],
    ['standard input', '<&-'],
  ] as const) {
    it(`exits 128 when its ${stream} is closed (${redirect}), not 0 into /dev/null`, async () => {
      const script = `exec "$0" "$1" "$2" ${redirect}`;
      const result = await run('sh', ['-c', script, process.execPath, BIN, source], { env });
      assert.equal(result.status, 128);
      assert.match(
        result.stderr,
        new RegExp(`fatal: writev-upload-pack: ${stream} \\(descriptor \\d\\) was closed`),
      );
    });
  }

  it('still serves into /dev/null opened by the shell (write-only)', async () => {
    const result = await run('sh', ['-c', 'exec "$0" "$1" "$2" >/dev/null', process.execPath, BIN, source], {
      env,
      input: flushPkt(),
    });
    assert.equal(result.status, 0, result.stderr);
  });

  it('exits 129 with the synopsis on a usage error', async () => {
    const result = await run(process.execPath, [BIN, '--bogus', source], { env, input: Buffer.alloc(0) });
    assert.equal(result.status, 129);
    assert.match(result.stderr, /unknown option '--bogus'[\s\S]*usage: writev-upload-pack/);
    assert.equal(result.stdout.length, 0);
  });
});
