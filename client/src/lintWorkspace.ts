import * as vscode from 'vscode';
import type { WritevContext } from './context';
import { LINTED_EXTENSIONS } from './languages';
import { LINT_FILES_METHOD } from './protocol';

/** Files per `writev/lintFiles` request: small enough for smooth progress and prompt cancellation. */
const BATCH = 25;

/** What a workspace lint found. */
interface LintSummary {
  files: number;
  findings: number;
  withFindings: number;
  cancelled: boolean;
}

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
    if (!this.ctx.languageClient) {
      const choice = await vscode.window.showWarningMessage('writev: the server is not running.', 'Restart');
      if (choice) await vscode.commands.executeCommand('writev.restartServer');
      return;
    }
    let summary: LintSummary;
    try {
      summary = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: 'writev: linting the workspace',
          cancellable: true,
        },
        (progress, token) => this.lint(progress, token),
      );
    } catch (err) {
      return this.failed(err);
    }
    const what = `${summary.findings} findings in ${summary.withFindings} of ${summary.files} files (open files are shown live)`;
    this.ctx.log.info(`lint workspace: ${what}${summary.cancelled ? ', cancelled' : ''}`);
    if (summary.cancelled) void vscode.window.showInformationMessage(`writev: cancelled; so far ${what}.`);
    else if (summary.findings === 0)
      void vscode.window.showInformationMessage(`writev: no findings in ${summary.files} files.`);
    else if (await vscode.window.showInformationMessage(`writev: ${what}.`, 'Show Problems')) {
      await vscode.commands.executeCommand('workbench.actions.view.problems');
    }
  }

  private async lint(
    progress: vscode.Progress<{ message?: string; increment?: number }>,
    token: vscode.CancellationToken,
  ): Promise<LintSummary> {
    progress.report({ message: 'finding files…' });
    const pattern = `**/*.{${LINTED_EXTENSIONS.join(',')}}`;
    // `undefined` excludes keep the user's files.exclude; the server applies writev.exclude itself.
    const found = await vscode.workspace.findFiles(pattern, undefined, undefined, token);
    const files = found.filter((u) => !u.path.includes('/node_modules/'));
    const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
    this.collection.clear();
    const summary: LintSummary = { files: files.length, findings: 0, withFindings: 0, cancelled: false };
    for (let i = 0; i < files.length && !token.isCancellationRequested; i += BATCH) {
      const client = this.ctx.languageClient;
      if (!client) throw new Error('the server stopped');
      const batch = files.slice(i, i + BATCH);
      for (const [uri, diagnostics] of await client.lintFiles(batch, token)) {
        if (open.has(uri.toString()) || diagnostics.length === 0) continue;
        this.collection.set(uri, diagnostics);
        summary.findings += diagnostics.length;
        summary.withFindings++;
      }
      const done = Math.min(i + BATCH, files.length);
      progress.report({
        increment: (batch.length / files.length) * 100,
        message: `${done} of ${files.length} files`,
      });
    }
    summary.cancelled = token.isCancellationRequested;
    return summary;
  }

  private failed(err: unknown): void {
    const lsp = this.ctx.lsp();
    if (lsp.isCancelled(err)) return; // the user's choice, not a failure
    if (lsp.isMethodNotFound(err)) {
      void vscode.window.showErrorMessage(
        `writev: this server cannot lint files that are not open (it does not implement ${LINT_FILES_METHOD}).`,
      );
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    this.ctx.log.error(`lint workspace failed: ${message}`);
    void vscode.window.showErrorMessage(`writev: linting the workspace failed: ${message}`);
  }

  dispose(): void {
    this.onOpen.dispose();
    this.collection.dispose();
  }
}
