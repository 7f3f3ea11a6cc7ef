// What a loaded trace adds to a document's diagnostics: the measured calls and bytes on each finding
// whose writes the run traced, and a `measured-writes` hint on each hot traced line no finding covers.
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { TraceSite } from '@writev/runtime/dist/trace/traceFile';
import {
  formatMeasured,
  hotLineMessage,
  sitesByFile,
  type MeasuredThreshold,
  type TracedLines,
} from '../analyzer/measured';
import { DOCS_URL } from '../analyzer/model';

/** The trace the client loaded, by file; empty until one is loaded, and after it is cleared. */
export class LoadedTrace {
  private files = new Map<string, TracedLines>();

  /** Replaces the trace (`undefined` clears it). */
  set(sites: readonly TraceSite[] | undefined): void {
    this.files = sites ? sitesByFile(sites) : new Map<string, TracedLines>();
  }

  /** Whether a trace is loaded. */
  get loaded(): boolean {
    return this.files.size > 0;
  }

  /** `diagnostics` of the file at `path`, with what the trace measured there. */
  apply(path: string, diagnostics: Diagnostic[], text: string, threshold: MeasuredThreshold): Diagnostic[] {
    const traced = this.files.get(path);
    if (!traced) return diagnostics;
    const covered = new Set<number>();
    const measured = diagnostics.map((d) => {
      for (let l = d.range.start.line; l <= d.range.end.line; l++) covered.add(l + 1);
      const writes = d.relatedInformation?.length
        ? d.relatedInformation.map((r) => r.location.range)
        : [d.range];
      const at: number[] = [];
      for (const r of writes) for (let l = r.start.line; l <= r.end.line; l++) at.push(l + 1);
      const m = traced.measure(at);
      return m
        ? {
            ...d,
            message: `${typeof d.message === 'string' ? d.message : d.message.value} (measured: ${formatMeasured(m)})`,
            data: { measured: m },
          }
        : d;
    });
    const lines = text.split(/\r\n|\r|\n/);
    for (const hot of traced.hotLines(covered, threshold, lines.length)) {
      const lineText = lines[hot.line - 1] ?? '';
      const range = {
        start: { line: hot.line - 1, character: 0 },
        end: { line: hot.line - 1, character: lineText.length },
      };
      measured.push({
        range,
        severity: DiagnosticSeverity.Information,
        code: 'measured-writes',
        codeDescription: { href: `${DOCS_URL}#measured-writes` },
        source: 'writev',
        message: hotLineMessage(hot),
        data: { measured: { calls: hot.calls, bytes: hot.bytes } },
      });
    }
    return measured;
  }
}
