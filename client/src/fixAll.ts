import * as vscode from 'vscode';
import { FIX_ALL_KIND } from './protocol';

/**
 * The `writev.fixAllInFile` command: asks the server for its `source.fixAll.writev` action on the active
 * file and applies it, so every safe rewrite happens in one undoable edit.
 */
export async function fixAllInFile(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage('writev: open a C, TypeScript or JavaScript file first.');
    return;
  }
  const document = editor.document;
  const whole = new vscode.Range(0, 0, document.lineCount, 0);
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[] | undefined>(
    'vscode.executeCodeActionProvider',
    document.uri,
    whole,
    FIX_ALL_KIND,
    // Resolve lazily computed edits (codeAction/resolve) of the first few actions.
    5,
  );
  const kind = vscode.CodeActionKind.Empty.append(FIX_ALL_KIND);
  const fix = actions?.find((a) => a.kind !== undefined && kind.contains(a.kind));
  if (!fix || (!fix.edit && !fix.command)) {
    vscode.window.setStatusBarMessage('writev: nothing to fix in this file', 4000);
    return;
  }
  if (fix.edit) await vscode.workspace.applyEdit(fix.edit);
  if (fix.command)
    await vscode.commands.executeCommand(
      fix.command.command,
      ...((fix.command.arguments ?? []) as unknown[]),
    );
}
