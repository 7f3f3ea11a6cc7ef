// The `full` text format, as ruff prints findings by default: the one-line form, then the source line
// of the finding's first write with a caret under it, so a reviewer sees the code without opening it.
import { LineIndex } from '../analyzer/positions';
import { paint } from './colors';
import { formatText } from './formats';
import type { FileResult, ReportedFinding } from './lintFile';
import type { Report } from './report';

/** Tabs as four spaces: the caret line must line up under the code in any terminal. */
function expandTabs(text: string): string {
  return text.replace(/\t/g, '    ');
}

/**
 * The excerpt under one finding: a gutter with the line number, the line of its first write (or of the
 * finding, without writes), and carets under that write.
 */
function excerpt(
  finding: ReportedFinding,
  lines: LineIndex,
  text: string,
  dim: (s: string) => string,
): string {
  const f = finding.related[0] ?? finding;
  const start = lines.offsetAt({ line: f.start.line, character: 0 });
  const next = lines.offsetAt({ line: f.start.line + 1, character: 0 });
  const source = text.slice(start, next).replace(/\r?\n$|\r$/, '');
  const number = String(f.start.line + 1);
  const gutter = ' '.repeat(number.length);
  const before = expandTabs(source.slice(0, f.start.character));
  // Under the span's part on this line (at least one caret), trailing blanks not underlined.
  const endCharacter = f.end.line === f.start.line ? f.end.character : source.trimEnd().length;
  const width = Math.max(1, expandTabs(source.slice(f.start.character, endCharacter)).length);
  return [
    `${gutter} ${dim('|')}`,
    `${number} ${dim('|')} ${expandTabs(source)}`,
    `${gutter} ${dim('|')} ${' '.repeat(before.length)}${'^'.repeat(width)}`,
    '',
  ].join('\n');
}

/** Each finding's line (see formatText), then its source line with a caret, then a blank line. */
export function formatFull(report: Report): string {
  const p = paint(report.color);
  const out: string[] = [];
  for (const r of report.results) {
    if (r.findings.length === 0) continue;
    const text = report.texts.get(r.path);
    const lines = text === undefined ? undefined : new LineIndex(text);
    for (const f of r.findings) {
      const one: FileResult = { ...r, findings: [f] };
      out.push(formatText({ ...report, results: [one] }));
      if (text !== undefined && lines) out.push(`${excerpt(f, lines, text, p.dim)}\n`);
    }
  }
  return out.join('');
}
