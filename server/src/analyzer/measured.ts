// Joins a trace (what a real run wrote, per source line) to the static findings: the calls and bytes
// measured at a finding's writes, and the traced lines with many small writes no rule flagged.
// Lines here are 1-based, as traces count them.
import type { TraceSite } from '@writev/runtime/dist/trace/traceFile';

export { formatBytes, formatMeasured } from '@writev/runtime/dist/trace/traceFile';

/** What a traced run measured at some lines. */
export interface Measured {
  /** System calls made. */
  readonly calls: number;
  /** Bytes those calls wrote. */
  readonly bytes: number;
}

/** When a traced line counts as "many small writes" (the `measuredWrites` settings). */
export interface MeasuredThreshold {
  /** At least this many calls at one line. */
  readonly minCalls: number;
  /** And at most this many bytes per call on average. */
  readonly maxAverageBytes: number;
}

/** A traced line that made many small writes: the candidate for a `measured-writes` hint. */
export interface HotLine extends Measured {
  readonly line: number;
  /** The calls by syscall and descriptor, busiest first (`write` on fd 1: 1,000 calls). */
  readonly breakdown: readonly TraceSite[];
}

/** Lines in `text`, each line break counted as editors and compilers count them (LF, CRLF or lone CR). */
export function lineCount(text: string): number {
  return text.split(/\r\n|\r|\n/).length;
}

/** The sites of one file, by line. */
export class TracedLines {
  private readonly byLine = new Map<number, TraceSite[]>();

  constructor(sites: Iterable<TraceSite>) {
    for (const site of sites) {
      const at = this.byLine.get(site.line);
      if (at) at.push(site);
      else this.byLine.set(site.line, [site]);
    }
  }

  /** No traced calls at all. */
  get empty(): boolean {
    return this.byLine.size === 0;
  }

  /** What the run measured on any of `lines` (each line once), or undefined when none was traced. */
  measure(lines: Iterable<number>): Measured | undefined {
    let calls = 0;
    let bytes = 0;
    let found = false;
    for (const line of new Set(lines)) {
      for (const site of this.byLine.get(line) ?? []) {
        found = true;
        calls += site.calls;
        bytes += site.bytes;
      }
    }
    return found ? { calls, bytes } : undefined;
  }

  /**
   * Traced lines outside `covered` with many small writes, busiest first. Lines past `lastLine` (the
   * file's line count) are left out: a trace of another version of the file names lines it no longer
   * has, and a hint there would point nowhere.
   */
  hotLines(covered: ReadonlySet<number>, threshold: MeasuredThreshold, lastLine = Infinity): HotLine[] {
    const hot: HotLine[] = [];
    for (const [line, sites] of this.byLine) {
      if (covered.has(line) || line > lastLine) continue;
      const calls = sites.reduce((n, s) => n + s.calls, 0);
      const bytes = sites.reduce((n, s) => n + s.bytes, 0);
      if (calls >= threshold.minCalls && bytes / calls <= threshold.maxAverageBytes) {
        hot.push({ line, calls, bytes, breakdown: [...sites].sort((a, b) => b.calls - a.calls) });
      }
    }
    return hot.sort((a, b) => b.calls - a.calls || a.line - b.line);
  }
}

/** Groups a trace's sites by file (absolute paths, as the tracer wrote them). */
export function sitesByFile(sites: readonly TraceSite[]): Map<string, TracedLines> {
  const groups = new Map<string, TraceSite[]>();
  for (const site of sites) {
    const group = groups.get(site.file);
    if (group) group.push(site);
    else groups.set(site.file, [site]);
  }
  return new Map([...groups].map(([file, group]) => [file, new TracedLines(group)]));
}

/** The message of a `measured-writes` hint. */
export function hotLineMessage(hot: HotLine): string {
  const average = Math.round(hot.bytes / hot.calls);
  const parts = hot.breakdown.map(
    (s) => `${s.calls.toLocaleString('en-US')} ${s.syscall}${s.fd >= 0 ? ` on fd ${s.fd}` : ''}`,
  );
  return (
    `This line made ${hot.calls.toLocaleString('en-US')} write calls in the traced run ` +
    `(${average} byte${average === 1 ? '' : 's'} each on average: ${parts.join(', ')}); gather or buffer them`
  );
}
