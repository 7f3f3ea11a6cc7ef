// JUnit XML, for CI systems that show test reports (GitLab, Jenkins, Azure): a test suite per file, a
// failing test case per finding, one passing case for a clean file, an error case for a file that could
// not be analysed or was skipped (the run is incomplete: a passing case would claim the file was read).
import { displayPath } from './formats';
import type { Report } from './report';

/**
 * Escapes text for XML attributes and content, dropping characters XML 1.0 cannot carry. Tabs and line
 * breaks become character references: a parser turns them into spaces in an attribute otherwise.
 */
export function xml(text: string): string {
  const allowed = (c: number) =>
    c === 9 ||
    c === 10 ||
    c === 13 ||
    (c >= 0x20 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd) ||
    c >= 0x10000;
  return [...text]
    .filter((ch) => allowed(ch.codePointAt(0) as number))
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/[\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The JUnit XML document of `report`. */
export function formatJunit(report: Report): string {
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let errors = 0;
  for (const r of report.results) {
    const path = xml(displayPath(r.path, report.cwd));
    const cases: string[] = [];
    const problem = r.error ?? (r.skipped === undefined ? undefined : `skipped: ${r.skipped}`);
    if (problem !== undefined) {
      cases.push(
        `    <testcase name="${path}" classname="writev-lint">\n` +
          `      <error message="${xml(problem)}">${xml(problem)}</error>\n    </testcase>`,
      );
    }
    for (const f of r.findings) {
      const where = `${f.start.line + 1}:${f.start.character + 1}`;
      const detail = `${path}:${where}: ${f.severity}: ${xml(f.message)} [${f.code}]`;
      cases.push(
        `    <testcase name="${f.code} at ${path}:${where}" classname="writev-lint.${f.code}">\n` +
          `      <failure message="${xml(f.message)}" type="${f.severity}">${detail}</failure>\n    </testcase>`,
      );
    }
    if (cases.length === 0) cases.push(`    <testcase name="${path}" classname="writev-lint" />`);
    const fileErrors = problem === undefined ? 0 : 1;
    tests += cases.length;
    failures += r.findings.length;
    errors += fileErrors;
    suites.push(
      `  <testsuite name="${path}" tests="${cases.length}" failures="${r.findings.length}" errors="${fileErrors}">\n` +
        `${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="writev-lint" tests="${tests}" failures="${failures}" errors="${errors}">\n` +
    suites.map((s) => `${s}\n`).join('') +
    '</testsuites>\n'
  );
}
