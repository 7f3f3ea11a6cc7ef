// A header's function-like macros that write, in a tree (c-headerwrites/): a use of one in a file that
// includes the header is read as its expansion, so two statements of a header's `HW_SEND(fd, x)` in a
// row are a run of checked writes (no fix: the writes are inside the expansions). A macro the header
// defines twice or with `#` is not expanded. The language server's index and a batch run read them alike.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS, WrapperIndex } from 'writev-lint';
import { analyzer, expectations, fixture, FIXTURES, observed } from './helpers';
import { lintRun } from './cliHelpers';

const TREE = join(FIXTURES, 'c-headerwrites');
const FILES = readdirSync(TREE).map((name) => join(TREE, name));

describe("a header's macros that write", () => {
  it('are expanded at their uses in the files that include the header', async () => {
    const a = await analyzer();
    const index = new WrapperIndex();
    for (const path of FILES)
      index.set(path, a.wrappers(path, fixture(relative(FIXTURES, path)), DEFAULT_SETTINGS));
    const frames = join(TREE, 'frames.c');
    const text = fixture(relative(FIXTURES, frames));
    const found = a.analyze(frames, text, DEFAULT_SETTINGS, { index });
    assert.deepEqual(observed(text, found), expectations(text));
    assert.equal(found[0]?.fix, undefined, 'the writes are in the expansions: no fix at the uses');
  });

  it('are expanded alike by a batch run over the tree', async () => {
    const run = await lintRun(['--no-config-lookup', '--format', 'json', TREE], TREE);
    const report = JSON.parse(run.out) as { findings: { path: string; line: number; fixable: boolean }[] };
    assert.deepEqual(
      report.findings.map((f) => `${f.path}:${f.line}`),
      ['frames.c:11'],
    );
  });
});
