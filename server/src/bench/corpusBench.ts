// The corpus part of `npm run bench:analyzer`: recall and precision per project on the labelled files,
// and the analyzer's speed over each project's whole tree at the pinned commit (checked out by
// scripts/corpus-trees.js), with that project's settings.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { printTreeTimings, type TreeCase } from './treeRuns';
import { scoreTables } from './corpusReport';
import { loadCorpus, projectSettings, scoreCorpus } from './corpusScore';

/**
 * Prints the corpus score, then each project's whole tree timed `runs` times by the writev-lint
 * command (see treeRuns.ts). Trees are skipped when `trees` is absent.
 */
export async function measureCorpus(corpusDir: string, trees: string | undefined, runs = 3): Promise<void> {
  const score = await scoreCorpus(corpusDir);
  console.log(`corpus (${corpusDir}):\n${scoreTables(score)}`);
  const corpus = await loadCorpus(corpusDir);
  if (!trees) {
    console.log(
      'project trees: skipped (no --trees DIR, no WRITEV_CORPUS_TREES and no .cache/corpus-trees: check them out with node scripts/corpus-trees.js)',
    );
    return;
  }
  const cases: TreeCase[] = [];
  const pinned = new Map<string, string>();
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
    if (at !== project.commit)
      console.log(
        `tree ${project.name}: checked out at ${at.slice(0, 12)}, labels pin ${project.commit.slice(0, 12)}`,
      );
    projectSettings(project); // Checks them: a bad entry is named here, not by a failed run.
    cases.push({ name: project.name, root, settings: project.settings });
    if (at === project.commit) pinned.set(project.name, root);
  }
  if (cases.length === 0) {
    console.log(
      `project trees: none found under ${trees} (check them out with node scripts/corpus-trees.js)`,
    );
    return;
  }
  // The same labels, each project's files linted within its whole tree: what a user who runs
  // writev-lint at the project's root gets, facts from every file included.
  if (pinned.size > 0) {
    const inTrees = await scoreCorpus(corpusDir, (project) => pinned.get(project.name));
    console.log(
      `corpus within the whole trees (${pinned.size} of ${corpus.projects.length} projects' checkouts; the others their labelled files alone):\n${scoreTables(inTrees)}`,
    );
  }
  await printTreeTimings(cases, runs);
}
