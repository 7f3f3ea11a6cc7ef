// A write helper whose status codes are named in a header (c-treestatusnames/): its own file, read
// before the header's codes are known, keeps the name it returns on success, and a caller in another
// file that gives the name 0 reads `== LINK_OK` as the test that the write went out.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treestatusnames');

describe('C helpers whose status names a header gives values', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 1);
  });
});
