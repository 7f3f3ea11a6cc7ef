// A write helper waiting for its descriptor with a header's macro named like a write (c-headerwaits/):
// what the macro expands to decides whether the wait writes, in the editor and in a batch run alike.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-headerwaits');

describe("a helper's wait defined by a header's macro", () => {
  it('reads the loop as one write when the expansion calls nothing named like I/O', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run (first pass, fact base, second pass)', async () => {
    await assertBatchFindsMarkers(TREE);
  });
});
