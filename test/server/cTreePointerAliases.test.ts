// Calls between two writes of a buffer of file scope that store through a pointer of file scope into it
// (c-treepointeraliases/): the call changes the bytes a gathered write would send, though its body names
// only the pointer, and ends the run; a call storing into another buffer, or only setting the pointer,
// leaves it, in the language server's index and in a batch run alike.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treepointeraliases');

describe('C calls storing through a pointer of file scope into a buffer written around them', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 2);
  });
});
