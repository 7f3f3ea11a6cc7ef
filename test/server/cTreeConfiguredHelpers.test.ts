// Write helpers compiled only in some configurations (c-treeconfiguredhelpers/): a helper whose write
// another configuration leaves out (`#ifdef DEBUG`, `#ifndef QUIET` with an `#else` doing nothing), or
// whose definition another configuration replaces by one with no output, joins no run in its callers;
// one writing in every configuration (`send()` or `write()`, `WriteFile()` on another platform), or
// whose whole definition is conditional, still does, in the language server's index and in a batch run.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treeconfiguredhelpers');

describe('C write helpers whose write only some configurations compile', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 3);
  });
});
