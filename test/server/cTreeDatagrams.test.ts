// A helper whose own file opens its descriptor as a datagram socket (c-treedatagrams/): its calls in
// another file are messages, never a run, in the language server's index and in a batch run alike; a
// helper of the same file writing to a stream socket is handed on as before.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treedatagrams');

describe('C helpers of a datagram socket their own file opens', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 1);
  });
});
