// Write helpers of two files, each writing to its own file's `static int fd` (c-treefilestatics/): a
// caller in a third file, with a static `fd` of its own, reads three descriptors, never one run across
// them, in the language server's index and in a batch run alike; a helper of a global the files share
// joins the caller's writes to it as before.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treefilestatics');

describe("C helpers of their own file's static descriptor", () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 2);
  });
});
