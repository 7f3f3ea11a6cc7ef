// What `writev/lintWorkspace` publishes for files that are not open is a snapshot: under the settings and
// the texts of the moment. The language server withdraws it when either changes, when the file is
// opened (a client that pulls would show the snapshot beside the pulled findings, and keep it after a
// fix), and when a later lint finds nothing there. Driven over stdio by a client that pulls, as VS Code.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { TestServer } from './lspClient';

const PAIR =
  'void f(int fd)\n{\n\tif (fd) {\n\t\twrite_or_die(fd, "a", 1);\n\t\twrite_or_die(fd, "b", 1);\n\t}\n}\n';
const CLEAN = 'void f(int fd)\n{\n\twrite_or_die(fd, "ab", 2);\n}\n';

const dir = mkdtempSync(join(tmpdir(), 'writev-lsp-lint-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const path = join(dir, 'unopened.c');
const uri = `file://${path}`;

describe('language server: the findings writev/lintWorkspace published for files not open', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start(dir, {
      workspace: { configuration: true, workspaceFolders: true, diagnostics: { refreshSupport: true } },
      textDocument: { diagnostic: { dynamicRegistration: false } },
    });
  });
  after(async () => {
    assert.equal(await server.stop(), 0);
  });

  /** Lints the workspace; returns what it published for unopened.c. */
  async function lint(): Promise<Diagnostic[] | undefined> {
    server.diagnostics.delete(uri);
    await server.connection.sendRequest('writev/lintWorkspace', {});
    return server.diagnostics.get(uri)?.diagnostics;
  }

  /**
   * What the client holds as published for unopened.c once the server has handled every message sent
   * so far: the answer to a request comes after whatever the server published while handling them.
   */
  async function publishedNow(): Promise<Diagnostic[] | undefined> {
    await server.connection.sendRequest('textDocument/diagnostic', {
      textDocument: { uri: `file://${join(dir, 'none.c')}` },
    });
    return server.diagnostics.get(uri)?.diagnostics;
  }

  beforeEach(async () => {
    writeFileSync(path, PAIR);
    server.settings = {};
    await server.connection.sendNotification('workspace/didChangeConfiguration', {
      settings: { writev: {} },
    });
    assert.equal((await lint())?.length, 1, 'the lint publishes the pair');
  });

  it('a settings change withdraws them, as a fresh server would show none until the next lint', async () => {
    server.settings = { severity: { adjacentWrites: 'error' } };
    await server.connection.sendNotification('workspace/didChangeConfiguration', {
      settings: { writev: server.settings },
    });
    assert.deepEqual(await publishedNow(), []);
    const again = await lint();
    assert.deepEqual(
      again?.map((d) => d.severity),
      [1],
      'the next lint publishes them under the new settings',
    );
  });

  it('opening the file withdraws them: its pulled diagnostics are the only ones', async () => {
    await server.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'c', version: 1, text: PAIR },
    });
    const pulled = await server.connection.sendRequest<{ items: Diagnostic[] }>('textDocument/diagnostic', {
      textDocument: { uri },
    });
    assert.equal(pulled.items.length, 1);
    assert.deepEqual(server.diagnostics.get(uri)?.diagnostics, []);
    await server.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  });

  it('a change on disk withdraws them: they point into text that is gone', async () => {
    writeFileSync(path, CLEAN);
    await server.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri, type: 2 }],
    });
    assert.deepEqual(await publishedNow(), []);
  });

  it('a later lint that finds nothing there clears them', async () => {
    writeFileSync(path, CLEAN);
    assert.deepEqual(await lint(), []);
  });
});
