// Checkstyle XML, which Jenkins (warnings-ng), SonarQube and reviewdog read: a <file> per file with
// findings, an <error> per finding with its line, column, severity, message and source (the code), and
// a lineless <error> for a file that was skipped or not read.
import { displayPath } from './formats';
import { xml } from './junit';
import type { ReportedFinding } from './lintFile';
import type { Report } from './report';

/** Checkstyle's severities (error, warning, info) for the analyzer's. */
const SEVERITY: Record<ReportedFinding['severity'], string> = {
  error: 'error',
  warning: 'warning',
  information: 'info',
  hint: 'info',
};

/**
 * The Checkstyle document of `report`. A file that was skipped or could not be read carries one error
 * without a line (source `writev-lint`), as Checkstyle reports a file it could not process.
 */
export function formatCheckstyle(report: Report): string {
  const files = report.results
    .filter((r) => r.findings.length > 0 || r.error !== undefined || r.skipped !== undefined)
    .map((r) => {
      const problem = r.error ?? (r.skipped === undefined ? undefined : `skipped: ${r.skipped}`);
      const failed =
        problem === undefined
          ? []
          : [`    <error severity="error" message="${xml(problem)}" source="writev-lint" />\n`];
      const errors = r.findings.map(
        (f) =>
          `    <error line="${f.start.line + 1}" column="${f.start.character + 1}" severity="${SEVERITY[f.severity]}" message="${xml(f.message)}" source="writev-lint.${f.code}" />\n`,
      );
      return `  <file name="${xml(displayPath(r.path, report.cwd))}">\n${[...failed, ...errors].join('')}  </file>\n`;
    });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<checkstyle version="4.3">\n${files.join('')}</checkstyle>\n`;
}
