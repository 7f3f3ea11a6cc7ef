// Finds the source files of a tree: every file the analyzer reads, skipping what the `exclude` setting
// and git ignore, and never entering .git or node_modules. Inside a git work tree git says what it
// ignores (never a tracked file); elsewhere .gitignore files (at any level) are matched here. What
// cannot be read is told to the caller, never silently left out.
import { isUtf8 } from 'node:buffer';
import { readdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Ignore } from 'ignore';
import { languageOf } from '../analyzer/languageOf';
import { type GitIgnored, gitIgnored, gitIgnores, GitUnansweredError, inWorkTree } from './gitIgnored';
import { readRegularFile, SkippedFileError } from './sourceFile';

/** Told about a file or folder the walk had to leave out, with the reason. */
export type SkipListener = (path: string, reason: string) => void;

/**
 * A folder of source files that a .gitignore line left out where no git work tree can say whether git
 * tracks them: the walk goes on without it, and the caller should say so.
 */
export interface IgnoredSources {
  readonly folder: string;
  /** Source files under it (`atLeast`: the count stopped at its bound of entries read). */
  readonly sources: number;
  readonly atLeast: boolean;
  /** The .gitignore that left it out and the last line of it that alone does so. */
  readonly gitignore: string;
  readonly line?: string;
}

/**
 * The note a user reads of `found` (paths relative to `base`): a release tarball's `.gitignore` naming a
 * built program also names its source folder.
 */
export function ignoredSourcesNote(found: IgnoredSources, base: string): string {
  const files = `${found.atLeast ? 'at least ' : ''}${found.sources} source file${found.sources === 1 ? '' : 's'}`;
  const by = `${found.line === undefined ? '' : `the line "${found.line}" of `}${relative(base, found.gitignore)}`;
  return (
    `${relative(base, found.folder) || '.'}/ (${files}) left out by ${by}: outside a git work tree ` +
    `nothing says whether git tracks them`
  );
}

/** How many entries the count of an ignored folder's source files reads at most. */
const MAX_COUNTED_ENTRIES = 20_000;

/** A .gitignore larger than this is not a list of patterns anyone wrote. */
const MAX_GITIGNORE_BYTES = 1024 * 1024;

/** Folders never walked: version control and dependencies. */
const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

interface Rules {
  readonly base: string;
  readonly rules: Ignore;
  /** The .gitignore these rules were read from, and its text (to name the line that matched). */
  readonly file: string;
  readonly text: string;
}

/**
 * How a folder's entries are judged: by git's answer inside a work tree, else by the .gitignore
 * files matched here. `unanswered`: git was asked and could not answer, so the rules judge tracked
 * files too, and the first path they leave out is reported (a tracked file may be among them).
 */
interface Judge {
  readonly chain: Rules[];
  readonly git?: GitIgnored;
  readonly unanswered?: { readonly error: GitUnansweredError; reported: boolean };
}

/** The judge of the folder `dir` under `parent`: git's, when `dir` is (in) a work tree git answers for. */
async function judgeOf(dir: string, parent: Judge | undefined): Promise<Judge> {
  try {
    return { chain: [], git: await gitIgnored(dir) };
  } catch (error) {
    if (!(error instanceof GitUnansweredError)) throw error;
    return { chain: parent?.chain ?? [], unanswered: { error, reported: false } };
  }
}

/** Whether `judge` leaves out `path` (a folder when `isDir`); reports the first one git could not judge. */
function ignoredHere(judge: Judge, path: string, isDir: boolean, onSkip: SkipListener): boolean {
  if (judge.git) return isDir ? judge.git.dirs.has(path) : judge.git.files.has(path);
  if (!ignoredBy(judge.chain, path, isDir)) return false;
  if (judge.unanswered && !judge.unanswered.reported) {
    judge.unanswered.reported = true;
    onSkip(
      path,
      `a .gitignore line ignores it, and git, which never ignores a file it tracks, could not say which ` +
        `files it tracks (${judge.unanswered.error.reason})`,
    );
  }
  return true;
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

function ignoredBy(chain: readonly Rules[], path: string, isDir: boolean): boolean {
  return ignoringRules(chain, path, isDir) !== undefined;
}

/** The rules of `chain` that leave out `path`, nearest the root first. */
function ignoringRules(chain: readonly Rules[], path: string, isDir: boolean): Rules | undefined {
  for (const rules of chain) {
    const rel = toPosix(relative(rules.base, path));
    if (rel && !rel.startsWith('..') && rules.rules.ignores(isDir ? `${rel}/` : rel)) return rules;
  }
  return undefined;
}

/** The last line of `rules` that alone leaves out the folder `path` (the line a reader would change). */
function ignoringLine(rules: Rules, path: string): string | undefined {
  const rel = `${toPosix(relative(rules.base, path))}/`;
  let found: string | undefined;
  for (const line of rules.text.split(/\r?\n/)) {
    const pattern = line.trim();
    if (pattern === '' || pattern.startsWith('#') || pattern.startsWith('!')) continue;
    if (rulesOf(line).ignores(rel)) found = pattern;
  }
  return found;
}

/**
 * The source files under the ignored folder `dir`, counted up to a bound of entries read: `atLeast`
 * when the bound stopped the count. Nested repositories and the always-skipped folders are not entered.
 */
async function sourcesUnder(dir: string): Promise<{ count: number; atLeast: boolean }> {
  let count = 0;
  let read = 0;
  const stack = [dir];
  while (stack.length > 0) {
    if (read >= MAX_COUNTED_ENTRIES) return { count, atLeast: true };
    const folder = stack.pop() as string;
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    read += entries.length;
    if (folder !== dir && entries.some((e) => e.name === '.git')) continue;
    for (const entry of entries) {
      if (entry.isDirectory() && !ALWAYS_SKIPPED.has(entry.name)) stack.push(join(folder, entry.name));
      else if (entry.isFile() && languageOf(entry.name)) count++;
    }
  }
  return { count, atLeast: false };
}

/**
 * Outside a git work tree a .gitignore line meant for a build product (a program named as its source
 * folder, say) also leaves out a folder of sources that git tracks, and nothing here can tell: the
 * walk still follows the line (a build folder is the common case), but a folder that holds source
 * files is told to the caller, with the line, so that a run is never silently partial.
 */
async function noteIgnoredSources(
  judge: Judge,
  folder: string,
  onIgnoredSources: (found: IgnoredSources) => void,
): Promise<void> {
  const rules = ignoringRules(judge.chain, folder, true);
  if (!rules) return;
  const { count, atLeast } = await sourcesUnder(folder);
  if (count === 0) return;
  onIgnoredSources({
    folder,
    sources: count,
    atLeast,
    gitignore: rules.file,
    line: ignoringLine(rules, folder),
  });
}

/**
 * gitignore rules of `patterns`. The matcher library is loaded on first use: loading it is a visible
 * part of every start, and most trees have neither a .gitignore nor an `exclude` setting (none of
 * the corpus trees).
 */
function rulesOf(patterns: string | string[]): Ignore {
  return (require('ignore') as typeof import('ignore'))().add(patterns);
}

async function gitignoreOf(dir: string, onSkip: SkipListener): Promise<Rules | undefined> {
  const path = join(dir, '.gitignore');
  try {
    // Read as a regular file only: a FIFO named .gitignore would block the walk forever.
    const { bytes } = await readRegularFile(path, MAX_GITIGNORE_BYTES);
    const text = bytes.toString('utf8');
    return { base: dir, rules: rulesOf(text), file: path, text };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No .gitignore here is the common case.
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      const reason = error instanceof SkippedFileError ? error.reason : (error as Error).message;
      onSkip(path, `its rules could not be read (${reason}); files it ignores may be analysed`);
    }
    return undefined;
  }
}

/** A matcher for gitignore-style `patterns` relative to `root` (the `exclude` setting). */
export function excludeMatcher(root: string, patterns: readonly string[]): (path: string) => boolean {
  if (patterns.length === 0) return () => false;
  const rules = rulesOf([...patterns]);
  return (path) => {
    const rel = toPosix(relative(root, path));
    return rel !== '' && !rel.startsWith('..') && rules.ignores(rel);
  };
}

/** The names in `dir` that are not valid UTF-8, as Node decodes them (U+FFFD for each bad byte). */
async function lossyNames(dir: string): Promise<Set<string>> {
  const names = await readdir(dir, { encoding: 'buffer' }).catch(() => [] as Buffer[]);
  return new Set(names.filter((n) => !isUtf8(n)).map((n) => n.toString('utf8')));
}

/** How a walk treats git's ignore rules. */
export interface WalkOptions {
  /** False: neither git nor .gitignore files leave anything out (`exclude` still does). */
  readonly respectGitignore?: boolean;
  /** Told about ignored folders of source files outside a git work tree (see noteIgnoredSources). */
  readonly onIgnoredSources?: (found: IgnoredSources) => void;
}

/**
 * Yields the analysable files under `root` (absolute paths, in directory order). `exclude`: patterns
 * relative to `root`, or a matcher of absolute paths. `shouldStop` is checked between directories so
 * a caller can cancel a long walk. Folders that cannot be read and entries with a source file's name
 * that are not regular files (FIFOs, sockets, devices) are passed to `onSkip`; symbolic links are not
 * followed (a link to a folder could loop) and not reported.
 */
export async function* sourceFiles(
  root: string,
  exclude: readonly string[] | ((path: string) => boolean) = [],
  shouldStop: () => boolean = () => false,
  onSkip: SkipListener = () => undefined,
  options: WalkOptions = {},
): AsyncGenerator<string> {
  const excluded = typeof exclude === 'function' ? exclude : excludeMatcher(root, exclude);
  const respect = options.respectGitignore ?? true;
  // Most trees are in no work tree (every corpus tree): they are judged without starting git.
  const top: Judge = respect && (await inWorkTree(root)) ? await judgeOf(root, undefined) : { chain: [] };
  const stack: { dir: string; judge: Judge }[] = [{ dir: root, judge: top }];
  while (stack.length > 0 && !shouldStop()) {
    const { dir, judge: parent } = stack.pop() as { dir: string; judge: Judge };
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Vanished while walking: nothing was there to analyse. Anything else hides files.
      if (code !== 'ENOENT') onSkip(dir, `folder not read: ${code ?? (error as Error).message}`);
      continue;
    }
    // A folder with its own .git below the walk's root is another repository (a submodule, a nested
    // clone): the outer repository's git does not look inside it, its own does.
    let judge = parent;
    if (respect && dir !== root && entries.some((e) => e.name === '.git')) judge = await judgeOf(dir, parent);
    // Only a folder that lists a .gitignore has rules to read: opening one in every folder cost a
    // thrown ENOENT per folder, a fifth of the walk's time on busybox (43 folders, no .gitignore).
    if (respect && !judge.git && entries.some((e) => e.name === '.gitignore')) {
      const own = await gitignoreOf(dir, onSkip);
      if (own) judge = { ...judge, chain: [...judge.chain, own] };
    }
    const subdirs: string[] = [];
    let lossy: Promise<Set<string>> | undefined;
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.name.includes('\ufffd') && (await (lossy ??= lossyNames(dir))).has(entry.name)) {
        // Node's file names are strings: the bytes of this one are lost, and it cannot be opened.
        if (entry.isDirectory() || languageOf(entry.name))
          onSkip(
            path,
            `the name is not valid UTF-8, and writev-lint opens files by UTF-8 names (rename it to lint it)`,
          );
        continue;
      }
      if (entry.isDirectory()) {
        if (ALWAYS_SKIPPED.has(entry.name) || excluded(path)) continue;
        if (!ignoredHere(judge, path, true, onSkip)) subdirs.push(path);
        else if (options.onIgnoredSources && !judge.git && !judge.unanswered)
          await noteIgnoredSources(judge, path, options.onIgnoredSources);
      } else if (
        !entry.isSymbolicLink() &&
        languageOf(entry.name) &&
        !excluded(path) &&
        !ignoredHere(judge, path, false, onSkip)
      ) {
        if (entry.isFile()) yield path;
        else onSkip(path, 'not a regular file (a FIFO, socket or device)');
      }
    }
    for (const sub of subdirs.reverse()) stack.push({ dir: sub, judge });
  }
}

/**
 * Whether a walk of `root` would leave out the file `path` below it as ignored: by git inside a work
 * tree (never a tracked file), else by the .gitignore files from `root` down, or for lying in .git or
 * node_modules. `exclude` is the caller's to apply. For a file the walk has not met (created since, or
 * changed on disk), so that the editor's index holds what a walk, and writev-lint, would read.
 */
export async function walkIgnores(root: string, path: string): Promise<boolean> {
  const parts = relative(root, path).split(sep);
  if (parts[0] === '' || parts[0] === '..') return false;
  if (parts.slice(0, -1).some((part) => ALWAYS_SKIPPED.has(part))) return true;
  if (await inWorkTree(dirname(path))) {
    try {
      return await gitIgnores(path);
    } catch (error) {
      // As the walk does when git cannot answer: the .gitignore files judge.
      if (!(error instanceof GitUnansweredError)) throw error;
    }
  }
  // As the walk matches: each folder's .gitignore judges the entries below it.
  const chain: Rules[] = [];
  let dir = root;
  for (const [i, part] of parts.entries()) {
    const own = await gitignoreOf(dir, () => undefined);
    if (own) chain.push(own);
    const next = join(dir, part);
    if (ignoredBy(chain, next, i < parts.length - 1)) return true;
    dir = next;
  }
  return false;
}
