// The text, JSON and GitHub-annotation outputs of writev-lint. (SARIF, rdjson and JUnit have files of
// their own.)
import { relative, sep } from 'node:path';
import { formatMeasured } from '../analyzer/measured';
import { paint } from './colors';
import type { ReportedFinding } from './lintFile';
import type { Report } from './report';

/**
 * `path` with forward slashes where the platform separates with backslashes (Windows). Elsewhere a
 * backslash is a character of a file name, and turning it into a slash would name another file.
 */
export function forwardSlashes(path: string): string {
  return sep === '\\' ? path.split('\\').join('/') : path;
}

/** Paths in reports are relative to the working directory, with forward slashes. */
export function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return forwardSlashes(rel.startsWith('..') ? path : rel);
}

/**
 * A path for a line of text output: as it is, or, when it holds a control character (a line break
 * would forge a line of its own), quoted with escapes as a JSON string, as git quotes such names.
 */
function textPath(path: string): string {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(path) ? JSON.stringify(path) : path;
}

/** ` (measured: 1,000 calls, 4.0 kB)` after a finding a trace measured, else nothing. */
function measuredSuffix(f: ReportedFinding): string {
  return f.measured ? ` (measured: ${formatMeasured(f.measured)})` : '';
}

/** Whether a run with `unsafe` (--unsafe-fixes) would apply `finding`'s fix. */
export function fixable(finding: ReportedFinding, unsafe: boolean): boolean {
  return finding.fix !== undefined && (unsafe || finding.fix.safety === 'safe');
}

function word(severity: ReportedFinding['severity']): string {
  return severity === 'information' ? 'info' : severity;
}

/**
 * `file:line:col: warning: message [adjacent-writes]`, one line per finding (1-based line and column),
 * coloured when `report.color` says so. ` [*]` before the code marks a finding --fix would fix (as ruff
 * marks them: one with an unsafe fix only with --unsafe-fixes); the code stays last for parsers.
 */
export function formatText(report: Report): string {
  const p = paint(report.color);
  const colour = { error: p.red, warning: p.yellow, information: p.cyan, hint: p.cyan };
  const lines: string[] = [];
  for (const r of report.results) {
    for (const f of r.findings) {
      const where = `${f.start.line + 1}:${f.start.character + 1}`;
      lines.push(
        `${p.bold(textPath(displayPath(r.path, report.cwd)))}:${where}: ${colour[f.severity](word(f.severity))}: ${f.message}${fixable(f, report.unsafeFixes ?? false) ? ' [*]' : ''} ${p.dim(`[${f.code}]`)}${measuredSuffix(f)}`,
      );
    }
  }
  return lines.map((l) => `${l}\n`).join('');
}

/**
 * One JSON document: every finding with 1-based positions, its fingerprint, and the counts. A run that
 * left something out says so in the document too, not in the exit status alone: `skipped` (path and
 * reason) and `errors` (path and message) are present when not empty.
 */
export function formatJson(report: Report): string {
  const { results, cwd } = report;
  const findings = results.flatMap((r) => {
    // Once per file: cgit's 148 findings are in 20 files.
    const path = r.findings.length > 0 ? displayPath(r.path, cwd) : '';
    return r.findings.map((f) => ({
      path,
      line: f.start.line + 1,
      column: f.start.character + 1,
      endLine: f.end.line + 1,
      endColumn: f.end.character + 1,
      severity: f.severity,
      code: f.code,
      message: f.message,
      syscalls: f.syscalls,
      descriptor: f.target,
      fixable: f.fix !== undefined,
      ...(f.fix ? { fixSafety: f.fix.safety } : {}),
      fingerprint: report.fingerprints.get(f),
      ...(f.measured ? { measured: f.measured } : {}),
      related: f.related.map((x) => ({
        line: x.start.line + 1,
        column: x.start.character + 1,
        message: x.message,
      })),
    }));
  });
  const skipped = results.flatMap((r) =>
    r.skipped === undefined ? [] : [{ path: displayPath(r.path, cwd), reason: r.skipped }],
  );
  const errors = results.flatMap((r) =>
    r.error === undefined ? [] : [{ path: displayPath(r.path, cwd), message: r.error }],
  );
  const document = {
    files: results.length,
    findings,
    ...(skipped.length > 0 ? { skipped } : {}),
    ...(errors.length > 0 ? { errors } : {}),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * GitHub Actions workflow commands (`::warning file=...,line=...::message`), one per finding, and an
 * `::error file=...::` for each file that was skipped or could not be read, so that the run's summary
 * shows what the findings do not cover.
 */
export function formatGithub(report: Report): string {
  const { results, cwd } = report;
  const lines: string[] = [];
  for (const r of results) {
    const problem = r.error ?? (r.skipped === undefined ? undefined : `skipped: ${r.skipped}`);
    if (problem !== undefined)
      lines.push(
        `::error file=${escapeProperty(displayPath(r.path, cwd))},title=writev-lint::${escapeData(problem)}\n`,
      );
    for (const f of r.findings) {
      const command = f.severity === 'error' ? 'error' : f.severity === 'warning' ? 'warning' : 'notice';
      const props = [
        `file=${escapeProperty(displayPath(r.path, cwd))}`,
        `line=${f.start.line + 1}`,
        `col=${f.start.character + 1}`,
        `endLine=${f.end.line + 1}`,
        `endColumn=${f.end.character + 1}`,
        `title=${escapeProperty(`writev ${f.code}`)}`,
      ];
      lines.push(`::${command} ${props.join(',')}::${escapeData(f.message + measuredSuffix(f))}\n`);
    }
  }
  return lines.join('');
}
