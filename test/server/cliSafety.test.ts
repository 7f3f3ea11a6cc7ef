// writev-lint loses nothing and writes nowhere it was not asked to: standard input gets a file's byte
// handling (Latin-1 kept, NUL and size checks), the baseline is written through an exclusive temporary
// file (a link planted at a predictable name is never followed), and a read-only file is not fixed.
// Through the installed bin, in child processes.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cFunction, lintBin } from './cliHelpers';
import { REPO } from './helpers';

const work = mkdtempSync(join(tmpdir(), 'writev-cli-safety-'));
after(() => rmSync(work, { recursive: true, force: true }));

const BIN = join(REPO, 'node_modules', '.bin', 'writev-lint');

/** Runs the bin with `input` as raw bytes on standard input; stdout and stderr as bytes and text. */
function withInput(args: string[], input: Buffer): { status: number | null; out: Buffer; err: string } {
  const result = spawnSync(BIN, args, { cwd: work, input });
  return { status: result.status, out: result.stdout, err: result.stderr.toString('utf8') };
}

describe('--stdin handles bytes as a file does', () => {
  const latin1 = Buffer.concat([
    Buffer.from('/* caf'),
    Buffer.from([0xe9]),
    Buffer.from(' */\n'),
    Buffer.from(cFunction('send', '"\\xe9", 1').replace('"\\xe9"', '"\u00e9"'), 'latin1'),
  ]);

  it('--fix gives back Latin-1 input as Latin-1, only the edited characters changed', () => {
    const { status, out, err } = withInput(['--stdin', '--stdin-filename', 'l1.c', '--fix'], latin1);
    assert.equal(status, 0, err);
    assert.equal(out.indexOf(Buffer.from([0xef, 0xbf, 0xbd])), -1, 'no U+FFFD in the output');
    const text = out.toString('latin1');
    assert.match(text, /\n\/\* caf\u00e9 \*\/\n/);
    assert.match(text, /\.iov_base = \(void \*\)"\u00e9"/);
    assert.match(text, /writev_or_die\(fd, iov, 2\);/);
  });

  it('reports findings in Latin-1 input at the same columns as in the same file on disk', () => {
    writeFileSync(join(work, 'l1.c'), latin1);
    const onDisk = lintBin(['--format', 'json', 'l1.c'], { cwd: work });
    const piped = withInput(['--stdin', '--stdin-filename', 'l1.c', '--format', 'json'], latin1);
    assert.equal(piped.out.toString('utf8'), onDisk.stdout);
  });

  it('skips input with NUL bytes, says so, exits 2, and --fix prints the input unchanged', () => {
    const input = Buffer.concat([Buffer.from(cFunction('send')), Buffer.from([0, 1, 2])]);
    const { status, out, err } = withInput(['--stdin', '--stdin-filename', 'bin.c', '--fix'], input);
    assert.equal(status, 2);
    assert.match(err, /skipped bin\.c: binary \(contains NUL bytes\)/);
    assert.ok(out.equals(input), 'standard output is the input, byte for byte');
  });

  it('refuses input over --max-file-size (or the default limit) with a message naming the limit', () => {
    const big = Buffer.from(cFunction('send').repeat(40));
    const { status, out, err } = withInput(
      ['--stdin', '--stdin-filename', 'big.c', '--max-file-size', '1K', '--fix'],
      big,
    );
    assert.equal(status, 2);
    assert.match(
      err,
      /standard input is larger than the limit of 1024 bytes \(raise it with --max-file-size\)/,
    );
    assert.equal(out.length, 0, 'nothing on standard output: an editor must not take it as the text');
    const within = withInput(['--stdin', '--stdin-filename', 'big.c', '--max-file-size', '1M'], big);
    assert.equal(within.status, 1, within.err);
  });
});

describe('--update-baseline writes through an exclusive temporary file', () => {
  it('never follows a link planted at <baseline>.<pid>.tmp, and leaves no temporary file', async () => {
    const dir = mkdtempSync(join(work, 'baseline-'));
    writeFileSync(join(dir, 'a.c'), cFunction('send'));
    const outside = join(work, 'outside.txt');
    writeFileSync(outside, 'precious\n');
    const child = spawn(BIN, ['--baseline', 'base.json', '--update-baseline', 'a.c'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The old name was predictable from the pid: plant the link before the run gets to writing.
    symlinkSync(outside, join(dir, `base.json.${child.pid}.tmp`));
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(status, 0, err);
    assert.equal(readFileSync(outside, 'utf8'), 'precious\n', 'the file behind the link is untouched');
    const baseline = JSON.parse(readFileSync(join(dir, 'base.json'), 'utf8')) as { findings: unknown[] };
    assert.equal(baseline.findings.length, 1);
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.endsWith('.tmp') && !n.startsWith('base.json.')),
      [],
      'no temporary file of ours is left',
    );
  });

  it('replaces a link at the baseline itself instead of writing through it', () => {
    const dir = mkdtempSync(join(work, 'baseline-link-'));
    writeFileSync(join(dir, 'a.c'), cFunction('send'));
    const outside = join(work, 'outside-2.txt');
    writeFileSync(outside, 'precious\n');
    symlinkSync(outside, join(dir, 'base.json'));
    const result = lintBin(['--baseline', 'base.json', '--update-baseline', 'a.c'], { cwd: dir });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(readFileSync(outside, 'utf8'), 'precious\n');
    assert.ok(statSync(join(dir, 'base.json')).isFile());
  });
});

describe('--fix and read-only files', () => {
  it('refuses to fix a read-only (0444) file, names it, exits 2, and leaves it as it was', () => {
    const dir = mkdtempSync(join(work, 'readonly-'));
    const path = join(dir, 'locked.c');
    writeFileSync(path, cFunction('send'));
    chmodSync(path, 0o444);
    const before = statSync(path);
    const result = lintBin(['--fix', 'locked.c'], { cwd: dir });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /locked\.c is read-only \(mode 0444\); not fixed/);
    const now = statSync(path);
    assert.equal(now.ino, before.ino, 'not replaced by rename');
    assert.equal(now.mode & 0o777, 0o444);
    assert.equal(readFileSync(path, 'utf8'), cFunction('send'));
  });
});
