import * as vscode from 'vscode';
import { ErrorCodes, LSPErrorCodes, ResponseError } from 'vscode-languageclient/node';
import type { WritevContext } from './context';
import { LINTED_EXTENSIONS } from './languages';
import { LintFilesRequest } from './protocol';

/** Files per `writev/lintFiles` request: small enough for smooth progress and prompt cancellation. */
const BATCH = 25;

/**
 * The `writev.lintWorkspace` command: analyses every matching file of the workspace, open or not, into
 * the Problems panel. Open files keep the server's live diagnostics, so their workspace entries are
 * dropped when they open (the two would show each finding twice).
 */
export class WorkspaceLinter implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('writev-workspace');
  private readonly onOpen = vscode.workspace.onDidOpenTextDocument((doc) => this.collection.delete(doc.uri));

  constructor(private readonly ctx: WritevContext) {}

  /** Lints the workspace with a cancellable progress notification, then says what it found. */
  async run(): Promise<void> {
    const client = this.ctx.languageClient;
    if (!client) {
      const choice = await vscode.window.showWarningMessage('writev: the server is not running.', 'Restart');
      if (choice) await vscode.commands.executeCommand('writev.restartServer');
      return;
    }
    const summary = await vscode.window
      .withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: 'writev: linting the workspace',
          cancellable: true,
        },
        async (progress, token) => {
          progress.report({ message: 'finding files…' });
          const found = await vscode.workspace.findFiles(
            `**/*.{${LINTED_EXTENSIONS.join(',')}}`,
            undefined,
            undefined,
            token,
          );
          const files = found.filter((u) => !u.path.includes('/node_modules/'));
          const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
          this.collection.clear();
          let findings = 0;
          let withFindings = 0;
          for (let i = 0; i < files.length && !token.isCancellationRequested; i += BATCH) {
            const batch = files.slice(i, i + BATCH);
            const result = await client.sendRequest(
              LintFilesRequest,
              { uris: batch.map((u) => client.code2ProtocolConverter.asUri(u)) },
              token,
            );
            for (const file of result.files) {
              const uri = client.protocol2CodeConverter.asUri(file.uri);
              if (open.has(uri.toString()) || file.diagnostics.length === 0) continue;
              this.collection.set(uri, await client.protocol2CodeConverter.asDiagnostics(file.diagnostics));
              findings += file.diagnostics.length;
              withFindings++;
            }
            progress.report({
              increment: (batch.length / files.length) * 100,
              message: `${Math.min(i + BATCH, files.length)} of ${files.length} files`,
            });
          }
          return { files: files.length, findings, withFindings, cancelled: token.isCancellationRequested };
        },
      )
      .then(undefined, (err: unknown) => this.failed(err));
    if (!summary) return;
    const what = `${summary.findings} findings in ${summary.withFindings} of ${summary.files} files (open files are shown live)`;
    this.ctx.log.info(`lint workspace: ${what}${summary.cancelled ? ', cancelled' : ''}`);
    if (summary.cancelled) void vscode.window.showInformationMessage(`writev: cancelled; so far ${what}.`);
    else if (summary.findings > 0) {
      const choice = await vscode.window.showInformationMessage(`writev: ${what}.`, 'Show Problems');
      if (choice) await vscode.commands.executeCommand('workbench.actions.view.problems');
    } else void vscode.window.showInformationMessage(`writev: no findings in ${summary.files} files.`);
  }

  private failed(err: unknown): undefined {
    if (err instanceof ResponseError && err.code === ErrorCodes.MethodNotFound) {
      void vscode.window.showErrorMessage(
        `writev: this server cannot lint files that are not open (it does not implement ${LintFilesRequest.method}).`,
      );
    } else if (!(err instanceof ResponseError && err.code === LSPErrorCodes.RequestCancelled)) {
      // A cancelled request is the user's choice, not a failure.
      const message = err instanceof Error ? err.message : String(err);
      this.ctx.log.error(`lint workspace failed: ${message}`);
      void vscode.window.showErrorMessage(`writev: linting the workspace failed: ${message}`);
    }
    return undefined;
  }

  dispose(): void {
    this.onOpen.dispose();
    this.collection.dispose();
  }
}
