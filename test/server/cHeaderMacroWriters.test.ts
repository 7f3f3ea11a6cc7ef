// A write helper whose loop writes through a header's one-write macro (c-headermacrowriters/): the
// macro's expansion is the write, in the editor and in a batch run alike.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-headermacrowriters');

describe("a helper's write spelled by a header's macro", () => {
  it('reads the loop as one write, so calls to it gather', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run (first pass, fact base, second pass)', async () => {
    await assertBatchFindsMarkers(TREE);
  });
});
