// --diff-base reads git's diff by its hunk counts, so no added line's text is taken for a file header,
// and file names keep every character they have (a backslash is a letter of a name outside Windows; a
// name that is not UTF-8 is reported, not silently lost). Through the installed bin on real repositories.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DiffFormatError, parseUnifiedDiff } from 'writev-lint/out/cli/diffFilter';
import { cFunction, findingLines, git, lintBin } from './cliHelpers';

const tmp = mkdtempSync(join(tmpdir(), 'writev-diff-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** A repository holding `files` (name -> text), committed; returns its folder. */
function repository(name: string, files: Record<string, string>): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'base');
  return dir;
}

/** `file:line` of each finding in text output. */
function places(out: string): string[] {
  return findingLines(out).map((l) => l.split(':').slice(0, 2).join(':'));
}

const COUNTER = ['static int n;', 'void tick(void)', '{', '\tn = 0;', '}', ''].join('\n');

describe('--diff-base reads hunks by their line counts', () => {
  it('an added line beginning with "++ " is not a file header: later hunks of the file still count', () => {
    const before = `${COUNTER}\n\n\n\n\n${cFunction('send')}`;
    const dir = repository('plusplus', { 'a.c': before });
    // The first hunk adds `++ n;`, shown by git as `+++ n;`; the second changes a write of send().
    const after = `${COUNTER.replace('\tn = 0;', '\tn = 0;\n++ n;')}\n\n\n\n\n${cFunction('send', '"b", 1')}`;
    writeFileSync(join(dir, 'a.c'), after);
    const diff = git(dir, 'diff', '--unified=0', 'HEAD');
    assert.match(diff, /^\+\+\+ n;$/m, 'git shows the added line as "+++ n;"');
    const result = lintBin(['--diff-base', 'HEAD', 'a.c'], { cwd: dir });
    assert.deepEqual([result.status, places(result.stdout)], [1, ['a.c:14']], result.stderr);
  });

  it('reads a diff with context lines and "\\ No newline" markers by the counts too', () => {
    const diff = [
      'diff --git a/x.c b/x.c',
      '--- a/x.c',
      '+++ b/x.c',
      '@@ -1,3 +1,4 @@',
      ' keep',
      '-gone',
      '+++ added, not a header',
      '+-- added too',
      ' keep',
      '\\ No newline at end of file',
      '@@ -9 +10 @@',
      '-old',
      '+new',
      '',
    ].join('\n');
    assert.deepEqual(
      [...parseUnifiedDiff(diff)].map(([f, lines]) => [f, [...lines]]),
      [['x.c', [2, 3, 10]]],
    );
  });

  it('says where a diff ends inside a hunk instead of dropping its lines', () => {
    const diff = ['--- a/x.c', '+++ b/x.c', '@@ -1,2 +1,2 @@', '-a', '+b', ''].join('\n');
    assert.throws(() => parseUnifiedDiff(diff), DiffFormatError);
    assert.throws(() => parseUnifiedDiff(diff), /line 5: the output ends inside a hunk/);
  });
});

describe('file names keep their characters', () => {
  it('a backslash in a file name is reported as written, and --diff-base finds its changes', () => {
    const name = 'back\\slash.c';
    const dir = repository('backslash', { [name]: cFunction('send') });
    const all = lintBin(['.'], { cwd: dir });
    assert.deepEqual(places(all.stdout), ['back\\slash.c:3'], all.stderr);
    writeFileSync(join(dir, name), cFunction('send', '"b", 1'));
    const review = lintBin(['--diff-base', 'HEAD', '--format', 'json', '.'], { cwd: dir });
    assert.equal(review.status, 1, review.stderr);
    const report = JSON.parse(review.stdout) as { findings: { path: string }[] };
    assert.deepEqual(
      report.findings.map((f) => f.path),
      [name],
    );
  });

  it('a file whose name is not UTF-8 is reported as skipped, naming why, and the run exits 2', () => {
    const dir = join(tmp, 'latin1-name');
    mkdirSync(dir);
    // 'café.c' in Latin-1: the é is the single byte 0xE9.
    writeFileSync(Buffer.from(join(dir, 'caf\xe9.c'), 'latin1'), cFunction('send'));
    writeFileSync(join(dir, 'plain.c'), cFunction('other'));
    const result = lintBin(['.'], { cwd: dir });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /skipped caf\ufffd\.c: the name is not valid UTF-8/);
    assert.deepEqual(places(result.stdout), ['plain.c:3'], 'the other files are still linted');
  });
});
