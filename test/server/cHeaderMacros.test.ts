// Function-like macros of the headers a C file includes (c-headermacros/): a statement of one between
// two writes is read as the same macro defined in the file would be, by the language server's index
// and by a batch run alike.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { analyzer, fixture, FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers, treeIndex } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-headermacros');

describe('C macros of the included headers', () => {
  it('crosses a quiet header macro, reads one that writes as its write, and stops at one that leaves or may write', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run (first pass, fact base, second pass)', async () => {
    await assertBatchFindsMarkers(TREE);
  });

  it("forgets a header's macro for its includers when the header no longer defines it", async () => {
    const a = await analyzer();
    const index = await treeIndex(TREE);
    const header = join(TREE, 'lib', 'trace.h');
    index.set(header, a.wrappers(header, '/* emptied */\n', DEFAULT_SETTINGS));
    const path = join(TREE, 'frames.c');
    assert.deepEqual(a.analyze(path, fixture('c-headermacros/frames.c'), DEFAULT_SETTINGS, { index }), []);
  });
});
