// Functions another file shows to return a byte stream (c-treereturnedloops/): a loop of writes to the
// descriptor one returns is found in the language server's index and in a batch run alike (the batch
// run's first pass reads that descriptor as of unknown kind, and its second pass reads the file again);
// a file whose writes go only to descriptors it shows to be streams has nothing to learn from them.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { analyzer, FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers, treeText } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treereturnedloops');

describe('C functions returning a descriptor of a known kind, called from other files', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    assert.equal((await assertBatchFindsMarkers(TREE)).length, 2);
  });

  it('says which files a batch run must read again with what other files return', async () => {
    const a = await analyzer();
    const firstPass = (name: string) => {
      const path = join(TREE, name);
      return a.inspect(path, treeText(path), DEFAULT_SETTINGS, {}).wrappers;
    };
    assert.equal(firstPass('log.c').noKindAsked, undefined, 'a write to a descriptor of unknown kind');
    assert.equal(firstPass('serve.c').noKindAsked, true, 'writes to standard output only');
  });
});
