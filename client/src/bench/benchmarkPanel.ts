import * as os from 'node:os';
import * as vscode from 'vscode';
import type { BenchEvent, CaseResult } from '@writev/runtime/bench';
import { caseView } from './caseView';
import { exportJson, exportMarkdown, type MachineInfo } from './exportResults';
import {
  EMPTY_STATE,
  isPanelState,
  type FromWebview,
  type PanelState,
  type RunInfo,
  type ToWebview,
} from './messages';
import { makeNonce, panelHtml } from './panelHtml';

/** What the panel asks of whoever runs benchmarks. */
export interface PanelActions {
  rerun(run: RunInfo): void;
  cancel(): void;
}

/**
 * The benchmark results panel: one at a time (a singleton, as in the Cat Coding sample), created or
 * revealed by {@link BenchmarkPanel.createOrShow} and rebuilt after a reload by
 * {@link BenchmarkPanel.revive} from the state its page saved. The extension host keeps the results too,
 * since it writes the exports.
 */
export class BenchmarkPanel {
  /** The webview type, also the `onWebviewPanel:` activation event. */
  static readonly viewType = 'writev.benchmarks';
  private static current: BenchmarkPanel | undefined;
  private state: PanelState;
  private readonly disposables: vscode.Disposable[] = [];

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly extensionUri: vscode.Uri,
    state: PanelState,
    private readonly actions: PanelActions,
  ) {
    this.state = state;
    panel.webview.options = BenchmarkPanel.webviewOptions(extensionUri);
    panel.webview.html = this.html();
    panel.onDidDispose(() => this.dispose(), null, this.disposables);
    panel.webview.onDidReceiveMessage((m: FromWebview) => this.onMessage(m), null, this.disposables);
  }

  /** The open panel, if any. */
  static get instance(): BenchmarkPanel | undefined {
    return BenchmarkPanel.current;
  }

  /** Reveals the panel, creating it (empty) when there is none. */
  static createOrShow(extensionUri: vscode.Uri, actions: PanelActions): BenchmarkPanel {
    if (BenchmarkPanel.current) {
      BenchmarkPanel.current.panel.reveal(undefined, true);
      return BenchmarkPanel.current;
    }
    const panel = vscode.window.createWebviewPanel(
      BenchmarkPanel.viewType,
      'writev Benchmarks',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      BenchmarkPanel.webviewOptions(extensionUri),
    );
    BenchmarkPanel.current = new BenchmarkPanel(panel, extensionUri, EMPTY_STATE, actions);
    return BenchmarkPanel.current;
  }

  /** Adopts a panel VS Code restored after a reload, with the state its page had saved. */
  static revive(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    saved: unknown,
    actions: PanelActions,
  ): void {
    const state = isPanelState(saved) ? saved : EMPTY_STATE;
    // A run cannot survive a reload: its child process died with the old extension host.
    const restored = state.running ? { ...state, running: false, status: 'Interrupted by a reload.' } : state;
    BenchmarkPanel.current?.dispose();
    BenchmarkPanel.current = new BenchmarkPanel(panel, extensionUri, restored, actions);
  }

  private static webviewOptions(
    extensionUri: vscode.Uri,
  ): vscode.WebviewOptions & vscode.WebviewPanelOptions {
    return {
      enableScripts: true,
      localResourceRoots: [
        vscode.Uri.joinPath(extensionUri, 'media'),
        vscode.Uri.joinPath(extensionUri, 'dist'),
      ],
    };
  }

  /** The results shown, in the order they arrived. */
  get results(): CaseResult[] {
    return this.state.cases.map((c) => c.result);
  }

  /** Clears the panel for a new run. */
  startRun(run: RunInfo): void {
    this.state = { run, status: `Starting ${run.suites.join(', ')}…`, running: true, cases: [] };
    this.post({ type: 'state', state: this.state });
  }

  /** Shows a streamed benchmark event. */
  handle(event: BenchEvent, status: string | undefined): void {
    if (event.type === 'result') {
      const item = { result: event.result, view: caseView(event.result) };
      this.state = { ...this.state, cases: [...this.state.cases, item] };
      this.post({ type: 'case', case: item });
    }
    if (status !== undefined) this.setStatus(status, true);
  }

  /** Sets the status line; `running` enables Cancel and disables Run Again. */
  setStatus(status: string, running: boolean): void {
    this.state = { ...this.state, status, running };
    this.post({ type: 'status', status, running });
  }

  /** Closes the panel. */
  dispose(): void {
    if (BenchmarkPanel.current === this) BenchmarkPanel.current = undefined;
    this.panel.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  private post(message: ToWebview): void {
    // A hidden webview drops messages; it asks for the whole state with 'ready' when shown again.
    void this.panel.webview.postMessage(message);
  }

  private onMessage(message: FromWebview): void {
    if (message.type === 'ready') this.post({ type: 'state', state: this.state });
    else if (message.type === 'cancel') this.actions.cancel();
    else if (message.type === 'rerun' && this.state.run) this.actions.rerun(this.state.run);
    else if (message.type === 'export') void this.export(message.format);
  }

  private async export(format: 'json' | 'markdown'): Promise<void> {
    const run = this.state.run;
    if (!run || this.state.cases.length === 0) return;
    const machine = machineInfo();
    const text =
      format === 'json'
        ? exportJson(machine, run.size, this.results)
        : exportMarkdown(machine, run.size, this.results);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `writev-bench.${format === 'json' ? 'json' : 'md'}`;
    const target = await vscode.window.showSaveDialog({
      defaultUri: folder ? vscode.Uri.joinPath(folder, 'bench-results', name) : undefined,
      filters: format === 'json' ? { JSON: ['json'] } : { Markdown: ['md'] },
      title: `Export benchmark results as ${format === 'json' ? 'JSON' : 'Markdown'}`,
    });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, Buffer.from(text, 'utf8'));
    void vscode.window.showInformationMessage(
      `writev: results written to ${vscode.workspace.asRelativePath(target)}`,
    );
  }

  private html(): string {
    const webview = this.panel.webview;
    const asset = (...parts: string[]): string =>
      webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, ...parts)).toString();
    return panelHtml(
      {
        cspSource: webview.cspSource,
        script: asset('media', 'benchmarks.js'),
        style: asset('media', 'benchmarks.css'),
        chart: asset('dist', 'chart.umd.js'),
      },
      makeNonce(),
    );
  }
}

function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? '',
  };
}
