// The language server meets the inputs that once broke writev-lint: a workspace holding a FIFO
// source file and a FIFO .gitignore (no hang), Latin-1 bytes, a junk line that once hid the
// findings after it, and a CRLF document whose quick fix must keep CRLF everywhere.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver-protocol';
import { TestServer } from './lspClient';

const dir = mkdtempSync(join(tmpdir(), 'writev-lsp-safety-'));

const SEQUENCE = (name: string) =>
  `void ${name}(int fd, const char *b)\n{\n\twrite_in_full(fd, "a", 1);\n\twrite_in_full(fd, b, 2);\n}\n`;
const JUNK = `void broken(int fd, char *a)\n{\n\txx write_in_full(fd, a, 3);\n}\n\n${SEQUENCE('later')}`;

describe('language server: hostile files and documents', { timeout: 60_000 }, () => {
  let server: TestServer;
  before(async () => {
    execFileSync('mkfifo', [join(dir, 'pipe.c')]);
    execFileSync('mkfifo', [join(dir, '.gitignore')]);
    writeFileSync(join(dir, 'latin1.c'), Buffer.from(`/* caf\xe9 */\n${SEQUENCE('emit')}`, 'latin1'));
    writeFileSync(join(dir, 'junk.c'), JUNK);
    server = await TestServer.start(dir, {
      workspace: { configuration: true, workspaceFolders: true },
    });
  });
  after(async () => {
    assert.equal(await server.stop(), 0);
    rmSync(dir, { recursive: true, force: true });
  });

  it('lints a workspace holding FIFOs without hanging, and names what it skipped', async () => {
    const result = await server.connection.sendRequest<{
      files: number;
      findings: number;
      cancelled: boolean;
    }>('writev/lintWorkspace', {});
    assert.deepEqual(result, { files: 2, findings: 2, cancelled: false });
    const latin1 = server.diagnostics.get(`file://${join(dir, 'latin1.c')}`)?.diagnostics ?? [];
    assert.deepEqual(
      latin1.map((d) => d.range.start),
      [{ line: 3, character: 1 }],
    );
    const junk = server.diagnostics.get(`file://${join(dir, 'junk.c')}`)?.diagnostics ?? [];
    assert.deepEqual(
      junk.map((d) => d.range.start.line),
      [7],
      'the function after the junk line has its finding',
    );
    assert.ok(server.log.some((m) => /skipped .*pipe\.c: not a regular file/.test(m)));
    assert.ok(server.log.some((m) => /skipped .*\.gitignore: its rules could not be read/.test(m)));
  });

  it('offers a quick fix for a CRLF document that writes CRLF on every line it adds', async () => {
    const uri = `file://${join(dir, 'crlf.c')}`;
    const text = `#include <unistd.h>\r\n#include "x.h"\r\n\r\n${SEQUENCE('emit').replace(/\n/g, '\r\n')}`;
    await server.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'c', version: 1, text },
    });
    const [diag] = await server.published(uri, 1);
    const actions = await server.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: (diag as Diagnostic).range,
      context: { diagnostics: [diag], only: ['quickfix'] },
    });
    const change = actions[0]?.edit?.documentChanges?.[0];
    assert.ok(change && 'edits' in change);
    const fixed = TextDocument.applyEdits(TextDocument.create(uri, 'c', 1, text), change.edits as TextEdit[]);
    assert.match(fixed, /^#include <unistd.h>\r\n#include "x.h"\r\n#include <sys\/uio.h>\r\n\r\n/);
    assert.equal(fixed.replace(/\r\n/g, '').search(/[\r\n]/), -1, 'every line ends with CRLF');
    assert.match(fixed, /writev_in_full\(fd, iov, 2\)/);
  });

  it('keeps the findings after a junk line in an open document', async () => {
    const uri = `file://${join(dir, 'open-junk.c')}`;
    await server.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'c', version: 1, text: JUNK },
    });
    const diags = await server.published(uri, 1);
    assert.deepEqual(
      diags.map((d) => d.range.start.line),
      [7],
    );
  });
});
