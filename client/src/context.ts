import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  State,
  TransportKind,
  type ErrorHandler,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { DOCUMENT_SELECTOR } from './languages';
import { CrashWindow } from './crashWindow';

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
  private client: LanguageClient | undefined;
  private current: ServerState = 'stopped';
  private stopping = false;
  private readonly crashes = new CrashWindow();
  private readonly stateEmitter = new vscode.EventEmitter<ServerState>();
  /** Fires whenever {@link state} changes. */
  readonly onDidChangeState = this.stateEmitter.event;

  constructor(readonly extension: vscode.ExtensionContext) {}

  /** The server's state as the user should see it. */
  get state(): ServerState {
    return this.current;
  }

  /** How often the server's connection closed unexpectedly in the recent window. */
  get recentCrashes(): number {
    return this.crashes.count();
  }

  /** The running language client, or undefined while it is stopped. */
  get languageClient(): LanguageClient | undefined {
    return this.client?.state === State.Running ? this.client : undefined;
  }

  /** Starts the server; resolves once it answered `initialize`. Safe to call when already running. */
  async start(): Promise<void> {
    if (this.client) return;
    const module = this.extension.asAbsolutePath('dist/server.js');
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.ipc },
      debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--inspect=6009'] } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [...DOCUMENT_SELECTOR],
      // Push the whole `writev` section on every change, so the server re-reads its settings at once.
      synchronize: { configurationSection: 'writev' },
      outputChannel: this.log,
      diagnosticCollectionName: 'writev',
      errorHandler: this.errorHandler(),
    };
    const client = new LanguageClient('writev', 'writev', serverOptions, clientOptions);
    this.client = client;
    client.onDidChangeState(({ newState }) => this.onClientState(newState));
    this.setState('starting');
    try {
      await client.start();
    } catch (err) {
      this.client = undefined;
      this.setState('crashed');
      this.log.error(`the writev server did not start: ${err instanceof Error ? err.message : String(err)}`);
      throw err;
    }
  }

  /** Stops the server and waits for it to exit (at most 2 s, then it is killed). */
  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    this.stopping = true;
    try {
      if (client.state !== State.Stopped) await client.stop(2000);
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

  private onClientState(state: State): void {
    if (state === State.Running) this.setState('running');
    else if (state === State.Starting) this.setState('starting');
    // A stop we did not ask for is a crash the error handler gave up on.
    else if (!this.stopping) this.setState('crashed');
  }

  private setState(state: ServerState): void {
    if (state === this.current) return;
    this.current = state;
    this.log.info(`server ${state}`);
    this.stateEmitter.fire(state);
  }

  /**
   * Restarts a crashed server a few times, as the default handler does, but when it gives up it says so
   * with a button, instead of leaving the editor quietly without hints.
   */
  private errorHandler(): ErrorHandler {
    return {
      error: (_error, _message, count) => ({
        action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown,
      }),
      closed: () => {
        this.crashes.record();
        if (!this.crashes.exhausted()) {
          this.log.warn(
            `the writev server stopped unexpectedly; restarting (${this.crashes.count()} recently)`,
          );
          return { action: CloseAction.Restart, handled: true };
        }
        const message = `The writev server crashed ${this.crashes.count()} times in ${CrashWindow.minutes} minutes and was not restarted.`;
        this.log.error(message);
        void vscode.window.showErrorMessage(message, 'Restart', 'Show Log').then((choice) => {
          if (choice === 'Restart') void vscode.commands.executeCommand('writev.restartServer');
          if (choice === 'Show Log') this.log.show();
        });
        return { action: CloseAction.DoNotRestart, handled: true };
      },
    };
  }
}
