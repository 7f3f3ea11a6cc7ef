// Members of a tree's structs (c-treemembers/): drivers that each declare a PrivateData of the same
// name. Another file's device in its member is a fact about that struct name, and this file's own
// assignment of a stream to its member decides for its writes. The language server's index and a batch
// run read them alike.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treemembers');

describe("C members of a tree's structs", () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 1);
  });
});
