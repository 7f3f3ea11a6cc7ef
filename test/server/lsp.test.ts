// Drives the language server over stdio from a child process, as an editor would: open, change,
// diagnostics (pushed and pulled), code actions, applying their edits, configuration changes, the
// workspace wrapper index, and junk that must not crash or stall it.
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver-protocol';
import {
  CancellationTokenSource,
  createProtocolConnection,
  IPCMessageReader,
  IPCMessageWriter,
} from 'vscode-languageserver-protocol/node';
import { expectations, fixture, fixtures, FIXTURES, fixtureSettings, REPO } from './helpers';
import { messageText, TestServer } from './lspClient';

const C_DIR = join(FIXTURES, 'c');
const uriOf = (name: string) => `file://${join(C_DIR, name)}`;

/** A document the test edits, mirroring what it sends to the server. */
class Doc {
  doc: TextDocument;
  constructor(
    private readonly server: TestServer,
    readonly uri: string,
    text: string,
    languageId = 'c',
  ) {
    this.doc = TextDocument.create(uri, languageId, 1, text);
    void server.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId, version: 1, text },
    });
  }
  get version(): number {
    return this.doc.version;
  }
  /** Applies edits locally and sends them as an incremental change. */
  edit(edits: TextEdit[]): void {
    const next = this.doc.version + 1;
    const changes = [...edits]
      .sort((a, b) => this.doc.offsetAt(b.range.start) - this.doc.offsetAt(a.range.start))
      .map((e) => ({ range: e.range, text: e.newText }));
    this.doc = TextDocument.update(this.doc, changes, next);
    void this.server.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: this.uri, version: next },
      contentChanges: changes,
    });
  }
  actions(range: Diagnostic['range'], only?: string[]): Promise<CodeAction[]> {
    return this.server.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri: this.uri },
      range,
      context: { diagnostics: [], only },
    });
  }
}

function editsOf(action: CodeAction): TextEdit[] {
  const change = action.edit?.documentChanges?.[0];
  assert.ok(change && 'edits' in change, 'the action carries a versioned text edit');
  return change.edits as TextEdit[];
}

describe('language server over stdio (push diagnostics)', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start(C_DIR, { workspace: { configuration: true, workspaceFolders: true } });
  });
  after(async () => {
    assert.equal(await server.stop(), 0);
  });

  it('publishes diagnostics on open with code, link, source, range and related writes', async () => {
    const doc = new Doc(server, uriOf('adjacent.c'), fixture('c/adjacent.c'));
    const diags = await server.published(doc.uri, 1);
    assert.equal(diags.length, 6);
    const [first] = diags;
    assert.ok(first, 'a diagnostic');
    assert.equal(first.code, 'adjacent-writes');
    assert.equal(first.source, 'writev');
    assert.equal(first.severity, 2);
    assert.equal(first.codeDescription?.href, 'https://github.com/writev/writev#adjacent-writes');
    assert.match(messageText(first), /2 syscalls to fd can become one/);
    assert.deepEqual(first.range, { start: { line: 5, character: 1 }, end: { line: 6, character: 28 } });
    assert.equal(first.relatedInformation?.length, 2);
    assert.equal(first.relatedInformation?.[1]?.location.range.start.line, 6);
  });

  it('re-publishes after an incremental change, then applies a quick fix and the hint goes away', async () => {
    const doc = new Doc(server, uriOf('betweenStatements.c'), fixture('c/betweenStatements.c'));
    assert.equal((await server.published(doc.uri, 1)).length, 2);
    const line = doc.doc
      .getText()
      .split('\n')
      .findIndex((l) => l.includes('write_or_die(fd, body, len);'));
    doc.edit([{ range: { start: { line, character: 14 }, end: { line, character: 16 } }, newText: '2' }]);
    const changed = await server.published(doc.uri, 2);
    assert.equal(changed.length, 1, 'the writes to fd and to 2 are no longer one sequence');
    const actions = await doc.actions(changed[0]!.range);
    const fix = actions.find((a) => a.kind === 'quickfix');
    assert.ok(fix, 'a quick fix is offered');
    // It moves the statements between the writes: unsafe, so offered with the reason, never preferred.
    assert.match(
      fix.title,
      /\(unsafe: moves the \d+ statements? between the writes to after the gathered call\)$/,
    );
    assert.equal(fix.isPreferred, false);
    doc.edit(editsOf(fix));
    assert.deepEqual(await server.published(doc.uri, 3), []);
    assert.match(doc.doc.getText(), /writev_in_full\(out_fd, iov, 3\) < 0/);
  });

  it('offers source.fixAll.writev, which fixes every fixable hint at once', async () => {
    const doc = new Doc(
      server,
      uriOf('adjacent.c').replace('adjacent.c', 'fixall.c'),
      fixture('c/adjacent.c'),
    );
    await server.published(doc.uri, 1);
    const whole = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const actions = await doc.actions(whole, ['source.fixAll']);
    assert.deepEqual(
      actions.map((a) => a.kind),
      ['source.fixAll.writev'],
    );
    doc.edit(editsOf(actions[0]!));
    const left = await server.published(doc.uri, 2);
    assert.equal(left.length, 1, 'only the writev whose buffers cannot be listed stays');
  });

  it('reloads settings when the configuration changes', async () => {
    const doc = new Doc(server, uriOf('wrappers.c'), fixture('c/wrappers.c'));
    await server.until('the cross-file wrapper from the workspace index', () => {
      const d = server.diagnostics.get(doc.uri);
      return d && d.diagnostics.length === 3 ? true : undefined;
    });
    server.settings = { minSequenceLength: 3, severity: { adjacentWrites: 'hint' } };
    await server.connection.sendNotification('workspace/didChangeConfiguration', {
      settings: { writev: server.settings },
    });
    const after = await server.until('diagnostics with the new settings', () => {
      const d = server.diagnostics.get(doc.uri);
      return d && d.diagnostics.length === 1 ? d.diagnostics : undefined;
    });
    assert.equal(after[0]!.severity, 4);
    server.settings = {};
    await server.connection.sendNotification('workspace/didChangeConfiguration', {
      settings: { writev: {} },
    });
  });

  it('survives junk: syntax errors, a 10 MB file and binary bytes, and keeps answering', async () => {
    const junk = new Doc(
      server,
      uriOf('junk.c'),
      'int main( { write(1, "a", 1); write(1, "b" \n }}}}} ((( ;;',
    );
    const big = new Doc(
      server,
      uriOf('big.c'),
      'void f(int fd) { write(fd, "a", 1); write(fd, "b", 1); }\n'.repeat(180_000),
    );
    const binary = new Doc(
      server,
      uriOf('binary.c'),
      String.fromCharCode(...Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)),
    );
    const probe = new Doc(
      server,
      uriOf('probe.c'),
      'void g(int fd) { xwrite(fd, "a", 1); xwrite(fd, "b", 1); }\n',
    );
    // Other documents are still answered: the probe's findings arrive while the junk is open (how fast
    // is the analyzer benchmark's question, not this test's).
    assert.equal((await server.published(probe.uri, 1)).length, 1);
    assert.ok((await server.published(big.uri, 1)).length === 0, 'a 10 MB file is skipped, not analysed');
    await server.published(junk.uri, 1);
    assert.deepEqual(await server.published(binary.uri, 1), []);
    assert.equal(server.child.exitCode, null, 'the server is still running');
  });
});

describe('language server over stdio (pull diagnostics)', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start(C_DIR, {
      workspace: { configuration: true, diagnostics: { refreshSupport: true } },
      textDocument: { diagnostic: { dynamicRegistration: false } },
    });
  });
  after(async () => {
    assert.equal(await server.stop(), 0);
  });

  it('answers textDocument/diagnostic with a full report, then "unchanged" for the same version', async () => {
    const doc = new Doc(server, uriOf('loops.c'), fixture('c/loops.c'));
    type Report = { kind: string; items?: Diagnostic[]; resultId?: string };
    const ask = (previousResultId?: string) =>
      server.connection.sendRequest<Report>('textDocument/diagnostic', {
        textDocument: { uri: doc.uri },
        previousResultId,
      });
    const report = await ask();
    assert.equal(report.kind, 'full');
    assert.deepEqual(
      report.items?.map((d) => [d.code, d.severity]),
      [
        ['loop-writes', 3],
        ['loop-writes', 3],
      ],
    );
    assert.equal((await ask(report.resultId)).kind, 'unchanged');
    assert.equal(server.diagnostics.size, 0, 'nothing is pushed in pull mode');
  });
});

describe('language server: multi-root workspace, workspace lint, node IPC', () => {
  let server: TestServer;
  const TS_DIR = join(FIXTURES, 'ts');
  before(async () => {
    server = await TestServer.start([C_DIR, TS_DIR], {
      workspace: { configuration: true, workspaceFolders: true },
      window: { workDoneProgress: true },
    });
  });
  after(async () => {
    assert.equal(await server.stop(), 0);
  });

  it('indexes the wrappers of each folder: cross-file wrappers in C and in TS', async () => {
    const c = new Doc(server, uriOf('wrappers.c'), fixture('c/wrappers.c'));
    const ts = new Doc(
      server,
      `file://${join(TS_DIR, 'wrappers.ts')}`,
      fixture('ts/wrappers.ts'),
      'typescript',
    );
    for (const doc of [c, ts]) {
      await server.until(`3 findings in ${doc.uri}`, () =>
        server.diagnostics.get(doc.uri)?.diagnostics.length === 3 ? true : undefined,
      );
    }
  });

  it('writev/lintWorkspace analyses every file of every folder and publishes their diagnostics', async () => {
    const result = await server.connection.sendRequest<{
      files: number;
      findings: number;
      cancelled: boolean;
    }>('writev/lintWorkspace', {});
    assert.equal(result.cancelled, false);
    // Every source file of both folders, each with exactly the findings its `expect:` markers name; a
    // fixture that states settings of its own (a project's preset) is read here without them, where no
    // config file names them: only what the code itself shows is found. OpenSSH's atomicio() is then
    // read from its calls (the write function it is given): a hint on a descriptor of unknown kind.
    const withoutSettings: Record<string, { line: number; code: string }[]> = {
      'c/atomicioWrites.c': [{ line: 11, code: 'adjacent-writes-unknown-fd' }],
    };
    const files = [...fixtures('c', '.c', '.h'), ...fixtures('ts', '.ts', '.js')];
    const expected = new Map(
      files.map((name) => [
        `file://${join(FIXTURES, name)}`,
        fixtureSettings(name) === DEFAULT_SETTINGS
          ? expectations(fixture(name))
          : (withoutSettings[name] ?? []),
      ]),
    );
    assert.equal(result.files, files.length);
    for (const [uri, marks] of expected) {
      const published = server.diagnostics.get(uri)?.diagnostics ?? [];
      assert.deepEqual(
        published.map((d) => `${d.range.start.line + 1}: ${String(d.code)}`).sort(),
        marks.map((m) => `${m.line + 1}: ${m.code}`).sort(),
        uri,
      );
    }
    assert.equal(
      result.findings,
      [...expected.values()].reduce((n, e) => n + e.length, 0),
    );
    const closed = server.diagnostics.get(`file://${join(TS_DIR, 'handles.ts')}`);
    assert.equal(closed?.diagnostics.length, 2, 'a file never opened gets its diagnostics');
  });

  it('honours cancellation of writev/lintWorkspace', async () => {
    const source = new CancellationTokenSource();
    const pending = server.connection.sendRequest<{
      cancelled: boolean;
      files: number;
    }>('writev/lintWorkspace', {}, source.token);
    source.cancel();
    const outcome = await pending.then(
      (result) => result,
      (error: { code?: number }) => error,
    );
    // Either the server stopped early and said so, or the request ended as cancelled (-32800).
    assert.ok('cancelled' in outcome ? outcome.cancelled : outcome.code === -32800, JSON.stringify(outcome));
    const ping = await server.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: uriOf('wrappers.c') },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [] },
    });
    assert.ok(Array.isArray(ping), 'the server still answers');
  });

  it('also speaks node IPC', async () => {
    const child = fork(join(REPO, 'server', 'out', 'server.js'), ['--node-ipc'], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const connection = createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    connection.listen();
    const init = await connection.sendRequest<{
      serverInfo: { name: string };
    }>('initialize', {
      processId: process.pid,
      rootUri: null,
      capabilities: {},
    });
    assert.equal(init.serverInfo.name, 'writev');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    assert.equal(await exited, 0);
    connection.dispose();
  });
});

describe('the bundled server (dist/server.js, what the extension starts)', () => {
  const bundle = join(REPO, 'dist', 'server.js');
  it(
    'loads the grammar and publishes diagnostics for C and TS',
    { skip: !existsSync(bundle) && 'dist/server.js not built (npm run build)' },
    async () => {
      const server = await TestServer.start(C_DIR, { workspace: { configuration: true } }, bundle);
      const c = new Doc(
        server,
        uriOf('bundle.c'),
        'void f(int fd) { write_or_die(fd, "a", 1); write_or_die(fd, "b", 1); }\n',
      );
      const ts = new Doc(
        server,
        'file:///tmp/bundle.ts',
        "import * as fs from 'fs';\nfs.writeSync(1, 'a');\nfs.writeSync(1, 'b');\n",
        'typescript',
      );
      assert.equal((await server.published(c.uri, 1)).length, 1);
      assert.equal((await server.published(ts.uri, 1)).length, 1);
      assert.equal(await server.stop(), 0);
    },
  );
});
