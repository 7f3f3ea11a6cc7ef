// --stdin: lints text read from standard input under the name --stdin-filename gives (its extension says
// the language), as editors and formatters' integrations call linters. Nothing is written to disk: with
// --fix the fixed text is returned for printing.
import { resolve } from 'node:path';
import type * as AnalyzerModule from '../analyzer/analyzer';
import { languageOf } from '../analyzer/languageOf';
import type { AnalyzerSettings } from '../analyzer/settings';
import { UsageError } from './args';
import type * as LintFileModule from './lintFile';
import type { FileResult } from './lintFile';

/** Reads standard input whole, as UTF-8. */
export async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
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
  // this thread as well would only delay their start (lintFile loads it too).
  const { Analyzer } = require('../analyzer/analyzer') as typeof AnalyzerModule;
  const { countLines, reportedFindings } = require('./lintFile') as typeof LintFileModule;
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
  const result = {
    path,
    findings: reportedFindings(findings, text),
    lines: countLines(text),
    fixed: fixed !== undefined,
  };
  return { result, text };
}
