/**
 * Everything that needs `vscode-languageclient`, bundled apart as dist/lsp.js. The library is most of the
 * extension's code (about 400 KB minified, plus Node's stream and crypto modules it pulls in), so the
 * first bundle leaves it out and loads this file just after activation: activation stays cheap and
 * the server still starts at once.
 */
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  ErrorCodes,
  LanguageClient,
  LSPErrorCodes,
  ResponseError,
  State,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { DOCUMENT_SELECTOR } from '../languages';
import {
  LINT_WORKSPACE_METHOD,
  TRACE_NOTIFICATION,
  type LintWorkspaceParams,
  type LintWorkspaceResult,
  type TraceParams,
} from '../protocol';

/** The client's state in the words the rest of the extension uses. */
export type ClientState = 'starting' | 'running' | 'stopped';

/** What the caller decides and hears while the client runs. */
export interface ClientHooks {
  log: vscode.LogOutputChannel;
  /** The connection closed unexpectedly; return true to restart the server. */
  closed(): boolean;
  /** The client changed state. */
  stateChanged(state: ClientState): void;
}

/** A started language client, as the rest of the extension sees it. */
export interface WritevClient {
  readonly running: boolean;
  /** Stops the server; kills it when it does not exit within `timeout` ms. */
  stop(timeout: number): Promise<void>;
  /**
   * Sends `writev/lintWorkspace`: the server analyses every workspace file, publishes the findings and
   * shows its own cancellable progress notification.
   */
  lintWorkspace(): Promise<LintWorkspaceResult>;
  /** Sends `writev/trace`: the loaded trace's sites (`null` clears them), joined to the diagnostics. */
  sendTrace(sites: TraceParams['sites']): Promise<void>;
}

/**
 * Creates the language client for `serverModule` over node IPC and starts it: the documents of
 * {@link DOCUMENT_SELECTOR}, the whole `writev` settings section pushed to the server on every change,
 * the log channel, and an error handler that asks `hooks.closed()` whether to restart.
 */
export async function startClient(serverModule: string, hooks: ClientHooks): Promise<WritevClient> {
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--inspect=6009'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [...DOCUMENT_SELECTOR],
    // Push the `writev` section on every change, so the server re-reads its settings at once.
    synchronize: { configurationSection: 'writev' },
    outputChannel: hooks.log,
    diagnosticCollectionName: 'writev',
    errorHandler: {
      error: (_error, _message, count) => ({
        action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown,
      }),
      closed: () => ({
        action: hooks.closed() ? CloseAction.Restart : CloseAction.DoNotRestart,
        handled: true,
      }),
    },
  };
  const client = new LanguageClient('writev', 'writev', serverOptions, clientOptions);
  client.onDidChangeState(({ newState }) =>
    hooks.stateChanged(
      newState === State.Running ? 'running' : newState === State.Starting ? 'starting' : 'stopped',
    ),
  );
  await client.start();
  return {
    get running() {
      return client.state === State.Running;
    },
    stop: async (timeout) => {
      if (client.state !== State.Stopped) await client.stop(timeout);
    },
    lintWorkspace: () => {
      const params: LintWorkspaceParams = {};
      return client.sendRequest<LintWorkspaceResult>(LINT_WORKSPACE_METHOD, params);
    },
    sendTrace: (sites) => {
      const params: TraceParams = { sites };
      return client.sendNotification(TRACE_NOTIFICATION, params);
    },
  };
}

/** True for the error of a server that does not implement a request. */
export function isMethodNotFound(err: unknown): boolean {
  return err instanceof ResponseError && err.code === ErrorCodes.MethodNotFound;
}

/** True for the error of a request the user cancelled. */
export function isCancelled(err: unknown): boolean {
  return err instanceof ResponseError && err.code === LSPErrorCodes.RequestCancelled;
}
