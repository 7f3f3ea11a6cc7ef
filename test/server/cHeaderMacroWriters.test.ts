// A write helper whose loop writes through a header's one-write macro (c-headermacrowriters/): the
// macro's expansion is the write. The language server's reading of the same tree, where the helper's
// file is read again with the header once the folder is indexed, is in lspHeaderDefs.test.ts.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-headermacrowriters');

describe("a helper's write spelled by a header's macro", () => {
  it('reads the loop as one write in a batch run, so calls to it in another file gather', async () => {
    await assertBatchFindsMarkers(TREE);
  });
});
