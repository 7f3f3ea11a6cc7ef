// The corpus part of `npm run bench:analyzer`: recall and precision per project on the labelled files,
// and the analyzer's speed over each project's whole tree at the pinned commit (checked out by
// scripts/corpus-trees.js), with that project's settings.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lint } from '../cli/main';
import { count } from './format';
import { scoreTables } from './corpusReport';
import { loadCorpus, projectSettings, scoreCorpus } from './corpusScore';

/** Prints the corpus score, then lines/s per project tree found under `trees` (skipped if absent). */
export async function measureCorpus(corpusDir: string, trees: string | undefined): Promise<void> {
  const score = await scoreCorpus(corpusDir);
  console.log(`corpus (${corpusDir}):\n${scoreTables(score)}`);
  const corpus = await loadCorpus(corpusDir);
  if (!trees) {
    console.log(
      'project trees: skipped (no --trees DIR, no WRITEV_CORPUS_TREES and no .cache/corpus-trees: check them out with node scripts/corpus-trees.js)',
    );
    return;
  }
  for (const project of corpus.projects) {
    const root = join(trees, project.name);
    const stamp = join(root, '.writev-commit');
    if (!existsSync(stamp)) {
      console.log(
        `tree ${project.name}: skipped (${root} is not a checkout made by scripts/corpus-trees.js)`,
      );
      continue;
    }
    const at = readFileSync(stamp, 'utf8').trim();
    const note =
      at === project.commit
        ? ''
        : ` (checked out at ${at.slice(0, 12)}, labels pin ${project.commit.slice(0, 12)})`;
    const started = process.hrtime.bigint();
    const results = await lint({ paths: [root], fix: false }, projectSettings(project));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const lines = results.reduce((n, r) => n + r.lines, 0);
    const findings = results.reduce((n, r) => n + r.findings.length, 0);
    console.log(
      `tree ${project.name}${note}: ${count(results.length)} files, ${count(lines)} lines in ${seconds.toFixed(2)} s = ${count(lines / seconds)} lines/s, ${findings} findings`,
    );
  }
}
