// Wires the analyzer to LSP: document sync, push and pull diagnostics, code actions (quick fix and
// fix-all), configuration with live reload, workspace folders with their wrapper indexes, and the
// `writev/lintWorkspace` request. Handlers stay small; the work lives in the analyzer.
import { sep } from 'node:path';
import {
  CodeAction,
  CodeActionKind,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  DocumentDiagnosticReportKind,
  FileChangeType,
  LSPErrorCodes,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type CodeActionParams,
  type Connection,
  type Diagnostic,
  type DocumentDiagnosticReport,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  languageOf,
  LineIndex,
  type Analyzer,
  type AnalyzerSettings,
  type Finding,
  type WrapperIndex,
} from '../index';
import { sourceFiles } from '../workspace/files';
import { disableLineEdit } from '../analyzer/suppressions';
import { readSourceFile, SkippedFileError } from '../workspace/sourceFile';
import { disableAction, FIX_ALL_KIND, quickFix, toDiagnostic, toWorkspaceEdit, touches } from './convert';
import { LoadedTrace } from './measuredDiagnostics';
import { TRACE_NOTIFICATION, type TraceParams } from './protocol';
import { DocumentAnalyses, type Analysis } from './documents';
import { Folders, yieldToEventLoop, type Folder } from './folders';
import type { LintWorkspaceParams, LintWorkspaceResult } from './protocol';
import { LintWorkspaceRequest } from './requests';
import { SettingsCache } from './settings';
import { CONFIG_FILE_NAME } from '../config/configFile';
import { URI } from './uri';

const WATCHED = '**/*.{c,h,ts,tsx,mts,cts,js,jsx,mjs,cjs}';
const WATCHED_CONFIG = `**/${CONFIG_FILE_NAME}`;

function cancelled(): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestCancelled, 'writev: request cancelled');
}

/** One language server session over one connection. */
export class Session {
  private readonly documents = new TextDocuments(TextDocument);
  // Created in `initialize`, once the analyzer (the C grammar) has loaded; no other message comes first.
  private analyzer!: Analyzer;
  private analyses!: DocumentAnalyses;
  private folders!: Folders;
  // Created in `initialize` too: whether it may ask the client (`workspace/configuration`) is a capability.
  private settings!: SettingsCache;
  private pull = false;
  private refresh = false;
  private dynamicConfiguration = false;
  private dynamicWatch = false;
  private progressSupport = false;
  private generation = 0;
  /** The trace the client loaded (`writev/trace`): its measurements join the diagnostics. */
  private readonly trace = new LoadedTrace();
  private readonly pending = new Set<string>();
  private flushing = false;
  /**
   * The files not open in the editor that `writev/lintWorkspace` published findings for (by path, to
   * the URI it published under): a snapshot under the settings and the file texts of then.
   */
  private readonly linted = new Map<string, string>();

  /** `ready` resolves to the analyzer; the session answers `initialize` once it has. */
  constructor(
    private readonly connection: Connection,
    private readonly ready: Promise<Analyzer>,
  ) {}

  private log(message: string): void {
    this.connection.console.log(message);
  }

  /** Registers every handler and starts listening. */
  listen(): void {
    const c = this.connection;
    c.onInitialize((params) => this.initialize(params));
    c.onInitialized(() => {
      this.initialized().catch((error: unknown) =>
        this.log(`writev: setting up the workspace failed: ${String(error)}`),
      );
    });
    // Once open, a document's diagnostics come from its own analysis, not from the workspace lint's
    // snapshot (a client that pulls would show both, and keep the snapshot's after a fix).
    this.documents.onDidOpen((e) => this.unlint(URI.toPath(e.document.uri)));
    this.documents.onDidChangeContent((e) => this.changed(e.document.uri));
    this.documents.onDidClose((e) => this.closed(e.document.uri));
    this.documents.onDidSave((e) => void this.saved(e.document));
    c.onDidChangeConfiguration((change) => this.configurationChanged(change.settings));
    c.onDidChangeWatchedFiles((params) => void this.filesChanged(params.changes));
    c.languages.diagnostics.on((params, token) =>
      this.pullDiagnostics(params.textDocument.uri, params.previousResultId, token),
    );
    c.onCodeAction((params, token) => this.codeActions(params, token));
    c.onRequest(LintWorkspaceRequest, (params, token) => this.lintWorkspace(params, token));
    c.onNotification(TRACE_NOTIFICATION, (params: TraceParams) => {
      this.trace.set(params.sites ?? undefined);
      this.revalidateAll();
    });
    this.documents.listen(c);
    c.listen();
  }

  private async initialize(params: InitializeParams): Promise<InitializeResult> {
    this.analyzer = await this.ready;
    this.analyses = new DocumentAnalyses(this.analyzer);
    const caps = params.capabilities;
    this.settings = new SettingsCache(this.connection, !!caps.workspace?.configuration, (dir) =>
      this.rootOf(dir),
    );
    this.folders = new Folders(
      this.analyzer,
      (path) => this.settings.get(URI.fromPath(path), true),
      async (path) => (await this.settings.configFor(path))?.settings,
      (m) => this.log(m),
    );
    this.pull = !!caps.textDocument?.diagnostic;
    this.refresh = !!caps.workspace?.diagnostics?.refreshSupport;
    this.dynamicConfiguration = !!caps.workspace?.didChangeConfiguration?.dynamicRegistration;
    this.dynamicWatch = !!caps.workspace?.didChangeWatchedFiles?.dynamicRegistration;
    this.progressSupport = !!caps.window?.workDoneProgress;
    this.folderEvents = !!caps.workspace?.workspaceFolders;
    const roots = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    this.roots = roots.filter((uri) => uri.startsWith('file:')).map((uri) => URI.toPath(uri));
    return {
      capabilities: {
        textDocumentSync: {
          openClose: true,
          change: TextDocumentSyncKind.Incremental,
          save: { includeText: false },
        },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
        diagnosticProvider: this.pull
          ? { identifier: 'writev', interFileDependencies: true, workspaceDiagnostics: false }
          : undefined,
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'writev' },
    };
  }

  private roots: string[] = [];
  private folderEvents = false;

  /**
   * The workspace folder holding `dir` (the innermost), where a config lookup outside any git
   * repository stops. From the folders `initialize` named and those added since, so the answer does
   * not wait for the folders' indexing to start.
   */
  private rootOf(dir: string): string | undefined {
    let best: string | undefined;
    for (const root of this.roots) {
      const inside = dir === root || dir.startsWith(root.endsWith(sep) ? root : root + sep);
      if (inside && (best === undefined || root.length > best.length)) best = root;
    }
    return best;
  }

  private async initialized(): Promise<void> {
    if (this.dynamicConfiguration) {
      await this.connection.client.register(DidChangeConfigurationNotification.type, { section: 'writev' });
    }
    if (this.dynamicWatch) {
      await this.connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: [{ globPattern: WATCHED }, { globPattern: WATCHED_CONFIG }],
      });
    }
    for (const root of this.roots) this.folders.add(root, () => this.revalidateAll());
    if (this.folderEvents) {
      this.connection.workspace.onDidChangeWorkspaceFolders((event) => {
        const removed = new Set(event.removed.map((f) => URI.toPath(f.uri)));
        const added = event.added.filter((f) => f.uri.startsWith('file:')).map((f) => URI.toPath(f.uri));
        this.roots = [...this.roots.filter((r) => !removed.has(r)), ...added];
        for (const path of removed) this.folders.remove(path);
        for (const path of added) this.folders.add(path, () => this.revalidateAll());
        // Where config lookups stop may have moved.
        if (removed.size > 0 || added.length > 0) this.configurationChanged(undefined);
      });
    }
  }

  /** Analyses `uri`'s current version (cached), with its folder's settings, index and exclusions. */
  private async analysis(uri: string): Promise<Analysis | undefined> {
    const doc = this.documents.get(uri);
    if (!doc) return undefined;
    const { settings, base } = await this.settings.resolve(uri);
    const current = this.documents.get(uri);
    if (!current || current.version !== doc.version) return undefined; // Moved on while we waited.
    const path = URI.toPath(uri);
    const folder = this.folders.of(path);
    const excluded = this.folders.excluded(path, settings, base);
    return this.analyses.analyze(doc, settings, folder?.index, excluded, (m) => this.log(m));
  }

  private changed(uri: string): void {
    if (this.pull) return; // The client asks when it wants diagnostics.
    this.pending.add(uri);
    if (!this.flushing) {
      this.flushing = true;
      setImmediate(() => void this.flush());
    }
  }

  /** Publishes diagnostics for every document changed since the last flush (changes coalesce). */
  private async flush(): Promise<void> {
    while (this.pending.size > 0) {
      const batch = [...this.pending];
      this.pending.clear();
      for (const uri of batch) {
        const analysis = await this.analysis(uri);
        if (!analysis) continue;
        const diagnostics = await this.measured(uri, this.analyses.diagnostics(analysis));
        await this.connection.sendDiagnostics({ uri, version: analysis.version, diagnostics });
      }
    }
    this.flushing = false;
  }

  private closed(uri: string): void {
    this.analyses.forget(uri);
    this.settings.drop(uri);
    if (!this.pull) void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /**
   * What `folder`'s index tells the other files, seen from beside `path`: the facts a C file of no
   * name would get (every file's wrappers and the functions that do no output) and those a TS/JS file
   * would get (every exported TS/JS wrapper). When a file changes them, documents open elsewhere may
   * have other findings now.
   */
  private sharedFacts(folder: Folder, path: string): string {
    const index = folder.index;
    return `${index.factsDigest(`${path}\u0000.c`)} ${index.factsDigest(`${path}\u0000.ts`)}`;
  }

  private async saved(doc: TextDocument): Promise<void> {
    const path = URI.toPath(doc.uri);
    const folder = this.folders.of(path);
    if (!folder) return;
    const before = this.sharedFacts(folder, path);
    await this.folders.update(folder, path, await this.settings.get(doc.uri), doc.getText());
    if (this.sharedFacts(folder, path) !== before) this.revalidateAll();
  }

  /** Withdraws what the workspace lint published for the file at `path`, if anything. */
  private unlint(path: string): void {
    const uri = this.linted.get(path);
    if (uri === undefined) return;
    this.linted.delete(path);
    void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  private async filesChanged(changes: readonly { uri: string; type: FileChangeType }[]): Promise<void> {
    // The lint's findings of a file changed on disk point into text that is gone.
    for (const change of changes) if (!this.documents.get(change.uri)) this.unlint(URI.toPath(change.uri));
    if (changes.some((c) => c.uri.endsWith(`/${CONFIG_FILE_NAME}`))) {
      // A config file came, went or changed: every file under it may have other settings now.
      this.log('writev: a .writev-lint.json changed; reading the settings again');
      this.configurationChanged(undefined);
    }
    // Each folder's shared facts before the first of its changes (as in saved()): a file changed
    // outside the editor can change the findings of documents open elsewhere.
    const before = new Map<Folder, [string, string]>();
    for (const change of changes) {
      if (!change.uri.startsWith('file:') || change.uri.endsWith(`/${CONFIG_FILE_NAME}`)) continue;
      const path = URI.toPath(change.uri);
      const folder = this.folders.of(path);
      if (!folder) continue;
      if (!before.has(folder)) before.set(folder, [path, this.sharedFacts(folder, path)]);
      if (change.type === FileChangeType.Deleted) await this.folders.removed(folder, path);
      else await this.folders.update(folder, path, await this.settings.get(change.uri));
    }
    for (const [folder, [path, facts]] of before)
      if (this.sharedFacts(folder, path) !== facts) return this.revalidateAll();
  }

  private configurationChanged(pushed: unknown): void {
    const section =
      typeof pushed === 'object' && pushed !== null ? (pushed as Record<string, unknown>).writev : undefined;
    this.settings.reset(section);
    // The workspace lint's findings were made under the old settings: a fresh start would show none
    // until the next lint.
    for (const path of [...this.linted.keys()]) this.unlint(path);
    // Once now for the new settings, and again for each folder once its wrapper index is rebuilt with them.
    for (const folder of this.folders.all())
      void this.folders.reindex(folder).then(() => this.revalidateAll());
    this.revalidateAll();
  }

  /** Diagnostics may have changed everywhere (settings, wrapper index): re-publish or ask the client to pull. */
  private revalidateAll(): void {
    this.analyses.invalidate();
    this.generation++;
    if (this.pull) {
      if (this.refresh) void this.connection.languages.diagnostics.refresh();
      return;
    }
    for (const doc of this.documents.all()) this.changed(doc.uri);
  }

  private async pullDiagnostics(
    uri: string,
    previous: string | undefined,
    token: CancellationToken,
  ): Promise<DocumentDiagnosticReport> {
    if (token.isCancellationRequested) throw cancelled();
    const analysis = await this.analysis(uri);
    if (token.isCancellationRequested) throw cancelled();
    if (!analysis) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    const resultId = `${this.generation}:${analysis.version}`;
    if (previous === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
    return {
      kind: DocumentDiagnosticReportKind.Full,
      resultId,
      items: await this.measured(uri, this.analyses.diagnostics(analysis)),
    };
  }

  private async codeActions(params: CodeActionParams, token: CancellationToken): Promise<CodeAction[]> {
    const uri = params.textDocument.uri;
    const analysis = await this.analysis(uri);
    if (!analysis || token.isCancellationRequested) return [];
    const wants = (kind: string) =>
      !params.context.only || params.context.only.some((o) => kind === o || kind.startsWith(`${o}.`));
    const actions: CodeAction[] = [];
    const { lines, version, findings } = analysis;
    if (wants(CodeActionKind.QuickFix)) {
      const start = lines.offsetAt(params.range.start);
      const end = lines.offsetAt(params.range.end);
      const disables: CodeAction[] = [];
      const path = URI.toPath(uri);
      const language = languageOf(path);
      for (const f of findings) {
        if (!touches(f.span, start, end)) continue;
        const doc = this.documents.get(uri);
        const edits = doc && this.analyzer.fixEdits(path, doc.getText(), f);
        const action = edits && quickFix(f, edits, toDiagnostic(f, uri, lines), uri, version, lines);
        if (action) actions.push(action);
        if (doc && language && f.code !== 'unused-directive') {
          const edit = disableLineEdit(doc.getText(), language, f, f.code);
          disables.push(disableAction(f.code, edit, toDiagnostic(f, uri, lines), uri, version, lines));
        }
      }
      // The fixes first: silencing a hint is the choice after fixing it.
      actions.push(...disables);
    }
    const doc = this.documents.get(uri);
    const fixed =
      wants(FIX_ALL_KIND) && doc ? this.analyzer.fixAll(URI.toPath(uri), doc.getText(), findings) : undefined;
    if (doc && fixed !== undefined) {
      // One edit for the whole text: the fixes, and the imports they left unused, in one step.
      const whole = [{ span: { start: 0, end: doc.getText().length }, newText: fixed }];
      actions.push(
        CodeAction.create(
          'Gather all writes in this file (writev, safe fixes only)',
          toWorkspaceEdit(uri, version, whole, lines),
          FIX_ALL_KIND,
        ),
      );
    }
    return actions;
  }

  /** `diagnostics` of an open document, with what the loaded trace measured there. */
  private async measured(uri: string, diagnostics: Diagnostic[]): Promise<Diagnostic[]> {
    const doc = this.documents.get(uri);
    if (!this.trace.loaded || !doc) return diagnostics;
    const settings = await this.settings.get(uri);
    return this.trace.apply(URI.toPath(uri), diagnostics, doc.getText(), settings.measuredWrites);
  }

  private async lintWorkspace(
    _params: LintWorkspaceParams,
    token: CancellationToken,
  ): Promise<LintWorkspaceResult> {
    const progress = this.progressSupport ? await this.connection.window.createWorkDoneProgress() : undefined;
    progress?.begin('writev: analysing the workspace', undefined, undefined, true);
    const stop = () => token.isCancellationRequested || !!progress?.token.isCancellationRequested;
    let files = 0;
    let findings = 0;
    for (const folder of this.folders.all()) {
      const root = await this.settings.resolve(URI.fromPath(folder.path), true);
      const walk = (path: string) => this.folders.excluded(path, root.settings, root.base ?? folder.path);
      const skipped = (path: string, reason: string) => this.log(`writev: skipped ${path}: ${reason}`);
      await this.folders.whenIndexed(folder);
      for await (const path of sourceFiles(folder.path, walk, stop, skipped)) {
        const uri = URI.fromPath(path);
        // A config file deeper in the folder has its own settings and `exclude`.
        const config = await this.settings.configFor(path);
        const settings = config?.settings ?? root.settings;
        if (config && config.path !== root.file && this.folders.excluded(path, settings, config.base))
          continue;
        const open = this.documents.get(uri);
        let diagnostics;
        if (open) {
          const analysis = await this.analysis(uri);
          diagnostics = analysis ? await this.measured(uri, this.analyses.diagnostics(analysis)) : [];
        } else {
          // Regular files only (a FIFO would never answer), decoded without losing a byte.
          const text = await readSourceFile(path).then(
            (file) => file.text,
            (error: unknown) => {
              skipped(path, error instanceof SkippedFileError ? error.reason : String(error));
              return '';
            },
          );
          const lines = new LineIndex(text);
          const found = this.analyze(path, text, settings, folder.index);
          diagnostics = this.trace.apply(
            path,
            found.map((f) => toDiagnostic(f, uri, lines)),
            text,
            settings.measuredWrites,
          );
        }
        files++;
        findings += diagnostics.length;
        // Open documents already get their diagnostics (pulled, or pushed on change).
        if (!open && (diagnostics.length > 0 || this.linted.has(path))) {
          // Also when it has none now: what an earlier lint published for it is gone.
          if (diagnostics.length > 0) this.linted.set(path, uri);
          else this.linted.delete(path);
          await this.connection.sendDiagnostics({ uri, diagnostics });
        }
        progress?.report(`${files} files, ${findings} findings`);
        await yieldToEventLoop();
      }
    }
    progress?.done();
    return { files, findings, cancelled: stop() };
  }

  private analyze(path: string, text: string, settings: AnalyzerSettings, index: WrapperIndex): Finding[] {
    try {
      return this.analyzer.analyze(path, text, settings, { index });
    } catch (error) {
      this.log(`writev: analysing ${path} failed: ${(error as Error).stack ?? String(error)}`);
      return [];
    }
  }
}
