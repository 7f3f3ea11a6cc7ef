// Waits of another file for one descriptor to take output (c-treewritablewaits/): which parameter each
// waits on travels with it, so a call is read against the descriptor it hands in that place. Handed
// the written descriptor there, an else-if link's wait is no wait between the writes (the chain is one
// run); a wait for another descriptor's output, as a statement or in a link's test, is a wait between
// them like any other (no run), in the language server's index and in a batch run alike.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treewritablewaits');

describe('C waits of another file for one descriptor to take output', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 1);
  });
});
