// A header's `static inline` helper built on another file's helper (c-headerhelpers/): a batch run
// reads the header again with the tree's helpers, and the files that include it again with what it
// then defines, as the language server's folder index chains a header's static helpers (lsp/folders.ts).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-headerhelpers');

describe("a header's static inline helpers of another file's helper", () => {
  it('are helpers of one write in the files that include the header, in a batch run', async () => {
    assert.deepEqual(
      (await assertBatchFindsMarkers(TREE)).map((f) => `${f.path}:${f.line}`),
      ['reply.c:6'],
    );
  });
});
