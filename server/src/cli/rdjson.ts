// reviewdog's rdjson (the DiagnosticResult message of the Reviewdog Diagnostic Format): one diagnostic per
// finding with its rule, related writes and fix as suggestions. Columns are 1-based UTF-8 byte counts, as
// the format defines them, so non-ASCII lines point at the right character.
import { LineIndex, type Position } from '../analyzer/positions';
import { displayPath } from './formats';
import type { ReportedFinding } from './lintFile';
import type { Report } from './report';
import { DOCS_URL } from '../analyzer/model';

const SEVERITY = { error: 'ERROR', warning: 'WARNING', information: 'INFO', hint: 'INFO' } as const;

/** Converts positions of one file's text to rdjson positions. */
function converter(text: string | undefined): (p: Position) => { line: number; column: number } {
  if (text === undefined) return (p) => ({ line: p.line + 1, column: p.character + 1 });
  const lines = new LineIndex(text);
  return (p) => {
    const lineStart = lines.offsetAt({ line: p.line, character: 0 });
    const before = text.slice(lineStart, lines.offsetAt(p));
    return { line: p.line + 1, column: Buffer.byteLength(before, 'utf8') + 1 };
  };
}

/** The rdjson document of `report`. */
export function formatRdjson(report: Report): string {
  const diagnostics = report.results.flatMap((r) => {
    const path = displayPath(r.path, report.cwd);
    const at = converter(report.texts.get(r.path));
    const range = (x: { start: Position; end: Position }) => ({ start: at(x.start), end: at(x.end) });
    return r.findings.map((f: ReportedFinding) => ({
      message: f.message,
      location: { path, range: range(f) },
      severity: SEVERITY[f.severity],
      code: { value: f.code, url: `${DOCS_URL}#${f.code}` },
      ...(f.fix ? { suggestions: f.fix.edits.map((e) => ({ range: range(e), text: e.newText })) } : {}),
      related_locations: f.related.map((x) => ({ message: x.message, location: { path, range: range(x) } })),
    }));
  });
  const result = { source: { name: 'writev-lint', url: DOCS_URL }, diagnostics };
  return `${JSON.stringify(result, null, 2)}\n`;
}
