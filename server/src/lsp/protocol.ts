// The server's own messages beyond standard LSP, typed once for the server and the client.
import { RequestType } from 'vscode-languageserver';
import type { TraceSite } from '@writev/runtime/dist/trace/traceFile';

/** Parameters of {@link LintWorkspaceRequest}. */
export interface LintWorkspaceParams {
  /** A progress token the client created (`window/workDoneProgress/create`), if any. */
  readonly workDoneToken?: string | number;
}

/** What {@link LintWorkspaceRequest} did. */
export interface LintWorkspaceResult {
  /** Files analysed. */
  readonly files: number;
  /** Findings published, over all files. */
  readonly findings: number;
  /** The request was cancelled before every file was analysed. */
  readonly cancelled: boolean;
}

/**
 * `writev/lintWorkspace`: analyse every matching file of every workspace folder (not only open ones)
 * and publish their diagnostics, so the Problems panel shows the whole workspace.
 */
export const LintWorkspaceRequest = new RequestType<LintWorkspaceParams, LintWorkspaceResult, void>(
  'writev/lintWorkspace',
);

export { DOCS_URL } from '../analyzer/model';

/**
 * `writev/trace` (client to server notification): the sites of a loaded writev-trace file, whose
 * measurements then join the diagnostics (and add `measured-writes` hints); `null` sites clear it.
 */
export const TRACE_NOTIFICATION = 'writev/trace';

/** Parameters of `writev/trace`. */
export interface TraceParams {
  readonly sites: readonly TraceSite[] | null;
}
