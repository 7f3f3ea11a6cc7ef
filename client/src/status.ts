import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WritevContext } from './context';
import { DOCUMENT_SELECTOR } from './languages';
import { DIAGNOSTIC_SOURCE } from './protocol';
import { describeStatus } from './statusView';

const SEVERITY = {
  information: vscode.LanguageStatusSeverity.Information,
  warning: vscode.LanguageStatusSeverity.Warning,
  error: vscode.LanguageStatusSeverity.Error,
};

/**
 * The language status item (the `{}` in the status bar for C/TS/JS files): server state, the file
 * analysed and its findings; when the server is down it turns red and links to a restart.
 */
export class ServerStatus implements vscode.Disposable {
  private readonly item = vscode.languages.createLanguageStatusItem('writev.status', [...DOCUMENT_SELECTOR]);
  private readonly listeners: vscode.Disposable[];

  constructor(private readonly ctx: WritevContext) {
    this.item.name = 'writev';
    this.listeners = [
      ctx.onDidChangeState(() => this.update()),
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
      vscode.languages.onDidChangeDiagnostics((e) => {
        const active = vscode.window.activeTextEditor?.document.uri.toString();
        if (e.uris.some((u) => u.toString() === active)) this.update();
      }),
    ];
    this.update();
  }

  /** Recomputes the item from the context's state and the active editor's diagnostics. */
  update(): void {
    const document = vscode.window.activeTextEditor?.document;
    const served = document !== undefined && vscode.languages.match([...DOCUMENT_SELECTOR], document) > 0;
    const findings = served
      ? vscode.languages.getDiagnostics(document.uri).filter((d) => d.source === DIAGNOSTIC_SOURCE).length
      : 0;
    const view = describeStatus({
      state: this.ctx.state,
      fileName: served ? path.basename(document.fileName) : undefined,
      findings,
      crashes: this.ctx.recentCrashes,
    });
    this.item.text = view.text;
    this.item.detail = view.detail;
    this.item.severity = SEVERITY[view.severity];
    this.item.busy = view.busy;
    this.item.command = { title: view.action.title, command: view.action.command };
  }

  dispose(): void {
    for (const l of this.listeners) l.dispose();
    this.item.dispose();
  }
}
