import { strict as assert } from 'node:assert';
import {
  chmodSync,
  existsSync,
  openSync,
  closeSync,
  readdirSync,
  writeFileSync,
  writeSync,
  statSync,
} from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { decodePktLines, encodePktLine, flushPkt, packetText } from '@writev/runtime';
import { gitEnv } from '../helpers/gitEnv';
import { BIN, git, makeRepository, run, Scratch, uploadPackCommand } from './helpers/gitRepo';

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

  it('reports a corrupt cached pack, removes it, and refills it on the next clone', async () => {
    const first = await clone('fill');
    assert.equal(first.status, 0, first.stderr);
    const [entry] = packsIn(cache);
    const path = `${cache}/${entry}`;
    chmodSync(path, 0o644);
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.from('garbage'), 0, 7, Math.floor(statSync(path).size / 2));
    closeSync(fd);

    const broken = await clone('broken');
    assert.notEqual(broken.status, 0);
    assert.match(broken.stderr, /cached pack .* is corrupt \(its trailer does not match its contents\)/);
    assert.deepEqual(packsIn(cache), [], 'the bad entry is gone');

    const again = await clone('again');
    assert.equal(again.status, 0, again.stderr);
    git(scratch.path('again'), ['fsck', '--full']);
    assert.equal(packsIn(cache).length, 1);
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
    assert.deepEqual(existsSync(killedCache) ? readdirSync(killedCache) : [], []);
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
    assert.equal(lines(result.stdout).at(-1), `ERR writev-upload-pack: upload-pack: not our ref ${bogus}`);
  });

  it('refuses shallow and deepen requests it does not advertise', async () => {
    for (const extra of [`shallow ${head}`, 'deepen 1']) {
      const request = Buffer.concat([
        encodePktLine(`want ${head} side-band-64k\n`),
        encodePktLine(`${extra}\n`),
        flushPkt(),
      ]);
      const result = await run(process.execPath, [BIN, source], { env, input: request });
      assert.equal(result.status, 128);
      assert.match(
        lines(result.stdout).at(-1)!,
        /^ERR writev-upload-pack: '(shallow|deepen)' requests are not supported/,
      );
    }
  });

  it('makes git clone --depth fail at once: shallow is not advertised', async () => {
    const result = await run(
      'git',
      [
        'clone',
        '-q',
        '--depth=1',
        `--upload-pack=${uploadPackCommand()}`,
        `file://${source}`,
        scratch.path('shallow'),
      ],
      { env },
    );
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /does not support shallow/);
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

  it('exits 128 on bytes that are not pkt-lines, naming the offset', async () => {
    const result = await run(process.execPath, [BIN, source], {
      env,
      input: Buffer.from('GET / HTTP/1.1\r\n'),
    });
    assert.equal(result.status, 128);
    assert.match(result.stderr, /protocol error at byte 0: bad pkt-line length "GET "/);
  });

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

  it('exits 129 with the synopsis on a usage error', async () => {
    const result = await run(process.execPath, [BIN, '--bogus', source], { env, input: Buffer.alloc(0) });
    assert.equal(result.status, 129);
    assert.match(result.stderr, /unknown option '--bogus'[\s\S]*usage: writev-upload-pack/);
    assert.equal(result.stdout.length, 0);
  });
});
