/**
 * What the server needs to know about the repository it serves: where its git directory is (and,
 * for a linked worktree, the common one), its refs (with peeled tags and symbolic targets) and which
 * objects it has. Refs and objects come from the installed `git`, which already knows every
 * storage detail (packed refs, alternates, per-worktree refs).
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { gitChildEnv, serveEnv, serveSignal } from './childEnv';
import { UploadPackError } from './errors';
import { memoizedRefs } from './refsMemo';

/** A repository's folders. */
export interface GitLayout {
  /** The git directory: a repository's, or a linked worktree's (its HEAD, per-worktree refs). */
  readonly gitDir: string;
  /** Where objects, shared refs and the config live: `gitDir`, or the main repository's. */
  readonly commonDir: string;
}

/** One ref as git lists it, by its full name. */
export interface RawRef {
  readonly name: string;
  readonly oid: string;
  /** For an annotated tag, the object it peels to. */
  readonly peeled?: string;
  /** For a symbolic ref, the ref it points at (one level). */
  readonly symref?: string;
  /** The type of `oid` (`commit`, `tag`, `tree` or `blob`), when the listing gave it. */
  readonly type?: string;
  /** The type of `peeled`, when the listing gave it (a tag's tag peels further). */
  readonly peeledType?: string;
}

/** Every ref of a repository, unfiltered, sorted by name as git sorts them (bytewise). */
export interface RawRefs {
  readonly refs: readonly RawRef[];
  /** The repository's hash: `sha1` or `sha256`. */
  readonly objectFormat: 'sha1' | 'sha256';
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The common folder of a git directory: the one its `commondir` file names, else itself. */
function commonDirOf(dir: string): string {
  const file = join(dir, 'commondir');
  if (!isRegularFile(file)) return dir;
  const named = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  return resolve(dir, named);
}

/**
 * The layout of `dir` when it is a git directory: HEAD a regular file (it is read whole, and a FIFO
 * there would hang git and us), and an objects folder in its common folder.
 */
function layoutOf(dir: string): GitLayout | undefined {
  try {
    if (!isDirectory(dir) || !isRegularFile(join(dir, 'HEAD'))) return undefined;
    const commonDir = commonDirOf(dir);
    if (!isDirectory(join(commonDir, 'objects'))) return undefined;
    return { gitDir: resolve(dir), commonDir: resolve(commonDir) };
  } catch {
    return undefined;
  }
}

/** A `.git` file (worktrees, submodules, `--separate-git-dir`) holds `gitdir: <path>`; follow it. */
function followGitFile(file: string): string | undefined {
  try {
    if (!statSync(file).isFile()) return undefined;
    const match = /^gitdir: (.+)$/m.exec(readFileSync(file, 'utf8'));
    if (!match) return undefined;
    const target = match[1]!.trim();
    return isAbsolute(target) ? target : resolve(dirname(file), target);
  } catch {
    return undefined;
  }
}

/**
 * Finds the repository for `path` the way upload-pack does: `path/.git`, `path`, `path.git/.git`
 * and `path.git` in that order (with `strict`, only `path` itself), following `.git` files and a
 * linked worktree's `commondir`. No search upwards: a server serves exactly the repository it was
 * named, whatever `GIT_DIR` says.
 *
 * @throws {@link UploadPackError} "'<path>' does not appear to be a git repository".
 */
export function findRepository(path: string, strict = false): GitLayout {
  const candidates = strict ? [path] : [`${path}/.git`, path, `${path}.git/.git`, `${path}.git`];
  for (const candidate of candidates) {
    const layout = layoutOf(followGitFile(candidate) ?? candidate);
    if (layout) return layout;
  }
  throw new UploadPackError(`'${path}' does not appear to be a git repository`);
}

/** The git directory for `path` (see {@link findRepository}). */
export function findGitDir(path: string, strict = false): string {
  return findRepository(path, strict).gitDir;
}

/**
 * Runs git on the repository and returns its standard output; a failure names the command. It
 * never blocks: the event loop goes on while git runs, which matters when the serve shares its
 * process with others (an HTTP server's), so every git a serve runs goes through here.
 */
export function gitAsync(gitDir: string, args: readonly string[], input?: string): Promise<string> {
  const { execFile } = process.getBuiltinModule('node:child_process');
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [`--git-dir=${gitDir}`, ...args],
      // A serve given up stops its git at once (SIGTERM), rather than when git is done.
      { encoding: 'utf8', maxBuffer: 1 << 30, env: gitChildEnv(serveEnv()), signal: serveSignal() },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const said = stderr.trim();
        reject(
          new UploadPackError(`git ${args[0]} failed in ${gitDir}${said ? `: ${said}` : ''}`, { cause: err }),
        );
      },
    );
    // git may exit before reading all of its input: its status says why, not this EPIPE.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input ?? '');
  });
}

/**
 * Lists every ref of the repository (with the object an annotated tag peels to and a symbolic
 * ref's target), per-worktree refs included for a linked worktree. HEAD is not among them: it is
 * read from its file by the caller, so its symbolic target is known without another git.
 *
 * @param memoDir - a folder for a memo of git's answer (the pack cache's), so that refs that have
 *   not changed since the last serve are listed without running git; see `refsMemo.ts`.
 */
export async function listRawRefs(layout: GitLayout, memoDir?: string): Promise<RawRefs> {
  const { gitDir, commonDir } = layout;
  const out = await memoizedRefs(memoDir, gitDir, commonDir, () =>
    gitAsync(gitDir, [
      'for-each-ref',
      // The types cost git nothing more (it reads each object to peel it) and spare a shallow
      // fetch its own lookup of what the wants peel to.
      '--format=%(objectname) %(refname) %(*objectname) %(symref) %(objecttype) %(*objecttype)',
    ]),
  );
  const refs: RawRef[] = [];
  for (const line of out.split('\n')) {
    if (line === '') continue;
    const [oid, name, peeled, symref, type, peeledType] = line.split(' ');
    refs.push({
      name: name!,
      oid: oid!,
      ...(peeled ? { peeled } : {}),
      ...(symref ? { symref } : {}),
      ...(type ? { type } : {}),
      ...(peeledType ? { peeledType } : {}),
    });
  }
  const objectFormat =
    refs.length > 0
      ? refs[0]!.oid.length === 64
        ? 'sha256'
        : 'sha1'
      : ((await gitAsync(gitDir, ['rev-parse', '--show-object-format'])).trim() as 'sha1' | 'sha256');
  return { refs, objectFormat };
}

/**
 * The objects a ref listing proves present: every ref's object and every tag's peeled object.
 * `git for-each-ref` with `%(*objectname)` fails outright on a ref or tag whose object is missing,
 * so a listing it gave (or its memo, exact for the refs' bytes) names only objects the repository
 * had, and objects reachable from refs are never pruned. A want among them needs no lookup.
 */
export function listedObjects(raw: RawRefs): Set<string> {
  const listed = new Set<string>();
  for (const ref of raw.refs) {
    listed.add(ref.oid);
    if (ref.peeled !== undefined) listed.add(ref.peeled);
  }
  return listed;
}

/**
 * What a want peels to, as far as the ref listing tells: the commit a ref's object is or a tag of
 * it tags, `null` for a tree or blob (or a tag of one), and nothing for objects it cannot tell
 * (no ref names them, or a tag of a tag).
 */
export function listedPeels(raw: RawRefs): Map<string, string | null> {
  const peels = new Map<string, string | null>();
  for (const ref of raw.refs) {
    if (ref.type === 'commit') peels.set(ref.oid, ref.oid);
    else if (ref.type === 'tree' || ref.type === 'blob') peels.set(ref.oid, null);
    else if (ref.type === 'tag' && ref.peeled !== undefined) {
      if (ref.peeledType === 'commit') peels.set(ref.oid, ref.peeled);
      else if (ref.peeledType === 'tree' || ref.peeledType === 'blob') peels.set(ref.oid, null);
    }
  }
  return peels;
}

/**
 * Which of `oids` the repository has (loose, packed or through alternates), with one
 * `git cat-file --batch-check` for the whole list.
 */
export async function presentObjectsAsync(gitDir: string, oids: readonly string[]): Promise<Set<string>> {
  if (oids.length === 0) return new Set();
  return presentIn(
    await gitAsync(gitDir, ['cat-file', '--batch-check=%(objectname)'], `${oids.join('\n')}\n`),
  );
}

function presentIn(out: string): Set<string> {
  return new Set(out.split('\n').filter((line) => line !== '' && !line.endsWith(' missing')));
}
