import * as vscode from 'vscode';
import type { TraceFile, TraceSite } from '@writev/runtime/dist/trace/traceFile';
import { formatBytes } from '@writev/runtime/dist/trace/traceFile';

/** What the view needs from the rest of the extension. */
export interface TraceViewHost {
  readonly log: vscode.LogOutputChannel;
  /** Hands the sites to the language server (`null` clears them); a no-op while it is not running. */
  sendTrace(sites: readonly TraceSite[] | null): void;
}

/** One traced line: its sites (one per syscall and descriptor) and their totals. */
interface TracedLine {
  readonly file: string;
  readonly line: number;
  readonly sites: TraceSite[];
  calls: number;
  bytes: number;
}

const CONTEXT_KEY = 'writev.traceLoaded';

function callsText(n: number): string {
  return `${n.toLocaleString('en-US')} call${n === 1 ? '' : 's'}`;
}

/**
 * Shows a loaded trace: the calls and bytes at the end of each traced line, the breakdown by syscall
 * and descriptor on hover, the hottest lines in a tree view, and the measured figures in the server's
 * diagnostics. Clearing the trace removes all of them.
 */
export class TraceView
  implements vscode.Disposable, vscode.HoverProvider, vscode.TreeDataProvider<TracedLine>
{
  private trace: TraceFile | undefined;
  private source = '';
  private lines = new Map<string, Map<number, TracedLine>>();
  private hottest: TracedLine[] = [];
  private readonly decoration = vscode.window.createTextEditorDecorationType({
    after: {
      margin: '0 0 0 2em',
      color: new vscode.ThemeColor('editorCodeLens.foreground'),
      fontStyle: 'italic',
    },
    overviewRulerColor: new vscode.ThemeColor('editorInfo.foreground'),
    overviewRulerLane: vscode.OverviewRulerLane.Right,
  });
  private readonly treeChanged = new vscode.EventEmitter<TracedLine | undefined>();
  readonly onDidChangeTreeData = this.treeChanged.event;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly host: TraceViewHost) {
    this.disposables = [
      this.decoration,
      this.treeChanged,
      vscode.window.onDidChangeVisibleTextEditors(() => this.decorate()),
      vscode.languages.registerHoverProvider({ scheme: 'file' }, this),
      vscode.window.registerTreeDataProvider('writev.traceSites', this),
    ];
  }

  /** The trace shown, if any, and where it came from. */
  get current(): { trace: TraceFile; source: string } | undefined {
    return this.trace ? { trace: this.trace, source: this.source } : undefined;
  }

  /** Shows `trace` (read from `source`), replacing any other. */
  show(trace: TraceFile, source: string): void {
    this.trace = trace;
    this.source = source;
    this.lines = new Map();
    for (const site of trace.sites) {
      let byLine = this.lines.get(site.file);
      if (!byLine) this.lines.set(site.file, (byLine = new Map<number, TracedLine>()));
      let at = byLine.get(site.line);
      if (!at)
        byLine.set(site.line, (at = { file: site.file, line: site.line, sites: [], calls: 0, bytes: 0 }));
      at.sites.push(site);
      at.calls += site.calls;
      at.bytes += site.bytes;
    }
    this.hottest = [...this.lines.values()]
      .flatMap((m) => [...m.values()])
      .sort((a, b) => b.calls - a.calls || a.file.localeCompare(b.file) || a.line - b.line);
    this.host.sendTrace(trace.sites);
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, true);
    this.treeChanged.fire(undefined);
    this.decorate();
    this.host.log.info(
      `trace ${source}: ${trace.sites.length} sites, ${callsText(this.hottest.reduce((n, l) => n + l.calls, 0))}`,
    );
  }

  /** Removes the trace and everything it showed. */
  clear(): void {
    this.trace = undefined;
    this.lines = new Map();
    this.hottest = [];
    this.host.sendTrace(null);
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, false);
    this.treeChanged.fire(undefined);
    this.decorate();
  }

  /** The server restarted: give it the trace again. */
  resend(): void {
    if (this.trace) this.host.sendTrace(this.trace.sites);
  }

  private decorate(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const byLine =
        editor.document.uri.scheme === 'file' ? this.lines.get(editor.document.uri.fsPath) : undefined;
      const options: vscode.DecorationOptions[] = [];
      for (const traced of byLine?.values() ?? []) {
        if (traced.line > editor.document.lineCount) continue;
        const end = editor.document.lineAt(traced.line - 1).range.end;
        options.push({
          range: new vscode.Range(end, end),
          renderOptions: {
            after: { contentText: `${callsText(traced.calls)}, ${formatBytes(traced.bytes)}` },
          },
        });
      }
      editor.setDecorations(this.decoration, options);
    }
  }

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const traced = this.lines.get(document.uri.fsPath)?.get(position.line + 1);
    if (!traced) return undefined;
    const md = new vscode.MarkdownString();
    md.appendMarkdown(
      `**writev trace**: ${callsText(traced.calls)}, ${formatBytes(traced.bytes)} at this line\n\n`,
    );
    md.appendMarkdown('| syscall | fd | calls | bytes | bytes/call |\n|---|---:|---:|---:|---:|\n');
    for (const s of [...traced.sites].sort((a, b) => b.calls - a.calls)) {
      const per = s.calls > 0 ? Math.round(s.bytes / s.calls) : 0;
      md.appendMarkdown(
        `| ${s.syscall} | ${s.fd >= 0 ? s.fd : '?'} | ${s.calls.toLocaleString('en-US')} | ${formatBytes(s.bytes)} | ${per} |\n`,
      );
    }
    if (this.trace) md.appendMarkdown(`\n\`${this.trace.command.join(' ')}\` (exit ${this.trace.exitCode})`);
    return new vscode.Hover(md);
  }

  getTreeItem(traced: TracedLine): vscode.TreeItem {
    const name = vscode.workspace.asRelativePath(traced.file);
    const item = new vscode.TreeItem(`${name}:${traced.line}`);
    const fn = traced.sites[0]?.function;
    item.description = `${callsText(traced.calls)}, ${formatBytes(traced.bytes)}${fn ? ` in ${fn}` : ''}`;
    item.tooltip = traced.sites
      .map((s) => `${s.syscall} on fd ${s.fd}: ${callsText(s.calls)}, ${formatBytes(s.bytes)}`)
      .join('\n');
    item.command = {
      command: 'vscode.open',
      title: 'Open',
      arguments: [
        vscode.Uri.file(traced.file),
        {
          selection: new vscode.Range(traced.line - 1, 0, traced.line - 1, 0),
        } satisfies vscode.TextDocumentShowOptions,
      ],
    };
    return item;
  }

  getChildren(element?: TracedLine): TracedLine[] {
    return element ? [] : this.hottest.slice(0, 200);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, false);
  }
}
