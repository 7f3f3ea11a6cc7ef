// Header statement macros that only assign what they are handed (c-treeassigningmacros/): a time
// formatter ending its static buffer with one does no output, so formatted writes with its result in
// their arguments gather, in the language server's index and in a batch run alike; a macro that also
// prints keeps its user loud, and a reset of a file-scope line through such a macro still ends a run
// that sent the line.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treeassigningmacros');

describe('C header macros that assign only what they are handed', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 1);
  });
});
