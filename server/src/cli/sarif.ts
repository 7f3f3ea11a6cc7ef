// SARIF 2.1.0 output, for code-scanning uploads: one run, the two rules, a result per finding with its
// location, a related location per write, and the fix as a replacement where there is one.
import { pathToFileURL } from 'node:url';
import type { FileResult, ReportedFinding } from './lintFile';
import { displayPath } from './formats';
import { DOCS_URL } from '../analyzer/model';

const RULES = [
  {
    id: 'adjacent-writes',
    name: 'AdjacentWrites',
    shortDescription: {
      text: 'Several writes to one descriptor in a row: one gathered write (writev) would do.',
    },
    fullDescription: {
      text: 'Adjacent write calls to the same descriptor cost one syscall each; gathering their buffers into one writev_in_full (C) or writevInFull (TS/JS) sends them with one.',
    },
    helpUri: `${DOCS_URL}#adjacent-writes`,
    defaultConfiguration: { level: 'warning' },
  },
  {
    id: 'loop-writes',
    name: 'LoopWrites',
    shortDescription: { text: 'A write per loop iteration to one descriptor.' },
    fullDescription: {
      text: 'Each iteration makes a syscall; collecting the buffers and writing them with one writev after the loop makes one.',
    },
    helpUri: `${DOCS_URL}#loop-writes`,
    defaultConfiguration: { level: 'note' },
  },
  {
    id: 'measured-writes',
    name: 'MeasuredWrites',
    shortDescription: { text: 'A traced line made many small write calls.' },
    fullDescription: {
      text: 'In the run recorded by writev-trace, this line made many write-family syscalls of a few bytes each, and no static rule explains it: gather the buffers (writev) or buffer the output.',
    },
    helpUri: `${DOCS_URL}#measured-writes`,
    defaultConfiguration: { level: 'note' },
  },
] as const;

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

/** The SARIF 2.1.0 log for `results`, with URIs relative to `cwd` (`%SRCROOT%`). */
export function sarifLog(results: readonly FileResult[], cwd: string, version: string): object {
  const sarifResults = results.flatMap((r) => {
    const artifactLocation = { uri: encodeURI(displayPath(r.path, cwd)), uriBaseId: '%SRCROOT%' };
    return r.findings.map((f) => ({
      ruleId: f.code,
      ruleIndex: RULES.findIndex((rule) => rule.id === f.code),
      level: level(f.severity),
      message: { text: f.message },
      ...(f.measured ? { properties: { measured: f.measured } } : {}),
      locations: [{ physicalLocation: { artifactLocation, region: region(f.start, f.end) } }],
      relatedLocations: f.related.map((x, i) => ({
        id: i + 1,
        message: { text: x.message },
        physicalLocation: { artifactLocation, region: region(x.start, x.end) },
      })),
      ...(f.fix
        ? {
            fixes: [
              {
                description: { text: f.fix.title },
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
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'writev-lint', version, informationUri: DOCS_URL, rules: RULES } },
        originalUriBaseIds: { '%SRCROOT%': { uri: `${pathToFileURL(cwd).href.replace(/\/?$/, '/')}` } },
        columnKind: 'utf16CodeUnits',
        results: sarifResults,
      },
    ],
  };
}
