// The language server with .writev-lint.json files and suppression comments, over stdio as an editor
// drives it: a config file in the workspace wins over the client's settings (and the log names it),
// a changed config file is read again, a bad one is reported while the client's settings apply, and
// the "Disable <code> for this line" quick fix inserts the comment the CLI also honours.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver-protocol';
import { main } from 'writev-lint/out/cli/main';
import { TestServer } from './lspClient';

const PAIR =
  'void f(int fd)\n{\n\tif (fd) {\n\t\twrite_or_die(fd, "a", 1);\n\t\twrite_or_die(fd, "b", 1);\n\t}\n}\n';

const tmp = mkdtempSync(join(tmpdir(), 'writev-lsp-config-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const configured = join(tmp, 'configured');
const plain = join(tmp, 'plain');
mkdirSync(join(configured, 'src'), { recursive: true });
mkdirSync(plain, { recursive: true });
const configPath = join(configured, '.writev-lint.json');

function open(server: TestServer, path: string, text: string, languageId = 'c'): string {
  const uri = `file://${path}`;
  void server.connection.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId, version: 1, text },
  });
  return uri;
}

function editsOf(action: CodeAction): TextEdit[] {
  const change = action.edit?.documentChanges?.[0];
  assert.ok(change && 'edits' in change, 'the action carries a versioned text edit');
  return change.edits as TextEdit[];
}

describe('language server with .writev-lint.json', () => {
  let server: TestServer;
  const shown: string[] = [];
  before(async () => {
    writeFileSync(configPath, JSON.stringify({ severity: { adjacentWrites: 'error' } }));
    server = await TestServer.start([configured, plain], {
      workspace: {
        configuration: true,
        workspaceFolders: true,
        didChangeWatchedFiles: { dynamicRegistration: true },
      },
    });
    server.settings = { severity: { adjacentWrites: 'hint' } };
    server.connection.onNotification('window/showMessage', (params: { message: string }) => {
      shown.push(params.message);
    });
  });
  after(async () => {
    assert.equal(await server.stop(), 0);
  });

  it("the config file's settings win over the client's, and the log says which file applied", async () => {
    const inConfigured = open(server, join(configured, 'src', 'a.c'), PAIR);
    const inPlain = open(server, join(plain, 'b.c'), PAIR);
    const [configuredDiag] = await server.published(inConfigured, 1);
    const [plainDiag] = await server.published(inPlain, 1);
    assert.equal(configuredDiag?.severity, 1, 'error, from .writev-lint.json');
    assert.equal(plainDiag?.severity, 4, "hint, from the client's settings");
    assert.ok(
      server.log.some((l) => l.includes(`settings from ${configPath}`)),
      `the log names the config file: ${server.log.join('\n')}`,
    );
  });

  it('reads a changed config file again; a bad one is reported and the client settings apply meanwhile', async () => {
    const uri = open(server, join(configured, 'src', 'c.c'), PAIR);
    await server.published(uri, 1);
    const notify = () =>
      server.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [{ uri: `file://${configPath}`, type: 2 }],
      });
    server.diagnostics.delete(uri);
    writeFileSync(configPath, JSON.stringify({ severity: { adjacentWrites: 'information' } }));
    await notify();
    const information = await server.until('diagnostics with the changed config file', () =>
      server.diagnostics.get(uri)?.diagnostics[0]?.severity === 3 ? true : undefined,
    );
    assert.ok(information);
    writeFileSync(configPath, JSON.stringify({ severity: { adjacentWrite: 'error' } }));
    await notify();
    await server.until('diagnostics with the client settings', () =>
      server.diagnostics.get(uri)?.diagnostics[0]?.severity === 4 ? true : undefined,
    );
    await server.until('the warning about the bad config file', () =>
      shown.some((m) =>
        m.includes(
          `${configPath}: severity.adjacentWrite: unknown setting; did you mean severity.adjacentWrites?`,
        ),
      )
        ? true
        : undefined,
    );
    writeFileSync(configPath, JSON.stringify({ severity: { adjacentWrites: 'error' } }));
    await notify();
    await server.until('diagnostics with the fixed config file', () =>
      server.diagnostics.get(uri)?.diagnostics[0]?.severity === 1 ? true : undefined,
    );
  });
});

describe('"Disable <code> for this line" in the editor', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start(plain, { workspace: { configuration: true } });
  });
  after(async () => {
    assert.equal(await server.stop(), 0);
  });

  async function disable(
    path: string,
    text: string,
    languageId: string,
  ): Promise<{ edits: TextEdit[]; diags: Diagnostic[] }> {
    const uri = open(server, path, text, languageId);
    const diags = await server.published(uri, 1);
    assert.equal(diags.length, 1);
    const actions = await server.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diags[0]?.range,
      context: { diagnostics: diags },
    });
    const action = actions.find((a) => a.title === `Disable ${String(diags[0]?.code)} for this line`);
    assert.ok(action, `offered: ${actions.map((a) => a.title).join(', ')}`);
    assert.equal(action.kind, 'quickfix');
    assert.notEqual(action.isPreferred, true, 'the fix, not the silencing, is preferred');
    return { edits: editsOf(action), diags };
  }

  it("inserts a C comment with the line's indentation and the file's CRLF; the CLI then skips the finding", async () => {
    const path = join(plain, 'crlf.c');
    const text = PAIR.replace(/\n/g, '\r\n');
    const { edits } = await disable(path, text, 'c');
    assert.deepEqual(edits, [
      {
        range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } },
        newText: '\t\t/* writev-lint-disable-next-line adjacent-writes */\r\n',
      },
    ]);
    const fixed = TextDocument.applyEdits(TextDocument.create('file:///x.c', 'c', 1, text), edits);
    writeFileSync(path, fixed);
    let out = '';
    const status = await main(
      ['--no-config-lookup', path],
      { out: (t) => (out += t), err: () => undefined },
      plain,
    );
    assert.deepEqual([status, out], [0, '']);
  });

  it('inserts a // comment in TypeScript, indented with spaces', async () => {
    const text =
      "import * as fs from 'node:fs';\nexport function f(fd: number, a: Uint8Array, b: Uint8Array): void {\n    fs.writeSync(fd, a);\n    fs.writeSync(fd, b);\n}\n";
    const { edits } = await disable(join(plain, 'a.ts'), text, 'typescript');
    assert.deepEqual(edits, [
      {
        range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } },
        newText: '    // writev-lint-disable-next-line adjacent-writes\n',
      },
    ]);
  });
});
