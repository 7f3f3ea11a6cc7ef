import * as vscode from 'vscode';
import type { WritevContext } from './context';
import { fixAllInFile } from './fixAll';
import { lintWorkspace } from './lintWorkspace';
import type { BenchmarkRunner } from './bench/runBenchmarks';

/** Registers the extension's commands (contributed in package.json under category "writev"). */
export function registerCommands(ctx: WritevContext, bench: BenchmarkRunner): void {
  const register = (id: string, run: (...args: unknown[]) => unknown): void => {
    ctx.subscriptions.push(vscode.commands.registerCommand(id, run));
  };
  register('writev.restartServer', async () => {
    try {
      await ctx.restart();
      vscode.window.setStatusBarMessage('writev: server restarted', 3000);
    } catch {
      ctx.log.show(true);
    }
  });
  register('writev.showOutput', () => ctx.log.show());
  register('writev.fixAllInFile', () => fixAllInFile());
  register('writev.lintWorkspace', () => lintWorkspace(ctx));
  register('writev.traceProgram', () => ctx.trace().traceProgram());
  // Scripts may pass the trace file: executeCommand('writev.loadTrace', uri).
  register('writev.loadTrace', (uri) => ctx.trace().loadTrace(uri instanceof vscode.Uri ? uri : undefined));
  register('writev.clearTrace', () => ctx.trace().clearTrace());
  // Scripts may pass the suite ids to skip the picker: executeCommand('writev.runBenchmarks', ['writev']).
  register('writev.runBenchmarks', (suites) =>
    bench.run(Array.isArray(suites) && suites.every((s) => typeof s === 'string') ? suites : undefined),
  );
}
