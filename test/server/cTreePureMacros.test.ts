// A header's macro standing for a pure library call (c-treepuremacros/): `ps_len(s)`, defined as
// strlen() of a cast, may be taken before the first write as strlen() may, in functions whose heads
// carry an attribute macro after their type too; the same name defined by another header over a
// function that prints is that header's includers' own, and keeps their writes apart.
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-treepuremacros');

describe("C header macros over pure calls in a later write's arguments", () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('gathers them with a fix in a batch run (the length is taken first, as strlen() is)', async () => {
    const found = await assertBatchFindsMarkers(TREE);
    assert.equal(found.length, 3);
    assert.ok(
      found.every((f) => f.fixable),
      JSON.stringify(found),
    );
  });
});
