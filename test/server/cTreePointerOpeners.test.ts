// An opener of another file storing a datagram socket through its pointer parameter
// (c-treepointeropeners/): the caller's variable handed by address is a message descriptor, its two
// writes no run; a twin storing a stream socket leaves its caller's run, in the language server's index
// and in a batch run alike.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treepointeropeners');

describe('C openers of another file handing a socket back through a pointer parameter', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 1);
  });
});
