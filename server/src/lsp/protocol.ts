// The contract between the writev language server and its clients, in one file that both compile:
// the names that diagnostics and code actions carry, and the server's one custom request. It imports
// nothing at run time but the analyzer model's constants, so the extension's first bundle can include it without
// pulling in the language-server libraries.
import type { FindingCode } from '../analyzer/model';

export { DOCS_URL } from '../analyzer/model';

/** `Diagnostic.source` of every writev finding. */
export const DIAGNOSTIC_SOURCE = 'writev';

/** Diagnostic codes (`Diagnostic.code`): several writes in a row, and a write per loop iteration. */
export const DiagnosticCode = {
  adjacentWrites: 'adjacent-writes',
  loopWrites: 'loop-writes',
} as const satisfies Record<string, FindingCode>;

/** The code action kind that applies every safe writev fix in a file (`source.fixAll.writev`). */
export const FIX_ALL_KIND = 'source.fixAll.writev';

/**
 * `writev/lintWorkspace` (client to server): analyse every matching file of every workspace folder,
 * open or not, and publish their diagnostics, so the Problems panel shows the whole workspace; reports
 * work-done progress the client can cancel. Parameters {@link LintWorkspaceParams}, answer
 * {@link LintWorkspaceResult}.
 */
export const LINT_WORKSPACE_METHOD = 'writev/lintWorkspace';

/** Parameters of `writev/lintWorkspace`. */
export interface LintWorkspaceParams {
  /** A progress token the client created (`window/workDoneProgress/create`), if any. */
  readonly workDoneToken?: string | number;
}

/** What `writev/lintWorkspace` did. */
export interface LintWorkspaceResult {
  /** Files analysed. */
  readonly files: number;
  /** Findings published, over all files. */
  readonly findings: number;
  /** The request was cancelled before every file was analysed. */
  readonly cancelled: boolean;
}
