import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { flushPkt } from '@writev/runtime';
import { addCommit, git, makeRepository, Scratch } from './helpers/gitRepo';
import {
  bothServers,
  client,
  configEnv,
  gitWords,
  objectsOf,
  packBytes,
  replyPackets,
  uploadPackArgs,
  V2,
  v2Command,
} from './helpers/partialClone';

/** How each serve got its pack, from the timing file. */
function serves(timing: string): string[] {
  try {
    return readFileSync(timing, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { pack: string }).pack);
  } catch {
    return [];
  }
}

/** A reply without ERR packets (ours adds one where git only dies). */
function withoutErrors(lines: string[]): string[] {
  return lines.filter((line) => !line.startsWith('ERR '));
}

describe('protocol v2 want-ref and sideband-all as git upload-pack answers them', () => {
  const scratch = new Scratch();
  const cache = scratch.path('cache');
  const timing = scratch.path('timing.jsonl');
  const ourEnv = { WRITEV_UPLOAD_PACK_CACHE: cache, WRITEV_UPLOAD_PACK_TIMING: timing };
  const enabled = {
    'uploadpack.allowRefInWant': 'true',
    'uploadpack.allowSidebandAll': 'true',
    'uploadpack.hideRefs': 'refs/heads/hidden',
  };
  let source: string;
  const rev = (spec: string): string => git(source, ['rev-parse', spec]).trim();

  before(() => {
    source = makeRepository(scratch.dir);
    addCommit(source, 'c1');
    git(source, ['branch', 'hidden', 'topic']);
    git(source, ['symbolic-ref', 'refs/heads/alias', 'refs/heads/hidden']);
    git(source, ['update-ref', 'refs/namespaces/t/refs/heads/main', rev('main~1')]);
    git(source, ['symbolic-ref', 'refs/namespaces/t/HEAD', 'refs/namespaces/t/refs/heads/main']);
  });
  after(() => scratch.dispose());

  it('advertises ref-in-want and sideband-all only when configured, in git order', async () => {
    for (const settings of [
      {},
      { 'uploadpack.allowRefInWant': 'true' },
      { 'uploadpack.allowSidebandAll': 'true' },
      { ...enabled, 'uploadpack.allowFilter': 'true' },
    ] as Record<string, string>[]) {
      const { ours, git: theirs } = await bothServers(
        source,
        flushPkt(),
        { ...V2, ...configEnv(settings) },
        ourEnv,
      );
      const fetchLine = (stdout: Buffer): string | undefined =>
        replyPackets(stdout)
          .find((line) => line.startsWith('fetch='))
          ?.replace(/\bshallow ?/, '');
      assert.equal(fetchLine(ours.stdout), fetchLine(theirs.stdout), JSON.stringify(settings));
    }
  });

  it('answers want-ref with the same sections as git, byte for byte up to the pack', async () => {
    const cases: { args: string[]; namespace?: string }[] = [
      { args: ['want-ref refs/heads/main', 'want-ref refs/heads/topic', 'done'] },
      { args: ['want-ref refs/heads/topic', 'want-ref refs/heads/main', 'done'] },
      { args: ['want-ref refs/heads/main', 'want-ref refs/heads/main', 'done'] },
      { args: ['want-ref HEAD', 'done'] },
      { args: ['want-ref refs/tags/v1.0', 'done'] },
      { args: ['want-ref refs/heads/alias', 'done'] },
      { args: [`want ${rev('topic')}`, 'want-ref refs/heads/main', 'done'] },
      { args: ['want-ref refs/heads/main', `have ${rev('main~1')}`] },
      { args: ['want-ref refs/heads/main', `have ${rev('main~1')}`, 'wait-for-done'] },
      { args: ['sideband-all', 'want-ref refs/heads/main', `have ${rev('main~1')}`] },
      { args: ['sideband-all', 'want-ref refs/heads/main', 'want-ref refs/heads/topic', 'done'] },
      { args: ['sideband-all', `want ${rev('main')}`, `have ${rev('main~2')}`, 'wait-for-done'] },
      { args: ['sideband-all', `want ${rev('main')}`, 'done'] },
      { args: ['want-ref refs/heads/main', 'want-ref HEAD', 'done'], namespace: 't' },
    ];
    for (const { args, namespace } of cases) {
      const env = { ...V2, ...configEnv(enabled), ...(namespace ? { GIT_NAMESPACE: namespace } : {}) };
      const input = v2Command('fetch', [...args, 'no-progress']);
      const { ours, git: theirs } = await bothServers(source, input, env, ourEnv);
      const label = `${args.join(', ')}${namespace ? ` in namespace ${namespace}` : ''}`;
      assert.equal(theirs.status, 0, `${label}: ${theirs.stderr}`);
      assert.equal(ours.status, 0, `${label}: ${ours.stderr}`);
      assert.deepEqual(replyPackets(ours.stdout), replyPackets(theirs.stdout), label);
      const pack = packBytes(ours.stdout);
      if (args.includes('done') || !args.includes('wait-for-done'))
        assert.ok(pack.length > 0, `${label}: a pack`);
    }
  });

  it("refuses what git refuses, in git's words and (ERR or band 3) packet, exit 128", async () => {
    const missing = 'e'.repeat(40);
    const cases: { args: string[]; settings?: Record<string, string>; namespace?: string }[] = [
      { args: ['want-ref refs/heads/nope', 'done'] },
      { args: ['want-ref refs/heads/hidden', 'done'] },
      { args: ['want-ref main', 'done'] },
      { args: ['want-ref ', 'done'] },
      { args: ['want-ref refs/heads/../main', 'done'] },
      { args: ['want-ref refs/namespaces/t/refs/heads/main', 'done'], namespace: 't' },
      { args: ['sideband-all', 'want-ref refs/heads/nope', 'done'] },
      { args: ['sideband-all', `want ${missing}`, 'done'] },
      { args: ['want-ref refs/heads/nope', 'sideband-all', 'done'] },
      { args: [`want ${missing}`, 'want-ref refs/heads/nope', 'done'] },
      { args: ['want-ref refs/heads/nope', 'bogus', 'done'] },
      { args: ['bogus', 'want-ref refs/heads/nope', 'done'] },
      { args: ['want-ref refs/heads/main', 'done'], settings: {} },
      { args: ['sideband-all', `want ${rev('main')}`, 'done'], settings: {} },
      { args: ['want-ref', 'done'] },
    ];
    for (const { args, settings, namespace } of cases) {
      const env = {
        ...V2,
        ...configEnv(settings ?? enabled),
        ...(namespace ? { GIT_NAMESPACE: namespace } : {}),
      };
      const input = v2Command('fetch', [...args, 'no-progress']);
      const { ours, git: theirs } = await bothServers(source, input, env, ourEnv);
      const label = args.join(', ');
      assert.equal(theirs.status, 128, `${label}: git served it`);
      assert.equal(ours.status, 128, `${label}: we served it`);
      assert.equal(gitWords(ours.stderr), gitWords(theirs.stderr), label);
      const theirLines = replyPackets(theirs.stdout);
      const ourLines = replyPackets(ours.stdout);
      const told = /^(ERR |\\3)/.test(theirLines.at(-1) ?? '');
      // Where git tells the client (an ERR, or band 3 under sideband-all), ours says the same;
      // where git only hangs up, ours adds an ERR with the same words.
      assert.deepEqual(
        told ? ourLines : withoutErrors(ourLines),
        told ? theirLines : withoutErrors(theirLines),
        label,
      );
      assert.equal(packBytes(ours.stdout).length, 0, `${label}: no pack`);
    }
  });

  it('refuses a later fetch of the session with an ERR again after a sideband-all fetch, as git does', async () => {
    const input = Buffer.concat([
      v2Command('fetch', ['sideband-all', 'want-ref refs/heads/main', 'no-progress', 'done'], false),
      v2Command('fetch', ['want-ref refs/heads/nope', 'no-progress', 'done']),
    ]);
    const { ours, git: theirs } = await bothServers(source, input, { ...V2, ...configEnv(enabled) }, ourEnv);
    assert.equal(theirs.status, 128);
    assert.equal(ours.status, 128);
    assert.equal(replyPackets(theirs.stdout).at(-1), 'ERR unknown ref refs/heads/nope');
    assert.deepEqual(replyPackets(ours.stdout), replyPackets(theirs.stdout));
  });

  it('serves git fetch of a branch by name: the client sends want-ref and sideband-all, and gets what git gives it', async (t) => {
    for (const [key, value] of Object.entries(enabled)) git(source, ['config', key, value]);
    t.after(() => {
      for (const key of Object.keys(enabled)) git(source, ['config', '--unset', key]);
    });
    const v2 = ['-c', 'protocol.version=2'];
    const dests: string[] = [];
    for (const side of ['ours', 'git'] as const) {
      const dest = scratch.path(`fetch-${side}`);
      dests.push(dest);
      await client(
        [...v2, 'clone', '-q', '--bare', ...uploadPackArgs(side), `file://${source}`, dest],
        scratch.dir,
        ourEnv,
      );
    }
    addCommit(source, 'later');
    for (const [i, side] of (['ours', 'git'] as const).entries()) {
      const fetch = await client(
        [...v2, 'fetch', ...uploadPackArgs(side), 'origin', 'main', 'topic:refs/remotes/origin/topic'],
        dests[i]!,
        { ...ourEnv, GIT_TRACE_PACKET: '1' },
      );
      assert.match(fetch.stderr, /fetch> want-ref refs\/heads\/main/, `${side}: the client used want-ref`);
      assert.match(fetch.stderr, /fetch> sideband-all/, `${side}: the client used sideband-all`);
      git(dests[i]!, ['fsck', '--full', '--strict']);
    }
    assert.equal(git(dests[0]!, ['for-each-ref']), git(dests[1]!, ['for-each-ref']));
    assert.equal(objectsOf(dests[0]!), objectsOf(dests[1]!));
    assert.equal(git(dests[0]!, ['rev-parse', 'FETCH_HEAD']), git(dests[1]!, ['rev-parse', 'FETCH_HEAD']));
  });

  it('shares a cache entry between want-ref and a want of the same object, and a moved ref gets its new pack', async () => {
    const env = { ...V2, ...configEnv(enabled) };
    const ask = (args: string[]): Buffer => v2Command('fetch', [...args, 'no-progress', 'ofs-delta', 'done']);
    const byRef = await bothServers(source, ask(['want-ref refs/heads/topic']), env, ourEnv);
    assert.equal(byRef.ours.status, 0, byRef.ours.stderr);
    const byOid = await bothServers(source, ask([`want ${rev('topic')}`]), env, ourEnv);
    assert.equal(byOid.ours.status, 0, byOid.ours.stderr);
    assert.equal(serves(timing).at(-1), 'cache-hit', 'the same pack, from the same entry');
    assert.deepEqual(packBytes(byOid.ours.stdout), packBytes(byRef.ours.stdout));
    git(source, ['update-ref', 'refs/heads/topic', rev('main')]);
    const moved = await bothServers(source, ask(['want-ref refs/heads/topic']), env, ourEnv);
    assert.deepEqual(replyPackets(moved.ours.stdout), replyPackets(moved.git.stdout));
    assert.notDeepEqual(packBytes(moved.ours.stdout), packBytes(byRef.ours.stdout));
  });
});
