// The contract between the writev language server and its clients, in one file that both compile:
// the names that diagnostics and code actions carry, the server's custom request and notification. It
// imports nothing at run time but the analyzer model's constants, so the extension's first bundle can
// include it without pulling in the language-server libraries.
import type { TraceSite } from '@writev/runtime/dist/trace/traceFile';
import type { FindingCode } from '../analyzer/model';

export { DOCS_URL } from '../analyzer/model';

/** `Diagnostic.source` of every writev finding. */
export const DIAGNOSTIC_SOURCE = 'writev';

/**
 * Diagnostic codes (`Diagnostic.code`): several writes in a row (to a known stream, or to a descriptor of
 * unknown kind), a write per loop iteration, a suppression
 * comment that suppresses nothing, and (with a loaded trace) a traced line with many small writes.
 */
export const DiagnosticCode = {
  adjacentWrites: 'adjacent-writes',
  adjacentWritesUnknownFd: 'adjacent-writes-unknown-fd',
  loopWrites: 'loop-writes',
  measuredWrites: 'measured-writes',
  unusedDirective: 'unused-directive',
} as const satisfies Record<string, FindingCode | 'measured-writes'>;

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

/**
 * `writev/trace` (client to server notification): the sites of a loaded writev-trace file, whose
 * measurements then join the diagnostics (and add `measured-writes` hints); `null` sites clear it.
 */
export const TRACE_NOTIFICATION = 'writev/trace';

/** Parameters of `writev/trace`. */
export interface TraceParams {
  readonly sites: readonly TraceSite[] | null;
}
