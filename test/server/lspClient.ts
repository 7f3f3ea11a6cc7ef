// A minimal LSP client for tests: starts the server as a child process over stdio, answers its
// configuration requests, records published diagnostics, and waits on events (never on sleeps).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type Diagnostic,
  type InitializeParams,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { REPO } from './helpers';

/** A diagnostic's message as text ('' for none): LSP 3.18 allows markup, whose text is its value. */
export function messageText(d: Pick<Diagnostic, 'message'> | undefined): string {
  if (d === undefined) return '';
  return typeof d.message === 'string' ? d.message : d.message.value;
}

/** The server as tests drive it. */
export class TestServer {
  readonly connection: ProtocolConnection;
  readonly diagnostics = new Map<string, PublishDiagnosticsParams>();
  readonly log: string[] = [];
  /** How many `workspace/diagnostic/refresh` requests the server sent. */
  refreshes = 0;
  /** What `workspace/configuration` answers for the `writev` section. */
  settings: unknown = {};
  /** When set, the answer for one scope (a folder's or a file's settings), instead of {@link settings}. */
  settingsFor: ((scopeUri: string | undefined) => unknown) | undefined;
  private waiters: (() => void)[] = [];

  private constructor(readonly child: ChildProcess) {
    this.connection = createProtocolConnection(
      new StreamMessageReader(child.stdout as NodeJS.ReadableStream),
      new StreamMessageWriter(child.stdin as NodeJS.WritableStream),
    );
    this.connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      this.diagnostics.set(params.uri, params);
      this.notify();
    });
    this.connection.onNotification('window/logMessage', (params: { message: string }) => {
      this.log.push(params.message);
    });
    this.connection.onRequest('workspace/configuration', (params: { items: { scopeUri?: string }[] }) =>
      params.items.map((item) => (this.settingsFor ? this.settingsFor(item.scopeUri) : this.settings)),
    );
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.onRequest('workspace/diagnostic/refresh', () => {
      this.refreshes++;
      this.notify();
      return null;
    });
    this.connection.listen();
  }

  /**
   * Starts the server (by default the compiled `server/out/server.js`) with `--stdio`, and initialises it.
   * `configure` runs before the server can ask anything (its settings, for one).
   */
  static async start(
    folders: string | string[],
    capabilities: InitializeParams['capabilities'],
    script = join(REPO, 'server', 'out', 'server.js'),
    configure?: (server: TestServer) => void,
  ): Promise<TestServer> {
    const child = spawn(process.execPath, [script, '--stdio'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const server = new TestServer(child);
    configure?.(server);
    await server.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      capabilities,
      workspaceFolders: [folders].flat().map((f) => ({ uri: `file://${f}`, name: f })),
    });
    await server.connection.sendNotification('initialized', {});
    return server;
  }

  private notify(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
  }

  /** Resolves with `probe()`'s value once it is defined (checked on every notification), or fails after `ms`. */
  until<T>(what: string, probe: () => T | undefined, ms = 60_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
      const check = () => {
        const value = probe();
        if (value !== undefined) {
          clearTimeout(timer);
          resolve(value);
        } else this.waiters.push(check);
      };
      check();
    });
  }

  /** The diagnostics published for `uri` at `version` (waits for them). */
  published(uri: string, version: number, ms?: number): Promise<Diagnostic[]> {
    return this.until(
      `diagnostics of ${uri} v${version}`,
      () => {
        const p = this.diagnostics.get(uri);
        return p && p.version === version ? p.diagnostics : undefined;
      },
      ms,
    );
  }

  /** Shuts the server down and waits for the process to exit. */
  async stop(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => this.child.once('exit', (code) => resolve(code)));
    await this.connection.sendRequest('shutdown');
    await this.connection.sendNotification('exit');
    const code = await exited;
    this.connection.dispose();
    return code;
  }
}
