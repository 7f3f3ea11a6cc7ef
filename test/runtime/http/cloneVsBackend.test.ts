/**
 * writev-upload-pack behind writev-git-http against git's upload-pack behind git http-backend
 * (the same Node HTTP server, through the CGI gateway): clones and fetches by the real git client,
 * protocol v0 and v2, including fetches whose negotiation takes several stateless rounds (each a
 * POST of its own, the client carrying the state). Slow: it makes many clones.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createGitHttpBackendHandler } from '@writev/runtime';
import { addCommit, git, makeRepository, run, Scratch } from '../uploadPack/helpers/gitRepo';
import type { Server } from 'node:http';
import { closeServer, httpTestEnv, serveHandler, startBin, uploadPacks, type RunningBin } from './helpers';

function objects(repo: string): string[] {
  return git(repo, ['rev-list', '--objects', '--all'], { env: httpTestEnv() }).trim().split('\n').sort();
}

function refs(repo: string): string {
  return git(repo, ['for-each-ref', '--format=%(objectname) %(refname)'], { env: httpTestEnv() });
}

/**
 * `count` commits on a new branch `local` of `repo` from its HEAD, each adding a file of its own,
 * made by one `git fast-import`. Dated after everything else, so the client offers them first.
 */
function localCommits(repo: string, prefix: string, count: number): void {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const text = `${prefix} ${i}\n`;
    const message = `${prefix} ${i}\n`;
    lines.push(
      'commit refs/heads/local',
      `committer Test <test@example.com> ${1_800_000_000 + i} +0000`,
      `data ${Buffer.byteLength(message)}`,
      message,
      ...(i === 0 ? ['from HEAD'] : []),
      `M 100644 inline ${prefix}-${i}.txt`,
      `data ${Buffer.byteLength(text)}`,
      text,
    );
  }
  git(repo, ['fast-import', '--quiet'], { env: httpTestEnv(), input: Buffer.from(lines.join('\n')) });
}

const scratch = new Scratch();
const served = scratch.path('served');
const source = makeRepository(scratch.dir);
mkdirSync(served, { recursive: true });
git(scratch.dir, ['clone', '-q', '--bare', source, join(served, 'project.git')]);
const [, writev] = uploadPacks(join(served, 'project.git'));
after(() => scratch.dispose());

describe('writev-git-http with writev-upload-pack against git http-backend', { skip: writev!.skip }, () => {
  const env = httpTestEnv();
  let ours: RunningBin;
  let backend: { url: string; server: Server };
  // A trace of the client's HTTP requests: how many POSTs a fetch took.
  const traced = (file: string): NodeJS.ProcessEnv => ({
    ...env,
    GIT_TRACE_CURL: file,
    GIT_TRACE_CURL_NO_DATA: '1',
  });

  before(async () => {
    ours = await startBin(served, ['--upload-pack', writev!.shell]);
    backend = await serveHandler(createGitHttpBackendHandler({ root: served, env }));
  });
  after(async () => {
    await ours.stop();
    await closeServer(backend.server);
  });

  async function gitOk(args: string[], cwd = scratch.dir, runEnv = env): Promise<void> {
    const result = await run('git', args, { cwd, env: runEnv, timeoutMs: 120_000 });
    assert.equal(
      result.status,
      0,
      `git ${args.join(' ')} failed: ${result.stderr}\nserver: ${ours.stderr()}`,
    );
  }

  const posts = (trace: string): number =>
    (readFileSync(trace, 'utf8').match(/=> Send header: POST /g) ?? []).length;

  for (const version of ['0', '2']) {
    it(`clones with protocol v${version}: fsck-clean, the refs and objects git http-backend serves`, async () => {
      const mine = scratch.path(`mirror-ours-v${version}`);
      const theirs = scratch.path(`mirror-theirs-v${version}`);
      const clone = (base: string, dest: string): Promise<void> =>
        gitOk(['-c', `protocol.version=${version}`, 'clone', '-q', '--mirror', `${base}project.git`, dest]);
      await clone(ours.url, mine);
      await clone(backend.url, theirs);
      git(mine, ['fsck', '--full', '--strict'], { env });
      assert.equal(refs(mine), refs(theirs));
      assert.deepEqual(objects(mine), objects(theirs));
    });

    it(`fetches with protocol v${version} after several stateless rounds of haves: the objects git http-backend gives`, async () => {
      // Two clients with 300 commits of their own the server has never seen: their haves go
      // unacknowledged round after round (a POST each) until the common history is reached.
      const upstream = scratch.path(`upstream-v${version}`);
      await gitOk(['clone', '-q', join(served, 'project.git'), upstream]);
      const clients: Record<string, string> = {};
      for (const [name, url] of [
        ['ours', ours.url],
        ['theirs', backend.url],
      ] as const) {
        const dest = scratch.path(`client-${name}-v${version}`);
        await gitOk(['-c', `protocol.version=${version}`, 'clone', '-q', `${url}project.git`, dest]);
        localCommits(dest, `local-${name}`, 300);
        clients[name] = dest;
      }
      addCommit(upstream, `upstream-v${version}`);
      await gitOk(['push', '-q', 'origin', 'main', `tag-upstream-v${version}`], upstream);
      for (const [name, dest] of Object.entries(clients)) {
        const trace = scratch.path(`trace-${name}-v${version}`);
        await gitOk(
          ['-c', `protocol.version=${version}`, 'fetch', '-q', '--tags', 'origin'],
          dest,
          traced(trace),
        );
        if (name === 'ours') assert.ok(posts(trace) >= 2, `several POSTs: ${posts(trace)}`);
        git(dest, ['fsck', '--full'], { env });
      }
      const upstreamHead = git(upstream, ['rev-parse', 'main'], { env });
      for (const dest of Object.values(clients)) {
        assert.equal(git(dest, ['rev-parse', 'origin/main'], { env }), upstreamHead);
      }
      // Every object of the server is in both clients, and the clients differ only by their own commits.
      // By object id alone: rev-list names an object by the first path its walk meets, and the
      // clients' walks start from their own commits.
      const ids = (repo: string): Set<string> => new Set(objects(repo).map((line) => line.split(' ')[0]!));
      const onServer = ids(join(served, 'project.git'));
      for (const [name, dest] of Object.entries(clients)) {
        const have = ids(dest);
        const missing = [...onServer].filter((oid) => !have.has(oid));
        assert.deepEqual(missing, [], `${name}'s client lacks these; its refs:\n${refs(dest)}`);
      }
    });
  }
});
