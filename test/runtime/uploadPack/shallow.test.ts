import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { git, run, Scratch, uploadPackCommand } from './helpers/gitRepo';
import { gitEnv } from '../helpers/gitEnv';
import { defineShallowRequestSuite } from './helpers/shallowRequests';
import { defineShallowSuite, makeShallowHistory } from './helpers/shallowSuite';

// A few cases over file://, each by one protocol (both for the simplest); the whole matrix, every
// case by v0 and v2 over file://, ssh and HTTP, is slow/shallowMatrix.test.ts (npm run test:slow).
defineShallowSuite(false, [
  { name: 'clone --depth 1', version: '0' },
  { name: 'clone --depth 1', version: '2' },
  { name: 'clone --shallow-since', version: '0' },
  { name: 'fetch --deepen, then --unshallow', version: '2' },
]);

// Every request case, each by one protocol; the twins by the other are slow/shallowRequestTwins.test.ts.

defineShallowRequestSuite('fast');

describe('the pack cache and shallow fetches', () => {
  const scratch = new Scratch();
  let source: string;
  before(() => {
    source = makeShallowHistory(scratch.dir);
  });
  after(() => scratch.dispose());

  it('shares an entry between v0 and v2 only for the same boundary; deeper, whole and deepening fetches get their own', async () => {
    const timing = scratch.path('timing.jsonl');
    const cache = scratch.path('cache');
    const env = gitEnv({ WRITEV_UPLOAD_PACK_CACHE: cache, WRITEV_UPLOAD_PACK_TIMING: timing });
    const served: string[] = [];
    /** How the last serve produced its pack, from its timing line. */
    const lastServe = (): string =>
      (JSON.parse(readFileSync(timing, 'utf8').trim().split('\n').at(-1)!) as { pack: string }).pack;
    let n = 0;
    const clone = async (version: string, args: string[], ours = true): Promise<string> => {
      const dest = scratch.path(`clone-${++n}`);
      const uploadPack = ours ? [`--upload-pack=${uploadPackCommand()}`] : [];
      const result = await run(
        'git',
        [
          '-c',
          `protocol.version=${version}`,
          'clone',
          '-q',
          ...uploadPack,
          ...args,
          `file://${source}`,
          dest,
        ],
        { env },
      );
      assert.equal(result.status, 0, result.stderr);
      if (ours) served.push(lastServe());
      return dest;
    };
    await clone('0', ['--depth', '1']);
    const fromCache = await clone('2', ['--depth', '1']);
    await clone('2', ['--depth', '2']);
    await clone('2', []);
    const deepened = await clone('0', ['--depth', '1']);
    const fetch = await run('git', ['fetch', '-q', `--upload-pack=${uploadPackCommand()}`, '--deepen', '1'], {
      cwd: deepened,
      env,
    });
    assert.equal(fetch.status, 0, fetch.stderr);
    served.push(lastServe());
    assert.deepEqual(served, [
      'cache-miss',
      'cache-hit',
      'cache-miss',
      'cache-miss',
      'cache-hit',
      'cache-miss',
    ]);
    assert.equal(readdirSync(cache).filter((f) => f.endsWith('.pack')).length, 4);
    // What the cache served is what git serves.
    const direct = await clone('2', ['--depth', '1'], false);
    for (const dir of [fromCache, direct]) git(dir, ['fsck', '--full', '--strict']);
    const objects = (dir: string): string =>
      git(dir, ['rev-list', '--objects', '--all']).split('\n').sort().join('\n');
    assert.equal(objects(fromCache), objects(direct));
    assert.equal(
      readFileSync(`${fromCache}/.git/shallow`, 'utf8'),
      readFileSync(`${direct}/.git/shallow`, 'utf8'),
    );
  });
});
