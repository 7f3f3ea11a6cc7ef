// A header's `static inline` functions in a tree (c-headerinline/): their bodies say what they do in
// every file that includes the header, so a pure one's call in a later write's arguments may move
// before the earlier writes (a run with a fix), and one that prints keeps writes to stdout apart. The
// language server's index and a batch run read them alike.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS, WrapperIndex } from 'writev-lint';
import { analyzer, expectations, fixture, FIXTURES, observed } from './helpers';
import { lintRun } from './cliHelpers';

const TREE = join(FIXTURES, 'c-headerinline');
const FILES = readdirSync(TREE).map((name) => join(TREE, name));

describe("a header's static inline functions", () => {
  it('are known pure or printing in the files that include the header', async () => {
    const a = await analyzer();
    const index = new WrapperIndex();
    for (const path of FILES)
      index.set(path, a.wrappers(path, fixture(relative(FIXTURES, path)), DEFAULT_SETTINGS));
    const records = join(TREE, 'records.c');
    assert.ok(index.cPureFor(records).has('hi_record_size'));
    assert.ok(!index.cQuietFor(records).has('hi_logged_size'));
    const text = fixture(relative(FIXTURES, records));
    const found = a.analyze(records, text, DEFAULT_SETTINGS, { index });
    assert.deepEqual(observed(text, found), expectations(text));
    assert.ok(found[0]?.fix, 'the pure call moves before the first write: the run has a fix');
  });

  it('are read alike by a batch run over the tree', async () => {
    const run = await lintRun(['--no-config-lookup', '--format', 'json', TREE], TREE);
    const report = JSON.parse(run.out) as { findings: { path: string; line: number; fixable: boolean }[] };
    assert.deepEqual(
      report.findings.map((f) => `${f.path}:${f.line}`),
      ['records.c:12'],
    );
    assert.equal(report.findings[0]?.fixable, true);
  });
});
