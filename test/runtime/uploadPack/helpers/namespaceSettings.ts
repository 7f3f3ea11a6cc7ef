import { strict as assert } from 'node:assert';
import { it } from 'node:test';
import { gitEnv } from '../../helpers/gitEnv';
import { LS_REMOTE, ours, refLines, theirs } from './advertisement';
import { git, makeRepository } from './gitRepo';

/** One serve's setting: the namespace, and hide rules in the repository's config or the environment. */
export interface Setting {
  readonly name: string;
  readonly namespace?: string;
  /** `[key, value]` pairs added to the repository's config, in order. */
  readonly config?: readonly (readonly [string, string])[];
  /** The same, given as `GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n` (how `git -c` reaches a server). */
  readonly envConfig?: readonly (readonly [string, string])[];
  /** In `npm test`'s part (see {@link AdvertisementPart}); the others run in `npm run test:slow`. */
  readonly fast?: true;
}

const SETTINGS: readonly Setting[] = [
  { name: 'no namespace, nothing hidden', fast: true },
  { name: 'namespace tenantA', fast: true, namespace: 'tenantA' },
  { name: 'namespace tenantB', namespace: 'tenantB' },
  { name: 'a nested namespace a/b', namespace: 'a/b' },
  { name: 'a nested namespace spelled //a//b', fast: true, namespace: '//a//b' },
  { name: 'a namespace with no refs', namespace: 'nobody' },
  { name: 'a hidden root branch', fast: true, config: [['uploadpack.hideRefs', 'refs/heads/secret-root']] },
  {
    name: 'a hierarchy hidden, one ref shown again with !',
    fast: true,
    config: [
      ['transfer.hideRefs', 'refs/pull'],
      ['uploadpack.hideRefs', '!refs/pull/1/head'],
    ],
  },
  {
    name: 'transfer and uploadpack rules interleaved: the last match wins',
    fast: true,
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
  {
    name: 'HEAD hidden (the symref capability stays)',
    fast: true,
    config: [['uploadpack.hideRefs', 'HEAD']],
  },
  { name: 'every namespace hidden, no namespace in use', config: [['transfer.hideRefs', 'refs/namespaces']] },
  {
    name: 'tenantA with a rule matched after stripping the namespace',
    fast: true,
    namespace: 'tenantA',
    config: [['uploadpack.hideRefs', 'refs/heads/hidden']],
  },
  {
    name: 'tenantA with a ^rule matched before stripping',
    fast: true,
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
    fast: true,
    namespace: 'tenantB',
    config: [['transfer.hideRefs', 'refs/heads']],
    envConfig: [['transfer.hideRefs', '!refs/heads/secret']],
  },
];

/** The environment additions of a setting. */
export function envOf(setting: Setting, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
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

/** The repository the namespace tests serve, and the commits only a namespace or a hidden ref reaches. */
export interface NamespaceRepository {
  readonly source: string;
  readonly tenantAMain: string;
  readonly tenantBSecret: string;
  readonly rootSecret: string;
}

/**
 * {@link makeRepository}'s history with two namespaces (tenantA with a HEAD, a hidden-looking branch
 * and a tag; tenantB with a secret branch), a namespace nested in another, a branch and pull refs at
 * the root, in `dir/source`.
 */
export function namespaceRepository(dir: string): NamespaceRepository {
  const source = makeRepository(dir);
  /** A commit on top of `parent` that no other ref reaches. */
  const orphanCommit = (parent: string, message: string): string => {
    const tree = git(source, ['rev-parse', `${parent}^{tree}`]).trim();
    return git(source, ['commit-tree', tree, '-p', parent, '-m', message], { env: gitEnv() }).trim();
  };
  const main = git(source, ['rev-parse', 'main']).trim();
  const tenantAMain = git(source, ['rev-parse', 'main~1']).trim();
  const tenantBSecret = orphanCommit(main, 'tenant B secret');
  const rootSecret = orphanCommit(main, 'root secret');
  const tag = git(source, ['rev-parse', 'v1.0']).trim();
  const set = (ref: string, oid: string): string => git(source, ['update-ref', ref, oid]);
  set('refs/namespaces/tenantA/refs/heads/main', tenantAMain);
  set('refs/namespaces/tenantA/refs/heads/hidden/x', tenantAMain);
  set('refs/namespaces/tenantA/refs/tags/v1', tag);
  git(source, ['symbolic-ref', 'refs/namespaces/tenantA/HEAD', 'refs/namespaces/tenantA/refs/heads/main']);
  set('refs/namespaces/tenantB/refs/heads/secret', tenantBSecret);
  git(source, ['symbolic-ref', 'refs/namespaces/tenantB/HEAD', 'refs/namespaces/tenantB/refs/heads/secret']);
  set('refs/namespaces/a/refs/namespaces/b/refs/heads/deep', git(source, ['rev-parse', 'topic']).trim());
  set('refs/heads/secret-root', rootSecret);
  set('refs/pull/1/head', git(source, ['rev-parse', 'topic']).trim());
  set('refs/pull/2/head', main);
  return { source, tenantAMain, tenantBSecret, rootSecret };
}

/** Puts exactly the setting's rules into the config of the repository `source`. */
export function configure(source: string, setting: Setting): void {
  for (const key of ['uploadpack.hideRefs', 'transfer.hideRefs', 'receive.hideRefs']) {
    try {
      git(source, ['config', '--unset-all', key]);
    } catch {
      // not set
    }
  }
  for (const [key, value] of setting.config ?? []) git(source, ['config', '--add', key, value]);
}

/**
 * Which settings a run serves: `fast` (npm test) one of each kind of rule (a namespace, a nested one
 * spelled oddly, hide rules with !, ^, both files, the environment, HEAD); `rest` (npm run test:slow)
 * the variations of them. Every setting goes through the one ref filter (runtime/src/uploadPack).
 */
export type AdvertisementPart = 'fast' | 'rest';

/**
 * One test per setting of `part`: the advertisement of `repo()` through writev-upload-pack, listed
 * with git and then from the memo in `cache` (shared by all settings, so a memo kept under the wrong
 * key shows), is git upload-pack's.
 */
export function defineAdvertisementCases(part: AdvertisementPart, repo: () => string, cache: string): void {
  for (const setting of SETTINGS.filter((s) => (s.fast === true) === (part === 'fast'))) {
    it(`advertises what git upload-pack advertises: ${setting.name}`, async () => {
      configure(repo(), setting);
      const expected = await theirs(repo(), LS_REMOTE, envOf(setting));
      assert.equal(expected.status, 0, expected.stderr);
      // Twice: once listing the refs with git, once from the memo in the cache folder.
      for (const round of ['first', 'memo']) {
        const got = await ours(repo(), LS_REMOTE, envOf(setting, { WRITEV_UPLOAD_PACK_CACHE: cache }));
        assert.equal(got.status, 0, got.stderr);
        assert.deepEqual(refLines(got.stdout), refLines(expected.stdout), `${round} serve`);
      }
    });
  }
}
