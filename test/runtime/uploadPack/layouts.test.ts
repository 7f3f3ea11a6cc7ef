import { strict as assert } from 'node:assert';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { encodePktLine, LARGE_PACKET_MAX } from '@writev/runtime';
import { gitEnv } from '../helpers/gitEnv';
import { LS_REMOTE, ours, refLines, replyLines, theirs } from './helpers/advertisement';
import { git, makeRepository, refsOf, run, Scratch, uploadPackCommand } from './helpers/gitRepo';

describe('repository layouts: served as git upload-pack serves them', () => {
  const scratch = new Scratch();
  const cache = { WRITEV_UPLOAD_PACK_CACHE: scratch.path('cache') };
  let source: string;

  before(() => {
    source = makeRepository(scratch.dir);
    git(source, ['worktree', 'add', '-q', scratch.path('linked'), 'topic']);
    // Per-worktree refs: listed only when the linked worktree is served.
    git(scratch.path('linked'), ['update-ref', 'refs/worktree/wip', 'HEAD']);
    git(scratch.path('linked'), ['update-ref', 'refs/bisect/bad', 'HEAD~1']);
    git(scratch.dir, ['clone', '-q', '--bare', source, scratch.path('bare.git')]);
    // A work tree whose .git is a file with a relative gitdir (as --separate-git-dir and
    // submodules make them).
    git(scratch.dir, ['clone', '-q', source, scratch.path('separate')]);
    renameSync(scratch.path('separate', '.git'), scratch.path('separate-store.git'));
    writeFileSync(scratch.path('separate', '.git'), 'gitdir: ../separate-store.git\n');
    mkdirSync(scratch.path('elsewhere'));
    git(scratch.path('elsewhere'), ['init', '-q']);
  });
  after(() => scratch.dispose());

  const places: { name: string; path: () => string; env?: NodeJS.ProcessEnv }[] = [
    { name: 'a linked worktree, by its work tree', path: () => scratch.path('linked') },
    { name: 'a linked worktree, by its git folder', path: () => `${source}/.git/worktrees/linked` },
    { name: 'the main worktree while a linked one exists', path: () => source },
    { name: 'a bare repository', path: () => scratch.path('bare.git') },
    { name: 'a bare repository named without .git', path: () => scratch.path('bare') },
    { name: 'a .git file with a relative gitdir', path: () => scratch.path('separate') },
    {
      name: 'a repository while GIT_DIR names another one',
      path: () => source,
      env: { GIT_DIR: scratch.path('elsewhere', '.git'), GIT_WORK_TREE: scratch.path('elsewhere') },
    },
  ];

  for (const place of places) {
    it(`advertises what git advertises: ${place.name}`, async () => {
      const expected = await theirs(place.path(), LS_REMOTE, place.env ?? {});
      assert.equal(expected.status, 0, expected.stderr);
      for (const round of ['first', 'memo']) {
        const got = await ours(place.path(), LS_REMOTE, { ...cache, ...place.env });
        assert.equal(got.status, 0, got.stderr);
        assert.deepEqual(refLines(got.stdout), refLines(expected.stdout), round);
      }
    });
  }

  it('clones a linked worktree: fsck clean, HEAD on its branch, the same refs as through git', async () => {
    for (const [dest, args] of [
      ['wt-ours', [`--upload-pack=${uploadPackCommand()}`]],
      ['wt-git', []],
    ] as const) {
      const result = await run(
        'git',
        ['clone', '-q', ...args, `file://${scratch.path('linked')}`, scratch.path(dest)],
        {
          env: gitEnv(cache),
        },
      );
      assert.equal(result.status, 0, result.stderr);
      git(scratch.path(dest), ['fsck', '--full', '--strict']);
    }
    assert.equal(git(scratch.path('wt-ours'), ['symbolic-ref', 'HEAD']).trim(), 'refs/heads/topic');
    assert.deepEqual(refsOf(scratch.path('wt-ours'), 'refs/'), refsOf(scratch.path('wt-git'), 'refs/'));
  });
});

describe('an ERR message longer than a pkt-line', () => {
  const scratch = new Scratch();
  let source: string;
  before(() => {
    source = makeRepository(scratch.dir);
  });
  after(() => scratch.dispose());

  it('reaches the client cut to one packet, and the server exits 128', async () => {
    // The refusal quotes the line, so a long line makes a message longer than any packet.
    const line = `want ${'x'.repeat(LARGE_PACKET_MAX - 20)}`;
    const got = await ours(source, encodePktLine(line), { WRITEV_UPLOAD_PACK_CACHE: 'off' });
    assert.equal(got.status, 128);
    const last = replyLines(got.stdout).at(-1)!;
    assert.match(last, /^ERR writev-upload-pack: protocol error: expected an object id, got 'want xxx/);
    assert.equal(Buffer.byteLength(last) + 4, LARGE_PACKET_MAX, 'the packet is as long as a packet can be');
  });

  it('is cut at a character boundary, never inside a UTF-8 sequence', async () => {
    const line = `want ${'é'.repeat((LARGE_PACKET_MAX - 20) / 2)}`;
    const got = await ours(source, encodePktLine(line), { WRITEV_UPLOAD_PACK_CACHE: 'off' });
    assert.equal(got.status, 128);
    const last = replyLines(got.stdout).at(-1)!;
    assert.ok(!last.includes('\ufffd'), 'no broken character');
    assert.ok(Buffer.byteLength(last) + 4 <= LARGE_PACKET_MAX);
    assert.match(last, /é$/);
  });
});
