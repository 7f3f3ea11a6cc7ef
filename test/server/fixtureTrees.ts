// Fixture trees (a folder of C files and headers under fixtures/, such as c-headerdefs/): the index
// the language server keeps for one, and the two ways its markers are checked, by the editor's path
// (each file analysed with the workspace index) and by a batch run over the folder.
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DEFAULT_SETTINGS, WrapperIndex } from 'writev-lint';
import { analyzer, expectations, fixture, FIXTURES, observed } from './helpers';
import { lintRun } from './cliHelpers';

/** The C files and headers under `dir`, by path, sorted. */
export function treeFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? treeFiles(path) : /\.[ch]$/.test(name) ? [path] : [];
    });
}

/** The text of a file of a fixture tree, by path. */
export function treeText(path: string): string {
  return fixture(relative(FIXTURES, path));
}

/**
 * The index the language server keeps for a tree: every file read alone, then the files calling a
 * function that takes the writer it is handed read again with the index (see Folders.index).
 */
export async function treeIndex(tree: string): Promise<WrapperIndex> {
  const a = await analyzer();
  const index = new WrapperIndex();
  for (const path of treeFiles(tree)) index.set(path, a.wrappers(path, treeText(path), DEFAULT_SETTINGS));
  const takers = index.cWriterTakersFor('');
  if (takers.size > 0)
    for (const [path, w] of [...index.entries()])
      if (w.functions?.some((f) => f.calls.some((c) => takers.has(c)))) {
        const read = a.inspect(path, treeText(path), DEFAULT_SETTINGS, { index }).wrappers;
        index.set(path, { ...read, loud: undefined, helperLoud: undefined, inferred: undefined });
      }
  return index;
}

/** Asserts that each `.c` file of the tree, analysed with the tree's index, finds what its markers say. */
export async function assertEditorFindsMarkers(tree: string): Promise<void> {
  const a = await analyzer();
  const index = await treeIndex(tree);
  for (const path of treeFiles(tree).filter((p) => p.endsWith('.c'))) {
    const text = treeText(path);
    const found = a.analyze(path, text, DEFAULT_SETTINGS, { index });
    assert.deepEqual(observed(text, found), expectations(text), relative(tree, path));
  }
}

/**
 * Asserts that a batch run over the tree (first pass, fact base, second pass) reports what the markers
 * of its `.c` files say, by path, code and syscalls; returns the findings' `path:line` and fixability.
 */
export async function assertBatchFindsMarkers(
  tree: string,
): Promise<{ path: string; line: number; fixable: boolean }[]> {
  const run = await lintRun(['--no-config-lookup', '--format', 'json', tree], tree);
  const report = JSON.parse(run.out) as {
    findings: { path: string; line: number; code: string; syscalls: number; fixable: boolean }[];
  };
  const reported = report.findings.map((f) => `${f.path} ${f.code} ${f.syscalls}`);
  const expected = treeFiles(tree)
    .filter((p) => p.endsWith('.c'))
    .flatMap((p) => expectations(treeText(p)).map((e) => `${relative(tree, p)} ${e.code} ${e.syscalls}`));
  assert.deepEqual(reported.sort(), expected.sort());
  return report.findings;
}
