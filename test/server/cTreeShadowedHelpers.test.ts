// A write helper of a descriptor of file scope (c-treeshadowedhelpers/): a caller declaring a parameter or local
// of the same name (accepted, or a copy of another descriptor) holds another descriptor, in the helper's
// own file and in another alike; an `extern` declaration, or a local in a block the calls are outside
// of, leaves the caller's writes joined with the helper's, in the language server's index and in a
// batch run alike.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treeshadowedhelpers');

describe('C helpers of a descriptor of file scope, called where the name is declared again', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 3);
  });
});
