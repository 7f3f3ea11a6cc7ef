/**
 * writev-git-http serves inside its own process by default, and with `--spawn` runs a
 * writev-upload-pack process per request: told apart by the pid each serve records in
 * `WRITEV_UPLOAD_PACK_TIMING`.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { git, makeRepository, run, Scratch } from '../uploadPack/helpers/gitRepo';
import { HTTP_BIN, httpTestEnv } from './helpers';

describe('writev-git-http --spawn', () => {
  const scratch = new Scratch();
  const served = scratch.path('served');
  const source = makeRepository(scratch.dir);
  git(scratch.dir, ['clone', '-q', '--bare', source, join(served, 'project.git')]);
  after(() => scratch.dispose());

  /** Runs the bin with `args`, lists the refs with git (v2: two requests), returns the serves' pids. */
  async function servePids(args: string[], name: string): Promise<{ server: number; serves: number[] }> {
    const timing = scratch.path(`timing-${name}`);
    const child = spawn(process.execPath, [HTTP_BIN, '--port', '0', ...args, served], {
      env: httpTestEnv({ WRITEV_UPLOAD_PACK_TIMING: timing }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stdout = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.setEncoding('utf8').on('data', (s: string) => {
          stdout += s;
          const match = / at (http:\/\/127\.0\.0\.1:\d+\/)\n/.exec(stdout);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`writev-git-http exited ${code}`)));
      });
      const listed = await run('git', ['-c', 'protocol.version=2', 'ls-remote', `${url}project.git`], {
        env: httpTestEnv(),
        timeoutMs: 60_000,
      });
      assert.equal(listed.status, 0, listed.stderr);
      assert.match(listed.stdout.toString(), /\trefs\/heads\/main\n/);
      // The server records a request once its answer is sent: the client may have read the second
      // answer before its line is written. Wait for both lines (a deadline, not a sleep).
      const lines = () =>
        existsSync(timing)
          ? readFileSync(timing, 'utf8')
              .split('\n')
              .filter((l) => l.trim() !== '')
          : [];
      for (const deadline = Date.now() + 10_000; lines().length < 2 && Date.now() < deadline;)
        await new Promise((done) => setTimeout(done, 20));
      const serves = lines().map((line) => (JSON.parse(line) as { pid: number }).pid);
      return { server: child.pid!, serves };
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  }

  it('serves every request inside the server by default', async () => {
    const { server, serves } = await servePids([], 'default');
    assert.deepEqual(serves, [server, server]);
  });

  it('runs a process per request with --spawn', async () => {
    const { server, serves } = await servePids(['--spawn'], 'spawn');
    assert.equal(serves.length, 2);
    assert.ok(!serves.includes(server), 'not the server');
    assert.notEqual(serves[0], serves[1]);
  });

  it('refuses --spawn with --upload-pack', async () => {
    const result = await run(
      process.execPath,
      [HTTP_BIN, '--port', '0', '--spawn', '--upload-pack', 'git upload-pack', served],
      {
        env: httpTestEnv(),
        timeoutMs: 30_000,
      },
    );
    assert.equal(result.status, 129);
    assert.match(result.stderr, /^error: --spawn and --upload-pack cannot be used together\n/);
  });
});
