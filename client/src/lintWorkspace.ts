import * as vscode from 'vscode';
import type { WritevContext } from './context';
import { LINT_WORKSPACE_METHOD } from './protocol';

/**
 * The `writev.lintWorkspace` command: asks the server to analyse every matching file of the workspace,
 * open or not. The server publishes the findings into the Problems panel and shows its own progress
 * notification (cancellable); this says what it found when it is done.
 */
export async function lintWorkspace(ctx: WritevContext): Promise<void> {
  const client = ctx.languageClient;
  if (!client) {
    const choice = await vscode.window.showWarningMessage('writev: the server is not running.', 'Restart');
    if (choice) await vscode.commands.executeCommand('writev.restartServer');
    return;
  }
  let result;
  try {
    result = await client.lintWorkspace();
  } catch (err) {
    const lsp = ctx.lsp();
    if (lsp.isCancelled(err)) return; // the user's choice, not a failure
    const message = lsp.isMethodNotFound(err)
      ? `this server does not implement ${LINT_WORKSPACE_METHOD}`
      : err instanceof Error
        ? err.message
        : String(err);
    ctx.log.error(`lint workspace failed: ${message}`);
    void vscode.window.showErrorMessage(`writev: linting the workspace failed: ${message}`);
    return;
  }
  const what = `${result.findings} ${result.findings === 1 ? 'finding' : 'findings'} in ${result.files} files`;
  ctx.log.info(`lint workspace: ${what}${result.cancelled ? ' (cancelled)' : ''}`);
  if (result.cancelled) void vscode.window.showInformationMessage(`writev: cancelled; so far ${what}.`);
  else if (result.findings === 0)
    void vscode.window.showInformationMessage(`writev: no findings in ${result.files} files.`);
  else if (await vscode.window.showInformationMessage(`writev: ${what}.`, 'Show Problems')) {
    await vscode.commands.executeCommand('workbench.actions.view.problems');
  }
}
