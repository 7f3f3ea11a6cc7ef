// The language server keeps the fact base of each workspace folder (every file's write helpers, the
// functions that do no output) and re-diagnoses the documents open elsewhere when a save or a change
// outside the editor changes it: a helper made to write in one file gives its callers in another file
// findings without an edit of theirs.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { TestServer } from './lspClient';

const work = mkdtempSync(join(tmpdir(), 'writev-lsp-facts-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** The helper before: it only counts what it is given. */
const QUIET_HELPER = `#include <stddef.h>

static size_t total;

void emit(int fd, const char *s, size_t n)
{
\t(void)fd;
\t(void)s;
\ttotal += n;
}
`;

/** The helper after: it writes all of its buffer to the descriptor. */
const WRITING_HELPER = `#include <stddef.h>
#include <sys/types.h>
#include <unistd.h>

void emit(int fd, const char *s, size_t n)
{
\tsize_t off = 0;

\twhile (off < n) {
\t\tssize_t w = write(fd, s + off, n - off);
\t\tif (w < 0)
\t\t\treturn;
\t\toff += (size_t)w;
\t}
}
`;

const CALLER = `#include <stddef.h>

void emit(int fd, const char *s, size_t n);

void greet(const char *name, size_t n)
{
\temit(1, "hello, ", 7);
\temit(1, name, n);
}
`;

function tree(): string {
  const dir = mkdtempSync(join(work, 'tree-'));
  writeFileSync(join(dir, 'helper.c'), QUIET_HELPER);
  writeFileSync(join(dir, 'caller.c'), CALLER);
  return dir;
}

async function openCaller(server: TestServer, dir: string): Promise<() => number | undefined> {
  const caller = `file://${join(dir, 'caller.c')}`;
  await server.connection.sendNotification('textDocument/didOpen', {
    textDocument: { uri: caller, languageId: 'c', version: 1, text: CALLER },
  });
  await server.published(caller, 1);
  return () => server.diagnostics.get(caller)?.diagnostics.length;
}

describe('the language server: facts from other files', () => {
  it('saving a file that makes a helper write re-diagnoses its callers open in other files', async () => {
    const dir = tree();
    const server = await TestServer.start(dir, { workspace: { workspaceFolders: true } });
    try {
      const findings = await openCaller(server, dir);
      assert.equal(findings(), 0, 'emit() does not write yet');
      const helper = `file://${join(dir, 'helper.c')}`;
      await server.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: helper, languageId: 'c', version: 1, text: QUIET_HELPER },
      });
      await server.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: helper, version: 2 },
        contentChanges: [{ text: WRITING_HELPER }],
      });
      await server.connection.sendNotification('textDocument/didSave', { textDocument: { uri: helper } });
      await server.until('the caller re-diagnosed with the helper writing', () =>
        findings() === 1 ? true : undefined,
      );
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it('a helper changed outside the editor re-diagnoses its callers open in other files', async () => {
    const dir = tree();
    const server = await TestServer.start(dir, { workspace: { workspaceFolders: true } });
    try {
      const findings = await openCaller(server, dir);
      assert.equal(findings(), 0, 'emit() does not write yet');
      // helper.c is not open: another program rewrites it, and the client reports the watched file.
      writeFileSync(join(dir, 'helper.c'), WRITING_HELPER);
      await server.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [{ uri: `file://${join(dir, 'helper.c')}`, type: 2 }],
      });
      await server.until('the caller re-diagnosed with the helper writing', () =>
        findings() === 1 ? true : undefined,
      );
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
