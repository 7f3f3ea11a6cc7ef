// --stdin: lints text read from standard input under the name --stdin-filename gives (its extension says
// the language), as editors and formatters' integrations call linters. Nothing is written to disk: with
// --fix the fixed text is returned for printing.
import { resolve } from 'node:path';
import type * as AnalyzerModule from '../analyzer/analyzer';
import { languageOf } from '../analyzer/languageOf';
import type { Finding } from '../analyzer/model';
import { LineIndex } from '../analyzer/positions';
import type { AnalyzerSettings } from '../analyzer/settings';
import { UsageError } from './args';
import type { FileResult, ReportedFinding } from './lintFile';

/** Reads standard input whole, as UTF-8. */
export async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function reported(findings: readonly Finding[], text: string): ReportedFinding[] {
  const lines = new LineIndex(text);
  const at = (offset: number) => lines.positionAt(offset);
  return findings.map((f) => ({
    code: f.code,
    severity: f.severity,
    message: f.message,
    syscalls: f.syscalls,
    target: f.target,
    start: at(f.span.start),
    end: at(f.span.end),
    related: f.related.map((r) => ({ start: at(r.span.start), end: at(r.span.end), message: r.message })),
    fix: f.fix && {
      title: f.fix.title,
      edits: f.fix.edits.map((e) => ({ start: at(e.span.start), end: at(e.span.end), newText: e.newText })),
    },
  }));
}

/** What linting standard input gives: the result, and the text its findings refer to (fixed or not). */
export interface StdinLint {
  readonly result: FileResult;
  readonly text: string;
}

/** Lints `text` as the file `filename` (relative to `cwd`); with `fix`, lints the fixed text. */
export async function lintText(
  text: string,
  filename: string,
  cwd: string,
  settings: AnalyzerSettings,
  fix: boolean,
): Promise<StdinLint> {
  // Loaded here: a run over files analyses them on worker threads, and loading the analyzer into
  // this thread as well would only delay their start.
  const { Analyzer } = require('../analyzer/analyzer') as typeof AnalyzerModule;
  const path = resolve(cwd, filename);
  if (!languageOf(path))
    throw new UsageError(`--stdin-filename ${filename}: not a C, TypeScript or JavaScript file name`);
  const analyzer = await Analyzer.create();
  let findings = analyzer.analyze(path, text, settings);
  const fixed = fix ? analyzer.fixAll(path, text, findings) : undefined;
  if (fixed !== undefined) {
    text = fixed;
    findings = analyzer.analyze(path, text, settings);
  }
  const lines = text.split('\n').length;
  const result = { path, findings: reported(findings, text), lines, fixed: fixed !== undefined };
  return { result, text };
}
