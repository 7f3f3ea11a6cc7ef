// A helper that reads the answer after its write, through a reader whose body is in another file of the
// tree (c-treereplies/): no helper of one write, in the language server's index and in a batch run
// alike; a helper whose other call reads nothing stays one.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers, treeIndex } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treereplies');

describe('C helpers that await a reply read in another file', () => {
  it('knows the exported functions that read, through the functions they call', async () => {
    const readers = (await treeIndex(TREE)).cReadersFor(join(TREE, 'device.c'));
    assert.ok(readers.has('tr_line_get'), 'reads through a static wait of its own file');
    assert.ok(!readers.has('tr_line_put'), 'only writes');
    assert.ok(!readers.has('tr_line_note'), 'does nothing with the descriptor');
  });

  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 1);
  });
});
