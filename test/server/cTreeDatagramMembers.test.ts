// A helper writing to a member of the object it is handed, where its own file puts a datagram socket
// in that member of that struct (c-treedatagrammembers/): its calls in another file are messages, never
// a run, in the language server's index and in a batch run alike; a helper of another struct's member
// of the same name, a stream socket, is handed on as before.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treedatagrammembers');

describe('C helpers of a datagram member their own file assigns', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 1);
  });
});
