// SARIF 2.1.0 output, for code-scanning uploads: one run, the rules with their help (rules.ts), a
// result per finding with its location, a related location per write (linked from the message), a
// fingerprint that survives line shifts, the fix as a replacement where there is one, and an invocation
// that names every file that could not be analysed.
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ReportedFinding } from './lintFile';
import { displayPath } from './formats';
import { FINGERPRINT_KEY } from './fingerprint';
import type { Report } from './report';
import { DOCS_URL } from '../analyzer/model';
import { RULES } from './rules';

/** SARIF levels for the analyzer's severities. */
function level(severity: ReportedFinding['severity']): 'error' | 'warning' | 'note' {
  return severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'note';
}

/** A SARIF region: 1-based lines and columns, columns in UTF-16 code units (declared on the run). */
function region(start: ReportedFinding['start'], end: ReportedFinding['end']) {
  return {
    startLine: start.line + 1,
    startColumn: start.character + 1,
    endLine: end.line + 1,
    endColumn: end.character + 1,
  };
}

/** A plain-text SARIF message: brackets are escaped, so only the links we add are links. */
function messageText(f: ReportedFinding): string {
  const text = f.message.replace(/[[\]\\]/g, (c) => `\\${c}`);
  if (f.related.length === 0) return text;
  return `${text} (${f.related.map((_, i) => `[write ${i + 1}](${i + 1})`).join(', ')})`;
}

/**
 * The artifact location of `path`: a relative reference under `%SRCROOT%` (`cwd`) with every segment
 * percent-encoded as a whole (`#`, `?`, `%`, `:` and the rest included: `dir#1/a.c` must not become
 * `dir` with a fragment), or, outside `cwd`, an absolute `file:` URI.
 */
export function artifactLocation(path: string, cwd: string): { uri: string; uriBaseId?: string } {
  const shown = displayPath(path, cwd);
  if (isAbsolute(shown)) return { uri: pathToFileURL(path).href };
  return { uri: shown.split('/').map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
}

/** The SARIF 2.1.0 log of `report`, with URIs relative to its folder (`%SRCROOT%`). */
export function sarifLog(report: Report): object {
  const { cwd } = report;
  const location = (path: string) => artifactLocation(path, cwd);
  const sarifResults = report.results.flatMap((r) => {
    const artifactLocation = location(r.path);
    return r.findings.map((f) => ({
      ruleId: f.code,
      ruleIndex: RULES.findIndex((rule) => rule.id === f.code),
      level: level(f.severity),
      message: { text: messageText(f) },
      ...(f.measured ? { properties: { measured: f.measured } } : {}),
      locations: [{ physicalLocation: { artifactLocation, region: region(f.start, f.end) } }],
      relatedLocations: f.related.map((x, i) => ({
        id: i + 1,
        message: { text: x.message },
        physicalLocation: { artifactLocation, region: region(x.start, x.end) },
      })),
      partialFingerprints: { [FINGERPRINT_KEY]: report.fingerprints.get(f) ?? '' },
      ...(f.fix
        ? {
            fixes: [
              {
                // A tool that applies SARIF fixes should see that an unsafe one changes behaviour.
                description: {
                  text:
                    f.fix.safety === 'unsafe'
                      ? `${f.fix.title} (unsafe: ${f.fix.unsafeBecause ?? 'review it'})`
                      : f.fix.title,
                },
                artifactChanges: [
                  {
                    artifactLocation,
                    replacements: f.fix.edits.map((e) => ({
                      deletedRegion: region(e.start, e.end),
                      insertedContent: { text: e.newText },
                    })),
                  },
                ],
              },
            ],
          }
        : {}),
    }));
  });
  // A file that could not be read, and one the run had to skip (too large, not a regular file): either
  // makes the run incomplete, and code scanning should say so.
  const failed = report.results.filter((r) => r.error || r.skipped);
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: { name: 'writev-lint', version: report.version, informationUri: DOCS_URL, rules: RULES },
        },
        invocations: [
          {
            executionSuccessful: failed.length === 0,
            toolExecutionNotifications: failed.map((r) => ({
              level: 'error',
              message: { text: r.error ?? `skipped: ${r.skipped ?? ''}` },
              locations: [{ physicalLocation: { artifactLocation: location(r.path) } }],
            })),
          },
        ],
        originalUriBaseIds: { '%SRCROOT%': { uri: `${pathToFileURL(cwd).href.replace(/\/?$/, '/')}` } },
        columnKind: 'utf16CodeUnits',
        results: sarifResults,
      },
    ],
  };
}
