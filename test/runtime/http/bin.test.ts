import { strict as assert } from 'node:assert';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { git, makeRepository, run, Scratch } from '../uploadPack/helpers/gitRepo';
import { HTTP_BIN, httpTestEnv, startBin } from './helpers';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the writev-git-http command', () => {
  const scratch = new Scratch();
  after(() => scratch.dispose());
  const bin = (...args: string[]) => run(process.execPath, [HTTP_BIN, ...args], { env: httpTestEnv() });

  it('prints its usage for --help, and exits 129 with the reason for a bad command line', async () => {
    const help = await bin('--help');
    assert.equal(help.status, 0);
    assert.match(help.stdout.toString(), /^usage: writev-git-http --port <n> /);
    for (const [args, reason] of [
      [[scratch.dir], /^error: --port is needed/],
      [
        ['--port', '70000', scratch.dir],
        /^error: --port must be a whole number from 0 to 65535, not '70000'/,
      ],
      [['--port', '0'], /^error: exactly one <folder> of repositories is needed/],
      [['--port', '0', '--frob', scratch.dir], /^error: Unknown option '--frob'/],
    ] as const) {
      const result = await bin(...args);
      assert.equal(result.status, 129, args.join(' '));
      assert.match(result.stderr, reason);
      assert.match(result.stderr, /\nusage: writev-git-http /);
    }
  });

  it('exits 128 naming the folder when there is no such folder', async () => {
    const result = await bin('--port', '0', scratch.path('nowhere'));
    assert.equal(result.status, 128);
    assert.match(result.stderr, /^writev-git-http: fatal: cannot serve .*nowhere: no such folder\n$/);
  });

  it('on SIGTERM stops the upload-packs it runs, with what they started, and exits 0', async () => {
    const served = scratch.path('served');
    const source = makeRepository(scratch.dir);
    git(scratch.dir, ['clone', '-q', '--bare', source, join(served, 'project.git')]);
    const pids = scratch.path('pids');
    const silent = scratch.path('silent-upload-pack');
    writeFileSync(silent, `#!/bin/sh\nsleep 600 &\necho "$$ $!" > '${pids}'\nprintf '0008NAK\\n'\nwait\n`, {
      mode: 0o755,
    });
    const server = await startBin(served, ['--upload-pack', silent]);
    const { port } = new URL(server.url);
    const req = request({ host: '127.0.0.1', port, path: '/project.git/info/refs?service=git-upload-pack' });
    req.on('error', () => undefined);
    req.end();
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    res.on('error', () => undefined);
    await once(res, 'data');
    // sh -c '<silent> "$@"' execs nothing: the pids file names the script's shell and its sleep.
    const [shell, sleep] = readFileSync(pids, 'utf8').trim().split(' ').map(Number) as [number, number];
    assert.ok(alive(shell) && alive(sleep));
    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    assert.equal(code, 0);
    for (const deadline = Date.now() + 10_000; alive(shell) || alive(sleep);) {
      assert.ok(Date.now() < deadline, 'the upload-pack and its child outlived the server');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
});
