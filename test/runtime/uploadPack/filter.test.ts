import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { defineFilterSuite } from './helpers/filterSuite';
import { git, makeRepository, Scratch } from './helpers/gitRepo';
import {
  bandText,
  bothServers,
  configEnv,
  packBytes,
  packObjects,
  V2,
  v0Request,
  v2Command,
} from './helpers/partialClone';

// A representative part of the partial-clone suite; `npm run test:slow` runs all of it.
defineFilterSuite(false);

describe('the pack cache keys a filtered pack by what it selects', () => {
  const scratch = new Scratch();
  const cache = scratch.path('cache');
  const timing = scratch.path('timing.jsonl');
  const ourEnv = { WRITEV_UPLOAD_PACK_CACHE: cache, WRITEV_UPLOAD_PACK_TIMING: timing };
  const env = configEnv({ 'uploadpack.allowFilter': 'true' });
  let source: string;
  const rev = (spec: string): string => git(source, ['rev-parse', spec]).trim();
  const lastServe = (): string => {
    const lines = readFileSync(timing, 'utf8').trim().split('\n');
    return (JSON.parse(lines.at(-1)!) as { pack: string }).pack;
  };
  const packCount = (): number => readdirSync(cache).filter((name) => name.endsWith('.pack')).length;

  /** A v2 fetch of main with `filter`, through both servers; returns our reply's pack. */
  async function fetchV2(filter: string | undefined): Promise<Buffer> {
    const args = [
      `want ${rev('main')}`,
      ...(filter ? [`filter ${filter}`] : []),
      'ofs-delta',
      'no-progress',
      'done',
    ];
    const { ours, git: theirs } = await bothServers(
      source,
      v2Command('fetch', args),
      { ...V2, ...env },
      ourEnv,
    );
    assert.equal(ours.status, 0, ours.stderr);
    assert.equal(theirs.status, 0, theirs.stderr);
    const name = `${filter ?? 'none'}-${Date.now()}`.replace(/\W/g, '_');
    assert.deepEqual(
      packObjects(packBytes(ours.stdout), scratch, `ours-${name}`),
      packObjects(packBytes(theirs.stdout), scratch, `git-${name}`),
      `${filter}: the objects git sends`,
    );
    return packBytes(ours.stdout);
  }

  before(() => {
    source = makeRepository(scratch.dir);
    writeFileSync(`${source}/.sparse`, '/README\n');
    git(source, ['add', '.sparse']);
    git(source, ['commit', '-q', '-m', 'sparse spec']);
  });
  after(() => scratch.dispose());

  it('shares an entry between specs that select the same objects, never between ones that do not', async () => {
    const steps: [filter: string | undefined, expected: string][] = [
      ['blob:limit=1k', 'cache-miss'],
      ['blob:limit=1024', 'cache-hit'],
      ['blob:limit=0x400', 'cache-hit'],
      ['blob:limit=1025', 'cache-miss'],
      ['blob:none', 'cache-miss'],
      [undefined, 'cache-miss'],
      [undefined, 'cache-hit'],
      ['tree:0', 'cache-miss'],
      ['combine:tree%3a1+blob:none', 'cache-miss'],
      ['combine:tree:1+blob:none', 'cache-hit'],
      ['combine:tree:01+blob%3Anone', 'cache-hit'],
    ];
    for (const [filter, expected] of steps) {
      await fetchV2(filter);
      assert.equal(lastServe(), expected, `${filter ?? 'no filter'}`);
    }
  });

  it('shares an entry between a v0 and a v2 fetch only when the pack is the same', async () => {
    const v0 = (caps: string): Buffer => v0Request([rev('topic')], caps, ['filter blob:limit=100']);
    const first = await bothServers(source, v0('side-band-64k ofs-delta no-progress filter'), env, ourEnv);
    assert.equal(first.ours.status, 0, first.ours.stderr);
    assert.equal(lastServe(), 'cache-miss');
    const args = [`want ${rev('topic')}`, 'filter blob:limit=100', 'ofs-delta', 'no-progress', 'done'];
    const second = await bothServers(source, v2Command('fetch', args), { ...V2, ...env }, ourEnv);
    assert.equal(second.ours.status, 0, second.ours.stderr);
    assert.equal(lastServe(), 'cache-hit', 'v2 after v0: the same pack');
    assert.deepEqual(packBytes(second.ours.stdout), packBytes(first.ours.stdout));
    // Without ofs-delta the pack differs: a separate entry.
    const third = await bothServers(source, v0('side-band-64k no-progress filter'), env, ourEnv);
    assert.equal(third.ours.status, 0, third.ours.stderr);
    assert.equal(lastServe(), 'cache-miss');
  });

  it('keys sparse:oid by the blob the expression names now, and caches nothing when it names none', async () => {
    const before = await fetchV2('sparse:oid=main:.sparse');
    assert.equal(lastServe(), 'cache-miss');
    await fetchV2('sparse:oid=main:.sparse');
    assert.equal(lastServe(), 'cache-hit');
    await fetchV2(`sparse:oid=${rev('main:.sparse')}`);
    assert.equal(lastServe(), 'cache-hit', 'the same blob by its id');
    // The branch moves: the expression names another blob, and another pack.
    writeFileSync(`${source}/.sparse`, '/README\n/data.txt\n');
    git(source, ['commit', '-q', '-am', 'wider sparse spec']);
    const after = await fetchV2('sparse:oid=main:.sparse');
    assert.equal(lastServe(), 'cache-miss');
    assert.notDeepEqual(after, before);
    // Nothing to resolve: git's own error reaches the client, and nothing is cached.
    const entries = packCount();
    const args = [`want ${rev('main')}`, 'filter sparse:oid=main:nope', 'no-progress', 'done'];
    const { ours, git: theirs } = await bothServers(
      source,
      v2Command('fetch', args),
      { ...V2, ...env },
      ourEnv,
    );
    assert.equal(ours.status, 128);
    assert.equal(theirs.status, 128);
    const message = (stdout: Buffer): string | undefined =>
      bandText(stdout, 2)
        .split('\n')
        .find((line) => line.includes('sparse blob'));
    assert.equal(message(ours.stdout), message(theirs.stdout));
    assert.match(message(ours.stdout) ?? '', /unable to access sparse blob in 'main:nope'/);
    assert.equal(packCount(), entries);
  });
});
