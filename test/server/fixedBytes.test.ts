// The quick fixes keep what goes out: each idiom fixture's functions, compiled with gcc before and
// after fix-all, run by a driver (fixtures/c-run/<name>.main.c) against a real pipe, write the same
// bytes in the same order, and the fixed build makes fewer write syscalls (counted by wrapping write
// and writev at link time).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { analyzeFixture, analyzer, fixture, FIXTURES } from './helpers';

const work = mkdtempSync(join(tmpdir(), 'writev-bytes-'));
after(() => rmSync(work, { recursive: true, force: true }));

const C = join(FIXTURES, 'c');
/** The drivers and the support library (beside the fixtures, so the linter does not read them as fixtures). */
const RUN = join(FIXTURES, 'c-run');
const IDIOMS = [
  'chained-conditions',
  'conditional-writes',
  'member-descriptors',
  'mixed-families',
  'descriptor-origins',
  'framing-wrappers',
  'write-macros',
  'project-families',
  'branch-runs',
  'check-forms',
  'headerdefs',
  'kept-results',
  'member-kinds',
  'writer-bodies',
  'bare-blocks',
  'stored-descriptors',
  'pipe-ends',
  'member-confined-calls',
  'returned-writes',
];

/** Builds `source` with the support library and the idiom's driver; returns the executable. */
function build(source: string, idiom: string, out: string): string {
  const result = spawnSync(
    'gcc',
    [
      '-std=gnu11',
      '-Wall',
      '-Wno-unused-function',
      '-Werror',
      '-I',
      C,
      '-o',
      out,
      source,
      join(RUN, 'support.c'),
      join(RUN, `${idiom}.main.c`),
      '-Wl,--wrap=write,--wrap=writev',
    ],
    { encoding: 'utf8' },
  );
  assert.equal(result.status, 0, `gcc ${source}: ${result.stderr}`);
  return out;
}

/** Runs an executable with its stdout on a pipe: the bytes it wrote there and its syscall count. */
function run(exe: string): { bytes: Buffer; syscalls: number } {
  const result = spawnSync(exe, [], { stdio: ['ignore', 'pipe', 'pipe'] });
  assert.equal(result.error, undefined);
  const count = /syscalls: (\d+)/.exec(result.stderr.toString());
  assert.ok(count, `${exe} reports its syscalls (stderr: ${result.stderr.toString()})`);
  return { bytes: result.stdout, syscalls: Number(count[1]) };
}

describe('fixed C code writes the same bytes', () => {
  for (const idiom of IDIOMS) {
    it(`${idiom}.c: same bytes in the same order before and after fix-all, in fewer syscalls`, async () => {
      const name = `c/${idiom}.c`;
      assert.ok(existsSync(join(RUN, `${idiom}.main.c`)), 'the idiom has a driver');
      const found = await analyzeFixture(name);
      const fixed = (await analyzer()).fixAll(join(FIXTURES, name), fixture(name), found, true);
      assert.ok(fixed, 'fix-all changes the fixture');
      const fixedPath = join(work, `${idiom}.c`);
      writeFileSync(fixedPath, fixed);
      const before = run(build(join(C, `${idiom}.c`), idiom, join(work, `${idiom}-before`)));
      const afterFix = run(build(fixedPath, idiom, join(work, `${idiom}-after`)));
      assert.ok(before.bytes.length > 0, 'the driver writes something');
      assert.equal(afterFix.bytes.toString('latin1'), before.bytes.toString('latin1'));
      assert.ok(
        afterFix.syscalls < before.syscalls,
        `fewer syscalls after the fix (${afterFix.syscalls} vs ${before.syscalls})`,
      );
    });
  }
});
