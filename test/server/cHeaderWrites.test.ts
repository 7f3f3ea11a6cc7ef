// A header's function-like macros that write, in a tree (c-headerwrites/): a use of one in a file that
// includes the header is read as its expansion, so two statements of a header's `HW_SEND(fd, x)` in a
// row are a run of checked writes (no fix: the writes are inside the expansions). A macro the header
// defines twice or with `#` is not expanded. The language server's index and a batch run read them alike.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { analyzer, FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers, treeIndex, treeText } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-headerwrites');

describe("a header's macros that write", () => {
  it('are expanded at their uses in the files that include the header', async () => {
    await assertEditorFindsMarkers(TREE);
    const frames = join(TREE, 'frames.c');
    const found = (await analyzer()).analyze(frames, treeText(frames), DEFAULT_SETTINGS, {
      index: await treeIndex(TREE),
    });
    assert.equal(found[0]?.fix, undefined, 'the writes are in the expansions: no fix at the uses');
  });

  it('are expanded alike by a batch run over the tree', async () => {
    const findings = await assertBatchFindsMarkers(TREE);
    assert.deepEqual(
      findings.map((f) => `${f.path}:${f.line}`),
      ['frames.c:11'],
    );
  });
});
