// Writes spelled only by a header's macros that expand to a helper another file defines
// (c-headermacrohelpers/): the file's text names the macro, never the helper, and a batch run's
// second pass must read it again with the tree's index as the editor reads it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { analyzer, FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers, treeIndex } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-headermacrohelpers');
const CHAINS = join(FIXTURES, 'c-headermacrochains');

describe("a header's macro expanding to another file's helper", () => {
  it('finds the writes through the macro, and through a macro of that macro, in the editor', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run: the second pass reads the file that calls only the macros', async () => {
    await assertBatchFindsMarkers(TREE);
  });

  it('names the macros whose bodies call the helper, directly or through another macro', async () => {
    const index = await treeIndex(TREE);
    assert.deepEqual(index.cHeaderMacrosCalling(['hmh_send_traced']).sort(), ['HMH_SEND', 'HMH_SEND_STR']);
    assert.deepEqual(index.cHeaderMacrosCalling(['write']), []);
    // A later change of the header is seen.
    const a = await analyzer();
    const header = join(TREE, 'trace.h');
    index.set(
      header,
      a.wrappers(header, '#define HMH_OTHER(x) hmh_send_traced(x, 0, 0, 0, 0)\n', DEFAULT_SETTINGS),
    );
    assert.deepEqual(index.cHeaderMacrosCalling(['hmh_send_traced']), ['HMH_OTHER']);
  });
});

describe("a helper whose only write is a macro over another file's helper", () => {
  it("is a write helper in a batch run: the header's macro, a macro of it and the file's own", async () => {
    await assertBatchFindsMarkers(CHAINS);
  });
});
