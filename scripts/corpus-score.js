#!/usr/bin/env node
// The analyzer's score on the labelled corpus, for whoever changes a rule: `node scripts/corpus-score.js
// [--misses] [--trees DIR]` (after `npm run build`). It prints both halves' totals, recall by idiom for
// each half, and each project's found/positives, the files of each project analysed alone; with --trees
// DIR (checkouts made by `node scripts/corpus-trees.js --out DIR`), each project that has its checkout
// there at the pinned commit, with the labelled files unchanged, is linted within its whole tree, as a
// user runs the command at the project's root (the others alone: a line says which); with --misses, the
// development half's missed runs and false positives, one a line. The test half's runs are never
// printed: a rule's author reads its counts only (test/server/corpus/README.md).
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { parseArgs } = require('node:util');

const { values } = parseArgs({
  options: { misses: { type: 'boolean', default: false }, trees: { type: 'string' } },
});
const root = join(__dirname, '..');
const { scoreCorpus, recall, precision } = require(join(root, 'server', 'out', 'bench', 'corpusScore.js'));
const corpus = join(root, 'test', 'server', 'corpus');

const pct = (x) => `${(100 * x).toFixed(1)}%`;

/**
 * The projects whose whole checkout `trees` holds at the pinned commit with the labelled files as the
 * corpus has them (a checkout that differs would shift the labels' lines), by name.
 */
function checkouts(trees) {
  const found = new Map();
  for (const project of require(join(corpus, 'labels.json')).projects) {
    const root = join(trees, project.name);
    const stamp = join(root, '.writev-commit');
    if (!existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== project.commit) continue;
    const same = project.files.every((file) => {
      const theirs = join(root, file);
      return (
        existsSync(theirs) && readFileSync(theirs).equals(readFileSync(join(corpus, project.name, file)))
      );
    });
    if (same) found.set(project.name, root);
  }
  return found;
}

async function main() {
  const trees = values.trees === undefined ? undefined : checkouts(values.trees);
  if (trees)
    console.log(
      `within their whole trees (${values.trees}): ${[...trees.keys()].join(', ') || 'none'}; the others alone\n`,
    );
  const score = await scoreCorpus(corpus, trees && ((project) => trees.get(project.name)));
  const testHalf = new Set(require(join(corpus, 'labels.json')).split.test);
  for (const h of score.halves)
    console.log(
      `${h.key}: ${h.found}/${h.positives}, recall ${pct(recall(h))}, precision ${pct(precision(h))}, negatives flagged ${h.flagged}/${h.negatives}`,
    );
  for (const half of ['development', 'test']) {
    const idioms = (score.idiomsByHalf?.[half] ?? []).filter((r) => r.positives > 0);
    console.log(
      `\n${half} half, by idiom: ${idioms.map((r) => `${r.key} ${r.found}/${r.positives}`).join(', ')}`,
    );
    const projects = score.byProject.filter((r) => testHalf.has(r.key) === (half === 'test'));
    console.log(
      `${half} half, by project: ${projects
        .map((r) => `${r.key} ${r.found}/${r.positives}${r.flagged ? ` (${r.flagged} flagged)` : ''}`)
        .join(', ')}`,
    );
  }
  if (!values.misses) return;
  console.log('\ndevelopment half, missed runs:');
  for (const m of score.missed)
    if (!testHalf.has(m.site.project))
      console.log(`  ${m.site.project}/${m.site.file}:${m.site.lines.join(',')} ${m.site.idiom}`);
  console.log('development half, false positives:');
  for (const f of score.falsePositives)
    if (!testHalf.has(f.run.project))
      console.log(
        `  ${f.run.project}/${f.run.file}:${f.run.lines.join(',')} over ${f.sites.map((s) => `${s.verdict} ${s.lines.join(',')}`).join('; ')}`,
      );
}

main().catch((error) => {
  console.error(`corpus-score: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
});
