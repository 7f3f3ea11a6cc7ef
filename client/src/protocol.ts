/**
 * The contract between this client and the writev language server, in one typed file: the names the
 * server's diagnostics and code actions carry (issue 5), and the one custom request the client adds.
 * It imports only types (erased at build), so the server can share it, and the extension's first
 * bundle stays free of the language client library (see lsp/index.ts).
 */
import type { Diagnostic } from 'vscode-languageclient';

/** `Diagnostic.source` of every writev finding. */
export const DIAGNOSTIC_SOURCE = 'writev';

/** Diagnostic codes: several writes in a row, and a write per loop iteration. */
export const DiagnosticCode = {
  adjacentWrites: 'adjacent-writes',
  loopWrites: 'loop-writes',
} as const;

/** The code action kind that applies every safe writev fix in a file (`source.fixAll.writev`). */
export const FIX_ALL_KIND = 'source.fixAll.writev';

/** Parameters of {@link LintFilesRequest}. */
export interface LintFilesParams {
  /**
   * `file:` URIs to analyse. The server reads each from disk unless the editor has it open, in which
   * case it uses the open document's text. Files the server's settings exclude (`writev.exclude`,
   * disabled languages) come back with no diagnostics.
   */
  uris: string[];
}

/** The findings of one file, as the server would publish them for an open document. */
export interface FileDiagnostics {
  uri: string;
  diagnostics: Diagnostic[];
}

/** Result of {@link LintFilesRequest}: one entry per requested URI, in request order. */
export interface LintFilesResult {
  files: FileDiagnostics[];
}

/**
 * `writev/lintFiles` (a request from client to server, {@link LintFilesParams} to {@link LintFilesResult}):
 * analyse files that need not be open. The `writev.lintWorkspace` command sends the workspace's matching
 * files in batches. The server honours cancellation between files; a file it cannot read is reported in
 * its log and returned with no diagnostics rather than failing the batch. Servers without it answer
 * MethodNotFound (-32601), which the client reports as such.
 */
export const LINT_FILES_METHOD = 'writev/lintFiles';
