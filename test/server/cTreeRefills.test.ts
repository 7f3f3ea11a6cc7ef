// Calls between two writes of a global frame that rewrite it (c-treerefills/): a helper of another
// file, one calling it, and a static one of the same file, each assigning or filling the file-scope
// buffer and length the earlier write sent, end the run, in the language server's index and in a batch
// run alike; a helper that only counts is crossed as before.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treerefills');

describe('C calls that rewrite what an earlier write sent', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 1);
  });
});
