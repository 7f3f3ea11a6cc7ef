// Getters through a struct member that every file of the tree stores only pure functions in
// (c-treepuremembers/): `c->peer_name(c)` in a later write's arguments may be called before the earlier
// write, as a call of one of them may; a member one of whose implementations changes a counter keeps
// the writes apart. In the language server's index and in a batch run alike.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treepuremembers');

describe('C getters through members that hold only pure functions', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (facts pass, first pass, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 1);
  });
});
