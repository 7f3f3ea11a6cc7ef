// The client speaks to the real server with its protocol names: if either side renamed a method, a
// code, the diagnostic source, the fix-all kind or the trace notification, one of these exchanges would fail.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CodeAction } from 'vscode-languageserver-protocol';
import {
  DIAGNOSTIC_SOURCE,
  DiagnosticCode,
  FIX_ALL_KIND,
  LINT_WORKSPACE_METHOD,
  TRACE_NOTIFICATION,
  type LintWorkspaceResult,
  type TraceParams,
} from '@writev/client/out/protocol';
import { TestServer } from '../server/lspClient';

const SOURCE = [
  'void f(int fd, const char *a, const char *b, const char **items, int nr)',
  '{',
  '\tint i;',
  '\twrite_or_die(fd, a, 1);',
  '\twrite_or_die(fd, b, 1);',
  '\tfor (i = 0; i < nr; i++)',
  '\t\twrite_or_die(fd, items[i], 1);',
  '}',
  '',
].join('\n');

describe('the client-server contract, checked against the running server', () => {
  let dir: string;
  let server: TestServer;
  let file: string;
  let uri: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'writev-protocol-'));
    file = join(dir, 'x.c');
    writeFileSync(file, SOURCE);
    uri = `file://${file}`;
    server = await TestServer.start(dir, { workspace: { configuration: true, workspaceFolders: true } });
  });
  after(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers the client's lint-workspace method and publishes diagnostics with its source and codes", async () => {
    const result = (await server.connection.sendRequest(LINT_WORKSPACE_METHOD, {})) as LintWorkspaceResult;
    assert.deepEqual(result, { files: 1, findings: 2, cancelled: false });
    const published = await server.until('diagnostics of x.c', () => server.diagnostics.get(uri));
    assert.deepEqual(
      published.diagnostics.map((d) => d.source),
      [DIAGNOSTIC_SOURCE, DIAGNOSTIC_SOURCE],
    );
    assert.deepEqual(
      published.diagnostics.map((d) => d.code).sort(),
      [DiagnosticCode.adjacentWrites, DiagnosticCode.loopWrites].sort(),
    );
  });

  it("offers its fix-all under the client's kind", async () => {
    await server.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'c', version: 1, text: SOURCE },
    });
    await server.published(uri, 1);
    const actions = (await server.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: [FIX_ALL_KIND] },
    })) as CodeAction[];
    assert.deepEqual(
      actions.map((a) => a.kind),
      [FIX_ALL_KIND],
    );
  });

  it("joins a trace sent under the client's notification name to the diagnostics", async () => {
    const site = (line: number) => ({
      file,
      line,
      function: 'f',
      syscall: 'write' as const,
      fd: 3,
      calls: 1000,
      bytes: 1000,
    });
    server.diagnostics.delete(uri);
    const loaded: TraceParams = { sites: [site(4), site(5)] };
    await server.connection.sendNotification(TRACE_NOTIFICATION, loaded);
    const adjacent = await server.until('the measured adjacent-writes diagnostic', () =>
      server.diagnostics
        .get(uri)
        ?.diagnostics.find(
          (d) => d.code === DiagnosticCode.adjacentWrites && /measured/.test(String(d.message)),
        ),
    );
    assert.match(String(adjacent.message), /\(measured: 2,000 calls, 2\.0 kB\)$/);
    const cleared: TraceParams = { sites: null };
    await server.connection.sendNotification(TRACE_NOTIFICATION, cleared);
  });
});
