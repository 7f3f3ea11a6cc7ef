// Sockets whose type the caller chooses, and a descriptor's mode changed between writes
// (c-treemodelisteners/): a listener helper called with SOCK_SEQPACKET accepts connections written one
// record each, one called with SOCK_DGRAM sends datagrams, and neither joins a run; either helper
// called with SOCK_STREAM gives connections whose writes join (typedSockets.ts, typedStreamCall). A helper of another file switching the
// descriptor to non-blocking mode (fcntl F_SETFL) between two writes ends their run: the writes before
// it block until done, those after it may stop short, and one gathered call cannot be both.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treemodelisteners');

describe('C sockets typed by their caller, and a mode change between writes', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 3);
  });
});
