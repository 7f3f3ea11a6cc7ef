/**
 * The contract between this client and the writev language server, in one typed file: the names the
 * server's diagnostics and code actions carry (issue 5), and the server's one custom request. The
 * server defines them (server/src/lsp); this file holds the client's copy of the names plus the types,
 * imported as types only, so the extension's first bundle stays free of protocol libraries. A unit test
 * (test/client/protocol.test.ts) checks that both sides agree.
 */
export type { LintWorkspaceParams, LintWorkspaceResult, TraceParams } from '@writev/server/out/lsp/protocol';

/** `Diagnostic.source` of every writev finding. */
export const DIAGNOSTIC_SOURCE = 'writev';

/** Diagnostic codes: several writes in a row, and a write per loop iteration. */
export const DiagnosticCode = {
  adjacentWrites: 'adjacent-writes',
  loopWrites: 'loop-writes',
} as const;

/** The code action kind that applies every safe writev fix in a file (`source.fixAll.writev`). */
export const FIX_ALL_KIND = 'source.fixAll.writev';

/**
 * `writev/lintWorkspace` (client to server): analyse every matching file of every workspace folder,
 * open or not, and publish the diagnostics, reporting work-done progress the user can cancel.
 * Answers a `LintWorkspaceResult` (files, findings, cancelled).
 */
export const LINT_WORKSPACE_METHOD = 'writev/lintWorkspace';

/** `writev/trace` (client to server): the loaded trace's sites, joined to the diagnostics. */
export const TRACE_NOTIFICATION = 'writev/trace';
