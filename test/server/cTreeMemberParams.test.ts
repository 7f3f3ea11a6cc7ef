// Helpers of another file that reach the connection they are handed through members only
// (c-treememberparams/): a call of one between two writes to the connection's descriptor changes only
// those members, so the writes gather, in the language server's index and in a batch run alike. A
// helper that touches the descriptor, hands the connection on whole or writes, and a call that changes
// what the first write sent, still end the run.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treememberparams');

describe('C calls of another file’s helpers confined to members', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (facts pass, first pass, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 3);
  });
});
