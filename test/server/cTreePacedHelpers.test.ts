// Helpers of another file that wait after their write on the way to success (c-treepacedhelpers/):
// `tcdrain()` or a fixed `usleep()` after each write makes two calls two writes with a wait between,
// no run; a write-in-full loop that polls only to retry a write that would block, or to write the rest,
// still makes one, in the language server's index and in a batch run alike.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treepacedhelpers');

describe('C helpers of another file that wait after each write', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 2);
  });
});
