// The unified diffs of --diff, checked against the real `git apply` and `patch`: for random texts and
// random line edits (with and without a last line break, with CRLF), applying the diff to the old text
// gives the new one.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { unifiedDiff } from 'writev-lint/out/cli/unifiedDiff';

const tmp = mkdtempSync(join(tmpdir(), 'writev-udiff-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** `before` with `diff` applied by `tool` in a scratch folder. */
function apply(tool: 'git' | 'patch', before: string, diff: string): string {
  const file = join(tmp, 'f.c');
  writeFileSync(file, before);
  const result =
    tool === 'git'
      ? spawnSync('git', ['apply', '--whitespace=nowarn', '-'], { cwd: tmp, input: diff, encoding: 'utf8' })
      : spawnSync('patch', ['-p1', '--batch', '--silent'], { cwd: tmp, input: diff, encoding: 'utf8' });
  assert.equal(result.status, 0, `${tool}: ${result.stderr}${result.stdout}\n${diff}`);
  return readFileSync(file, 'utf8');
}

const lineArb = fc.constantFrom('a', 'b', 'c', '\tx;', '', '}');
const caseArb = fc
  .record({
    lines: fc.array(lineArb, { maxLength: 40 }),
    edits: fc.array(fc.tuple(fc.nat(40), fc.boolean(), lineArb), { minLength: 1, maxLength: 6 }),
    eol: fc.constantFrom('\n', '\r\n'),
    endBefore: fc.boolean(),
    endAfter: fc.boolean(),
  })
  .map(({ lines, edits, eol, endBefore, endAfter }) => {
    const after: string[] = [...lines];
    for (const [at, remove, line] of edits) {
      if (remove) after.splice(at % (after.length + 1), 1);
      else after.splice(at % (after.length + 1), 0, `n${line}`);
    }
    const text = (ls: string[], end: boolean) => ls.join(eol) + (end && ls.length > 0 ? eol : '');
    return { before: text(lines, endBefore), after: text(after, endAfter) };
  });

describe('unified diffs', () => {
  it('git apply and patch -p1 turn the old text into the new one (property)', () => {
    fc.assert(
      fc.property(caseArb, ({ before, after }) => {
        const diff = unifiedDiff('f.c', before, after);
        if (before === after) return assert.equal(diff, '');
        assert.match(diff, /^--- a\/f\.c\n\+\+\+ b\/f\.c\n@@ /);
        assert.equal(apply('git', before, diff), after);
        assert.equal(apply('patch', before, diff), after);
      }),
      { numRuns: 40 },
    );
  });

  it('keeps hunks apart when more than six lines lie between changes, as diff -u does', () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}\n`).join('');
    const after = before.replace('l2\n', 'L2\n').replace('l17\n', 'L17\n');
    const hunks = unifiedDiff('f.c', before, after).match(/^@@ .* @@$/gm);
    assert.deepEqual(hunks, ['@@ -1,6 +1,6 @@', '@@ -15,6 +15,6 @@']);
    const near = before.replace('l2\n', 'L2\n').replace('l9\n', 'L9\n');
    assert.deepEqual(unifiedDiff('f.c', before, near).match(/^@@ .* @@$/gm), ['@@ -1,13 +1,13 @@']);
  });
});
