// Finds the source files of a tree: every file the analyzer reads, skipping what .gitignore files
// (at any level) and the `exclude` setting ignore, and never entering .git or node_modules.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { languageOf } from '../analyzer/analyzer';

/** Folders never walked: version control and dependencies. */
const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

interface Rules {
  readonly base: string;
  readonly rules: Ignore;
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

function ignoredBy(chain: readonly Rules[], path: string, isDir: boolean): boolean {
  for (const { base, rules } of chain) {
    const rel = toPosix(relative(base, path));
    if (rel && !rel.startsWith('..') && rules.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return false;
}

async function gitignoreOf(dir: string): Promise<Rules | undefined> {
  try {
    return { base: dir, rules: ignore().add(await readFile(join(dir, '.gitignore'), 'utf8')) };
  } catch {
    return undefined; // No .gitignore here (the common case).
  }
}

/** A matcher for gitignore-style `patterns` relative to `root` (the `exclude` setting). */
export function excludeMatcher(root: string, patterns: readonly string[]): (path: string) => boolean {
  if (patterns.length === 0) return () => false;
  const rules = ignore().add([...patterns]);
  return (path) => {
    const rel = toPosix(relative(root, path));
    return rel !== '' && !rel.startsWith('..') && rules.ignores(rel);
  };
}

/**
 * Yields the analysable files under `root` (absolute paths, in directory order). `exclude`: patterns
 * relative to `root`, or a matcher of absolute paths. `shouldStop` is checked between directories so
 * a caller can cancel a long walk.
 */
export async function* sourceFiles(
  root: string,
  exclude: readonly string[] | ((path: string) => boolean) = [],
  shouldStop: () => boolean = () => false,
): AsyncGenerator<string> {
  const excluded = typeof exclude === 'function' ? exclude : excludeMatcher(root, exclude);
  const stack: { dir: string; chain: Rules[] }[] = [{ dir: root, chain: [] }];
  while (stack.length > 0 && !shouldStop()) {
    const { dir, chain: parent } = stack.pop() as { dir: string; chain: Rules[] };
    const own = await gitignoreOf(dir);
    const chain = own ? [...parent, own] : parent;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue; // Unreadable or vanished while walking: nothing to analyse there.
    }
    const subdirs: string[] = [];
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!ALWAYS_SKIPPED.has(entry.name) && !ignoredBy(chain, path, true) && !excluded(path))
          subdirs.push(path);
      } else if (
        entry.isFile() &&
        languageOf(entry.name) &&
        !ignoredBy(chain, path, false) &&
        !excluded(path)
      ) {
        yield path;
      }
    }
    for (const sub of subdirs.reverse()) stack.push({ dir: sub, chain });
  }
}
