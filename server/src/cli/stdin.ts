// --stdin: lints text read from standard input under the name --stdin-filename gives (its extension says
// the language), as editors and formatters' integrations call linters. Nothing is written to disk: with
// --fix the fixed bytes are returned for printing. The bytes are handled as a file's are: the same size
// limit, the same NUL check, and the same decoding (UTF-8 when valid, else Latin-1, a BOM kept), so the
// fixed output is the input's bytes with only the edited characters changed.
import { resolve } from 'node:path';
import type * as AnalyzerModule from '../analyzer/analyzer';
import { languageOf } from '../analyzer/languageOf';
import type { AnalyzerSettings } from '../analyzer/settings';
import { decodeSource, DEFAULT_MAX_FILE_BYTES, encodeSource } from '../workspace/sourceFile';
import { UsageError } from './args';
import type * as LintFileModule from './lintFile';
import type { FileResult } from './lintFile';

/**
 * Reads standard input whole, as bytes, but never more than `maxBytes` + 1 bytes: one byte past the
 * limit says the input is too large, and reading the rest would only hold it in memory.
 */
export async function readStandardInput(maxBytes = DEFAULT_MAX_FILE_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    total += (chunk as Buffer).length;
    if (total > maxBytes) break;
  }
  return Buffer.concat(chunks, total).subarray(0, Math.min(total, maxBytes + 1));
}

/** What linting standard input gives: the result, the text its findings refer to, the bytes to print. */
export interface StdinLint {
  readonly result: FileResult;
  /** The text the findings refer to (fixed or not). */
  readonly text: string;
  /** With --diff: the text as read and as --fix would print it. */
  readonly preview?: { readonly before: string; readonly after: string; readonly fixed: number };
  /**
   * With --fix, what standard output gets: the fixed bytes, or the input unchanged when nothing was
   * fixed or it was not analysed; undefined when the input was not read whole (too large).
   */
  readonly output?: Buffer;
}

/** How --stdin fixes: unsafe fixes too (--unsafe-fixes), and only to show them (--diff). */
export interface StdinFixOptions {
  readonly unsafeFixes?: boolean;
  readonly diff?: boolean;
}

/**
 * Lints `input` as the file `filename` (relative to `cwd`); with `fix`, lints the fixed text. Input over
 * `maxBytes`, or with NUL bytes, is skipped as such a file would be (the result says why). With
 * `how.diff`, the result carries the text before and after the fix (see FileResult.preview).
 */
export async function lintText(
  input: Buffer | string,
  filename: string,
  cwd: string,
  settings: AnalyzerSettings,
  fix: boolean,
  maxBytes = DEFAULT_MAX_FILE_BYTES,
  how: StdinFixOptions = {},
): Promise<StdinLint> {
  const path = resolve(cwd, filename);
  if (!languageOf(path))
    throw new UsageError(`--stdin-filename ${filename}: not a C, TypeScript or JavaScript file name`);
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  if (bytes.length > maxBytes) {
    const skipped = `standard input is larger than the limit of ${maxBytes} bytes (raise it with --max-file-size)`;
    return { result: { path, findings: [], lines: 0, skipped }, text: '' };
  }
  // Loaded here: a run over files analyses them on worker threads, and loading the analyzer into
  // this thread as well would only delay their start (lintFile loads it too).
  const { Analyzer, skipReason } = require('../analyzer/analyzer') as typeof AnalyzerModule;
  const { countLines, reportedFindings } = require('./lintFile') as typeof LintFileModule;
  const { text: read, form } = decodeSource(bytes);
  let text = read;
  const unchanged = fix ? bytes : undefined;
  const refused = skipReason(text, maxBytes);
  if (refused)
    return {
      result: { path, findings: [], lines: countLines(text), skipped: refused },
      text,
      output: unchanged,
    };
  const analyzer = await Analyzer.create();
  let findings = analyzer.analyze(path, text, settings);
  const fixed = fix ? analyzer.fixAll(path, text, findings, how.unsafeFixes) : undefined;
  if (fixed !== undefined && how.diff) {
    const after = analyzer.analyze(path, fixed, settings);
    const preview = { before: text, after: fixed, fixed: Math.max(1, findings.length - after.length) };
    const result = { path, findings: reportedFindings(after, fixed), lines: countLines(text), preview };
    return { result, text: fixed, preview };
  }
  let output = unchanged;
  if (fixed !== undefined) {
    try {
      output = encodeSource(fixed, form);
    } catch (error) {
      // The fix needs a character the input's encoding cannot hold: the input goes out unchanged.
      const result = {
        path,
        findings: reportedFindings(findings, text),
        lines: countLines(text),
        error: `cannot fix standard input: ${(error as Error).message}`,
      };
      return { result, text, output: unchanged };
    }
    text = fixed;
    findings = analyzer.analyze(path, text, settings);
  }
  const result = {
    path,
    findings: reportedFindings(findings, text),
    lines: countLines(text),
    fixed: fixed !== undefined,
  };
  return { result, text, output };
}
