// The corpus score as text: the per-project and per-idiom tables the test and the benchmark print, and
// the lists a reviewer works from (missed runs by idiom, false positives, unlabelled findings).
import { precision, recall, type CorpusScore, type FoundRun, type ScoreRow } from './corpusScore';

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

function table(title: string, rows: readonly ScoreRow[]): string[] {
  const header = [
    title,
    'recall',
    'found/pos',
    'precision',
    'TP',
    'FP',
    'partial',
    'unlabelled',
    'flagged/neg',
  ];
  const body = rows.map((r) => [
    r.key,
    r.positives > 0 ? percent(recall(r)) : '-',
    `${r.found}/${r.positives}`,
    r.truePositives + r.falsePositives > 0 ? percent(precision(r)) : '-',
    String(r.truePositives),
    String(r.falsePositives),
    String(r.partial),
    String(r.unlabelled),
    `${r.flagged}/${r.negatives}`,
  ]);
  // Every row has one cell per header column, so the `!` reads below are in bounds.
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), ...body.map(line)];
}

function where(run: FoundRun): string {
  return `${run.project}/${run.file}:${run.lines.join(',')}`;
}

/** The per-project and per-idiom tables, with the total last in the project table; then each half. */
export function scoreTables(score: CorpusScore): string {
  const halves = score.idiomsByHalf
    ? [
        '',
        ...table('half', score.halves),
        '',
        ...table('idiom (development half)', score.idiomsByHalf.development),
        '',
        ...table('idiom (test half)', score.idiomsByHalf.test),
      ]
    : [];
  return [
    ...table('project', [...score.byProject, score.total]),
    '',
    ...table('idiom', score.byIdiom),
    ...halves,
    '',
    `${score.files} files, ${score.lines} lines; ${score.loops.length} loop findings (not scored)`,
  ].join('\n');
}

/** The positive runs no finding covers, grouped by idiom, with any finding that covers part of one. */
export function missedByIdiom(score: CorpusScore): string {
  const groups = new Map<string, string[]>();
  for (const { site, partial } of score.missed) {
    const lines = groups.get(site.idiom) ?? [];
    const part =
      partial.length > 0 ? ` (partly found: ${partial.map((r) => r.lines.join(',')).join('; ')})` : '';
    lines.push(`  ${site.project}/${site.file}:${site.lines.join(',')}: ${site.reason}${part}`);
    groups.set(site.idiom, lines);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([idiom, lines]) => `${idiom} (${lines.length})\n${lines.join('\n')}`)
    .join('\n');
}

/** False positives and unlabelled findings, one a line. */
export function findingsToReview(score: CorpusScore): string {
  const out: string[] = [];
  for (const { run, sites } of score.falsePositives) {
    out.push(`false positive ${where(run)}: ${sites.map((s) => `${s.idiom}: ${s.reason}`).join('; ')}`);
  }
  for (const run of score.unlabelled) out.push(`unlabelled ${where(run)}: ${run.message}`);
  return out.join('\n');
}
