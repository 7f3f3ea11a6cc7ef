// A local or parameter of a global's name (c-treeshadows/): what the local is assigned says nothing of
// the global the file's other functions write to. A local opened on a file no longer makes a datagram
// global (another file's) or a global of no known kind a byte stream, and a local holding a datagram
// socket no longer hides that the global itself is only ever a file.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treeshadows');

describe('C globals hidden by a local of their name', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 4);
  });
});
