// --statistics: how many findings of each code, and how many of them --fix would fix, as ruff prints
// them: the count, the code, `[*]` when --fix would fix some (unsafe fixes only with --unsafe-fixes),
// and the rule's name.
import { fixable } from './formats';
import type { Report } from './report';

const NAMES: Record<string, string> = {
  'adjacent-writes': 'several writes to one descriptor in a row (one writev would do)',
  'adjacent-writes-unknown-fd': 'several plain writes to a descriptor of unknown kind in a row',
  'loop-writes': 'a write per loop iteration',
  'unused-directive': 'a suppression comment that suppresses nothing',
  'measured-writes': 'a traced line made many small write calls',
};

/** One line per code with findings, most frequent first (then by code); nothing when there are none. */
export function formatStatistics(report: Report): string {
  const counts = new Map<string, { all: number; fixable: number }>();
  for (const r of report.results) {
    for (const f of r.findings) {
      const c = counts.get(f.code) ?? { all: 0, fixable: 0 };
      c.all++;
      if (fixable(f, report.unsafeFixes ?? false)) c.fixable++;
      counts.set(f.code, c);
    }
  }
  const rows = [...counts].sort(([a, x], [b, y]) => y.all - x.all || a.localeCompare(b));
  const width = Math.max(0, ...rows.map(([, c]) => String(c.all).length));
  const codeWidth = Math.max(0, ...rows.map(([code]) => code.length));
  return rows
    .map(([code, c]) => {
      const fixable = c.fixable > 0 ? `[*] ${c.fixable} fixable` : '[ ]';
      return `${String(c.all).padStart(width)}\t${code.padEnd(codeWidth)}\t${fixable}\t${NAMES[code] ?? ''}\n`;
    })
    .join('');
}
