// Message sockets a tree opens in one file and writes in another (c-treemessagelisteners/): a netlink
// global its opener also returns, a socket whose type a local of its opener holds, and connections
// accepted on a sequenced-packet listener (another file's global, or the function's own) are written
// one record each and join no run; their byte-stream twins (a stream global, a local typed
// SOCK_STREAM, a stream listener's connections) still join theirs, in the language server's index
// and in a batch run alike.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treemessagelisteners');

describe('C message sockets returned, typed by a local, or accepted on a message listener', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 4);
  });
});
