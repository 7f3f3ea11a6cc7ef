// Where a C file's definitions come from: the helpers of the headers it includes, one definition of a
// name among several in the tree (the one beside the caller, or none), the file's own function under a
// catalogue name, and buffers spelled as adjacent string macros.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { analyzeFixture, analyzer, fixture, FIXTURES } from './helpers';
import { lintRun } from './cliHelpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers, treeIndex } from './fixtureTrees';

const TREE = join(FIXTURES, 'c-headerdefs');

describe('C definitions from headers and from other programs of a tree', () => {
  it('finds what each file of the tree marks, with the workspace index', async () => {
    await assertEditorFindsMarkers(TREE);
  });

  it('finds the same in a batch run over the tree (first pass, fact base, second pass)', async () => {
    await assertBatchFindsMarkers(TREE);
  });

  it('finds the same from a cache, the header that only includes another kept in its index', async () => {
    const cache = join(mkdtempSync(join(tmpdir(), 'writev-headerdefs-')), 'cache');
    const args = ['--no-config-lookup', '--format', 'concise', '--cache', '--cache-location', cache, TREE];
    const first = await lintRun(args, TREE);
    const again = await lintRun(args, TREE);
    assert.equal(first.out.split('\n').filter((l) => l.includes('adjacent-writes')).length, 4);
    assert.equal(again.out, first.out);
    rmSync(dirname(cache), { recursive: true, force: true });
  });

  it("offers no fix through another file's helper: the caller cannot see its body", async () => {
    const a = await analyzer();
    const index = await treeIndex(TREE);
    const path = join(TREE, 'net', 'request.c');
    const [found] = a.analyze(path, fixture('c-headerdefs/net/request.c'), DEFAULT_SETTINGS, { index });
    assert.equal(found?.fix, undefined);
    assert.match(found?.message ?? '', /put_all\(\)/);
  });

  it("forgets a header's helpers for its includers when the header no longer defines them", async () => {
    const a = await analyzer();
    const index = await treeIndex(TREE);
    const header = join(TREE, 'net', 'wire.h');
    index.set(header, a.wrappers(header, '/* emptied */\n', DEFAULT_SETTINGS));
    const path = join(TREE, 'net', 'request.c');
    assert.deepEqual(a.analyze(path, fixture('c-headerdefs/net/request.c'), DEFAULT_SETTINGS, { index }), []);
  });

  it("reads the file's own function under a catalogue name by its body, and names no missing twin", async () => {
    const text = fixture('c/headerdefs.c');
    const found = await analyzeFixture('c/headerdefs.c');
    const inFn = (fn: string) => {
      const start = text.indexOf(fn);
      return found.find((f) => f.span.start > start && f.span.end <= text.indexOf('\n}', start));
    };
    const mail = inFn('void mail_header');
    assert.equal(mail?.fix, undefined);
    assert.match(mail?.message ?? '', /xwrite\(\) is this project's own write helper/);
    const status = inFn('void status_line');
    assert.equal(status?.fix, undefined);
    assert.doesNotMatch(status?.message ?? '', /writev_in_full/);
    // Adjacent string macros: fixed into one iovec entry that copies the concatenation as written.
    const tablet = inFn('void tablet_mode');
    const fixText = tablet?.fix?.edits.map((e) => e.newText).join('\n') ?? '';
    assert.match(fixText, /\.iov_base = \(void \*\)\(MODE_ABSOLUTE MODE_STREAM MODE_ORIGIN\), \.iov_len = 3/);
  });
});
