// Weak definitions another file of the tree replaces (c-treeweak/): puts.c's default output helper and empty hook
// are not what its calls reach, stdio.c's and clock.c's bodies are, in the language server's index and in a
// batch run alike; a weak helper no other file defines is read as its body says.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treeweak');

describe('C weak definitions another file replaces', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 1);
  });
});
