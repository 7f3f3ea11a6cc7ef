// Early exits whose tests compare with a header's constants (c-treeconstants/): an enum member or a
// macro of a constant expression that a header defines is no state a call can change, so the writes
// after the exit join the run, in the language server's index and in a batch run alike; a header
// macro that names a global a call between may change still ends the run.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treeconstants');

describe('C early exits comparing with constants a header defines', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 2);
  });
});
