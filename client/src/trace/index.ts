// The trace features, bundled apart (dist/trace.js) and loaded on first use, so that activating the
// extension does not pay for them.
import * as vscode from 'vscode';
import { loadTrace, traceProgram, type TraceCommandHost } from './traceCommands';
import { TraceView, type TraceViewHost } from './traceView';

/** The trace features of one extension context. */
export interface TraceFeatures extends vscode.Disposable {
  traceProgram(): Promise<void>;
  loadTrace(uri?: vscode.Uri): Promise<void>;
  clearTrace(): void;
  /** The server restarted: give it the loaded trace again. */
  serverStarted(): void;
}

/** Creates the view and the commands' implementations. */
export function createTraceFeatures(extension: vscode.ExtensionContext, host: TraceViewHost): TraceFeatures {
  const view = new TraceView(host);
  const output = vscode.window.createOutputChannel('writev trace');
  const commands: TraceCommandHost = { extension, log: host.log, view };
  return {
    traceProgram: () => traceProgram(commands, output),
    loadTrace: (uri) => loadTrace(commands, uri),
    clearTrace: () => view.clear(),
    serverStarted: () => view.resend(),
    dispose: () => {
      view.dispose();
      output.dispose();
    },
  };
}
