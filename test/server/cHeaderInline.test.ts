// A header's `static inline` functions in a tree (c-headerinline/): their bodies say what they do in
// every file that includes the header, so a pure one's call in a later write's arguments may move
// before the earlier writes (a run with a fix), and one that prints keeps writes to stdout apart. The
// language server's index and a batch run read them alike.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { analyzer, FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers, treeIndex, treeText } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-headerinline');

describe("a header's static inline functions", () => {
  it('are known pure or printing in the files that include the header', async () => {
    const index = await treeIndex(TREE);
    const records = join(TREE, 'records.c');
    assert.ok(index.cPureFor(records).has('hi_record_size'));
    assert.ok(!index.cQuietFor(records).has('hi_logged_size'));
    await assertEditorFindsMarkers(TREE);
    const found = (await analyzer()).analyze(records, treeText(records), DEFAULT_SETTINGS, { index });
    assert.ok(found[0]?.fix, 'the pure call moves before the first write: the run has a fix');
  });

  it('are read alike by a batch run over the tree', async () => {
    const findings = await assertBatchFindsMarkers(TREE);
    assert.deepEqual(
      findings.map((f) => `${f.path}:${f.line}`),
      ['records.c:12'],
    );
    assert.equal(findings[0]?.fixable, true);
  });
});
