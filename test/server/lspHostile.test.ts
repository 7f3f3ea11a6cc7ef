// The language server meets input that once killed it or left it deaf: a workspace config file
// nested 100,000 levels deep, a document URI whose percent-escapes are not UTF-8 (what Neovim and
// Emacs send for a Latin-1 file name), and a frame whose Content-Length is not a number. Each must
// leave the server alive and answering, with the problem named.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TestServer } from './lspClient';
import { lintBin } from './cliHelpers';

const SEQUENCE = 'void f(int fd)\n{\n\twrite_or_die(fd, "a", 1);\n\twrite_or_die(fd, "b", 1);\n}\n';
const DEPTH = 100_000;

const tmp = mkdtempSync(join(tmpdir(), 'writev-lsp-hostile-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** A config file whose one setting is an array nested `depth` levels deep. */
function deepConfig(dir: string, depth = DEPTH): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, '.writev-lint.json');
  writeFileSync(path, `{"minSequenceLength": ${'['.repeat(depth)}${']'.repeat(depth)}}`);
  writeFileSync(join(dir, 'a.c'), SEQUENCE);
  return path;
}

describe('language server: input that once killed it', { timeout: 60_000 }, () => {
  const deep = join(tmp, 'deep');
  const deepFile = deepConfig(deep);
  let server: TestServer;
  const shown: string[] = [];
  before(async () => {
    server = await TestServer.start(deep, { workspace: { configuration: true, workspaceFolders: true } });
    server.connection.onNotification('window/showMessage', (params: { message: string }) => {
      shown.push(params.message);
    });
  });
  after(async () => {
    assert.equal(await server.stop(), 0);
  });

  it('names a config file nested too deep and serves the document with the editor settings', async () => {
    const uri = `file://${join(deep, 'a.c')}`;
    await server.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'c', version: 1, text: SEQUENCE },
    });
    const diagnostics = await server.published(uri, 1);
    assert.equal(diagnostics.length, 1, 'the editor settings apply while the config file is unusable');
    const warning = await server.until('the warning about the config file', () =>
      shown.find((m) => m.includes(deepFile)),
    );
    assert.match(warning, /minSequenceLength\[0\]: nested deeper than 32 levels/);
    assert.equal(server.child.exitCode, null, 'the server is still running');
  });

  it('serves a document whose file: URI is not UTF-8 once decoded', async () => {
    // caf\xe9.c in Latin-1, percent-encoded byte by byte as Neovim and Emacs do.
    const uri = `file://${tmp}/caf%E9.c`;
    await server.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'c', version: 1, text: SEQUENCE },
    });
    const diagnostics = await server.published(uri, 1);
    assert.deepEqual(
      diagnostics.map((d) => d.range.start),
      [{ line: 2, character: 1 }],
    );
    const actions = await server.connection.sendRequest<unknown[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostics[0]!.range,
      context: { diagnostics, only: ['quickfix'] },
    });
    assert.ok(actions.length > 0, 'the quick fix is offered');
    assert.equal(server.child.exitCode, null, 'the server is still running');
  });

  it('reports a frame whose Content-Length is not a number and answers the frames after it', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 9999, method: 'writev/lintWorkspace', params: {} });
    const logged = server.log.length;
    server.child.stdin!.write(`Content-Length: abc\r\n\r\n${body}`);
    // The next well-formed request is answered: the stream found its frames again.
    const result = await server.connection.sendRequest<{ files: number }>('writev/lintWorkspace', {});
    assert.equal(result.files, 1);
    const report = server.log.slice(logged).find((m) => /Content-Length/.test(m));
    assert.ok(report, 'the bad frame is reported in the log');
    assert.match(report, /"abc" is not a byte count/);
  });

  it('answers after a frame whose body is cut short by the next frame', async () => {
    // Content-Length promises more bytes than the body has, so the next header falls inside it.
    server.child.stdin!.write('Content-Length: 4000\r\n\r\n{"jsonrpc":"2.0","id":77,');
    const result = await server.connection.sendRequest<{ files: number }>('writev/lintWorkspace', {});
    assert.equal(result.files, 1);
  });
});

describe('language server: config files outside the workspace', { timeout: 60_000 }, () => {
  const SECRET = 'WRITEV_SECRET=hunter2-do-not-print';
  // shared/.writev-lint.json excludes everything; shared/ws is the workspace (no git repository).
  const shared = join(tmp, 'shared');
  const ws = join(shared, 'ws');
  const linked = join(ws, 'linked');
  let server: TestServer;
  const shown: string[] = [];
  before(async () => {
    mkdirSync(linked, { recursive: true });
    writeFileSync(join(shared, '.writev-lint.json'), JSON.stringify({ exclude: ['**'] }));
    writeFileSync(join(tmp, 'secret.json'), `${SECRET}\n`);
    symlinkSync(join(tmp, 'secret.json'), join(linked, '.writev-lint.json'));
    server = await TestServer.start(ws, { workspace: { configuration: true, workspaceFolders: true } });
    server.connection.onNotification('window/showMessage', (params: { message: string }) => {
      shown.push(params.message);
    });
  });
  after(async () => {
    assert.equal(await server.stop(), 0);
  });

  it('ignores a config file above the workspace folder', async () => {
    const uri = `file://${join(ws, 'a.c')}`;
    await server.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'c', version: 1, text: SEQUENCE },
    });
    assert.equal(
      (await server.published(uri, 1)).length,
      1,
      'the exclude above the workspace does not apply',
    );
  });

  it('refuses a config file that links out of the workspace, naming it and showing none of the target', async () => {
    const uri = `file://${join(linked, 'b.c')}`;
    await server.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'c', version: 1, text: SEQUENCE },
    });
    assert.equal((await server.published(uri, 1)).length, 1, 'the editor settings apply');
    const warning = await server.until('the warning about the linked config file', () =>
      shown.find((m) => m.includes(join(linked, '.writev-lint.json'))),
    );
    assert.match(warning, /a link to a file outside .*; it is not read/);
    assert.ok(![...shown, ...server.log].some((m) => m.includes('hunter2')), 'the target is never shown');
  });
});

describe('writev-lint with a config file nested too deep', () => {
  it('exits 2 with one line naming the file and the key, and no stack trace', () => {
    const dir = join(tmp, 'cli-deep');
    const file = deepConfig(dir);
    const run = lintBin(['a.c'], { cwd: dir });
    assert.equal(run.status, 2, run.stderr);
    assert.equal(run.stdout, '');
    const lines = run.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0]!, /minSequenceLength\[0\]: nested deeper than 32 levels/);
    assert.ok(lines[0]!.includes(file), run.stderr);
    assert.doesNotMatch(run.stderr, /^\s+at /m);
  });
});
