// Analysis results per open document version: computed once, shared by push diagnostics, pull
// diagnostics and code actions.
import type { Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { KeptDiagnostics } from './keptDiagnostics';
import { URI } from './uri';
import { LineIndex, type Analyzer, type AnalyzerSettings, type Finding, type WrapperIndex } from '../index';

/** The findings of one document version and the line index to place them. */
export interface Analysis {
  readonly uri: string;
  readonly version: number;
  readonly findings: readonly Finding[];
  readonly lines: LineIndex;
  /** The text analysed. */
  readonly text: string;
}

/** Analyses documents, caching the result of each URI's latest version. */
export class DocumentAnalyses {
  private readonly latest = new Map<string, Analysis>();
  private readonly kept = new KeptDiagnostics();

  constructor(private readonly analyzer: Analyzer) {}

  /**
   * The analysis of `doc` (cached per version). Never throws: an analyzer failure is logged through
   * `log` with the document named, and the document gets no findings.
   */
  analyze(
    doc: TextDocument,
    settings: AnalyzerSettings,
    index: WrapperIndex | undefined,
    excluded: boolean,
    log: (message: string) => void,
  ): Analysis {
    const cached = this.latest.get(doc.uri);
    if (cached && cached.version === doc.version) return cached;
    const text = doc.getText();
    let findings: Finding[] = [];
    const path = URI.toPath(doc.uri);
    if (!excluded) {
      try {
        findings = this.analyzer.analyze(path, text, settings, { key: doc.uri, index });
      } catch (error) {
        log(`writev: analysing ${path} failed: ${(error as Error).stack ?? String(error)}`);
      }
    }
    const analysis = { uri: doc.uri, version: doc.version, findings, lines: new LineIndex(text), text };
    this.latest.set(doc.uri, analysis);
    return analysis;
  }

  /** The diagnostics of `analysis`'s findings (see keptDiagnostics.ts). */
  diagnostics(analysis: Analysis): Diagnostic[] {
    return this.kept.of(analysis.uri, analysis.text, analysis.findings, analysis.lines);
  }

  /** Drops a document's cached analysis (closed, or settings changed). */
  forget(uri: string): void {
    this.latest.delete(uri);
    this.kept.forget(uri);
    this.analyzer.forget(uri);
  }

  /** Drops every cached analysis, keeping the syntax trees (settings changed). */
  invalidate(): void {
    this.latest.clear();
  }
}
