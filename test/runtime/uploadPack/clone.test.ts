import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { gitEnv } from '../helpers/gitEnv';
import { addCommit, git, makeRepository, refsOf, run, Scratch, uploadPackCommand } from './helpers/gitRepo';

/** The timing lines the server appended: one per serve, with how the pack was produced. */
function serves(file: string): { pack: string }[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { pack: string });
}

describe('git clone and fetch through writev-upload-pack', () => {
  const scratch = new Scratch();
  let source: string;
  const cache = scratch.path('cache');
  const timing = scratch.path('timing.jsonl');
  const env = gitEnv({ WRITEV_UPLOAD_PACK_CACHE: cache, WRITEV_UPLOAD_PACK_TIMING: timing });

  before(() => {
    source = makeRepository(scratch.dir);
  });
  after(() => scratch.dispose());

  async function clone(dest: string, ...config: string[]): Promise<void> {
    const args = [...config, 'clone', '-q', `--upload-pack=${uploadPackCommand()}`, `file://${source}`, dest];
    const result = await run('git', args, { cwd: scratch.dir, env });
    assert.equal(result.status, 0, `git clone failed: ${result.stderr}`);
  }

  it('clones a repository with branches, tags and history: fsck clean, refs equal', async () => {
    const dest = scratch.path('first');
    await clone(dest);
    git(dest, ['fsck', '--full', '--strict']);
    const remoteBranches = refsOf(dest, 'refs/remotes/origin').filter((r) => !r.endsWith('/HEAD'));
    assert.deepEqual(
      remoteBranches.map((r) => r.replace('refs/remotes/origin/', 'refs/heads/')),
      refsOf(source, 'refs/heads'),
    );
    assert.deepEqual(refsOf(dest, 'refs/tags'), refsOf(source, 'refs/tags'));
    assert.equal(git(dest, ['symbolic-ref', 'HEAD']).trim(), 'refs/heads/main', 'symref=HEAD was honoured');
    assert.deepEqual(
      serves(timing).map((s) => s.pack),
      ['cache-miss'],
    );
  });

  it('serves a second clone of the same refs from the cache', async () => {
    const dest = scratch.path('second');
    await clone(dest);
    git(dest, ['fsck', '--full']);
    assert.equal(serves(timing).at(-1)!.pack, 'cache-hit');
    assert.equal(readdirSync(cache).filter((f) => f.endsWith('.pack')).length, 1);
  });

  it('clones with protocol.version=2 and with protocol.version=0', async () => {
    for (const version of ['2', '0']) {
      const dest = scratch.path(`v${version}`);
      await clone(dest, '-c', `protocol.version=${version}`);
      git(dest, ['fsck', '--full']);
      assert.deepEqual(refsOf(dest, 'refs/tags'), refsOf(source, 'refs/tags'));
    }
  });

  it('fetches only the objects of new commits', async () => {
    const dest = scratch.path('first');
    const before = refsOf(source, 'refs/').map((r) => r.split(' ')[0]!);
    addCommit(source, 'later');
    const packsBefore = new Set(readdirSync(cache));
    const result = await run('git', ['fetch', '-q', `--upload-pack=${uploadPackCommand()}`, 'origin'], {
      cwd: dest,
      env,
    });
    assert.equal(result.status, 0, result.stderr);
    git(dest, ['fsck', '--full']);
    assert.equal(git(dest, ['rev-parse', 'origin/main']).trim(), git(source, ['rev-parse', 'main']).trim());
    // The new cache entries hold the fetched packs: count their objects from the pack headers.
    const fetched = readdirSync(cache)
      .filter((f) => f.endsWith('.pack') && !packsBefore.has(f))
      .reduce((sum, f) => sum + readFileSync(`${cache}/${f}`).readUInt32BE(8), 0);
    const expected = git(source, ['rev-list', '--objects', '--all', '--not', ...before])
      .trim()
      .split('\n').length;
    assert.equal(fetched, expected, 'only the new commit, its tree, its blob and its tag');
  });

  it('answers ls-remote, which wants nothing, and exits cleanly', async () => {
    const result = await run(
      'git',
      ['ls-remote', `--upload-pack=${uploadPackCommand()}`, `file://${source}`],
      { env },
    );
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout.toString(), /refs\/tags\/v1\.0\^\{\}/);
  });

  it('lets two servers fill the same cache entry at once; both clones succeed', async () => {
    const fresh = scratch.path('cache-race');
    const raceEnv = gitEnv({ WRITEV_UPLOAD_PACK_CACHE: fresh });
    const clones = ['race-a', 'race-b'].map((name) =>
      run(
        'git',
        ['clone', '-q', `--upload-pack=${uploadPackCommand()}`, `file://${source}`, scratch.path(name)],
        {
          env: raceEnv,
        },
      ),
    );
    for (const result of await Promise.all(clones)) assert.equal(result.status, 0, result.stderr);
    for (const name of ['race-a', 'race-b']) git(scratch.path(name), ['fsck', '--full']);
    const files = readdirSync(fresh);
    assert.equal(files.filter((f) => f.endsWith('.pack')).length, 1);
    assert.deepEqual(
      files.filter((f) => f.startsWith('writev-fill-')),
      [],
    );
  });

  it('keeps its default cache inside the git directory, and none with --no-cache', async () => {
    const plainEnv = gitEnv();
    const first = await run(
      'git',
      [
        'clone',
        '-q',
        `--upload-pack=${uploadPackCommand()}`,
        `file://${source}`,
        scratch.path('default-cache'),
      ],
      { env: plainEnv },
    );
    assert.equal(first.status, 0, first.stderr);
    assert.ok(readdirSync(`${source}/.git/writev-pack-cache`).some((f) => f.endsWith('.pack')));
    rmSync(`${source}/.git/writev-pack-cache`, { recursive: true });
    const second = await run(
      'git',
      [
        'clone',
        '-q',
        `--upload-pack=${uploadPackCommand('--no-cache')}`,
        `file://${source}`,
        scratch.path('no-cache'),
      ],
      { env: plainEnv },
    );
    assert.equal(second.status, 0, second.stderr);
    assert.ok(!existsSync(`${source}/.git/writev-pack-cache`));
  });
});
