// Bodies elsewhere in a tree and the helpers a file reads from their calls (c-treebodies/): another
// file's `static` function is that file's alone, and a body that calls through a pointer or a member
// says no more than no body; a readable exported body still decides. The language server's index and
// a batch run read them alike.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers, treeIndex } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treebodies');

describe('C bodies elsewhere in a tree and helpers read from their calls', () => {
  it('counts only the definitions a file can call whose bodies say what they do', async () => {
    const defined = (await treeIndex(TREE)).cDefinedFor(join(TREE, 'proto', 'greet.c'));
    assert.ok(defined.has('tb_sendq'), 'an exported body that only copies to memory');
    assert.ok(!defined.has('tb_sendall'), 'a body that sends through a member');
    assert.ok(!defined.has('tb_writeall'), "another file's static function");
  });

  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 2);
  });
});
