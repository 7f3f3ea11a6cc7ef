import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gitEnv } from '../../helpers/gitEnv';
import { serveBoth, type HttpPair } from '../../http/helpers';
import { fromFixtureCache, git, run, Scratch, uploadPackCommand } from './gitRepo';

/** A commit on a given day of January 2024 (author and committer), so `--shallow-since` has dates to cut. */
function commitOn(repo: string, day: number, file: string, text: string, message: string): void {
  const date = `2024-01-${String(day).padStart(2, '0')}T12:00:00Z`;
  const env = gitEnv({ GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
  writeFileSync(join(repo, file), text);
  git(repo, ['add', file], { env });
  git(repo, ['commit', '-q', '-m', message], { env });
}

/** Runs git with the committer date of `day` (merges and annotated tags carry dates too). */
function gitOn(repo: string, day: number, args: string[]): void {
  const date = `2024-01-${String(day).padStart(2, '0')}T12:00:00Z`;
  git(repo, args, { env: gitEnv({ GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }) });
}

/**
 * A history with shape for shallow clones: three branches with two merges (so depth walks meet
 * the same commit by paths of different lengths), lightweight and annotated tags, a file edited
 * on two branches (deltas), and a commit a day, so dates cut it anywhere. A copy from the run's
 * fixture cache (see {@link fromFixtureCache}).
 */
export function makeShallowHistory(dir: string): string {
  return fromFixtureCache(dir, buildShallowHistory);
}

function buildShallowHistory(dir: string): string {
  git(dir, ['init', '-q', '-b', 'main', 'source']);
  const repo = join(dir, 'source');
  const big = Array.from({ length: 3000 }, (_, i) => `line ${i} ${(i * 7919) % 10007}\n`).join('');
  commitOn(repo, 1, 'README', 'hello\n', 'first');
  git(repo, ['tag', 'v0.1']);
  commitOn(repo, 2, 'data.txt', big, 'data');
  git(repo, ['checkout', '-q', '-b', 'topic']);
  commitOn(repo, 3, 'topic.txt', 'topic\n', 'topic 1');
  commitOn(repo, 4, 'data.txt', big.replace('line 17 ', 'line seventeen '), 'topic 2');
  git(repo, ['checkout', '-q', 'main']);
  commitOn(repo, 5, 'README', 'hello again\n', 'main 1');
  commitOn(repo, 6, 'main.txt', 'main\n', 'main 2');
  gitOn(repo, 7, ['merge', '-q', '--no-ff', '-m', 'merge topic', 'topic']);
  gitOn(repo, 7, ['tag', '-a', 'v1.0', '-m', 'release 1.0']);
  commitOn(repo, 8, 'data.txt', big.replace('line 99 ', 'line ninety-nine '), 'main 3');
  git(repo, ['checkout', '-q', '-b', 'side', 'main~1']);
  commitOn(repo, 9, 'side.txt', 'side\n', 'side 1');
  gitOn(repo, 9, ['tag', '-a', 'side-tag', '-m', 'on side']);
  git(repo, ['checkout', '-q', 'main']);
  gitOn(repo, 10, ['merge', '-q', '--no-ff', '-m', 'merge side', 'side']);
  commitOn(repo, 11, 'main.txt', 'main again\n', 'main 4');
  commitOn(repo, 12, 'main.txt', 'main once more\n', 'main 5');
  // A namespace whose main is two commits behind, for the namespaced cases.
  git(repo, ['update-ref', 'refs/namespaces/ns/refs/heads/main', 'main~2']);
  git(repo, ['symbolic-ref', 'refs/namespaces/ns/HEAD', 'refs/namespaces/ns/refs/heads/main']);
  return repo;
}

/** One scenario: a clone, then fetches into it, each run against both servers. */
export interface ShallowCase {
  readonly name: string;
  /** The clone's options, or a function of the served repository that gives them. */
  readonly clone: readonly string[] | ((repo: string) => string[]);
  /**
   * What is served: the generated history (default), a shallow copy of it (the server is shallow),
   * or this project's own history.
   */
  readonly from?: 'history' | 'shallow' | 'project';
  readonly fetches?: readonly (readonly string[])[];
  /** Commits added to the source before the fetches. */
  readonly grow?: boolean;
  /** deepen-relative starts from git's hash-table order of shallow commits: compare lines as sets. */
  readonly unordered?: boolean;
  /** Environment for both clients and so both servers (a namespace). */
  readonly env?: NodeJS.ProcessEnv;
}

/** The scenarios of the brief: every shallow option of clone and fetch. */
export const SHALLOW_CASES: readonly ShallowCase[] = [
  { name: 'clone --depth 1', clone: ['--depth', '1'] },
  { name: 'clone --depth 3 --no-single-branch', clone: ['--depth', '3', '--no-single-branch'] },
  { name: 'clone --shallow-since', clone: ['--shallow-since=2024-01-06T00:00:00Z'] },
  { name: 'clone --shallow-exclude of a tag', clone: ['--shallow-exclude=v1.0'] },
  {
    name: 'clone --shallow-exclude of a branch, all branches',
    clone: ['--shallow-exclude=topic', '--no-single-branch'],
  },
  { name: 'fetch --deepen 2', clone: ['--depth', '2'], fetches: [['--deepen', '2']], unordered: true },
  { name: 'fetch --depth into a shallow clone', clone: ['--depth', '1'], fetches: [['--depth', '4']] },
  { name: 'fetch --unshallow', clone: ['--depth', '2'], fetches: [['--unshallow']] },
  {
    name: 'clone --single-branch --depth 1 of a branch',
    clone: ['--single-branch', '--depth', '1', '--branch', 'topic'],
  },
  { name: 'fetch of new commits into a shallow clone', clone: ['--depth', '1'], fetches: [[]], grow: true },
  { name: 'fetch --tags into a shallow clone', clone: ['--depth', '1'], fetches: [['--tags']] },
  {
    // git's own client fails here, on an unshallow line git's server sends: ours must fail alike.
    name: 'clone --shallow-since, then fetch --shallow-exclude (the client fails as with git)',
    clone: ['--shallow-since=2024-01-09T00:00:00Z'],
    fetches: [['--shallow-exclude=v0.1']],
  },
  {
    name: 'clone --depth 2 of every branch, then fetch --shallow-exclude',
    clone: ['--depth', '2', '--no-single-branch'],
    fetches: [['--shallow-exclude=v0.1']],
  },
  {
    name: 'fetch --deepen, then --unshallow',
    clone: ['--depth', '1', '--no-single-branch'],
    fetches: [['--deepen', '3'], ['--unshallow']],
    unordered: true,
  },
  {
    name: 'clone --depth 2 in a namespace, then fetch --deepen 1',
    clone: ['--depth', '2'],
    fetches: [['--deepen', '1']],
    env: { GIT_NAMESPACE: 'ns' },
    unordered: true,
  },
  { name: 'clone of a shallow repository', clone: [], from: 'shallow' },
  {
    name: 'clone --depth 1 of a shallow repository, then --deepen and --unshallow',
    clone: ['--depth', '1'],
    fetches: [['--deepen', '1'], ['--unshallow']],
    from: 'shallow',
    unordered: true,
  },
  { name: "this project's history: clone --depth 1", clone: ['--depth', '1'], from: 'project' },
  // Deeper than 16, the walk loads the whole history in one git call rather than level by level.
  {
    name: "this project's history: clone --depth 40 of every branch",
    clone: ['--depth', '40', '--no-single-branch'],
    from: 'project',
  },
  {
    name: "this project's history: clone --shallow-since its median date, then --unshallow",
    clone: (repo) => {
      const dates = git(repo, ['log', '--format=%ct', 'HEAD']).trim().split('\n');
      return [`--shallow-since=${dates[Math.floor(dates.length / 2)]!}`];
    },
    fetches: [['--unshallow']],
    from: 'project',
  },
  {
    name: "this project's history: clone --depth 3, then fetch --deepen 5",
    clone: ['--depth', '3'],
    fetches: [['--deepen', '5']],
    from: 'project',
    unordered: true,
  },
];

/** This project's own repository (the tests are compiled to out/test/...). */
const PROJECT = join(__dirname, '..', '..', '..', '..', '..');

/**
 * The `shallow`/`unshallow` lines a client received (GIT_TRACE_PACKET), in order: `fetch-pack<`
 * ones are v0's over HTTP, where git runs fetch-pack for each request.
 */
function shallowLines(trace: string): string[] {
  return trace
    .split('\n')
    .map((line) => /(?:fetch|clone|fetch-pack)< ((?:un)?shallow [0-9a-f]+)$/.exec(line)?.[1])
    .filter((line): line is string => line !== undefined);
}

/**
 * The shallow matrix against git upload-pack: each case by protocol v0 and v2, over file://, ssh
 * and smart HTTP (writev-git-http against git http-backend behind a Node server), compared with the
 * same commands served by git: refs, `.git/shallow`, the objects, the `shallow`/`unshallow` lines,
 * and what pack-objects was given (its arguments and input, logged by the same hook on both sides),
 * every clone fsck-clean. `full` runs all, three cases at a time (each waits mostly on git
 * processes); otherwise `picks` over file://, each by the protocol it names, one at a time.
 */
export function defineShallowSuite(
  full: boolean,
  picks: readonly { readonly name: string; readonly version: '0' | '2' }[] = [],
): void {
  const title = `shallow clones and fetches as git upload-pack serves them${full ? ' (full matrix)' : ''}`;
  describe(title, { concurrency: full ? 3 : 1 }, () => {
    const scratch = new Scratch();
    let source: string;
    const hook = scratch.path('log-pack-objects.sh');
    const gitConfig = scratch.path('gitconfig');
    const ssh = scratch.path('fake-ssh');

    const served: Record<string, string> = {};
    /** The repository a case serves, made on first use. */
    const sourceFor = (from: ShallowCase['from']): string => {
      if (from === undefined || from === 'history') return source;
      if (served[from] === undefined) {
        const dest = scratch.path(`${from}.git`);
        const origin = from === 'shallow' ? `file://${source}` : PROJECT;
        const depth = from === 'shallow' ? ['--depth', '3', '--no-single-branch'] : [];
        git(scratch.dir, ['clone', '-q', '--bare', '--no-local', ...depth, origin, dest]);
        served[from] = dest;
      }
      return served[from];
    };

    before(() => {
      source = makeShallowHistory(scratch.dir);
      // The hook logs pack-objects' arguments and input, then runs it: git's upload-pack is given it
      // by protected (global) config, ours by its option.
      writeFileSync(hook, '#!/bin/sh\necho "$*" >> "$HOOK_LOG"\ntee -a "$HOOK_LOG" | "$@"\n', {
        mode: 0o755,
      });
      writeFileSync(gitConfig, `[uploadpack]\n\tpackObjectsHook = ${hook}\n`);
      writeFileSync(ssh, '#!/bin/sh\nfor last; do :; done\nexec sh -c "$last"\n', { mode: 0o755 });
    });
    after(() => scratch.dispose());

    let serial = 0;
    const matrix = full
      ? ['0', '2'].flatMap((version) => ['file', 'ssh', 'http'].map((transport) => ({ version, transport })))
      : [
          { version: '0', transport: 'file' },
          { version: '2', transport: 'file' },
        ];
    for (const { version, transport } of matrix) {
      const cases = full
        ? SHALLOW_CASES
        : SHALLOW_CASES.filter((c) => picks.some((p) => p.name === c.name && p.version === version));
      for (const scenario of cases) {
        it(`${scenario.name} (protocol v${version}, ${transport}): as git serves it`, async (t) => {
          if (scenario.from === 'project' && !existsSync(join(PROJECT, '.git'))) {
            t.skip('this copy of the project is not a git repository');
            return;
          }
          const id = ++serial;
          // A source of its own when the case adds commits, so the other cases see the same history.
          let from = sourceFor(scenario.from);
          if (scenario.grow) {
            from = scratch.path(`source-${id}`);
            git(scratch.dir, ['clone', '-q', '--bare', '--no-local', source, from]);
          }
          const cloneArgs = typeof scenario.clone === 'function' ? scenario.clone(from) : scenario.clone;
          // Over HTTP each side has its server, started for the case: the hook's log and the
          // namespace are the servers' environment, not the client's.
          let http: HttpPair | undefined;
          if (transport === 'http') {
            http = await serveBoth(
              scratch.dir,
              uploadPackCommand(`--pack-objects-hook=${hook}`),
              { GIT_CONFIG_GLOBAL: gitConfig, ...scenario.env },
              {
                git: { HOOK_LOG: scratch.path(`${id}-git.hook`) },
                ours: {
                  HOOK_LOG: scratch.path(`${id}-ours.hook`),
                  WRITEV_UPLOAD_PACK_CACHE: scratch.path(`${id}-cache`),
                },
              },
            );
            t.after(() => http!.stop());
          }
          const urlFor = (side: 'git' | 'ours'): string => {
            if (http !== undefined) return `${http[side]}${relative(scratch.dir, from)}`;
            return transport === 'ssh' ? `ssh://localhost${from}` : `file://${from}`;
          };
          const results: Record<string, { trace: string[]; hook: string[] }> = {
            git: { trace: [], hook: [] },
            ours: { trace: [], hook: [] },
          };
          /**
           * Runs one command for both servers, recording what each client heard and what
           * pack-objects got. A command that fails with git's server must fail the same way with
           * ours (git 2.39 refuses some v0 sequences itself); it then ends the case.
           */
          const onBoth = async (
            command: (side: 'git' | 'ours', dest: string) => string[],
          ): Promise<boolean> => {
            let failure: { status: number | null; first: string } | undefined;
            for (const side of ['git', 'ours'] as const) {
              const dest = scratch.path(`${id}-${side}`);
              const log = scratch.path(`${id}-${side}.hook`);
              const traceFile = scratch.path(`${id}-${side}.trace`);
              const env = gitEnv({
                GIT_CONFIG_GLOBAL: gitConfig,
                HOOK_LOG: log,
                GIT_TRACE_PACKET: traceFile,
                GIT_SSH_COMMAND: ssh,
                WRITEV_UPLOAD_PACK_CACHE: scratch.path(`${id}-cache`),
                ...scenario.env,
              });
              const args = [
                '-c',
                `protocol.version=${version}`,
                '-c',
                'ssh.variant=ssh',
                ...command(side, dest),
              ];
              // A bound against a hang, not a timing: a loaded machine takes a minute on the larger histories.
              const result = await run('git', args, {
                cwd: existsSync(dest) ? dest : scratch.dir,
                env,
                timeoutMs: 300_000,
              });
              const first = result.stderr.split('\n')[0]!;
              if (side === 'git' && result.status !== 0) failure = { status: result.status, first };
              if (failure === undefined) {
                assert.equal(result.status, 0, `${side}: git ${args.join(' ')}: ${result.stderr}`);
              } else if (side === 'ours') {
                assert.deepEqual({ status: result.status, first }, failure, `as git fails: ${result.stderr}`);
              }
              results[side]!.trace.push(
                shallowLines(existsSync(traceFile) ? readFileSync(traceFile, 'utf8') : '').join('\n'),
              );
              results[side]!.hook.push(existsSync(log) ? readFileSync(log, 'utf8') : '');
              rmSync(traceFile, { force: true });
              rmSync(log, { force: true });
            }
            if (failure !== undefined) {
              // The client hung up mid-answer: whether either server had started pack-objects
              // by then is a race, so what pack-objects got is not compared for this command.
              for (const side of ['git', 'ours'] as const) results[side]!.hook.splice(-1, 1, '(failed)');
            }
            return failure === undefined;
          };
          const uploadPack = (side: string): string[] =>
            side === 'ours' && http === undefined
              ? [`--upload-pack=${uploadPackCommand(`--pack-objects-hook=${hook}`)}`]
              : [];
          let going = await onBoth((side, dest) => [
            'clone',
            '-q',
            ...uploadPack(side),
            ...cloneArgs,
            urlFor(side),
            dest,
          ]);
          if (scenario.grow) {
            const work = scratch.path(`work-${id}`);
            git(scratch.dir, ['clone', '-q', from, work]);
            commitOn(work, 20, 'later.txt', 'later\n', 'later');
            git(work, ['push', '-q', 'origin', 'main']);
          }
          for (const args of going ? (scenario.fetches ?? []) : []) {
            going = await onBoth((side) => ['fetch', '-q', ...uploadPack(side), ...args]);
            if (!going) break;
          }
          for (const side of ['git', 'ours'])
            git(scratch.path(`${id}-${side}`), ['fsck', '--full', '--strict']);
          const [mine, theirs] = [scratch.path(`${id}-ours`), scratch.path(`${id}-git`)];
          const shallowFile = (dir: string): string => {
            const file = join(dir, '.git', 'shallow');
            return existsSync(file) ? readFileSync(file, 'utf8') : '(none)';
          };
          const objects = (dir: string): string =>
            git(dir, ['rev-list', '--objects', '--all']).split('\n').sort().join('\n');
          assert.equal(git(mine, ['for-each-ref']), git(theirs, ['for-each-ref']), 'refs');
          assert.equal(shallowFile(mine), shallowFile(theirs), '.git/shallow');
          assert.equal(objects(mine), objects(theirs), 'objects');
          const lines = (side: string): string[] =>
            results[side]!.trace.map((t) => (scenario.unordered ? t.split('\n').sort().join('\n') : t));
          assert.deepEqual(lines('ours'), lines('git'), 'shallow and unshallow lines');
          // deepen-relative's extra wants follow git's hash-table order too: compare them sorted.
          const hookLines = (side: string): string[] =>
            results[side]!.hook.map((h) => (scenario.unordered ? h.split('\n').sort().join('\n') : h));
          assert.deepEqual(hookLines('ours'), hookLines('git'), 'pack-objects arguments and input');
          // Both servers ran pack-objects through the hook (over HTTP: both read their environment).
          assert.notEqual(results.git!.hook[0], '', 'the clone went through the hook');
        });
      }
    }
  });
}
