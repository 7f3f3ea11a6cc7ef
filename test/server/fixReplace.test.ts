// writev-lint --fix replaces a file only if it is still the version that was read: an edit made while
// the analysis ran is kept (the file is skipped and the run incomplete), and a fixed file keeps its
// mode, its symbolic link and leaves no temporary file behind.
import assert from 'node:assert/strict';
import {
  appendFileSync,
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_SETTINGS, type Analyzer } from 'writev-lint';
import { lintFile } from 'writev-lint/out/cli/lintFile';
import { main } from 'writev-lint/out/cli/main';
import { FileChangedError, replaceFile } from 'writev-lint/out/cli/replaceFile';
import { readSourceFile } from 'writev-lint/out/workspace/sourceFile';
import { analyzer } from './helpers';

const tmp = mkdtempSync(join(tmpdir(), 'writev-replace-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const SOURCE = [
  '#include <sys/uio.h>',
  'void emit(int fd, const char *buf, unsigned long len)',
  '{',
  '\twrite_in_full(fd, "a", 1);',
  '\twrite_in_full(fd, buf, len);',
  '}',
  '',
].join('\n');

function folder(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir);
  return dir;
}

async function fix(path: string): Promise<{ status: number; err: string }> {
  let err = '';
  const status = await main(['--fix', path], { out: () => undefined, err: (t) => (err += t) }, tmp);
  return { status, err };
}

describe('writev-lint --fix replaces files safely', () => {
  it('keeps an edit made while the file was analysed, and reports the file as not fixed', async () => {
    const dir = folder('concurrent');
    const file = join(dir, 'a.c');
    writeFileSync(file, SOURCE);
    const real = await analyzer();
    // The user saves the file while the analysis runs (here: during it, at a known moment).
    const editing = Object.create(real, {
      inspect: {
        value(...args: Parameters<Analyzer['inspect']>) {
          appendFileSync(file, '/* saved meanwhile */\n');
          return real.inspect(...args);
        },
      },
    }) as Analyzer;
    const result = await lintFile(
      editing,
      file,
      { settings: DEFAULT_SETTINGS, fix: true },
      undefined,
      undefined,
    );
    assert.match(
      result?.error ?? '',
      /a\.c changed on disk while it was analysed \(size \d+ -> \d+ bytes\); not fixed/,
    );
    assert.equal(result?.fixed, undefined);
    assert.equal(readFileSync(file, 'utf8'), `${SOURCE}/* saved meanwhile */\n`);
    assert.deepEqual(readdirSync(dir), ['a.c'], 'no temporary file left');
  });

  it('notices a same-size edit with the old modification time (by content hash)', async () => {
    const dir = folder('samesize');
    const file = join(dir, 'a.c');
    writeFileSync(file, SOURCE);
    const read = await readSourceFile(file);
    const { mtime } = statSync(file);
    writeFileSync(file, SOURCE.replace('"a"', '"b"'));
    utimesSync(file, mtime, mtime);
    await assert.rejects(replaceFile(file, read.stamp, Buffer.from('fixed')), FileChangedError);
    assert.equal(readFileSync(file, 'utf8'), SOURCE.replace('"a"', '"b"'));
    assert.deepEqual(readdirSync(dir), ['a.c']);
  });

  it('a file it cannot replace safely (two hard links) is named, left as it was, and the run exits 2', async () => {
    const dir = folder('cli');
    const file = join(dir, 'a.c');
    writeFileSync(file, SOURCE);
    // A file that is not valid to replace: two hard links (a rename would split them).
    linkSync(file, join(dir, 'b.c.bak'));
    const { status, err } = await fix(file);
    assert.equal(status, 2);
    assert.match(err, /cannot fix .*a\.c: has 2 hard links, which a fix by rename would split/);
    assert.equal(readFileSync(file, 'utf8'), SOURCE);
  });

  it('keeps the permission bits of the fixed file', async () => {
    const dir = folder('mode');
    const file = join(dir, 'a.c');
    writeFileSync(file, SOURCE);
    chmodSync(file, 0o751);
    const { status, err } = await fix(file);
    assert.equal(status, 0, err);
    assert.match(readFileSync(file, 'utf8'), /writev_in_full\(fd, iov, 2\)/);
    assert.equal(statSync(file).mode & 0o7777, 0o751);
    assert.deepEqual(readdirSync(dir), ['a.c']);
  });

  it('fixes the target of a symbolic link and keeps the link', async () => {
    const dir = folder('link');
    const target = join(dir, 'target.c');
    writeFileSync(target, SOURCE);
    const link = join(dir, 'link.c');
    symlinkSync('target.c', link);
    const { status, err } = await fix(link);
    assert.equal(status, 0, err);
    assert.deepEqual(readdirSync(dir).sort(), ['link.c', 'target.c']);
    assert.ok(lstatSync(link).isSymbolicLink(), 'the link is still a link');
    assert.match(readFileSync(target, 'utf8'), /writev_in_full\(fd, iov, 2\)/);
  });
});
