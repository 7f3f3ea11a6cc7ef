// A string writer that writes with the function its caller hands it (c-treepassedwriters/): handed a
// writer of the tree, read from its body in another file or the same one, each call is a write to the
// descriptor it is given, and a run of them gathers, in the language server's index and in a batch run
// alike. Handed a logger, a datagram socket's sender, or with a read or another connection between,
// the calls stay quiet.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treepassedwriters');

describe('C writers passed as function pointers', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (facts pass, first pass, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 3);
  });
});
