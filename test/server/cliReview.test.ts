// writev-lint's review modes on real git repositories: --diff-base (committed, staged, unstaged and
// untracked changes, renames, the exit status) and --baseline with --update-baseline (moved findings stay
// known, new ones are reported, identical findings counted).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cFunction, findingLines, git, lintRun } from './cliHelpers';

const tmp = mkdtempSync(join(tmpdir(), 'writev-review-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const HEADER = '#include "git-compat-util.h"\n\n';

/** A repository with two files of one finding each, committed; returns its folder. */
function repository(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'src', 'a.c'), HEADER + cFunction('alpha'));
  writeFileSync(join(dir, 'src', 'b.c'), HEADER + cFunction('beta'));
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'base');
  return dir;
}

/** `file:line` of every finding in a text report. */
function places(out: string): string[] {
  return findingLines(out).map((l) => l.split(':').slice(0, 2).join(':'));
}

describe('writev-lint --diff-base', () => {
  it('reports nothing and exits 0 when nothing changed, though the tree has findings', async () => {
    const dir = repository('unchanged');
    const all = await lintRun([dir], dir);
    assert.deepEqual(places(all.out), ['src/a.c:5', 'src/b.c:5']);
    const review = await lintRun(['--diff-base', 'HEAD', dir], dir);
    assert.deepEqual([review.status, review.out], [0, '']);
  });

  it('reports a finding whose write was changed in a commit since the base, and exits 1 for it', async () => {
    const dir = repository('committed');
    writeFileSync(join(dir, 'src', 'b.c'), HEADER + cFunction('beta', '"b", 1'));
    git(dir, 'commit', '-q', '-am', 'change a write of beta');
    const review = await lintRun(['--diff-base', 'HEAD~1', dir], dir);
    assert.deepEqual([review.status, places(review.out)], [1, ['src/b.c:5']]);
  });

  it('counts staged and unstaged edits and untracked files, and not an edit beside the writes', async () => {
    const dir = repository('worktree');
    // Unstaged: a comment above alpha's writes moves them, but no write line changes.
    writeFileSync(join(dir, 'src', 'a.c'), `${HEADER}/* moved */\n${cFunction('alpha')}`);
    // Staged: a new sequence in b.c.
    writeFileSync(join(dir, 'src', 'b.c'), HEADER + cFunction('beta') + cFunction('gamma'));
    git(dir, 'add', 'src/b.c');
    // Untracked: every line is new.
    writeFileSync(join(dir, 'src', 'new.c'), HEADER + cFunction('delta'));
    const review = await lintRun(['--diff-base', 'HEAD', dir], dir);
    assert.deepEqual(places(review.out), ['src/b.c:10', 'src/new.c:5']);
  });

  it('follows a renamed file: only its changed lines count', async () => {
    const dir = repository('renamed');
    git(dir, 'mv', 'src/a.c', 'src/renamed.c');
    writeFileSync(join(dir, 'src', 'renamed.c'), HEADER + cFunction('alpha') + cFunction('epsilon'));
    git(dir, 'commit', '-q', '-am', 'rename and add');
    const review = await lintRun(['--diff-base', 'HEAD~1', dir], dir);
    assert.deepEqual(places(review.out), ['src/renamed.c:10']);
  });

  it('reads the names git quotes or ends with a tab (quotes, tabs, spaces, non-ASCII letters)', async () => {
    const dir = repository('quoted');
    const names = ['odd "name"\twith é.c', 'plain space.c'];
    for (const name of names) writeFileSync(join(dir, 'src', name), HEADER + cFunction('odd'));
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'odd names');
    for (const name of names) writeFileSync(join(dir, 'src', name), HEADER + cFunction('odd', '"q", 1'));
    const review = await lintRun(['--diff-base', 'HEAD', '--format', 'json', dir], dir);
    const report = JSON.parse(review.out) as { findings: { path: string; line: number }[] };
    assert.deepEqual(
      report.findings.map((f) => [f.path, f.line]).sort(),
      names.map((name) => [`src/${name}`, 5]).sort(),
    );
  });

  it('uses the repository of each file (two repositories in one run)', async () => {
    const one = repository('one');
    const two = repository('two');
    writeFileSync(join(two, 'src', 'a.c'), HEADER + cFunction('alpha', '"z", 1'));
    const review = await lintRun(['--diff-base', 'HEAD', one, two], tmp);
    assert.deepEqual(places(review.out), ['two/src/a.c:5']);
  });

  it('exits 2 naming the problem for an unknown revision or a file outside any repository', async () => {
    const dir = repository('bad');
    const rev = await lintRun(['--diff-base', 'no-such-branch', dir], dir);
    assert.equal(rev.status, 2);
    assert.match(rev.err, /--diff-base: no-such-branch is not a commit of the repository at .*bad\n/);
    const loose = join(tmp, 'loose');
    mkdirSync(loose);
    writeFileSync(join(loose, 'x.c'), HEADER + cFunction('zeta'));
    const outside = await lintRun(['--diff-base', 'HEAD', loose], loose);
    assert.equal(outside.status, 2);
    assert.match(outside.err, /--diff-base needs git: .*loose\/x\.c is not in a git repository/);
  });
});

describe('writev-lint --baseline', () => {
  it('records every finding, then reports only new ones; a finding that moved stays known', async () => {
    const dir = repository('baseline');
    const baseline = join(dir, '.writev-baseline.json');
    const record = await lintRun(['--baseline', baseline, '--update-baseline', join(dir, 'src')], dir);
    assert.deepEqual([record.status, record.out], [0, '']);
    assert.match(record.err, /recorded 2 findings in .*\.writev-baseline\.json/);
    const file = JSON.parse(readFileSync(baseline, 'utf8'));
    assert.deepEqual(
      file.findings.map((f: { rule: string; path: string }) => [f.rule, f.path]),
      [
        ['adjacent-writes', 'src/a.c'],
        ['adjacent-writes', 'src/b.c'],
      ],
    );
    assert.ok(!JSON.stringify(file).includes('"line"'), 'no line numbers in the baseline');

    const clean = await lintRun(['--baseline', baseline, join(dir, 'src')], dir);
    assert.deepEqual([clean.status, clean.out], [0, '']);

    // alpha moves down ten lines and is re-indented; beta gets a twin, which is new.
    writeFileSync(
      join(dir, 'src', 'a.c'),
      `${HEADER}${'/* pad */\n'.repeat(10)}${cFunction('alpha').replace(/\t/g, '    ')}`,
    );
    writeFileSync(join(dir, 'src', 'b.c'), HEADER + cFunction('beta') + cFunction('beta2'));
    const moved = await lintRun(['--baseline', baseline, join(dir, 'src')], dir);
    assert.deepEqual([moved.status, places(moved.out)], [1, ['src/b.c:10']]);

    // Removing the original beta: its twin now has beta's place in the count, so it is known.
    writeFileSync(join(dir, 'src', 'b.c'), HEADER + cFunction('beta2'));
    const twin = await lintRun(['--baseline', baseline, join(dir, 'src')], dir);
    assert.deepEqual([twin.status, twin.out], [0, '']);

    // A write whose text changed is a new finding.
    writeFileSync(join(dir, 'src', 'b.c'), HEADER + cFunction('beta', '"changed", 7'));
    const changed = await lintRun(['--baseline', baseline, join(dir, 'src')], dir);
    assert.deepEqual(places(changed.out), ['src/b.c:5']);
    assert.match(changed.err, /1 finding of .* no longer found \(--update-baseline drops them\)/);
  });

  it('matches from another working directory (paths relative to the baseline file)', async () => {
    const dir = repository('elsewhere');
    const baseline = join(dir, 'baseline.json');
    await lintRun(['--baseline', baseline, '--update-baseline', dir], dir);
    const fromOutside = await lintRun(['--baseline', baseline, dir], tmp);
    assert.deepEqual([fromOutside.status, fromOutside.out], [0, '']);
    renameSync(join(dir, 'src', 'a.c'), join(dir, 'src', 'moved.c'));
    const renamed = await lintRun(['--baseline', baseline, dir], tmp);
    assert.deepEqual(places(renamed.out), ['elsewhere/src/moved.c:5'], 'a finding in another file is new');
  });

  it('exits 2 for a missing or malformed baseline, and for --update-baseline alone', async () => {
    const dir = repository('badbaseline');
    const missing = await lintRun(['--baseline', join(dir, 'none.json'), dir], dir);
    assert.equal(missing.status, 2);
    assert.match(
      missing.err,
      /cannot read the baseline .*none\.json: .*\(create it with --update-baseline\)/,
    );
    writeFileSync(join(dir, 'bad.json'), '{"version": 1, "findings": [{"rule": "x"}]}');
    const malformed = await lintRun(['--baseline', join(dir, 'bad.json'), dir], dir);
    assert.equal(malformed.status, 2);
    assert.match(malformed.err, /bad\.json: findings\[0\]\.fingerprint must be a string/);
    const alone = await lintRun(['--update-baseline', dir], dir);
    assert.equal(alone.status, 2);
    assert.match(alone.err, /--update-baseline needs --baseline <file>/);
  });

  it('combines with --diff-base: new and changed findings only', async () => {
    const dir = repository('both');
    const baseline = join(dir, 'baseline.json');
    await lintRun(['--baseline', baseline, '--update-baseline', join(dir, 'src')], dir);
    writeFileSync(join(dir, 'src', 'b.c'), HEADER + cFunction('beta') + cFunction('theta'));
    const review = await lintRun(['--baseline', baseline, '--diff-base', 'HEAD', join(dir, 'src')], dir);
    assert.deepEqual(places(review.out), ['src/b.c:10']);
  });
});
