import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { gitEnv } from '../helpers/gitEnv';
import { git, makeRepository, run, Scratch, uploadPackCommand } from './helpers/gitRepo';

const HOUR_AGO = new Date(Date.now() - 2 * 60 * 60 * 1000);

describe('the pack cache touches only its own files and never fails a fetch', () => {
  const scratch = new Scratch();
  let source: string;

  before(() => {
    source = makeRepository(scratch.dir);
  });
  after(() => scratch.dispose());

  let clones = 0;
  /** Clones `source` through the server with `args`; the environment adds `env`. */
  const clone = (args: string[], env: NodeJS.ProcessEnv = {}, cloneArgs: string[] = []) =>
    run(
      'git',
      [
        'clone',
        ...cloneArgs,
        `--upload-pack=${uploadPackCommand(...args)}`,
        `file://${source}`,
        scratch.path(`clone-${++clones}`),
      ],
      { env: gitEnv(env), timeoutMs: 20_000 },
    );
  const packsIn = (dir: string): string[] => readdirSync(dir).filter((f) => /^[0-9a-f]{64}\.pack$/.test(f));
  /** A filled cache folder, and its one entry's name without `.pack`. */
  async function filled(name: string): Promise<{ dir: string; key: string }> {
    const dir = scratch.path(name);
    const result = await clone([`--cache-dir=${dir}`]);
    assert.equal(result.status, 0, result.stderr);
    const [entry] = packsIn(dir);
    return { dir, key: entry!.slice(0, -'.pack'.length) };
  }

  it('evicts its own entries in a shared folder and leaves backup.pack and tmp-notes.txt', async () => {
    const { dir: shared, key: first } = await filled('shared');
    writeFileSync(`${shared}/backup.pack`, Buffer.alloc(200_000, 1));
    writeFileSync(`${shared}/tmp-notes.txt`, 'notes\n');
    writeFileSync(`${shared}/writev-fill-1-0123456789ab.pack.keep`, 'not a fill\n');
    for (const f of ['backup.pack', 'tmp-notes.txt', 'writev-fill-1-0123456789ab.pack.keep']) {
      utimesSync(`${shared}/${f}`, HOUR_AGO, HOUR_AGO);
    }
    utimesSync(`${shared}/${first}.stamp`, HOUR_AGO, HOUR_AGO);
    const bound = statSync(`${shared}/${first}.pack`).size;
    const topic = await clone([`--cache-dir=${shared}`, `--cache-max-bytes=${bound}`], {}, [
      '--single-branch',
      '--branch=topic',
    ]);
    assert.equal(topic.status, 0, topic.stderr);
    const packs = packsIn(shared);
    assert.equal(packs.length, 1, 'the older entry went to make room for the new one');
    assert.notEqual(packs[0], `${first}.pack`);
    for (const f of ['backup.pack', 'tmp-notes.txt', 'writev-fill-1-0123456789ab.pack.keep']) {
      assert.ok(existsSync(`${shared}/${f}`), `${f} is still there`);
    }
  });

  it("refuses a cache folder inside the repository's objects/: its pack survives, fsck is clean", async () => {
    git(source, ['repack', '-adq']);
    const packDir = `${source}/.git/objects/pack`;
    const before = readdirSync(packDir).sort();
    const size = before
      .filter((f) => f.endsWith('.pack'))
      .reduce((n, f) => n + statSync(`${packDir}/${f}`).size, 0);
    const result = await clone([`--cache-dir=${packDir}`, `--cache-max-bytes=${Math.ceil(size * 1.5)}`]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(
      result.stderr,
      /warning: writev-upload-pack: pack cache folder .* is inside the object folder/,
    );
    assert.deepEqual(readdirSync(packDir).sort(), before);
    git(source, ['fsck', '--full']);
  });

  it('serves without the cache when --cache-dir is a regular file (ENOTDIR), warning on band 2', async () => {
    const file = scratch.path('a-file');
    writeFileSync(file, 'not a folder\n');
    const result = await clone([`--cache-dir=${file}/cache`]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /^remote: warning: writev-upload-pack: .*ENOTDIR/m);
    assert.match(result.stderr, /^warning: writev-upload-pack: .*ENOTDIR/m);
    git(scratch.path(`clone-${clones}`), ['fsck', '--full']);
  });

  it('makes a bounded number of mkdir calls for a folder that cannot exist (/proc)', async () => {
    const started = Date.now();
    const result = await clone(['--cache-dir=/proc/writev-cache-test/x']);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /cannot write to the pack cache: ENOENT/);
    assert.ok(Date.now() - started < 15_000);
  });

  for (const [what, make] of [
    ['a FIFO', (path: string) => execFileSync('mkfifo', [path])],
    ['a directory', (path: string) => mkdirSync(path)],
    ['a symbolic link', (path: string) => symlinkSync('/dev/zero', path)],
  ] as const) {
    it(`skips an entry that is ${what}, serves every fetch, and leaves it alone`, async () => {
      const { dir, key } = await filled(`odd-${what.replace(/\W/g, '')}`);
      rmSync(`${dir}/${key}.pack`);
      make(`${dir}/${key}.pack`);
      for (let i = 0; i < 2; i++) {
        const result = await clone([`--cache-dir=${dir}`]);
        assert.equal(result.status, 0, result.stderr);
        assert.match(result.stderr, new RegExp(`${key}\\.pack is ${what}`));
        assert.match(result.stderr, /exists and is not this cache's own: the new pack was not stored/);
        git(scratch.path(`clone-${clones}`), ['fsck', '--full']);
      }
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.startsWith('writev-fill-')),
        [],
        'no temporary file left',
      );
    });
  }

  it('does not hang on a stamp that is a FIFO: verifies the entry and serves it', async () => {
    const { dir, key } = await filled('fifo-stamp');
    rmSync(`${dir}/${key}.stamp`);
    execFileSync('mkfifo', [`${dir}/${key}.stamp`]);
    const result = await clone([`--cache-dir=${dir}`], {
      WRITEV_UPLOAD_PACK_TIMING: scratch.path('t.jsonl'),
    });
    assert.equal(result.status, 0, result.stderr);
    assert.ok(statSync(`${dir}/${key}.stamp`).isFile(), 'restamped');
  });
});

/**
 * The server run as `nobody`, for the permission cases: root ignores permissions. The scratch
 * folder and repository are made readable to all; git is told the repository is safe.
 */
describe('the pack cache as an unprivileged user', () => {
  const scratch = new Scratch();
  let source: string;
  const asNobody = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];
  const canDrop =
    process.getuid?.() === 0 && existsSync('/usr/bin/setpriv')
      ? undefined
      : 'needs root and setpriv to run the server as nobody';

  before(() => {
    chmodSync(scratch.dir, 0o755);
    source = makeRepository(scratch.dir);
    execFileSync('chmod', ['-R', 'a+rX', scratch.dir]);
  });
  after(() => scratch.dispose());

  let clones = 0;
  const clone = (args: string[]) =>
    run(
      'git',
      [
        'clone',
        `--upload-pack=${asNobody.join(' ')} ${uploadPackCommand(...args)}`,
        `file://${source}`,
        scratch.path(`clone-${++clones}`),
      ],
      {
        env: gitEnv({
          GIT_CONFIG_COUNT: '1',
          GIT_CONFIG_KEY_0: 'safe.directory',
          GIT_CONFIG_VALUE_0: '*',
        }),
        timeoutMs: 20_000,
      },
    );

  it('serves without the cache when its folder is not readable (EACCES)', { skip: canDrop }, async () => {
    const locked = scratch.path('locked');
    mkdirSync(locked, { mode: 0o700 });
    const result = await clone([`--cache-dir=${locked}/cache`]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /^remote: warning: writev-upload-pack: .*EACCES/m);
    git(scratch.path(`clone-${clones}`), ['fsck', '--full']);
  });

  it('serves an unstamped entry from a read-only folder it cannot stamp', { skip: canDrop }, async () => {
    const dir = scratch.path('read-only');
    const fill = await run(
      'git',
      [
        'clone',
        `--upload-pack=${uploadPackCommand(`--cache-dir=${dir}`)}`,
        `file://${source}`,
        scratch.path('fill'),
      ],
      { env: gitEnv() },
    );
    assert.equal(fill.status, 0, fill.stderr);
    for (const stamp of readdirSync(dir).filter((f) => f.endsWith('.stamp'))) rmSync(`${dir}/${stamp}`);
    chmodSync(dir, 0o555);
    const result = await clone([`--cache-dir=${dir}`]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /cannot stamp .* as verified/);
    git(scratch.path(`clone-${clones}`), ['fsck', '--full']);
  });
});
