import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { BenchmarkPanel } from './bench/benchmarkPanel';
import { BenchmarkRunner } from './bench/runBenchmarks';
import { registerCommands } from './commands';
import { WritevContext } from './context';
import { ServerStatus } from './status';

let ctx: WritevContext | undefined;

/** Set by the bundle's first and last statements (esbuild.mjs), to log what loading it cost. */
declare const __writevLoadStart: number | undefined;
declare const __writevLoadEnd: number | undefined;

/**
 * Wires the extension: the context (language client, log), the status item, the commands and the
 * benchmark panel's serializer. Does not wait for the server: activation stays cheap, and the status
 * item shows the server starting.
 */
export function activate(extension: vscode.ExtensionContext): void {
  const started = performance.now();
  ctx = new WritevContext(extension);
  const bench = new BenchmarkRunner(ctx);
  ctx.subscriptions.push(new ServerStatus(ctx));
  registerCommands(ctx, bench);
  ctx.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(BenchmarkPanel.viewType, {
      deserializeWebviewPanel: async (panel, state) =>
        BenchmarkPanel.revive(panel, extension.extensionUri, state, bench),
    }),
  );
  const context = ctx;
  // Start the server just after activation returns: loading the client library is the costly part,
  // and nothing the user sees waits for it (the status item says "starting").
  setImmediate(() => void context.start().catch(() => undefined)); // logged and shown by the context
  const load =
    typeof __writevLoadStart === 'number' && typeof __writevLoadEnd === 'number'
      ? __writevLoadEnd - __writevLoadStart
      : 0;
  const call = performance.now() - started;
  context.log.info(
    `activated in ${(load + call).toFixed(1)} ms (loading ${load.toFixed(1)} ms, activate ${call.toFixed(1)} ms)`,
  );
}

/** Stops the server and releases everything. */
export async function deactivate(): Promise<void> {
  await ctx?.dispose();
  ctx = undefined;
}
