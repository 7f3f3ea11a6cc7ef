// Descriptors whose kind only another file shows (c-treekinds/): a global variable or array that file
// opens as a datagram or sequenced-packet socket, an accessor returning a datagram member it keeps, an
// opener whose caller passes the socket type, and an opener that hands its descriptor to a device
// request. Their writes in another file are messages, never a run, in the language server's index
// and in a batch run alike; each one's stream twin through the same path is still found, and so is
// a local that hides the global of its name.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treekinds');

describe('C descriptors of a kind another file shows', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 6);
  });
});
