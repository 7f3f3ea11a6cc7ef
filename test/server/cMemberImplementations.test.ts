// Calls through struct members whose implementations other files store (c-treeimplementations/): the
// transport's file stores its write helpers in a connection's send member, the protocol's file calls
// through it. A member another file stores a function in that keeps the bytes in memory, or writes
// twice a call, is no writer's interface. The language server's index and a batch run read them alike.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { analyzer, FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers, treeFiles, treeText } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treeimplementations');

describe('C members whose implementations other files store', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    const found = await assertBatchFindsMarkers(TREE);
    assert.equal(found.length, 3);
    // The pointer has no gathered twin to call: no fix for the runs through it.
    assert.deepEqual(
      found.filter((f) => f.path.endsWith('protocol.c')).map((f) => f.fixable),
      [false, false],
    );
  });

  it('finds nothing through the members in the protocol file read alone', async () => {
    const a = await analyzer();
    const path = treeFiles(TREE).find((p) => p.endsWith('protocol.c')) as string;
    assert.deepEqual(a.analyze(path, treeText(path), DEFAULT_SETTINGS), []);
  });
});
