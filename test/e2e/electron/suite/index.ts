// Runs inside the desktop VS Code that test:electron starts (no mocha: VS Code only needs `run`).
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';

const COMMANDS = [
  'writev.restartServer',
  'writev.showOutput',
  'writev.fixAllInFile',
  'writev.runBenchmarks',
  'writev.lintWorkspace',
];

/** Waits until `check` holds, polling, or fails after `ms`. */
async function until(what: string, check: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The checks: the extension activates on a C file, registers its commands, and starts its server. */
export async function run(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the fixture workspace is open');
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'src', 'sideband.c'));
  await vscode.window.showTextDocument(doc);
  const extension = vscode.extensions.getExtension('writev.writev');
  assert.ok(extension, 'the extension is installed');
  await until('activation', () => extension.isActive);
  const commands = await vscode.commands.getCommands(true);
  for (const id of COMMANDS) assert.ok(commands.includes(id), id);
  console.log('test:electron: the extension activated and registered its commands');
}
