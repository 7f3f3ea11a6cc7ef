// Converts the analyzer's findings and fixes into LSP diagnostics, code actions and workspace edits.
import {
  CodeAction,
  CodeActionKind,
  DiagnosticSeverity,
  type Diagnostic,
  type Range,
  type TextEdit as LspTextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import type { Finding, LineIndex, Severity, Span, TextEdit } from '../index';
import type { RuleCode } from '../analyzer/model';
import { DIAGNOSTIC_SOURCE, DOCS_URL, FIX_ALL_KIND } from './protocol';

export { FIX_ALL_KIND };

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** The LSP range (UTF-16 positions) of a span. */
export function toRange(span: Span, lines: LineIndex): Range {
  return { start: lines.positionAt(span.start), end: lines.positionAt(span.end) };
}

/** The diagnostic a user sees for a finding. */
export function toDiagnostic(finding: Finding, uri: string, lines: LineIndex): Diagnostic {
  return {
    range: toRange(finding.span, lines),
    severity: SEVERITY[finding.severity],
    code: finding.code,
    codeDescription: { href: `${DOCS_URL}#${finding.code}` },
    source: DIAGNOSTIC_SOURCE,
    message: finding.message,
    relatedInformation: finding.related.map((r) => ({
      location: { uri, range: toRange(r.span, lines) },
      message: r.message,
    })),
  };
}

function toEdits(edits: readonly TextEdit[], lines: LineIndex): LspTextEdit[] {
  return edits.map((e) => ({ range: toRange(e.span, lines), newText: e.newText }));
}

/** A workspace edit for one document version (stale if the document moved on). */
export function toWorkspaceEdit(
  uri: string,
  version: number,
  edits: readonly TextEdit[],
  lines: LineIndex,
): WorkspaceEdit {
  return { documentChanges: [{ textDocument: { uri, version }, edits: toEdits(edits, lines) }] };
}

/**
 * The quick fix for one finding (its `edits`, see Analyzer.fixEdits), tied to its diagnostic. An unsafe
 * fix is offered too, marked in its title and never preferred.
 */
export function quickFix(
  finding: Finding,
  edits: readonly TextEdit[],
  diagnostic: Diagnostic,
  uri: string,
  version: number,
  lines: LineIndex,
): CodeAction | undefined {
  const fix = finding.fix;
  if (!fix) return undefined;
  // An unsafe fix says so, and why, in its title; fix-all leaves it out (see Analyzer.fixAll).
  const title =
    fix.safety === 'unsafe' ? `${fix.title} (unsafe: ${fix.unsafeBecause ?? 'review it'})` : fix.title;
  const action = CodeAction.create(
    title,
    toWorkspaceEdit(uri, version, edits, lines),
    CodeActionKind.QuickFix,
  );
  action.diagnostics = [diagnostic];
  // Only a safe fix is the one an editor may apply at a keystroke ("auto fix").
  action.isPreferred = fix.safety === 'safe';
  return action;
}

/** True when the spans of a finding and an LSP range (as offsets) touch. */
export function touches(span: Span, start: number, end: number): boolean {
  return span.start <= end && start <= span.end;
}

/**
 * "Disable <code> for this line": `edit` (from `disableLineEdit`) puts a `writev-lint-disable-next-line`
 * comment above the line, so the CLI skips the finding too.
 */
export function disableAction(
  code: RuleCode,
  edit: TextEdit,
  diagnostic: Diagnostic,
  uri: string,
  version: number,
  lines: LineIndex,
): CodeAction {
  const action = CodeAction.create(
    `Disable ${code} for this line`,
    toWorkspaceEdit(uri, version, [edit], lines),
    CodeActionKind.QuickFix,
  );
  action.diagnostics = [diagnostic];
  return action;
}
