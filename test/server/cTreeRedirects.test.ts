// A helper of stderr whose own file makes stderr a copy of a sequenced-packet socket (c-treeredirects/):
// its calls in another file are records, never a run, in the language server's index and in a batch run
// alike; a helper of stdout in the same file, which nothing copies, is handed on as before.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treeredirects');

describe('C helpers of a standard descriptor their own file makes a message socket', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 1);
  });
});
