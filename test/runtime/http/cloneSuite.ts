import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { addCommit, git, makeRepository, run, Scratch } from '../uploadPack/helpers/gitRepo';
import { httpTestEnv, startBin, uploadPacks, type RunningBin } from './helpers';

/** Every object reachable from every ref, sorted: what two clones must agree on. */
export function objects(repo: string): string[] {
  return git(repo, ['rev-list', '--objects', '--all'], { env: httpTestEnv() }).trim().split('\n').sort();
}

/** The refs of a repository as `oid name` lines. */
export function refs(repo: string): string {
  return git(repo, ['for-each-ref', '--format=%(objectname) %(refname)'], { env: httpTestEnv() });
}

function shallow(repo: string): string[] {
  const file = join(repo, '.git', 'shallow');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').sort() : [];
}

/** The served folder: a bare repository, one in a subfolder, and a work tree. */
export interface ServedRepositories {
  readonly scratch: Scratch;
  /** The folder writev-git-http serves. */
  readonly served: string;
}

/** Makes the served folder in a new scratch folder, removed after the file's tests. */
export function serveRepositories(): ServedRepositories {
  const scratch = new Scratch();
  const served = scratch.path('served');
  const source = makeRepository(scratch.dir);
  mkdirSync(join(served, 'group', 'sub'), { recursive: true });
  git(scratch.dir, ['clone', '-q', '--bare', source, join(served, 'project.git')]);
  git(scratch.dir, ['clone', '-q', '--bare', source, join(served, 'group', 'sub', 'nested.git')]);
  git(scratch.dir, ['clone', '-q', source, join(served, 'worktree')]);
  after(() => scratch.dispose());
  return { scratch, served };
}

/**
 * Clones and fetches over HTTP through writev-git-http, served by `name` (writev-upload-pack in
 * npm test; git upload-pack, its twin over the same HTTP code, in npm run test:slow), each compared
 * with a direct clone or fetch by git.
 */
export function defineHttpCloneSuite(
  { scratch, served }: ServedRepositories,
  name: 'writev-upload-pack' | 'git upload-pack',
): void {
  const commands = uploadPacks(join(served, 'project.git')).filter((c) => c.name === name);
  for (const command of commands) {
    describe(
      `git over HTTP through writev-git-http, served by ${command.name}`,
      { skip: command.skip },
      () => {
        let server: RunningBin;
        const env = httpTestEnv();
        const slug = command.name.replace(/\W+/g, '-');
        const dir = scratch.path(slug);
        mkdirSync(dir, { recursive: true });

        before(async () => {
          server = await startBin(served, ['--upload-pack', command.shell]);
        });
        after(async () => {
          await server.stop();
        });

        async function gitOk(args: string[], cwd = dir): Promise<void> {
          const result = await run('git', args, { cwd, env, timeoutMs: 60_000 });
          assert.equal(
            result.status,
            0,
            `git ${args.join(' ')} failed: ${result.stderr}\nserver: ${server.stderr()}`,
          );
        }

        /** A clone straight from the served repository by git's own upload-pack, as the reference. */
        async function directClone(name: string, repo: string, ...options: string[]): Promise<string> {
          const dest = join(dir, `direct-${name}`);
          await gitOk(['clone', '-q', ...options, `file://${join(served, repo)}`, dest]);
          return dest;
        }

        for (const version of ['0', '2']) {
          it(`clones with protocol v${version}: fsck-clean, the refs and objects of a direct clone`, async () => {
            const dest = join(dir, `v${version}`);
            await gitOk([
              '-c',
              `protocol.version=${version}`,
              'clone',
              '-q',
              `${server.url}project.git`,
              dest,
            ]);
            git(dest, ['fsck', '--full', '--strict'], { env });
            const direct = await directClone(`v${version}`, 'project.git');
            assert.deepEqual(objects(dest), objects(direct));
            assert.equal(refs(dest), refs(direct));
            assert.equal(git(dest, ['symbolic-ref', 'HEAD'], { env }).trim(), 'refs/heads/main');
          });

          const depth = `clones --depth 1 with protocol v${version}: the objects and shallow file of a direct one`;
          it(depth, { skip: command.skipShallow }, async () => {
            const dest = join(dir, `depth-v${version}`);
            await gitOk([
              '-c',
              `protocol.version=${version}`,
              'clone',
              '-q',
              '--depth',
              '1',
              `${server.url}project.git`,
              dest,
            ]);
            git(dest, ['fsck', '--full'], { env });
            const direct = await directClone(`depth-v${version}`, 'project.git', '--depth', '1');
            assert.deepEqual(objects(dest), objects(direct));
            assert.deepEqual(shallow(dest), shallow(direct));
            assert.ok(shallow(dest).length > 0, 'the clone is shallow');
          });
        }

        it('fetches new commits into a clone: the objects of a direct fetch', async () => {
          const dest = join(dir, 'fetching');
          await gitOk(['clone', '-q', `${server.url}group/sub/nested.git`, dest]);
          const direct = await directClone('fetching', 'group/sub/nested.git');
          const upstream = scratch.path(`${slug}-upstream`);
          await gitOk(['clone', '-q', join(served, 'group', 'sub', 'nested.git'), upstream]);
          addCommit(upstream, `later-${slug}`);
          await gitOk(['push', '-q', 'origin', 'main', `tag-later-${slug}`], upstream);
          await gitOk(['fetch', '-q', '--tags', 'origin'], dest);
          await gitOk(['fetch', '-q', '--tags', 'origin'], direct);
          git(dest, ['fsck', '--full'], { env });
          assert.equal(
            git(dest, ['rev-parse', 'origin/main'], { env }),
            git(upstream, ['rev-parse', 'main'], { env }),
          );
          assert.deepEqual(objects(dest), objects(direct));
        });

        it('clones a repository in a subfolder, and a work tree by its folder name', async () => {
          const nested = join(dir, 'nested');
          await gitOk(['clone', '-q', `${server.url}group/sub/nested.git`, nested]);
          git(nested, ['fsck', '--full'], { env });
          const worktree = join(dir, 'worktree');
          // `/worktree` names served/worktree/.git, as git daemon finds it.
          await gitOk(['clone', '-q', `${server.url}worktree`, worktree]);
          git(worktree, ['fsck', '--full'], { env });
          assert.deepEqual(objects(worktree), objects(await directClone('worktree', 'worktree')));
          // `/project` finds project.git.
          const bare = join(dir, 'without-suffix');
          await gitOk(['clone', '-q', '--bare', `${server.url}project`, bare]);
          assert.equal(refs(bare), refs(join(served, 'project.git')));
        });
      },
    );
  }
}
