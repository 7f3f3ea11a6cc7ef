// For comparison with the whole-tree timings (treeRuns.ts): one thread that parses and reads every
// file of a tree (no first-look filter).
import { readFile } from 'node:fs/promises';
import { Analyzer } from '../analyzer/analyzer';
import { DEFAULT_SETTINGS } from '../analyzer/settings';
import { sourceFiles } from '../workspace/files';

/** Parses and reads every C file under `root` on this thread (the worst case: no file skipped). */
export async function measureFullParse(
  root: string,
): Promise<{ files: number; lines: number; seconds: number }> {
  const analyzer = await Analyzer.create();
  let files = 0;
  let lines = 0;
  let busy = 0n;
  for await (const path of sourceFiles(root)) {
    const text = await readFile(path, 'utf8');
    const started = process.hrtime.bigint();
    // A key makes the analyzer parse even text without a write call (the editor's path).
    analyzer.analyze(path, text, DEFAULT_SETTINGS, { key: 'bench' });
    analyzer.forget('bench');
    busy += process.hrtime.bigint() - started;
    files++;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  }
  return { files, lines, seconds: Number(busy) / 1e9 };
}
