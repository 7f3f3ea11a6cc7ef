import { strict as assert } from 'node:assert';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { git, makeRepository, run, Scratch } from '../uploadPack/helpers/gitRepo';
import { httpRequest, httpTestEnv, startBin, type RunningBin } from './helpers';

/** Waits for `condition`, polling, up to 10 s. */
async function until(condition: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; !condition();) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const ADVERTISE = 'info/refs?service=git-upload-pack';
const REQUEST_TYPE = 'application/x-git-upload-pack-request';

describe('writev-git-http refuses what it does not serve, with a status and a reason', () => {
  const scratch = new Scratch();
  const served = scratch.path('served');
  const outside = scratch.path('outside');
  let server: RunningBin;

  before(async () => {
    const source = makeRepository(scratch.dir);
    mkdirSync(join(served, 'inner'), { recursive: true });
    mkdirSync(join(served, 'not-a-repo'));
    writeFileSync(join(served, 'not-a-repo', 'HEAD'), 'ref: refs/heads/main\n');
    mkdirSync(outside);
    git(scratch.dir, ['clone', '-q', '--bare', source, join(served, 'project.git')]);
    git(scratch.dir, ['clone', '-q', '--bare', source, join(outside, 'secret.git')]);
    // Symlinks that leave the folder, at the repository and at a folder above it; one that stays.
    symlinkSync(join(outside, 'secret.git'), join(served, 'escape.git'));
    symlinkSync(outside, join(served, 'inner', 'elsewhere'));
    symlinkSync(join(served, 'project.git'), join(served, 'alias.git'));
    // The default upload-pack: refusals never start one, so this also checks the bin starts without --upload-pack.
    server = await startBin(served);
  });
  after(async () => {
    await server.stop();
    scratch.dispose();
  });

  async function refused(
    path: string,
    status: number,
    message: RegExp,
    options: Parameters<typeof httpRequest>[2] = {},
  ): Promise<void> {
    const answer = await httpRequest(server.url, path, options);
    const body = answer.body.toString('utf8');
    assert.equal(answer.status, status, `${options.method ?? 'GET'} ${path}: ${body}`);
    assert.match(body, message, `${path}`);
    assert.equal(answer.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(answer.headers['cache-control'], 'no-cache, max-age=0, must-revalidate');
  }

  it('400 for paths that leave the folder by their spelling: .., encoded .., //, encoded / and NUL', async () => {
    await refused(
      `/../outside/secret.git/${ADVERTISE}`,
      400,
      /^bad path '\/\.\.\/outside.*': a '\.\.' segment\n$/,
    );
    await refused(`/%2e%2e/outside/secret.git/${ADVERTISE}`, 400, /a '\.\.' segment/);
    await refused(`/project.git/%2E%2E/%2e%2e/outside/secret.git/${ADVERTISE}`, 400, /a '\.\.' segment/);
    await refused(`/inner/./../project.git/${ADVERTISE}`, 400, /a '\.' segment/);
    await refused(`//etc/project.git/${ADVERTISE}`, 400, /an empty segment \(an absolute path/);
    await refused(`/%2Fetc%2Fgit/${ADVERTISE}`, 400, /an encoded '\/' in '%2Fetc%2Fgit'/);
    await refused(`/..%2Foutside%2Fsecret.git/${ADVERTISE}`, 400, /an encoded '\/'/);
    await refused(`/project.git%00/${ADVERTISE}`, 400, /an encoded NUL/);
    await refused(`/%zz/${ADVERTISE}`, 400, /malformed percent-encoding in '%zz'/);
  });

  it('403 for repositories that symlinks lead outside the folder; a symlink inside it serves', async () => {
    await refused(`/escape.git/${ADVERTISE}`, 403, /^'escape\.git' leads outside the served folder/);
    await refused(`/escape/${ADVERTISE}`, 403, /^'escape' leads outside the served folder/);
    await refused(
      `/inner/elsewhere/secret.git/${ADVERTISE}`,
      403,
      /'inner\/elsewhere\/secret\.git' leads outside/,
    );
    const inside = await httpRequest(server.url, `/alias.git/${ADVERTISE}`, { method: 'HEAD' });
    assert.equal(inside.status, 200);
    assert.equal(inside.headers['content-type'], 'application/x-git-upload-pack-advertisement');
  });

  it('404 for nothing there, for something that is not a repository, and for other paths', async () => {
    await refused(`/nope.git/${ADVERTISE}`, 404, /^no repository at 'nope\.git'\n$/);
    await refused(`/not-a-repo/${ADVERTISE}`, 404, /^'not-a-repo' is not a git repository\n$/);
    await refused(`/inner/${ADVERTISE}`, 404, /^'inner' is not a git repository\n$/);
    await refused(`/${ADVERTISE}`, 404, /^no repository in the path/);
    await refused('/project.git/HEAD', 404, /^request not supported: '\/project\.git\/HEAD'/);
    await refused('/project.git/objects/info/packs', 404, /^request not supported/);
  });

  it('403 for pushes (read-only), for other services and for the dumb protocol', async () => {
    await refused(
      '/project.git/info/refs?service=git-receive-pack',
      403,
      /^service not enabled: 'git-receive-pack': this server is read-only\n$/,
    );
    await refused('/project.git/git-receive-pack', 403, /read-only/, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-git-receive-pack-request' },
      body: Buffer.from('0000'),
    });
    await refused(
      '/project.git/info/refs?service=git-upload-archive',
      403,
      /^unsupported service: 'git-upload-archive'/,
    );
    await refused('/project.git/info/refs', 403, /^only smart HTTP is served/);
    // Whoever runs the server sees each refusal too (stderr and the answer travel apart: wait for it).
    await until(() =>
      server.stderr().includes("GET '/project.git/info/refs': 403 only smart HTTP is served"),
    );
  });

  it('405 with Allow for the wrong method, 415 for the wrong type or encoding, 400 for a bad Git-Protocol', async () => {
    await refused(`/project.git/${ADVERTISE}`, 405, /info\/refs takes GET/, {
      method: 'POST',
      body: Buffer.from('0000'),
    });
    const post = await httpRequest(server.url, `/project.git/${ADVERTISE}`, { method: 'POST' });
    assert.equal(post.headers.allow, 'GET, HEAD');
    await refused('/project.git/git-upload-pack', 405, /git-upload-pack takes POST/);
    const get = await httpRequest(server.url, '/project.git/git-upload-pack');
    assert.equal(get.headers.allow, 'POST');
    await refused(
      '/project.git/git-upload-pack',
      415,
      /^expected POST with Content-Type 'application\/x-git-upload-pack-request', but received 'text\/plain' instead\n$/,
      { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: Buffer.from('0000') },
    );
    await refused('/project.git/git-upload-pack', 415, /^Content-Encoding 'br' is not supported/, {
      method: 'POST',
      headers: { 'Content-Type': REQUEST_TYPE, 'Content-Encoding': 'br' },
      body: Buffer.from('0000'),
    });
    await refused(`/project.git/${ADVERTISE}`, 400, /^bad Git-Protocol header 'version 2'/, {
      headers: { 'Git-Protocol': 'version 2' },
    });
  });

  it('the git client reports a missing repository and a refused push', async () => {
    const env = httpTestEnv();
    const clone = await run('git', ['clone', `${server.url}nope.git`, scratch.path('nope')], { env });
    assert.equal(clone.status, 128);
    assert.match(clone.stderr, /repository '.*\/nope\.git\/' not found/);
    const work = scratch.path('work');
    git(scratch.dir, ['clone', '-q', join(served, 'project.git'), work]);
    const push = await run('git', ['push', `${server.url}project.git`, 'HEAD:refs/heads/pushed'], {
      cwd: work,
      env,
    });
    assert.notEqual(push.status, 0);
    assert.match(push.stderr, /403/);
  });
});
