// `npm run bench:analyzer`: the analyzer's speed figures. Usage:
//   node server/out/bench/run.js [--tree dir...] [--full dir] [--lines 4000] [--edits 300] [--no-tree]
//     [--corpus dir] [--trees dir] [--tree-runs 5] [--no-incremental]
// Without --tree, uses the Linux kernel's fs/, net/ and drivers/net/ under /tmp/linux (extract
// Debian's linux-source there first; see server/README.md), or skips the tree figures if absent.
// Then recall and precision on the labelled corpus (test/server/corpus), and lines/s over each corpus
// project's whole tree when --trees (or WRITEV_CORPUS_TREES, or .cache/corpus-trees) holds their checkouts.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { measureIncremental } from './incremental';
import { count, ms } from './format';
import { measureFullParse, measureTree } from './tree';
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
  // A typical density (one function in 20 has a write sequence) and the worst case (every one has).
  for (const every of process.argv.includes('--no-incremental') ? [] : [20, 1]) {
    const inc = await measureIncremental(join(__dirname, '..', 'server.js'), lines, edits, every);
    console.log(
      `incremental: ${inc.lines}-line C file, ${inc.findings} findings, ${inc.edits} edits, didChange -> diagnostics: ` +
        `p50 ${ms(inc.p50)}, p95 ${ms(inc.p95)}, max ${ms(inc.max)} (target p95 <= 30 ms)`,
    );
  }
  const repo = join(__dirname, '..', '..', '..');
  const cachedTrees = join(repo, '.cache', 'corpus-trees');
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
  const tree = await measureTree(roots);
  console.log(
    `whole tree: ${count(tree.files)} files, ${count(tree.lines)} lines in ${tree.seconds.toFixed(2)} s wall-clock on ${tree.threads} thread${tree.threads === 1 ? '' : 's'} = ${count(tree.lines / tree.seconds)} lines/s, peak RSS ${tree.peakRssMiB.toFixed(0)} MiB, ${tree.findings.length} findings (target >= 100,000 lines/s)`,
  );
  for (const f of tree.findings.slice(0, 50)) console.log(`  ${f.path}:${f.line}: ${f.message} [${f.code}]`);
  const full = option('--full')[0] ?? roots[0]!; // roots is not empty: checked above
  const parse = await measureFullParse(full);
  console.log(
    `full parse, one thread, no file skipped (${full}): ${count(parse.files)} files, ${count(parse.lines)} lines in ${parse.seconds.toFixed(2)} s = ${count(parse.lines / parse.seconds)} lines/s`,
  );
}

main().catch((error: unknown) => {
  console.error(`bench: ${(error as Error).stack ?? String(error)}`);
  process.exitCode = 1;
});
