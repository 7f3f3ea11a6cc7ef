// `writev-lint --trace FILE`: the measured calls and bytes of each finding's writes, `measured-writes`
// hints for hot traced lines no rule flagged, and the findings ordered by what they cost in the run.
import { readFileSync, realpathSync } from 'node:fs';
import type { TraceFile } from '@writev/runtime/dist/trace/traceFile';
import {
  hotLineMessage,
  lineCount,
  sitesByFile,
  type Measured,
  type MeasuredThreshold,
} from '../analyzer/measured';
import type { FileResult, ReportedFinding } from './lintFile';

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The 1-based lines a finding's writes occupy. */
function writeLines(f: ReportedFinding): number[] {
  const lines: number[] = [];
  const spans = f.related.length > 0 ? f.related : [f];
  for (const s of spans) for (let l = s.start.line; l <= s.end.line; l++) lines.push(l + 1);
  return lines;
}

const callsOf = (f: ReportedFinding): number => f.measured?.calls ?? -1;

/**
 * The file's last line, past which a traced line is in another version of the file. The lint result
 * counts LF line breaks only; a file with lone CR line endings (which compilers read as line breaks
 * too) has more lines, so its text is counted again.
 */
function lastLine(r: FileResult): number {
  try {
    const text = readFileSync(r.path, 'utf8');
    return text.includes('\r') ? Math.max(r.lines, lineCount(text)) : r.lines;
  } catch {
    return r.lines;
  }
}

/**
 * Joins `trace` to `results`: findings gain `measured`, hot lines become `measured-writes` findings,
 * and findings (then files) are ordered by measured calls, busiest first; unmeasured ones keep their order
 * after them.
 */
export function joinTrace(
  results: readonly FileResult[],
  trace: TraceFile,
  threshold: MeasuredThreshold,
): FileResult[] {
  const traced = sitesByFile(trace.sites);
  const joined = results.map((r): FileResult => {
    const lines = traced.get(r.path) ?? traced.get(real(r.path));
    if (!lines || r.error) return r;
    const findings: ReportedFinding[] = r.findings.map((f) => {
      const measured: Measured | undefined = lines.measure(writeLines(f));
      return measured ? { ...f, measured } : f;
    });
    const covered = new Set<number>();
    for (const f of r.findings) for (let l = f.start.line; l <= f.end.line; l++) covered.add(l + 1);
    let hotLines = lines.hotLines(covered, threshold);
    // Only a line past the counted end costs the look at the file's own line breaks.
    if (hotLines.some((hot) => hot.line > r.lines)) {
      const last = lastLine(r);
      hotLines = hotLines.filter((hot) => hot.line <= last);
    }
    for (const hot of hotLines) {
      const at = { line: hot.line - 1, character: 0 };
      findings.push({
        code: 'measured-writes',
        severity: 'information',
        message: hotLineMessage(hot),
        syscalls: hot.calls,
        target: hot.breakdown[0] && hot.breakdown[0].fd >= 0 ? String(hot.breakdown[0].fd) : '',
        start: at,
        end: at,
        related: [],
        measured: { calls: hot.calls, bytes: hot.bytes },
      });
    }
    findings.sort((a, b) => callsOf(b) - callsOf(a));
    return { ...r, findings };
  });
  const top = (r: FileResult): number => Math.max(-1, ...r.findings.map(callsOf));
  return joined
    .map((r, i) => ({ r, i }))
    .sort((a, b) => top(b.r) - top(a.r) || a.i - b.i)
    .map(({ r }) => r);
}
