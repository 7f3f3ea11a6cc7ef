import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { git, run } from '../uploadPack/helpers/gitRepo';
import { defineHttpCloneSuite, objects, refs, serveRepositories } from './cloneSuite';
import { httpTestEnv, startBin } from './helpers';

const repositories = serveRepositories();
const { scratch, served } = repositories;
// The same clones served by git upload-pack (the twin over the same HTTP code) are
// slow/cloneGitUploadPack.test.ts, in npm run test:slow.
defineHttpCloneSuite(repositories, 'writev-upload-pack');

describe('an upload-pack that speaks only v0 still serves a client that asks for v2', () => {
  it('clones with protocol.version=2: the service preamble follows what upload-pack answers, not the header', async () => {
    // git upload-pack without GIT_PROTOCOL answers v0; the client asked for v2 and must fall back.
    const server = await startBin(served, ['--upload-pack', 'env -u GIT_PROTOCOL git upload-pack']);
    try {
      const dest = scratch.path('v0-only');
      const env = httpTestEnv();
      const result = await run(
        'git',
        ['-c', 'protocol.version=2', 'clone', '-q', `${server.url}project.git`, dest],
        {
          env,
          timeoutMs: 60_000,
        },
      );
      assert.equal(result.status, 0, `${result.stderr}\nserver: ${server.stderr()}`);
      git(dest, ['fsck', '--full'], { env });
      const direct = scratch.path('v0-only-direct');
      git(scratch.dir, ['clone', '-q', `file://${join(served, 'project.git')}`, direct], { env });
      assert.equal(refs(dest), refs(direct));
      assert.deepEqual(objects(dest), objects(direct));
    } finally {
      await server.stop();
    }
  });
});
