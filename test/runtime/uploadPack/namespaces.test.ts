import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { gitEnv } from '../helpers/gitEnv';
import { LS_REMOTE, ours, refLines, replyLines, theirs, wantRequest } from './helpers/advertisement';
import { git, makeRepository, refsOf, run, Scratch, uploadPackCommand } from './helpers/gitRepo';

/** One serve's setting: the namespace, and hide rules in the repository's config or the environment. */
interface Setting {
  readonly name: string;
  readonly namespace?: string;
  /** `[key, value]` pairs added to the repository's config, in order. */
  readonly config?: readonly (readonly [string, string])[];
  /** The same, given as `GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n` (how `git -c` reaches a server). */
  readonly envConfig?: readonly (readonly [string, string])[];
}

const SETTINGS: readonly Setting[] = [
  { name: 'no namespace, nothing hidden' },
  { name: 'namespace tenantA', namespace: 'tenantA' },
  { name: 'namespace tenantB', namespace: 'tenantB' },
  { name: 'a nested namespace a/b', namespace: 'a/b' },
  { name: 'a nested namespace spelled //a//b', namespace: '//a//b' },
  { name: 'a namespace with no refs', namespace: 'nobody' },
  { name: 'a hidden root branch', config: [['uploadpack.hideRefs', 'refs/heads/secret-root']] },
  {
    name: 'a hierarchy hidden, one ref shown again with !',
    config: [
      ['transfer.hideRefs', 'refs/pull'],
      ['uploadpack.hideRefs', '!refs/pull/1/head'],
    ],
  },
  {
    name: 'transfer and uploadpack rules interleaved: the last match wins',
    config: [
      ['transfer.hideRefs', 'refs/heads'],
      ['uploadpack.hideRefs', '!refs/heads/main'],
      ['transfer.hideRefs', 'refs/heads/main/'],
    ],
  },
  {
    name: 'a prefix that is not a whole component hides nothing',
    config: [['transfer.hideRefs', 'refs/heads/ma']],
  },
  { name: 'receive.hideRefs does not apply to fetches', config: [['receive.hideRefs', 'refs/heads/main']] },
  { name: 'HEAD hidden (the symref capability stays)', config: [['uploadpack.hideRefs', 'HEAD']] },
  { name: 'every namespace hidden, no namespace in use', config: [['transfer.hideRefs', 'refs/namespaces']] },
  {
    name: 'tenantA with a rule matched after stripping the namespace',
    namespace: 'tenantA',
    config: [['uploadpack.hideRefs', 'refs/heads/hidden']],
  },
  {
    name: 'tenantA with a ^rule matched before stripping',
    namespace: 'tenantA',
    config: [['uploadpack.hideRefs', '^refs/namespaces/tenantA/refs/tags']],
  },
  {
    name: 'tenantA: everything hidden but one ref, by !^',
    namespace: 'tenantA',
    config: [
      ['transfer.hideRefs', 'refs'],
      ['transfer.hideRefs', '!^refs/namespaces/tenantA/refs/heads/main'],
    ],
  },
  {
    name: 'tenantA: ^! is not !^ (the pattern starts with !)',
    namespace: 'tenantA',
    config: [
      ['transfer.hideRefs', 'refs/heads'],
      ['transfer.hideRefs', '^!refs/namespaces/tenantA/refs/heads/main'],
    ],
  },
  { name: 'rules from the environment (git -c)', envConfig: [['uploadpack.hideRefs', 'refs/tags']] },
  {
    name: 'tenantB with rules from the environment and the file',
    namespace: 'tenantB',
    config: [['transfer.hideRefs', 'refs/heads']],
    envConfig: [['transfer.hideRefs', '!refs/heads/secret']],
  },
];

/** The environment additions of a setting. */
function envOf(setting: Setting, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...extra };
  if (setting.namespace !== undefined) env.GIT_NAMESPACE = setting.namespace;
  const pairs = setting.envConfig ?? [];
  if (pairs.length > 0) {
    env.GIT_CONFIG_COUNT = String(pairs.length);
    pairs.forEach(([key, value], i) => {
      env[`GIT_CONFIG_KEY_${i}`] = key;
      env[`GIT_CONFIG_VALUE_${i}`] = value;
    });
  }
  return env;
}

describe('GIT_NAMESPACE and hideRefs: the advertisement and refusals of git upload-pack', () => {
  const scratch = new Scratch();
  const cache = scratch.path('cache');
  let source: string;
  /** Commits reachable only from a namespace or a hidden ref. */
  let tenantBSecret: string;
  let rootSecret: string;
  let tenantAMain: string;

  /** A commit on top of `parent` that no other ref reaches. */
  function orphanCommit(parent: string, message: string): string {
    const tree = git(source, ['rev-parse', `${parent}^{tree}`]).trim();
    return git(source, ['commit-tree', tree, '-p', parent, '-m', message], { env: gitEnv() }).trim();
  }

  before(() => {
    source = makeRepository(scratch.dir);
    const main = git(source, ['rev-parse', 'main']).trim();
    tenantAMain = git(source, ['rev-parse', 'main~1']).trim();
    tenantBSecret = orphanCommit(main, 'tenant B secret');
    rootSecret = orphanCommit(main, 'root secret');
    const tag = git(source, ['rev-parse', 'v1.0']).trim();
    const set = (ref: string, oid: string): string => git(source, ['update-ref', ref, oid]);
    set('refs/namespaces/tenantA/refs/heads/main', tenantAMain);
    set('refs/namespaces/tenantA/refs/heads/hidden/x', tenantAMain);
    set('refs/namespaces/tenantA/refs/tags/v1', tag);
    git(source, ['symbolic-ref', 'refs/namespaces/tenantA/HEAD', 'refs/namespaces/tenantA/refs/heads/main']);
    set('refs/namespaces/tenantB/refs/heads/secret', tenantBSecret);
    git(source, [
      'symbolic-ref',
      'refs/namespaces/tenantB/HEAD',
      'refs/namespaces/tenantB/refs/heads/secret',
    ]);
    set('refs/namespaces/a/refs/namespaces/b/refs/heads/deep', git(source, ['rev-parse', 'topic']).trim());
    set('refs/heads/secret-root', rootSecret);
    set('refs/pull/1/head', git(source, ['rev-parse', 'topic']).trim());
    set('refs/pull/2/head', main);
  });
  after(() => scratch.dispose());

  /** Puts exactly the setting's rules into the repository's config. */
  function configure(setting: Setting): void {
    for (const key of ['uploadpack.hideRefs', 'transfer.hideRefs', 'receive.hideRefs']) {
      try {
        git(source, ['config', '--unset-all', key]);
      } catch {
        // not set
      }
    }
    for (const [key, value] of setting.config ?? []) git(source, ['config', '--add', key, value]);
  }

  for (const setting of SETTINGS) {
    it(`advertises what git upload-pack advertises: ${setting.name}`, async () => {
      configure(setting);
      const expected = await theirs(source, LS_REMOTE, envOf(setting));
      assert.equal(expected.status, 0, expected.stderr);
      // Twice: once listing the refs with git, once from the memo in the cache folder.
      for (const round of ['first', 'memo']) {
        const got = await ours(source, LS_REMOTE, envOf(setting, { WRITEV_UPLOAD_PACK_CACHE: cache }));
        assert.equal(got.status, 0, got.stderr);
        assert.deepEqual(refLines(got.stdout), refLines(expected.stdout), `${round} serve`);
      }
    });
  }

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
