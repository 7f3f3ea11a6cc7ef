import type { CaseResult, Measurement } from './result';
import { speedRatio } from './stats';

/** A time in seconds in the unit hyperfine would pick for it: s, ms or µs, one decimal. */
export function formatTime(seconds: number): string {
  if (seconds >= 1) return `${seconds.toFixed(3)} s`;
  if (seconds >= 1e-3) return `${(seconds * 1e3).toFixed(1)} ms`;
  return `${(seconds * 1e6).toFixed(1)} µs`;
}

/** A byte count in binary units, one decimal ("64.0 MiB"). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Syscall counts as "writev 1,024 · write 2" (largest first, zeros left out). */
export function formatSyscalls(syscalls: Record<string, number>): string {
  return Object.entries(syscalls)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${Math.round(n).toLocaleString('en-US')}`)
    .join(' · ');
}

/** The ratio lines of a case: every mode against each reference mode, as "N.NN ± x.xx". */
export function ratiosAgainst(
  result: CaseResult,
): { mode: string; reference: string; ratio: number; stddev: number }[] {
  const references = result.references ?? [slowest(result.results).command];
  const rows = [];
  for (const reference of references) {
    const ref = result.results.find((m) => m.command === reference);
    if (ref === undefined) continue;
    for (const m of result.results) {
      if (m.command === reference) continue;
      rows.push({ mode: m.command, reference, ...speedRatio(ref, m) });
    }
  }
  return rows;
}

function slowest(results: readonly Measurement[]): Measurement {
  return results.reduce((a, b) => (b.mean > a.mean ? b : a));
}

function fastest(results: readonly Measurement[]): Measurement {
  return results.reduce((a, b) => (b.mean < a.mean ? b : a));
}

/** One mode in hyperfine's text layout, plus median, peak memory, syscalls and extras. */
export function formatMeasurement(index: number, m: Measurement): string {
  const lines = [`Benchmark ${index}: ${m.command}`];
  const cpu =
    m.user > 0 || m.system > 0 ? `    [User: ${formatTime(m.user)}, System: ${formatTime(m.system)}]` : '';
  lines.push(
    `  Time (mean ± σ):     ${formatTime(m.mean).padStart(9)} ± ${formatTime(m.stddev).padStart(9)}${cpu}`,
  );
  lines.push(
    `  Range (min … max):   ${formatTime(m.min).padStart(9)} … ${formatTime(m.max).padStart(9)}    ${m.times.length} runs`,
  );
  const extras = [`Median: ${formatTime(m.median)}`];
  if (m.memory_usage_byte && m.memory_usage_byte.length > 0) {
    extras.push(`Peak memory: ${formatBytes(Math.max(...m.memory_usage_byte))}`);
  }
  lines.push(`  ${extras.join('    ')}`);
  if (m.syscalls && Object.keys(m.syscalls).length > 0)
    lines.push(`  Syscalls: ${formatSyscalls(m.syscalls)}`);
  for (const [name, value] of Object.entries(m.extra ?? {}))
    lines.push(`  ${name}: ${formatExtra(name, value)}`);
  return lines.join('\n');
}

/** Extra figures named `*Seconds` or `streaming`/`startup` are times; others are plain numbers. */
function formatExtra(name: string, value: number): string {
  return /seconds$|^streaming$|^startup$/i.test(name)
    ? formatTime(value)
    : value.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

/**
 * A case's headline: how many times faster its headline mode ran than its reference (a ratio below
 * 1 means slower), or undefined when the case names no headline or lacks one of the two modes.
 */
export function headlineRatio(
  result: CaseResult,
): { mode: string; reference: string; ratio: number; stddev: number } | undefined {
  if (result.headline === undefined) return undefined;
  const { mode, reference } = result.headline;
  const m = result.results.find((r) => r.command === mode);
  const ref = result.results.find((r) => r.command === reference);
  if (m === undefined || ref === undefined) return undefined;
  return { mode, reference, ...speedRatio(ref, m) };
}

/** The headline as one line: `'batched' ran 4.12 ± 0.10 times faster than 'two writes'`. */
export function formatHeadline(result: CaseResult): string | undefined {
  const h = headlineRatio(result);
  if (h === undefined) return undefined;
  const how = h.ratio >= 1 ? 'faster' : 'slower';
  const ratio = h.ratio >= 1 ? h.ratio : 1 / h.ratio;
  const stddev = h.ratio >= 1 ? h.stddev : h.stddev / h.ratio ** 2;
  return `'${h.mode}' ran ${ratio.toFixed(2)} ± ${stddev.toFixed(2)} times ${how} than '${h.reference}'`;
}

/** A whole case as hyperfine prints it: each mode, the summary of ratios, then the headline. */
export function formatCase(result: CaseResult): string {
  const params = Object.entries(result.parameters ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  const parts = [`== ${result.suite} / ${result.case}: ${result.title}${params ? ` (${params})` : ''}`];
  result.results.forEach((m, i) => parts.push(formatMeasurement(i + 1, m)));
  if (result.results.length > 1) {
    const best = fastest(result.results);
    const summary = ['Summary', `  '${best.command}' ran`];
    for (const m of result.results) {
      if (m === best) continue;
      const { ratio, stddev } = speedRatio(m, best);
      summary.push(`    ${ratio.toFixed(2)} ± ${stddev.toFixed(2)} times faster than '${m.command}'`);
    }
    parts.push(summary.join('\n'));
  }
  const headline = formatHeadline(result);
  if (headline !== undefined) parts.push(`Headline: ${headline}`);
  return parts.join('\n\n');
}

/** A case as a Markdown table, for a pull-request comment. */
export function formatCaseMarkdown(result: CaseResult): string {
  const references = result.references ?? [slowest(result.results).command];
  const head = ['Mode', 'Mean ± σ', 'Median', 'Min … Max', 'Syscalls', ...references.map((r) => `vs ${r}`)];
  const rows = result.results.map((m) => {
    const vs = references.map((r) => {
      const ref = result.results.find((x) => x.command === r);
      if (!ref || ref === m) return '1.00';
      const { ratio, stddev } = speedRatio(ref, m);
      return `${ratio.toFixed(2)} ± ${stddev.toFixed(2)}`;
    });
    return [
      `\`${m.command}\``,
      `${formatTime(m.mean)} ± ${formatTime(m.stddev)}`,
      formatTime(m.median),
      `${formatTime(m.min)} … ${formatTime(m.max)}`,
      m.syscalls ? formatSyscalls(m.syscalls) : '',
      ...vs,
    ];
  });
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [
    `### ${result.suite} / ${result.case}: ${result.title}`,
    '',
    line(head),
    line(head.map(() => '---')),
    ...rows.map(line),
  ].join('\n');
}
