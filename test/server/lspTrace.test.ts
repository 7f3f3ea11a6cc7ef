// A trace loaded into the language server: the diagnostics of traced files carry the measured calls
// and bytes, hot lines no rule flags get a measured-writes hint, and clearing the trace removes both.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { messageText, TestServer } from './lspClient';
import type { Diagnostic } from 'vscode-languageserver-protocol';

const SOURCE = [
  '#include <unistd.h>',
  'void f(int fd, const char *a, const char *b, char *s, int n)',
  '{',
  '\twrite_or_die(fd, a, 1);',
  '\twrite_or_die(fd, b, 1);',
  '\tfor (int i = 0; i < n; i++)',
  '\t\twrite(fd, s + i, 1);',
  '}',
  '',
].join('\n');

describe('language server with a loaded trace', () => {
  let dir: string;
  let server: TestServer;
  let file: string;
  let uri: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'writev-lsp-trace-'));
    file = join(dir, 'x.c');
    writeFileSync(file, SOURCE);
    uri = `file://${file}`;
    server = await TestServer.start(dir, { workspace: { configuration: true, workspaceFolders: true } });
    await server.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'c', version: 1, text: SOURCE },
    });
    await server.published(uri, 1);
  });
  after(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const site = (line: number, calls: number, bytes: number) => ({
    file,
    line,
    function: 'f',
    syscall: 'write',
    fd: 3,
    calls,
    bytes,
  });

  it('adds the measured figures to findings and a measured-writes hint on a hot line', async () => {
    server.diagnostics.delete(uri);
    await server.connection.sendNotification('writev/trace', {
      sites: [site(4, 1000, 1000), site(5, 1000, 1000), site(7, 5000, 5000), site(2, 1, 1)],
    });
    const diagnostics = await server.until('measured diagnostics', () => {
      const d = server.diagnostics.get(uri)?.diagnostics;
      return d?.some((x) => x.code === 'measured-writes') ? d : undefined;
    });
    const adjacent = diagnostics.find((d) => d.code === 'adjacent-writes');
    assert.match(messageText(adjacent), /\(measured: 2,000 calls, 2\.0 kB\)$/);
    const hot = diagnostics.filter((d) => d.code === 'measured-writes');
    assert.equal(hot.length, 1, 'one hot line: the 1-call line is below the threshold');
    assert.deepEqual(hot[0]?.range, { start: { line: 6, character: 0 }, end: { line: 6, character: 22 } });
    assert.match(messageText(hot[0]), /5,000 write calls .*5,000 write on fd 3/);
  });

  it('puts no hint on traced lines beyond the end of the document', async () => {
    server.diagnostics.delete(uri);
    await server.connection.sendNotification('writev/trace', {
      sites: [site(999999, 5000, 5000), site(10, 5000, 5000), site(7, 4000, 4000)],
    });
    // The diagnostics of this trace: the one before measured 5,000 calls on line 7.
    const diagnostics = await server.until('measured diagnostics', () => {
      const d = server.diagnostics.get(uri)?.diagnostics;
      return d?.some((x) => /4,000 write calls/.test(messageText(x))) ? d : undefined;
    });
    const hot = diagnostics.filter((d) => d.code === 'measured-writes');
    assert.deepEqual(
      hot.map((d) => d.range.start.line),
      [6],
      'only line 7: the document has 9 lines (the last one empty)',
    );
  });

  it('clears them with the trace', async () => {
    server.diagnostics.delete(uri);
    await server.connection.sendNotification('writev/trace', { sites: null });
    // A publish already under way when the trace was cleared may still carry it: wait for the next.
    const diagnostics = await server.until('diagnostics without the trace', () => {
      const d = server.diagnostics.get(uri)?.diagnostics;
      return d?.every((x) => x.code !== 'measured-writes' && !/measured/.test(messageText(x)))
        ? d
        : undefined;
    });
    assert.ok(diagnostics.some((d) => d.code === 'adjacent-writes'));
  });
});

describe('language server with a loaded trace, to a client that pulls diagnostics', () => {
  let dir: string;
  let server: TestServer;
  let uri: string;
  type Report = { kind: string; items?: Diagnostic[]; resultId?: string };
  const ask = (previousResultId?: string) =>
    server.connection.sendRequest<Report>('textDocument/diagnostic', {
      textDocument: { uri },
      previousResultId,
    });
  /** Sends a trace (null clears it) and waits for the server to ask the client to pull again. */
  const sendTrace = async (sites: unknown[] | null) => {
    const before = server.refreshes;
    await server.connection.sendNotification('writev/trace', { sites });
    await server.until('a diagnostics refresh', () => (server.refreshes > before ? true : undefined));
  };
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'writev-lsp-trace-pull-'));
    const file = join(dir, 'x.c');
    writeFileSync(file, SOURCE);
    uri = `file://${file}`;
    server = await TestServer.start(dir, {
      workspace: { configuration: true, diagnostics: { refreshSupport: true } },
      textDocument: { diagnostic: { dynamicRegistration: false } },
    });
    await server.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'c', version: 1, text: SOURCE },
    });
  });
  after(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks the client to pull again when a trace arrives or goes, and the pull carries the figures', async () => {
    const plain = await ask();
    assert.equal(plain.kind, 'full');
    assert.ok(plain.items?.some((d) => d.code === 'adjacent-writes'));
    assert.ok(plain.items?.every((d) => !/measured/.test(messageText(d))));
    const file = join(dir, 'x.c');
    const at = (line: number) => ({
      file,
      line,
      function: 'f',
      syscall: 'write',
      fd: 3,
      calls: 1000,
      bytes: 1000,
    });
    await sendTrace([at(4), at(5)]);
    // The client pulls with the result id it holds: the server must not answer "unchanged".
    const measured = await ask(plain.resultId);
    assert.equal(measured.kind, 'full');
    const adjacent = measured.items?.find((d) => d.code === 'adjacent-writes');
    assert.match(messageText(adjacent), /\(measured: 2,000 calls, 2\.0 kB\)$/);
    await sendTrace(null);
    const cleared = await ask(measured.resultId);
    assert.equal(cleared.kind, 'full');
    assert.ok(cleared.items?.some((d) => d.code === 'adjacent-writes'));
    assert.ok(cleared.items?.every((d) => !/measured/.test(messageText(d))));
  });
});
