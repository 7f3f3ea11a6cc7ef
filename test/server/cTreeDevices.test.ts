// An opener of another file (c-treedeviceloops/) handed a device's literal path opens that device: its
// writes are no byte stream's (no loop finding, the pair of unknown kind), in the language server's index
// and in a batch run alike; handed a file's path, a byte stream as before.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treedeviceloops');

describe('C openers of another file handed a device path', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 3);
  });
});
