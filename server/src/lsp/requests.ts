// The server's side of its custom requests: the typed message objects the connection registers.
import { RequestType } from 'vscode-languageserver';
import { LINT_WORKSPACE_METHOD, type LintWorkspaceParams, type LintWorkspaceResult } from './protocol';

/** `writev/lintWorkspace`, typed for `connection.onRequest`. */
export const LintWorkspaceRequest = new RequestType<LintWorkspaceParams, LintWorkspaceResult, void>(
  LINT_WORKSPACE_METHOD,
);
