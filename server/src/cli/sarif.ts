// SARIF 2.1.0 output, for code-scanning uploads: one run, the two rules with their help, a result per
// finding with its location, a related location per write (linked from the message), a fingerprint that
// survives line shifts, the fix as a replacement where there is one, and an invocation that names every
// file that could not be analysed.
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ReportedFinding } from './lintFile';
import { displayPath } from './formats';
import { FINGERPRINT_KEY } from './fingerprint';
import type { Report } from './report';
import { DOCS_URL } from '../analyzer/model';

const ADJACENT_HELP =
  'Each write() is a syscall. When several writes to the same descriptor follow each other, gathering ' +
  'their buffers into one writev_in_full() (C) or writevInFull() (TS/JS) sends them with one syscall, ' +
  'and the reader sees the bytes at once instead of in pieces.';
const LOOP_HELP =
  'A write per loop iteration costs one syscall per iteration. Collect the buffers in the loop and send ' +
  'them with one writev after it (in chunks of at most IOV_MAX buffers).';

const MEASURED_HELP =
  'In the run writev-trace recorded, this line made many write-family system calls of a few bytes each, and no static rule explains them. Gather the buffers into one writev, or buffer the output.';

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
    help: {
      text: `${ADJACENT_HELP} writev-lint --fix rewrites the sequence where it can prove the rewrite safe.`,
      markdown:
        `${ADJACENT_HELP}\n\n` +
        '```c\nwrite_or_die(fd, hdr, 4);\nwrite_or_die(fd, body, len);\n```\n\nbecomes\n\n' +
        '```c\nstruct iovec iov[2] = {{hdr, 4}, {body, len}};\nwritev_or_die(fd, iov, 2);\n```\n\n' +
        '`writev-lint --fix` applies this where it is safe.',
    },
    helpUri: `${DOCS_URL}#adjacent-writes`,
    defaultConfiguration: { level: 'warning' },
    properties: { tags: ['performance', 'syscalls', 'io'], precision: 'high' },
  },
  {
    id: 'adjacent-writes-unknown-fd',
    name: 'AdjacentWritesUnknownFd',
    shortDescription: {
      text: 'Several plain writes in a row to a descriptor whose kind the code does not show.',
    },
    fullDescription: {
      text: 'If the descriptor is a byte stream (a file, pipe or stream socket), one gathered write (writev) would do; on a datagram socket or a device each write is one message, so there is no automatic fix.',
    },
    help: {
      text: `${ADJACENT_HELP} Check what the descriptor is first: the code does not show it (a parameter, a member set elsewhere).`,
      markdown:
        `${ADJACENT_HELP}\n\nCheck what the descriptor is first: the code does not show it.\n\n` +
        '```c\nvoid send_both(int fd, const char *hdr, const char *body, size_t len)\n{\n\twrite(fd, hdr, 4);\n\twrite(fd, body, len);\n}\n```\n\n' +
        'is one `writev(fd, iov, 2)` if `fd` is a file, a pipe or a stream socket; on a datagram socket it would merge two messages.',
    },
    helpUri: `${DOCS_URL}#adjacent-writes-unknown-fd`,
    defaultConfiguration: { level: 'note' },
    properties: { tags: ['performance', 'syscalls', 'io'], precision: 'medium' },
  },
  {
    id: 'loop-writes',
    name: 'LoopWrites',
    shortDescription: { text: 'A write per loop iteration to one descriptor.' },
    fullDescription: {
      text: 'Each iteration makes a syscall; collecting the buffers and writing them with one writev after the loop makes one.',
    },
    help: {
      text: LOOP_HELP,
      markdown:
        `${LOOP_HELP}\n\n` +
        '```c\nfor (i = 0; i < n; i++)\n\twrite_or_die(fd, lines[i], len[i]);\n```\n\n' +
        'becomes an array of `struct iovec` filled in the loop and one `writev_or_die()` after it.',
    },
    helpUri: `${DOCS_URL}#loop-writes`,
    defaultConfiguration: { level: 'note' },
    // A loop's trip count is unknown: some loops run once, so fewer of these are worth changing.
    properties: { tags: ['performance', 'syscalls', 'io'], precision: 'medium' },
  },
  {
    id: 'unused-directive',
    name: 'UnusedDirective',
    shortDescription: {
      text: 'A writev-lint-disable comment that suppresses nothing, or names an unknown code.',
    },
    fullDescription: {
      text: 'Reported with --report-unused-directives (or the reportUnusedDirectives setting): remove the comment, or fix the code it names.',
    },
    help: {
      text: 'A suppression comment that suppresses nothing hides future findings without a reason: remove it, or correct the code it names.',
      markdown:
        'A suppression comment that suppresses nothing hides future findings without a reason: remove it, or correct the code it names.\n\n' +
        '```c\n/* writev-lint-disable-next-line adjacent-writes */\nwrite_or_die(fd, buf, len); /* a single write: nothing to suppress */\n```',
    },
    helpUri: `${DOCS_URL}#unused-directive`,
    defaultConfiguration: { level: 'warning' },
    // Whether a directive suppresses anything is exact: it is checked against the findings themselves.
    properties: { tags: ['maintainability', 'suppression'], precision: 'very-high' },
  },
  {
    id: 'measured-writes',
    name: 'MeasuredWrites',
    shortDescription: { text: 'A traced line made many small write calls.' },
    fullDescription: {
      text: 'In the run recorded by writev-trace, this line made many write-family syscalls of a few bytes each, and no static rule explains it: gather the buffers (writev) or buffer the output.',
    },
    helpUri: `${DOCS_URL}#measured-writes`,
    help: {
      text: MEASURED_HELP,
      markdown:
        `${MEASURED_HELP}\n\n` +
        '```c\nfor (i = 0; i < n; i++)\n\tput(fd, text + i); /* 10,000 write calls of 1 byte in the trace */\n```',
    },
    defaultConfiguration: { level: 'note' },
    // Measured, not inferred: the calls were made; whether they matter depends on the workload traced.
    properties: { tags: ['performance', 'syscalls', 'io', 'measured'], precision: 'high' },
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
