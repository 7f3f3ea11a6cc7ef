import * as vscode from 'vscode';
import { CrashWindow } from './crashWindow';
import type * as Lsp from './lsp';
import type * as Trace from './trace';

/** What the status item shows about the server. */
export type ServerState = 'starting' | 'running' | 'stopped' | 'crashed';

/**
 * The extension's one long-lived object, as in rust-analyzer's client: it owns the language client,
 * the log channel and every disposable, and tells listeners when the server's state changes.
 */
export class WritevContext implements vscode.Disposable {
  /** The log channel: the client's own messages and the server's `window/logMessage`s. */
  readonly log = vscode.window.createOutputChannel('writev', { log: true });
  /** Disposed with the context; commands and views add themselves here. */
  readonly subscriptions: vscode.Disposable[] = [];
  private client: Lsp.WritevClient | undefined;
  private starting: Promise<void> | undefined;
  private current: ServerState = 'stopped';
  private stopping = false;
  private readonly crashes = new CrashWindow();
  private readonly stateEmitter = new vscode.EventEmitter<ServerState>();
  /** Fires whenever {@link state} changes. */
  readonly onDidChangeState = this.stateEmitter.event;

  private traceFeatures: Trace.TraceFeatures | undefined;

  constructor(readonly extension: vscode.ExtensionContext) {}

  /** The trace features (dist/trace.js), created on first use. */
  trace(): Trace.TraceFeatures {
    if (!this.traceFeatures) {
      const module = require(this.extension.asAbsolutePath('dist/trace.js')) as typeof Trace;
      this.traceFeatures = module.createTraceFeatures(this.extension, {
        log: this.log,
        sendTrace: (sites) => void this.languageClient?.sendTrace(sites).catch(() => undefined),
      });
      this.subscriptions.push(this.traceFeatures);
    }
    return this.traceFeatures;
  }

  /** The server's state as the user should see it. */
  get state(): ServerState {
    return this.current;
  }

  /** How often the server's connection closed unexpectedly in the recent window. */
  get recentCrashes(): number {
    return this.crashes.count();
  }

  /** The running language client, or undefined while it is stopped or starting. */
  get languageClient(): Lsp.WritevClient | undefined {
    return this.client?.running ? this.client : undefined;
  }

  /**
   * The module holding the language client library (dist/lsp.js), loaded on first use. It is a bundle
   * of its own so that loading the extension does not pay for compiling it.
   */
  lsp(): typeof Lsp {
    return require(this.extension.asAbsolutePath('dist/lsp.js')) as typeof Lsp;
  }

  /** Starts the server; resolves once it answered `initialize`. Safe to call when started or starting. */
  start(): Promise<void> {
    if (this.client) return Promise.resolve();
    this.starting ??= this.doStart().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async doStart(): Promise<void> {
    this.setState('starting');
    try {
      this.client = await this.lsp().startClient(this.extension.asAbsolutePath('dist/server.js'), {
        log: this.log,
        closed: () => this.onClosed(),
        stateChanged: (state) => {
          if (state !== 'stopped') this.setState(state);
          // A stop we did not ask for is a crash the error handler gave up on.
          else if (!this.stopping) this.setState('crashed');
        },
      });
      // The client reports 'running' before startClient returns it, when `languageClient` is still
      // undefined: a trace loaded while the server started would never reach it. Hand it over now.
      if (this.client.running) this.traceFeatures?.serverStarted();
    } catch (err) {
      this.setState('crashed');
      this.log.error(`the writev server did not start: ${err instanceof Error ? err.message : String(err)}`);
      throw err;
    }
  }

  /** Stops the server and waits for it to exit (at most 2 s, then it is killed). */
  async stop(): Promise<void> {
    await this.starting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    this.stopping = true;
    try {
      await client.stop(2000);
    } finally {
      this.stopping = false;
      this.setState('stopped');
    }
  }

  /** Stops and starts the server, forgetting earlier crashes: the user asked for a fresh start. */
  async restart(): Promise<void> {
    await this.stop();
    this.crashes.reset();
    await this.start();
  }

  /** Stops the server and disposes everything the context owns. */
  async dispose(): Promise<void> {
    await this.stop();
    for (const d of this.subscriptions.splice(0).reverse()) d.dispose();
    this.stateEmitter.dispose();
    this.log.dispose();
  }

  private setState(state: ServerState): void {
    if (state === this.current) return;
    this.current = state;
    if (state === 'running') this.traceFeatures?.serverStarted();
    this.log.info(`server ${state}`);
    this.stateEmitter.fire(state);
  }

  /**
   * Restarts a crashed server a few times, as the default handler does, but when it gives up it says so
   * with a button, instead of leaving the editor quietly without hints.
   */
  private onClosed(): boolean {
    this.crashes.record();
    if (!this.crashes.exhausted()) {
      this.log.warn(`the writev server stopped unexpectedly; restarting (${this.crashes.count()} recently)`);
      return true;
    }
    const message = `The writev server crashed ${this.crashes.count()} times in ${CrashWindow.minutes} minutes and was not restarted.`;
    this.log.error(message);
    void vscode.window.showErrorMessage(message, 'Restart', 'Show Log').then((choice) => {
      if (choice === 'Restart') void vscode.commands.executeCommand('writev.restartServer');
      if (choice === 'Show Log') this.log.show();
    });
    return false;
  }
}
