// A C source file another includes (c-sourceincludes/: journal.c has `#include "journal_records.c"`)
// is part of its includer's translation unit: its static helpers are the includer's own, as a header's
// are, for the language server's index and a batch run alike; a file that does not include it does not
// get them.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { analyzer, FIXTURES } from './helpers';
import { assertBatchFindsMarkers, assertEditorFindsMarkers, treeIndex, treeText } from './fixtureTrees';
import { TestServer } from './lspClient';

const TREE = join(FIXTURES, 'c-sourceincludes');

const work = mkdtempSync(join(tmpdir(), 'writev-source-includes-'));
after(() => rmSync(work, { recursive: true, force: true }));

describe("an included C source's static helpers", () => {
  it("are the includer's helpers and known bodies, in the editor's index", async () => {
    const index = await treeIndex(TREE);
    const journal = join(TREE, 'journal.c');
    const records = join(TREE, 'journal_records.c');
    assert.ok(index.cShared(records), 'journal.c includes it');
    assert.ok(!index.cShared(journal));
    assert.ok(index.cQuietFor(journal).has('jr_checksum'));
    assert.ok(!index.cQuietFor(journal).has('jr_note'));
    await assertEditorFindsMarkers(TREE);
    const [found] = (await analyzer()).analyze(journal, treeText(journal), DEFAULT_SETTINGS, { index });
    assert.doesNotMatch(found?.message ?? '', /jr_checksum\(\), whose body is not in the code read/);
  });

  it('are read alike by a batch run over the tree', async () => {
    const findings = await assertBatchFindsMarkers(TREE);
    assert.deepEqual(
      findings.map((f) => `${f.path}:${f.line}`),
      ['journal.c:14'],
    );
  });

  it('re-diagnose the includer in the language server when the included file changes', async () => {
    const dir = mkdtempSync(join(work, 'tree-'));
    cpSync(TREE, dir, { recursive: true });
    const server = await TestServer.start(dir, { workspace: { workspaceFolders: true } });
    try {
      const journal = `file://${join(dir, 'journal.c')}`;
      await server.connection.sendNotification('textDocument/didOpen', {
        textDocument: {
          uri: journal,
          languageId: 'c',
          version: 1,
          text: readFileSync(join(dir, 'journal.c'), 'utf8'),
        },
      });
      const lines = () => (server.diagnostics.get(journal)?.diagnostics ?? []).map((d) => d.range.start.line);
      await server.until('the includer diagnosed with the included helpers', () =>
        lines().join() === '13' ? true : undefined,
      );
      // jr_put() made to count instead of writing: the includer's calls write nothing any more.
      const records = join(dir, 'journal_records.c');
      const text = readFileSync(records, 'utf8');
      writeFileSync(
        records,
        text.replace('if (write(fd, buf, nbytes) != (ssize_t)nbytes)', 'if (fd < 0 || !buf)'),
      );
      await server.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [{ uri: `file://${records}`, type: 2 }],
      });
      await server.until('the includer re-diagnosed with the included helper quiet', () =>
        lines().length === 0 ? true : undefined,
      );
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
