import { strict as assert } from 'node:assert';
import { spawnSync, type StdioOptions } from 'node:child_process';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkOutputDescriptor, UnusableDescriptorError } from '@writev/runtime';
import { git, GIT_ENV } from '../odb/helpers/gitFixtures';
import { CAT_BLOB_BIN } from './helpers';
import { defineOwnDescriptorSuite } from './ownDescriptors';

const CONTENT = 'hello, cat-blob\n';
let dir: string;
let oid: string;
let request: string;
let answer: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'writev-catblob-fd-'));
  git(dir, ['init', '-q', '--bare', 'repo.git']);
  oid = git(join(dir, 'repo.git'), ['hash-object', '-w', '--stdin'], CONTENT).toString().trim();
  request = `cat-blob ${oid}\n`;
  answer = `${oid} blob ${CONTENT.length}\n${CONTENT}\n`;
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs writev-cat-blob on the request with `args` and the given stdio layout. */
function run(
  args: string[],
  stdio: StdioOptions = ['pipe', 'pipe', 'pipe'],
): {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  output: (Buffer | string | null)[];
} {
  const result = spawnSync(process.execPath, [CAT_BLOB_BIN, `--git-dir=${join(dir, 'repo.git')}`, ...args], {
    env: GIT_ENV,
    input: request,
    stdio,
  });
  if (result.error) throw result.error;
  return {
    status: result.status,
    signal: result.signal,
    stdout: String(result.stdout ?? ''),
    stderr: String(result.stderr ?? ''),
    output: result.output,
  };
}

/** Runs a shell line with the bin as $BIN; returns status, stdout and stderr. */
function shell(line: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('sh', ['-c', line], {
    env: { ...GIT_ENV, BIN: `${process.execPath} ${CAT_BLOB_BIN} --git-dir=${join(dir, 'repo.git')}` },
    input: request,
  });
  return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

describe('writev-cat-blob --cat-blob-fd on descriptors it was not given', () => {
  it('answers on a pipe inherited as descriptor 5', () => {
    const piped = shell('$BIN --cat-blob-fd=5 5>&1 >/dev/null | cat');
    assert.equal(piped.stderr, '');
    assert.equal(piped.status, 0);
    assert.equal(piped.stdout, answer);
    // A socket pair from spawn's 'pipe' (what most frontends give).
    const socket = run(['--cat-blob-fd=5'], ['pipe', 'pipe', 'pipe', 'ignore', 'ignore', 'pipe']);
    assert.equal(socket.status, 0, socket.stderr);
    assert.equal(String(socket.output[5]), answer);
  });

  it('fails with 128 naming a descriptor that is not open', () => {
    const result = run(['--cat-blob-fd=40']);
    assert.equal(result.status, 128);
    assert.equal(result.stderr, 'fatal: --cat-blob-fd=40: descriptor 40 is not open\n');
  });

  it('fails with 128 naming a descriptor open only for reading', () => {
    const file = join(dir, 'read-only.txt');
    writeFileSync(file, 'x');
    const fd = openSync(file, 'r');
    try {
      const result = run(['--cat-blob-fd=5'], ['pipe', 'pipe', 'pipe', 'ignore', 'ignore', fd]);
      assert.equal(result.status, 128);
      assert.match(
        result.stderr,
        /^fatal: --cat-blob-fd=5: descriptor 5 is open for reading only \(.*read-only\.txt\)\n$/,
      );
      assert.equal(readFileSync(file, 'utf8'), 'x');
    } finally {
      closeSync(fd);
    }
  });

  it('fails with 128 when standard output was closed, instead of answering into /dev/null', () => {
    const closed = shell('$BIN >&-');
    assert.equal(closed.status, 128);
    assert.match(closed.stderr, /^fatal: standard output: descriptor 1 was closed when the process started/);
    // Redirected to /dev/null on purpose is the user's choice.
    assert.equal(shell('$BIN >/dev/null').status, 0);
  });

  it('parses its options with node:util parseArgs: unknown and malformed ones exit 129 with the usage', () => {
    for (const args of [
      ['--frob'],
      ['--cat-blob-fd=x'],
      ['--mode=fast'],
      ['--batch-bytes=0'],
      ['positional'],
    ]) {
      const result = run(args);
      assert.equal(result.status, 129, args.join(' '));
      assert.match(result.stderr, /^error: .*\nusage: writev-cat-blob /);
    }
    const spaced = run(['--cat-blob-fd', '1', '--mode', 'writev']);
    assert.equal(spaced.status, 0, spaced.stderr);
    assert.equal(spaced.stdout, answer);
  });
});

// Node's own descriptors (3 to 20, in npm run test:slow): those that crashed (7, 12) or lost the
// answer (5) before the check, and one of each kind (an epoll, an eventfd, a pipe, one not open).
defineOwnDescriptorSuite([3, 4, 5, 6, 7, 8, 12, 20]);

describe('checkOutputDescriptor in this process', () => {
  /** This process's descriptors whose /proc link starts with `prefix`. */
  function ownDescriptors(prefix: string): number[] {
    return readdirSync('/proc/self/fd')
      .map(Number)
      .filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(prefix);
        } catch {
          return false;
        }
      });
  }

  it('refuses Node’s own eventfd and epoll descriptors, with /proc and without it', () => {
    const anon = ownDescriptors('anon_inode:');
    assert.ok(anon.length > 0);
    for (const fd of anon) {
      for (const useProc of [true, false]) {
        assert.throws(
          () => checkOutputDescriptor(fd, `fd ${fd}`, { useProc }),
          (err: unknown) =>
            err instanceof UnusableDescriptorError && err.reason === 'internal' && err.fd === fd,
        );
      }
    }
  });

  it('refuses a read-only file without /proc too, and accepts a writable one', () => {
    const file = join(dir, 'probe.txt');
    writeFileSync(file, 'keep');
    const readOnly = openSync(file, 'r');
    const writable = openSync(file, 'a');
    try {
      for (const useProc of [true, false]) {
        assert.throws(() => checkOutputDescriptor(readOnly, 'probe', { useProc }), {
          reason: 'read-only',
          code: 'EBADDESCRIPTOR',
        });
        checkOutputDescriptor(writable, 'probe', { useProc });
      }
      assert.equal(readFileSync(file, 'utf8'), 'keep');
    } finally {
      closeSync(readOnly);
      closeSync(writable);
    }
    assert.throws(() => checkOutputDescriptor(readOnly, 'probe'), { reason: 'not-open' });
  });
});
