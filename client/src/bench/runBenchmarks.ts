import * as vscode from 'vscode';
import type { BenchSize } from '@writev/runtime/bench';
import type { WritevContext } from '../context';
import { BenchmarkPanel, type PanelActions } from './benchmarkPanel';
import { listSuitesText, runBench, type BenchCommand } from './benchProcess';
import type { RunInfo } from './messages';
import { progressText } from './progressText';
import { parseSuiteList, type SuiteInfo } from './suiteList';

const LAST_SUITES_KEY = 'writev.benchmarks.lastSuites';

/**
 * The `writev.runBenchmarks` command: picks suites, runs them in a child process with a cancellable
 * progress notification, and streams the results into the {@link BenchmarkPanel}. One run at a time.
 */
export class BenchmarkRunner implements PanelActions {
  private running: AbortController | undefined;

  constructor(private readonly ctx: WritevContext) {}

  /** Runs the given suites, or asks which. Refuses in an untrusted workspace: benchmarks run code. */
  async run(suites?: readonly string[]): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      const choice = await vscode.window.showWarningMessage(
        'Running the writev benchmarks needs a trusted workspace: they start processes and write scratch files.',
        'Manage Workspace Trust',
      );
      if (choice) await vscode.commands.executeCommand('workbench.trust.manage');
      return;
    }
    if (this.running) {
      BenchmarkPanel.createOrShow(this.ctx.extension.extensionUri, this);
      void vscode.window.showInformationMessage('writev: a benchmark run is already in progress.');
      return;
    }
    const chosen = suites ?? (await this.pickSuites());
    if (!chosen || chosen.length === 0) return;
    const config = vscode.workspace.getConfiguration('writev.benchmarks');
    const size = config.get<BenchSize>('size', 'quick');
    const runs = config.get<number | null>('runs', null) ?? undefined;
    await this.execute({ suites: [...chosen], size, startedAt: new Date().toISOString() }, runs);
  }

  /** Runs a previous run's suites again (the panel's Run Again button), with the current settings. */
  rerun(run: RunInfo): void {
    void this.run(run.suites);
  }

  /** Stops the running benchmarks, if any. */
  cancel(): void {
    this.running?.abort();
  }

  private command(): BenchCommand {
    return {
      node: process.execPath,
      cli: this.ctx.extension.asAbsolutePath('dist/bench/bin/writev-bench.js'),
      cwd: this.ctx.extension.extensionPath,
    };
  }

  private async pickSuites(): Promise<string[] | undefined> {
    let suites: SuiteInfo[];
    try {
      suites = parseSuiteList(await listSuitesText(this.command()));
    } catch (err) {
      this.ctx.log.error(`listing the benchmark suites failed: ${String(err)}`);
      void vscode.window.showErrorMessage('writev: could not list the benchmark suites (see the log).');
      return undefined;
    }
    const last = this.ctx.extension.workspaceState.get<string[]>(LAST_SUITES_KEY);
    const picked = await vscode.window.showQuickPick(
      suites.map((s) => ({
        label: s.title,
        description: s.id,
        detail: s.description,
        id: s.id,
        picked: last ? last.includes(s.id) : true,
      })),
      {
        canPickMany: true,
        title: 'writev: Run Benchmarks',
        placeHolder: 'Suites to run (size from the setting writev.benchmarks.size)',
      },
    );
    if (!picked) return undefined;
    const ids = picked.map((p) => p.id);
    await this.ctx.extension.workspaceState.update(LAST_SUITES_KEY, ids);
    return ids;
  }

  private async execute(run: RunInfo, runs: number | undefined): Promise<void> {
    const panel = BenchmarkPanel.createOrShow(this.ctx.extension.extensionUri, this);
    panel.startRun(run);
    const controller = new AbortController();
    this.running = controller;
    this.ctx.log.info(`benchmarks: ${run.suites.join(', ')} at size ${run.size}`);
    const errors: string[] = [];
    try {
      const outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'writev benchmarks', cancellable: true },
        (progress, token) => {
          token.onCancellationRequested(() => controller.abort());
          return runBench(
            this.command(),
            { suites: run.suites, size: run.size, runs },
            (event) => {
              const text = progressText(event);
              if (text !== undefined) progress.report({ message: text });
              if (event.type === 'error') errors.push(`${event.suite}: ${event.message}`);
              if (event.type === 'log') this.ctx.log.info(`${event.suite}: ${event.message}`);
              BenchmarkPanel.instance?.handle(event, text);
            },
            controller.signal,
          );
        },
      );
      const count = BenchmarkPanel.instance?.results.length ?? 0;
      if (outcome.cancelled) BenchmarkPanel.instance?.setStatus(`Cancelled after ${count} cases.`, false);
      else if (errors.length > 0 || outcome.status !== 0) {
        const detail = errors.join('; ') || outcome.stderr.trim() || `exit status ${outcome.status}`;
        this.ctx.log.error(`benchmarks failed: ${detail}`);
        BenchmarkPanel.instance?.setStatus(`Failed: ${detail}`, false);
        void vscode.window.showErrorMessage(`writev benchmarks failed: ${detail}`);
      } else BenchmarkPanel.instance?.setStatus(`Done: ${count} cases.`, false);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.ctx.log.error(`benchmarks failed: ${message}`);
      BenchmarkPanel.instance?.setStatus(`Failed: ${message}`, false);
      void vscode.window.showErrorMessage(`writev benchmarks failed: ${message}`);
    } finally {
      this.running = undefined;
    }
  }
}
