// A call in a later write's arguments whose body another file holds but calls through a member
// (c-treeopaquecalls/): that body may do anything, so the writes around the call stay apart; a body
// elsewhere that does no output, and a name with no body anywhere (the stated assumption), still join
// them. The language server's index and a batch run read them alike.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers, treeIndex } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treeopaquecalls');

describe('C argument calls whose bodies elsewhere call through a pointer', () => {
  it('lists the definitions other files can call whose bodies call through a member', async () => {
    const index = await treeIndex(TREE);
    const opaque = index.cOpaqueFor(join(TREE, 'server.c'));
    assert.ok(opaque.has('oc_driver_info'), 'a body calling a callback member');
    assert.ok(!opaque.has('oc_version'), 'a body returning a constant');
    assert.ok(!index.cDefinedFor(join(TREE, 'server.c')).has('oc_driver_info'), 'still no defined body');
  });

  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (facts pass, first pass, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 2);
  });
});
