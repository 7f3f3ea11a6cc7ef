/**
 * What the server needs to know about the repository it serves: where its git directory is, its
 * refs (with peeled tags and HEAD's target) and which objects it has. Refs and objects come from
 * the installed `git`, which already knows every storage detail (packed refs, alternates, reftable).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { UploadPackError } from './errors';
import { memoizedRefs } from './refsMemo';

/** One advertised ref: its name, the object it points at, and for an annotated tag what it peels to. */
export interface Ref {
  readonly name: string;
  readonly oid: string;
  readonly peeled?: string;
}

/** The refs to advertise. */
export interface RefList {
  /** HEAD's object, and the ref it points at when it is symbolic; absent when HEAD is unborn. */
  readonly head?: { readonly oid: string; readonly target?: string };
  /** Every ref, sorted by name as git sorts them (bytewise). */
  readonly refs: readonly Ref[];
  /** The repository's hash: `sha1` or `sha256`. */
  readonly objectFormat: 'sha1' | 'sha256';
}

function isGitDirectory(dir: string): boolean {
  try {
    // HEAD must be a regular file: it is read whole, and a FIFO there would hang git and us.
    return statSync(dir).isDirectory() && statSync(`${dir}/HEAD`).isFile() && existsSync(`${dir}/objects`);
  } catch {
    return false;
  }
}

/** A `.git` file (worktrees, submodules) holds `gitdir: <path>`; follow it. */
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
 * Finds the git directory for `path` the way upload-pack does: `path/.git`, `path`, `path.git/.git`
 * and `path.git` in that order (with `strict`, only `path` itself), following `.git` files. No
 * search upwards: a server serves exactly the repository it was named.
 *
 * @throws {@link UploadPackError} "'<path>' does not appear to be a git repository".
 */
export function findGitDir(path: string, strict = false): string {
  const candidates = strict ? [path] : [`${path}/.git`, path, `${path}.git/.git`, `${path}.git`];
  for (const candidate of candidates) {
    const dir = followGitFile(candidate) ?? candidate;
    if (isGitDirectory(dir)) return resolve(dir);
  }
  throw new UploadPackError(`'${path}' does not appear to be a git repository`);
}

/** Runs git on the repository and returns its standard output; a failure names the command. */
export function git(gitDir: string, args: readonly string[], input?: string): string {
  // Loaded on first use: a fetch the cache answers starts no git, and child_process is the
  // largest module the server would otherwise load at start.
  const { execFileSync } = process.getBuiltinModule('node:child_process');
  try {
    return execFileSync('git', [`--git-dir=${gitDir}`, ...args], {
      input,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new UploadPackError(`git ${args[0]} failed in ${gitDir}${stderr ? `: ${stderr}` : ''}`, {
      cause: err,
    });
  }
}

/**
 * Lists the refs to advertise: every ref (with the object an annotated tag peels to), and HEAD,
 * read from the git directory's `HEAD` file so its symbolic target is known without another git.
 *
 * @param memoDir - a folder for a memo of git's answer (the pack cache's), so that refs that have
 *   not changed since the last serve are listed without running git; see `refsMemo.ts`.
 */
export function listRefs(gitDir: string, memoDir?: string): RefList {
  const out = memoizedRefs(memoDir, gitDir, () =>
    git(gitDir, ['for-each-ref', '--format=%(objectname) %(refname) %(*objectname)']),
  );
  const refs: Ref[] = [];
  for (const line of out.split('\n')) {
    if (line === '') continue;
    const [oid, name, peeled] = line.split(' ');
    refs.push(peeled ? { name: name!, oid: oid!, peeled } : { name: name!, oid: oid! });
  }
  const objectFormat =
    refs.length > 0
      ? refs[0]!.oid.length === 64
        ? 'sha256'
        : 'sha1'
      : (git(gitDir, ['rev-parse', '--show-object-format']).trim() as 'sha1' | 'sha256');
  const headText = readFileSync(`${gitDir}/HEAD`, 'utf8').trim();
  const symbolic = /^ref: (.+)$/.exec(headText);
  let head: RefList['head'];
  if (symbolic) {
    const target = refs.find((r) => r.name === symbolic[1]);
    if (target) head = { oid: target.oid, target: target.name };
  } else if (/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(headText)) {
    head = { oid: headText };
  }
  return head ? { head, refs, objectFormat } : { refs, objectFormat };
}

/**
 * Which of `oids` the repository has (loose, packed or through alternates), with one
 * `git cat-file --batch-check` for the whole list.
 */
export function presentObjects(gitDir: string, oids: readonly string[]): Set<string> {
  if (oids.length === 0) return new Set();
  const out = git(gitDir, ['cat-file', '--batch-check=%(objectname)'], `${oids.join('\n')}\n`);
  return new Set(out.split('\n').filter((line) => line !== '' && !line.endsWith(' missing')));
}
