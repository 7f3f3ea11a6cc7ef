import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { gitEnv } from '../helpers/gitEnv';
import { LS_REMOTE, ours, replyLines, theirs, wantRequest } from './helpers/advertisement';
import { git, refsOf, run, Scratch, uploadPackCommand } from './helpers/gitRepo';
import {
  configure as configureIn,
  defineAdvertisementCases,
  envOf,
  namespaceRepository,
  type Setting,
} from './helpers/namespaceSettings';

describe('GIT_NAMESPACE and hideRefs: the advertisement and refusals of git upload-pack', () => {
  const scratch = new Scratch();
  const cache = scratch.path('cache');
  let source: string;
  /** Commits reachable only from a namespace or a hidden ref. */
  let tenantBSecret: string;
  let rootSecret: string;
  let tenantAMain: string;

  before(() => {
    ({ source, tenantBSecret, rootSecret, tenantAMain } = namespaceRepository(scratch.dir));
  });
  after(() => scratch.dispose());

  const configure = (setting: Setting): void => configureIn(source, setting);

  // One setting of each kind of rule; the variations are slow/namespaceSettings.test.ts (npm run test:slow).
  defineAdvertisementCases('fast', () => source, cache);

  describe('wants of objects the advertisement does not offer', () => {
    const refusals: { name: string; setting: Setting; want: () => string }[] = [
      {
        name: "another namespace's commit",
        setting: { name: 'A', namespace: 'tenantA' },
        want: () => tenantBSecret,
      },
      {
        name: 'a commit only a hidden ref reaches',
        setting: { name: 'hidden', config: [['uploadpack.hideRefs', 'refs/heads/secret-root']] },
        want: () => rootSecret,
      },
      {
        name: 'an object only a tag peels to (git accepts ref objects only)',
        setting: { name: 'A', namespace: 'tenantA' },
        want: () => git(source, ['rev-parse', 'main']).trim(),
      },
      {
        name: 'a root branch from inside a namespace',
        setting: { name: 'A', namespace: 'tenantA' },
        want: () => git(source, ['rev-parse', 'topic']).trim(),
      },
      { name: 'an object that does not exist', setting: { name: 'none' }, want: () => 'e'.repeat(40) },
    ];
    for (const { name, setting, want } of refusals) {
      it(`refuses ${name} with git's ERR line and exit 128, and caches nothing`, async () => {
        configure(setting);
        const request = wantRequest([want()]);
        const expected = await theirs(source, request, envOf(setting));
        assert.equal(expected.status, 128);
        const got = await ours(
          source,
          request,
          envOf(setting, { WRITEV_UPLOAD_PACK_CACHE: scratch.path('refused') }),
        );
        assert.equal(got.status, 128, got.stderr);
        assert.equal(replyLines(got.stdout).at(-1), replyLines(expected.stdout).at(-1));
        assert.equal(replyLines(got.stdout).at(-1), `ERR upload-pack: not our ref ${want()}`);
        assert.match(got.stderr, /not our ref/);
      });
    }

    it("serves the namespace's own refs", async () => {
      configure({ name: 'none' });
      const got = await ours(source, wantRequest([tenantAMain]), { GIT_NAMESPACE: 'tenantA' });
      assert.equal(got.status, 0, got.stderr);
    });
  });

  describe('the real git client', () => {
    const env = (namespace: string): NodeJS.ProcessEnv =>
      gitEnv({ GIT_NAMESPACE: namespace, WRITEV_UPLOAD_PACK_CACHE: cache });

    it('git ls-remote lists what it lists through git upload-pack', async () => {
      configure({ name: 'hide', config: [['uploadpack.hideRefs', 'refs/heads/hidden']] });
      for (const namespace of ['tenantA', 'tenantB', '']) {
        // Protocol v0 on both sides: git's v2 ls-refs lists a namespace's HEAD twice.
        const v0 = ['-c', 'protocol.version=0', 'ls-remote', '--symref'];
        const expected = git(scratch.dir, [...v0, `file://${source}`], { env: env(namespace) });
        const got = await run('git', [...v0, `--upload-pack=${uploadPackCommand()}`, `file://${source}`], {
          env: env(namespace),
        });
        assert.equal(got.status, 0, got.stderr);
        assert.equal(got.stdout.toString(), expected, `namespace '${namespace}'`);
      }
    });

    it('a clone in a namespace gets that namespace only: fsck clean, the same refs as through git', async () => {
      configure({ name: 'none' });
      for (const [dest, uploadPack] of [
        ['ns-ours', [`--upload-pack=${uploadPackCommand()}`]],
        ['ns-git', []],
      ] as const) {
        const result = await run(
          'git',
          ['clone', '-q', ...uploadPack, `file://${source}`, scratch.path(dest)],
          {
            env: env('tenantA'),
          },
        );
        assert.equal(result.status, 0, result.stderr);
        git(scratch.path(dest), ['fsck', '--full', '--strict']);
      }
      assert.deepEqual(refsOf(scratch.path('ns-ours'), 'refs/'), refsOf(scratch.path('ns-git'), 'refs/'));
      assert.equal(git(scratch.path('ns-ours'), ['rev-parse', 'HEAD']).trim(), tenantAMain);
      const objects = (dir: string): string => git(scratch.path(dir), ['rev-list', '--objects', '--all']);
      assert.equal(objects('ns-ours'), objects('ns-git'));
      assert.doesNotMatch(objects('ns-ours'), new RegExp(tenantBSecret));
    });

    it("fetching another namespace's ref by name fails as it does through git", async () => {
      const dest = scratch.path('ns-ours');
      const ref = 'refs/namespaces/tenantB/refs/heads/secret';
      const got = await run('git', ['fetch', `--upload-pack=${uploadPackCommand()}`, 'origin', ref], {
        cwd: dest,
        env: env('tenantA'),
      });
      const expected = await run('git', ['fetch', 'origin', ref], { cwd: dest, env: env('tenantA') });
      assert.notEqual(expected.status, 0);
      assert.equal(got.status, expected.status);
      assert.match(got.stderr, /couldn't find remote ref/);
      assert.throws(() => git(dest, ['cat-file', '-e', tenantBSecret]));
    });
  });

  it('refuses a namespace that is not a valid ref path, as git does, exit 128', async () => {
    for (const namespace of ['a..b', 'tenantA/', 'a b', '.hidden', 'x.lock']) {
      const expected = await theirs(source, LS_REMOTE, { GIT_NAMESPACE: namespace });
      assert.equal(expected.status, 128);
      assert.match(expected.stderr, /bad git namespace path/);
      const got = await ours(source, LS_REMOTE, { GIT_NAMESPACE: namespace });
      assert.equal(got.status, 128, namespace);
      assert.match(got.stderr, new RegExp(`bad git namespace path "${namespace.replace(/\./g, '\\.')}"`));
      assert.doesNotMatch(got.stdout.toString('latin1'), /refs\//, 'no ref was advertised');
    }
  });

  it('refuses a hideRefs entry without a value, as git does, exit 128', async () => {
    configure({ name: 'none' });
    const env = { GIT_CONFIG_PARAMETERS: "'uploadpack.hiderefs'" };
    const expected = await theirs(source, LS_REMOTE, env);
    assert.equal(expected.status, 128);
    const got = await ours(source, LS_REMOTE, env);
    assert.equal(got.status, 128);
    assert.match(got.stderr, /missing value for 'uploadpack\.hiderefs'/);
    assert.doesNotMatch(got.stdout.toString('latin1'), /refs\//, 'no ref was advertised');
  });
});
