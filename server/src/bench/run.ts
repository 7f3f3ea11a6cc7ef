// `npm run bench:analyzer`: the analyzer's speed figures, each against the target it has. Usage:
//   node server/out/bench/run.js [--tree dir...] [--full dir | --no-full-parse] [--lines 4000] [--edits 300]
//     [--no-tree] [--corpus dir | --no-corpus] [--trees dir] [--tree-runs 5] [--no-incremental]
//     [--sessions 3] [--helper-rounds 20]
// The whole-command figure for one tree of your own, alone: --tree DIR --no-incremental --no-corpus
// --no-full-parse.
// First the language server: edit-to-diagnostics in a 4,000-line file (one server session per
// --sessions, each of --edits edits: the median of the sessions' p95, with their range) and a helper's
// change seen in its caller in another open file. Then recall and precision on the labelled corpus
// (test/server/corpus), and lines/s over each corpus project's whole tree when --trees (or
// WRITEV_CORPUS_TREES, or .cache/corpus-trees) holds their checkouts, with the speed target's verdict
// for each tree of 400,000 lines or more (treeRuns.ts). Then the writev-lint command over
// large trees, a fresh process per run (--tree, or else the Linux kernel's fs/, net/ and drivers/net/
// under /tmp/linux: extract Debian's linux-source there first, see server/README.md; skipped if absent).
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { median, percentile } from '@writev/runtime';
import { measureIncremental, type IncrementalResult } from './incremental';
import { measureHelperChange } from './helperChange';
import { count, ms } from './format';
import { measureFullParse } from './tree';
import { printTreeTimings } from './treeRuns';
import { measureCorpus } from './corpusBench';

const KERNEL = '/tmp/linux/linux-source-6.1';

function option(name: string): string[] {
  const values: string[] = [];
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    if (argv[i] === name && value) {
      values.push(value);
      i++;
    }
  }
  return values;
}

async function main(): Promise<void> {
  const lines = Number(option('--lines')[0] ?? 4000);
  const edits = Number(option('--edits')[0] ?? 300);
  const sessions = Number(option('--sessions')[0] ?? 3);
  const server = join(__dirname, '..', 'server.js');
  const incremental = !process.argv.includes('--no-incremental');
  // A typical density (one function in 20 has a write sequence) and the worst case (every one has).
  for (const every of incremental ? [20, 1] : []) {
    const runs: IncrementalResult[] = [];
    for (let i = 0; i < sessions; i++) runs.push(await measureIncremental(server, lines, edits, every));
    const first = runs[0] as IncrementalResult;
    console.log(
      `incremental: ${first.lines}-line C file, ${first.findings} findings, ${sessions} server sessions of ${first.edits} edits, didChange -> diagnostics: ` +
        `p95 ${spread(runs.map((r) => r.p95))}, p50 ${spread(runs.map((r) => r.p50))}, max ${spread(runs.map((r) => r.max))}, ` +
        `server CPU per edit ${cpu(runs)} ` +
        `(median of the sessions, their range; target p95 <= 30 ms: ${median(runs.map((r) => r.p95)) <= 30 ? 'met' : 'NOT met'})`,
    );
  }
  if (incremental) {
    const helper = await measureHelperChange(server, lines, Number(option('--helper-rounds')[0] ?? 20));
    const { pushed, touched } = helper;
    const summary = (values: readonly number[]) =>
      `p50 ${ms(percentile(values, 50))}, p95 ${ms(percentile(values, 95))}, max ${ms(Math.max(...values))}`;
    console.log(
      `helper change: a helper's body edited and saved, its caller open in another file (${lines} lines): ` +
        (pushed.length > 0
          ? `re-diagnosed by the server in ${pushed.length} of ${helper.rounds} rounds, ${summary(pushed)}`
          : `not re-diagnosed by the server within ${helper.waitMs} ms in any of ${helper.rounds} rounds`) +
        (touched.length > 0
          ? `; ${touched.length} rounds then edited the caller: edit -> diagnostics with the new facts ${summary(touched)}`
          : '') +
        ` (target: the server re-diagnoses callers within 200 ms: ${
          pushed.length === helper.rounds && percentile(pushed, 95) <= 200 ? 'met' : 'NOT met'
        })`,
    );
  }
  const repo = join(__dirname, '..', '..', '..');
  const cachedTrees = join(repo, '.cache', 'corpus-trees');
  // Someone tuning for speed has no use for the corpus tables, whose test-half rows a rule's author
  // must not read.
  if (!process.argv.includes('--no-corpus'))
    await measureCorpus(
      option('--corpus')[0] ?? join(repo, 'test', 'server', 'corpus'),
      option('--trees')[0] ??
        process.env.WRITEV_CORPUS_TREES ??
        (existsSync(cachedTrees) ? cachedTrees : undefined),
      Number(option('--tree-runs')[0] ?? 5),
    );
  if (process.argv.includes('--no-tree')) return;
  const trees = option('--tree');
  const roots =
    trees.length > 0
      ? trees
      : ['fs', 'net', 'drivers/net'].map((d) => join(KERNEL, d)).filter((d) => existsSync(d));
  if (roots.length === 0) {
    console.log(`whole tree: skipped (no --tree given and ${KERNEL} not found)`);
    return;
  }
  // Each root a tree of its own, timed as the corpus trees are: the command, a fresh process per run.
  await printTreeTimings(
    roots.map((root) => ({ name: basename(root), root, settings: {} })),
    Number(option('--tree-runs')[0] ?? 5),
  );
  if (process.argv.includes('--no-full-parse')) return;
  const full = option('--full')[0] ?? roots[0]!; // roots is not empty: checked above
  const parse = await measureFullParse(full);
  console.log(
    `full parse, one thread, no file skipped (${full}): ${count(parse.files)} files, ${count(parse.lines)} lines in ${parse.seconds.toFixed(2)} s = ${count(parse.lines / parse.seconds)} lines/s`,
  );
}

/** The sessions' server CPU per edit, as {@link spread} gives it ("unknown" without /proc). */
function cpu(runs: readonly IncrementalResult[]): string {
  const values = runs.flatMap((r) => (r.cpuPerEdit === undefined ? [] : [r.cpuPerEdit]));
  return values.length === runs.length ? spread(values) : 'unknown';
}

/** The median of `values` in milliseconds, with their range. */
function spread(values: readonly number[]): string {
  return `${ms(median(values))} (${ms(Math.min(...values))}-${ms(Math.max(...values))})`;
}

main().catch((error: unknown) => {
  console.error(`bench: ${(error as Error).stack ?? String(error)}`);
  process.exitCode = 1;
});
