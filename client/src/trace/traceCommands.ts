import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { readTraceFile } from '@writev/runtime/dist/trace/traceFile';
import { nodeEnv } from '../bench/benchProcess';
import type { TraceView } from './traceView';

/** What the commands need from the extension. */
export interface TraceCommandHost {
  readonly extension: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly view: TraceView;
}

/** A command line's first word starts Node (or a Node package runner): trace it with the Node tracer. */
function startsNode(commandLine: string): boolean {
  const first = commandLine.trim().split(/\s+/)[0] ?? '';
  return /(^|\/)(node|nodejs|npm|npx|pnpm|yarn)$/.test(first) || /\.[mc]?js$/.test(first);
}

/** `writev.loadTrace`: a trace file from a dialog (or the URI a script passes). */
export async function loadTrace(host: TraceCommandHost, uri?: vscode.Uri): Promise<void> {
  const target =
    uri ??
    (
      await vscode.window.showOpenDialog({
        title: 'Load a writev trace',
        canSelectMany: false,
        filters: { 'writev trace': ['json'] },
        defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
      })
    )?.[0];
  if (!target) return;
  try {
    host.view.show(readTraceFile(target.fsPath), target.fsPath);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    host.log.error(`loading trace failed: ${message}`);
    void vscode.window.showErrorMessage(`writev: cannot load the trace: ${message}`);
  }
}

/**
 * `writev.traceProgram`: asks for a command line (remembered per folder), runs it under writev-trace in
 * the folder, streams its output to the "writev trace" channel with a cancellable progress
 * notification, and shows the trace when it ends. Needs a trusted workspace: it runs a program.
 */
export async function traceProgram(host: TraceCommandHost, output: vscode.OutputChannel): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('writev: tracing runs a program; trust this workspace first.');
    return;
  }
  const folder =
    vscode.workspace.workspaceFolders?.length === 1
      ? vscode.workspace.workspaceFolders[0]
      : await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Folder to run the program in' });
  if (!folder) return;
  const key = `writev.traceCommand:${folder.uri.toString()}`;
  const commandLine = await vscode.window.showInputBox({
    title: 'Trace a program',
    prompt: `A command line, run in ${folder.name} by /bin/sh; its write calls are counted per source line`,
    value: host.extension.workspaceState.get<string>(key) ?? 'node ',
  });
  if (!commandLine?.trim()) return;
  await host.extension.workspaceState.update(key, commandLine);
  const storage = host.extension.storageUri ?? host.extension.globalStorageUri;
  mkdirSync(storage.fsPath, { recursive: true });
  const out = join(storage.fsPath, 'writev-trace.json');
  rmSync(out, { force: true });
  const args = [
    host.extension.asAbsolutePath('dist/writev-trace.js'),
    '--out',
    out,
    '--tracer',
    startsNode(commandLine) ? 'node' : 'native',
    '--',
    '/bin/sh',
    '-c',
    commandLine,
  ];
  output.clear();
  output.show(true);
  output.appendLine(`$ ${commandLine}`);
  const status = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `writev: tracing ${commandLine}`,
      cancellable: true,
    },
    (_progress, token) =>
      new Promise<number | null>((resolve) => {
        // Its own process group, so that cancelling stops the program and everything it started.
        const child = spawn(process.execPath, args, {
          cwd: folder.uri.fsPath,
          env: nodeEnv(),
          detached: true,
        });
        child.stdout.setEncoding('utf8').on('data', (s: string) => output.append(s));
        child.stderr.setEncoding('utf8').on('data', (s: string) => output.append(s));
        const cancel = token.onCancellationRequested(() => {
          if (child.pid) process.kill(-child.pid, 'SIGTERM');
        });
        child.on('error', (err) => {
          output.appendLine(`writev: ${err.message}`);
          resolve(null);
        });
        child.on('close', (code) => {
          cancel.dispose();
          resolve(code);
        });
      }),
  );
  output.appendLine(`[exit ${status ?? 'killed'}]`);
  // writev-trace writes the trace whatever the program's exit status; no file means no trace was made.
  if (!existsSync(out)) {
    void vscode.window.showErrorMessage(
      'writev: the trace could not be made; see the "writev trace" output.',
    );
    return;
  }
  await loadTrace(host, vscode.Uri.file(out));
}
