// GitLab Code Quality (a JSON array of issues, the subset of the Code Climate format GitLab reads): one
// issue per finding with its description, check name, severity, location and a fingerprint that stays
// the same while the finding only moves, so merge requests show new and fixed findings.
import { createHash } from 'node:crypto';
import { displayPath } from './formats';
import type { ReportedFinding } from './lintFile';
import type { Report } from './report';

/** GitLab's severities (info, minor, major, critical, blocker) for the analyzer's. */
const SEVERITY: Record<ReportedFinding['severity'], string> = {
  error: 'major',
  warning: 'minor',
  information: 'info',
  hint: 'info',
};

/** The Code Quality report of `report`. */
export function formatGitlab(report: Report): string {
  const issues = report.results.flatMap((r) => {
    const path = displayPath(r.path, report.cwd);
    return r.findings.map((f) => ({
      type: 'issue',
      description: f.message,
      check_name: f.code,
      categories: ['Performance'],
      severity: SEVERITY[f.severity],
      // GitLab compares fingerprints as strings; an MD5 of ours keeps them one shape (hex).
      fingerprint: createHash('md5')
        .update(report.fingerprints.get(f) ?? `${f.code}\0${path}\0${f.message}`)
        .digest('hex'),
      location: { path, lines: { begin: f.start.line + 1, end: f.end.line + 1 } },
    }));
  });
  return `${JSON.stringify(issues, null, 2)}\n`;
}
