// Function-like macros of the headers a C file includes (c-headermacros/): a statement of one between
// two writes is read as the same macro defined in the file would be, by the language server's index
// and by a batch run alike.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS, WrapperIndex } from 'writev-lint';
import { analyzer, expectations, fixture, FIXTURES, observed } from './helpers';
import { lintRun } from './cliHelpers';

const TREE = join(FIXTURES, 'c-headermacros');
const FILES = ['lib/trace.h', 'frames.c', 'alone.c'];

/** The index the language server keeps for the tree: every file read alone. */
async function treeIndex(): Promise<WrapperIndex> {
  const a = await analyzer();
  const index = new WrapperIndex();
  for (const name of FILES)
    index.set(
      join(TREE, name),
      a.wrappers(join(TREE, name), fixture(`c-headermacros/${name}`), DEFAULT_SETTINGS),
    );
  return index;
}

describe('C macros of the included headers', () => {
  it('crosses a quiet header macro, reads one that writes as its write, and stops at one that leaves or may write', async () => {
    const a = await analyzer();
    const index = await treeIndex();
    for (const name of FILES.filter((n) => n.endsWith('.c'))) {
      const text = fixture(`c-headermacros/${name}`);
      const found = a.analyze(join(TREE, name), text, DEFAULT_SETTINGS, { index });
      assert.deepEqual(observed(text, found), expectations(text), name);
    }
  });

  it('finds the same in a batch run (first pass, fact base, second pass)', async () => {
    const run = await lintRun(['--no-config-lookup', '--format', 'json', TREE], TREE);
    const report = JSON.parse(run.out) as { findings: { path: string; code: string; syscalls: number }[] };
    const reported = report.findings.map((f) => `${f.path} ${f.code} ${f.syscalls}`);
    const expected = FILES.filter((n) => n.endsWith('.c')).flatMap((n) =>
      expectations(fixture(`c-headermacros/${n}`)).map((e) => `${n} ${e.code} ${e.syscalls}`),
    );
    assert.deepEqual(reported.sort(), expected.sort());
  });

  it("forgets a header's macro for its includers when the header no longer defines it", async () => {
    const a = await analyzer();
    const index = await treeIndex();
    const header = join(TREE, 'lib', 'trace.h');
    index.set(header, a.wrappers(header, '/* emptied */\n', DEFAULT_SETTINGS));
    const path = join(TREE, 'frames.c');
    assert.deepEqual(a.analyze(path, fixture('c-headermacros/frames.c'), DEFAULT_SETTINGS, { index }), []);
  });
});
