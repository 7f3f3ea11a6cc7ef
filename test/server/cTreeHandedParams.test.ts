// Parameters of a helper visible to other files, read from what its callers in the tree's other files
// hand it (c-treehandedparams/): a parameter some caller hands a datagram socket or an end of a
// SOCK_SEQPACKET pair is a message descriptor, whose writes are no run; one whose callers hand it
// nothing of the kind stays a descriptor of unknown kind. A function-pointer parameter every call in
// the tree hands the same write helper is that helper, and its three calls a run; not where two
// callers hand two helpers, nor where a file stores the function's address. In the language server's
// index and in a batch run alike.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treehandedparams');

describe("C helpers' parameters as their callers in other files hand them", () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 2);
  });
});
