// The client's view of the server contract: the one file the server defines it in
// (server/src/lsp/protocol.ts), which imports no language-server library, so the extension's first
// bundle can carry it.
export {
  DIAGNOSTIC_SOURCE,
  DiagnosticCode,
  FIX_ALL_KIND,
  LINT_WORKSPACE_METHOD,
  type LintWorkspaceParams,
  type LintWorkspaceResult,
} from 'writev-lint/out/lsp/protocol';
