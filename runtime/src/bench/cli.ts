import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatCase, formatCaseMarkdown } from './format';
import type { BenchEvent, BenchSize, CaseResult } from './result';
import { SUITES } from './suites';

const USAGE = `usage: writev-bench [--suite ID]... [--case SUITE/CASE]... [--size tiny|quick|full]
                    [--runs N] [--jsonl] [--json FILE] [--markdown FILE] [--cache-dir DIR] [--list]

Runs the embedded benchmarks and prints them in hyperfine's style.
  --suite ID      run only this suite (repeatable); see --list
  --case S/C      run only this case of suite S (repeatable), e.g. --case sideband/side-band
  --size S        tiny (seconds, for tests), quick (a laptop), full (the published figures); default quick
  --runs N        measured runs per mode (default per size)
  --jsonl         print one JSON event per line on stdout instead of text (for the editor)
  --json FILE     also write every result to FILE, in hyperfine's export layout per case
  --markdown FILE also write the results as Markdown tables
  --cache-dir DIR where generated inputs are kept (default: $TMPDIR/writev-bench)`;

/** The JSON export: the machine, then every case in hyperfine's layout. */
export interface BenchExport {
  machine: { node: string; platform: string; cpus: number; cpuModel: string };
  size: BenchSize;
  cases: CaseResult[];
}

function fail(message: string): never {
  process.stderr.write(`writev-bench: ${message}\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        suite: { type: 'string', multiple: true },
        case: { type: 'string', multiple: true },
        size: { type: 'string', default: 'quick' },
        runs: { type: 'string' },
        jsonl: { type: 'boolean', default: false },
        json: { type: 'string' },
        markdown: { type: 'string' },
        'cache-dir': { type: 'string' },
        list: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (err) {
    fail((err as Error).message);
  }
  if (parsed.help) return void process.stdout.write(`${USAGE}\n`);
  if (parsed.list) {
    for (const s of SUITES) {
      process.stdout.write(`${s.id.padEnd(14)} ${s.title}: ${s.description}\n`);
      for (const c of s.cases) {
        const download = s.downloads?.includes(c) ? '  (downloads its data the first time)' : '';
        process.stdout.write(`  --case ${s.id}/${c}${download}\n`);
      }
    }
    return;
  }
  const size = parsed.size as BenchSize;
  if (!['tiny', 'quick', 'full'].includes(size)) fail(`unknown size '${parsed.size}'`);
  const runs = parsed.runs === undefined ? undefined : Number(parsed.runs);
  if (runs !== undefined && !(Number.isInteger(runs) && runs >= 1)) fail(`--runs must be a positive integer`);
  const unknown = (parsed.suite ?? []).filter((id) => !SUITES.some((s) => s.id === id));
  if (unknown.length > 0)
    fail(`unknown suite '${unknown[0]}' (known: ${SUITES.map((s) => s.id).join(', ')})`);
  const cases = casesBySuite(parsed.case ?? []);
  const named = [...(parsed.suite ?? []), ...cases.keys()];
  const suites = named.length > 0 ? SUITES.filter((s) => named.includes(s.id)) : SUITES;
  const cacheDir = join(parsed['cache-dir'] ?? join(tmpdir(), 'writev-bench'), size);
  mkdirSync(cacheDir, { recursive: true });

  const emit = (event: BenchEvent): void => {
    if (parsed.jsonl) process.stdout.write(`${JSON.stringify(event)}\n`);
    else if (event.type === 'result') process.stdout.write(`${formatCase(event.result)}\n\n`);
    else if (event.type === 'case') process.stderr.write(`running ${event.suite} / ${event.case}...\n`);
    else if (event.type === 'log') process.stderr.write(`${event.suite}: ${event.message}\n`);
  };
  const results: CaseResult[] = [];
  let failed = false;
  for (const suite of suites) {
    emit({ type: 'suite', suite: suite.id, title: suite.title, size });
    try {
      // A suite named by --suite runs whole; one named only by --case runs the cases named.
      const only = parsed.suite?.includes(suite.id) ? undefined : cases.get(suite.id);
      results.push(...(await suite.run({ size, runs, cacheDir, emit, ...(only ? { cases: only } : {}) })));
    } catch (err) {
      failed = true;
      const message = err instanceof Error ? err.message : String(err);
      if (parsed.jsonl) emit({ type: 'error', suite: suite.id, message });
      else process.stderr.write(`writev-bench: suite ${suite.id} failed: ${message}\n`);
    }
    emit({ type: 'done', suite: suite.id });
  }
  const cpu = cpus();
  const exported: BenchExport = {
    machine: {
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: cpu.length,
      cpuModel: cpu[0]?.model ?? '',
    },
    size,
    cases: results,
  };
  if (parsed.json) writeOut(parsed.json, `${JSON.stringify(exported, null, 2)}\n`);
  if (parsed.markdown) writeOut(parsed.markdown, `${results.map(formatCaseMarkdown).join('\n\n')}\n`);
  if (failed) process.exitCode = 1;
}

/** The `--case SUITE/CASE` values grouped by suite; an unknown suite or case stops the run. */
function casesBySuite(values: readonly string[]): Map<string, string[]> {
  const bySuite = new Map<string, string[]>();
  for (const value of values) {
    const slash = value.indexOf('/');
    const suite = SUITES.find((s) => s.id === value.slice(0, slash));
    if (slash < 0 || suite === undefined) {
      fail(`--case '${value}': expected SUITE/CASE with a suite of ${SUITES.map((s) => s.id).join(', ')}`);
    }
    const id = value.slice(slash + 1);
    if (!suite.cases.includes(id)) {
      fail(`--case '${value}': suite ${suite.id} has no case '${id}' (its cases: ${suite.cases.join(', ')})`);
    }
    bySuite.set(suite.id, [...(bySuite.get(suite.id) ?? []), id]);
  }
  return bySuite;
}

function writeOut(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

main().catch((err: unknown) => {
  process.stderr.write(`writev-bench: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
