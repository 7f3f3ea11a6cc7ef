// Helpers of another file writing a global descriptor that a third file opens (c-treedatagramhelpers/):
// a caller naming no descriptor writes datagrams through the log's helper, one each, and joins no run;
// the output's helper (a stream socket) and a helper of its own file's static of the same name still
// join theirs, in the language server's index and in a batch run alike.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treedatagramhelpers');

describe("C helpers of another file's global descriptor, opened as a datagram socket in a third", () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 2);
  });
});
