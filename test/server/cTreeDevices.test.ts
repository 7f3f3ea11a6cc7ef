// Device paths named by object-like macros (c-treedevices/), in an included header and in the file
// itself: the writes to such a device are one report or value each, as with the literal path, in the
// language server's index and in a batch run alike; a header's macro naming a plain file still gathers.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treedevices');

describe('C device paths named by object-like macros', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 1);
  });
});
