/**
 * From a request's target to a repository inside the served folder. Two steps, each refusing on its
 * own terms: the spelling of the path (no `..`, no empty or absolute segments, no encoded slashes,
 * no control characters) before the file system is touched, then the file system itself (the repository, with its
 * symlinks followed, must lie inside the folder and be a git directory).
 */
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { HttpRequestError, quoted } from './errors';

/** What a smart HTTP request asks for, after the repository's part of the path. */
export type SmartHttpAction = 'info/refs' | 'git-upload-pack' | 'git-receive-pack';

/** A request target taken apart. */
export interface RequestTarget {
  /** The repository's path segments, percent-decoded, each a plain file name. */
  readonly repository: readonly string[];
  readonly action: SmartHttpAction;
  /** The decoded query, for `service`. */
  readonly query: URLSearchParams;
  /** The path as the client sent it, for messages. */
  readonly path: string;
}

/**
 * Takes a request target (`req.url`, origin form) apart into the repository's segments and the
 * action. Each segment is percent-decoded once, so `%2e%2e` is refused as `..` is, and `%252e` stays
 * the literal name `%2e`.
 *
 * @throws {@link HttpRequestError} `ERR_HTTP_BAD_PATH` for a target that is not a plain relative
 *   path below the folder, `ERR_HTTP_NOT_FOUND` for one that is not a smart HTTP request.
 */
export function parseRequestTarget(target: string): RequestTarget {
  const queryAt = target.indexOf('?');
  const path = queryAt < 0 ? target : target.slice(0, queryAt);
  const query = new URLSearchParams(queryAt < 0 ? '' : target.slice(queryAt + 1));
  if (!path.startsWith('/')) {
    throw new HttpRequestError('ERR_HTTP_BAD_PATH', `bad path ${quoted(path)}: not a path starting with '/'`);
  }
  const segments = path
    .slice(1)
    .split('/')
    .map((raw) => segment(raw, path));
  let action: SmartHttpAction;
  let repository: string[];
  if (segments.length >= 2 && segments.at(-2) === 'info' && segments.at(-1) === 'refs') {
    action = 'info/refs';
    repository = segments.slice(0, -2);
  } else if (segments.at(-1) === 'git-upload-pack' || segments.at(-1) === 'git-receive-pack') {
    action = segments.at(-1) as SmartHttpAction;
    repository = segments.slice(0, -1);
  } else {
    throw new HttpRequestError(
      'ERR_HTTP_NOT_FOUND',
      `request not supported: ${quoted(path)} (smart HTTP serves <repository>/info/refs and <repository>/git-upload-pack)`,
    );
  }
  if (repository.length === 0) {
    throw new HttpRequestError('ERR_HTTP_NOT_FOUND', `no repository in the path ${quoted(path)}`);
  }
  return { repository, action, query, path };
}

/** Decodes one segment of `path` and checks that it is a plain file name. */
function segment(raw: string, path: string): string {
  const bad = (problem: string): HttpRequestError =>
    new HttpRequestError('ERR_HTTP_BAD_PATH', `bad path ${quoted(path)}: ${problem}`);
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    throw bad(`malformed percent-encoding in ${quoted(raw)}`);
  }
  if (name === '') throw bad('an empty segment (an absolute path, or a doubled or trailing /)');
  if (name === '.' || name === '..') throw bad(`a ${quoted(name)} segment`);
  if (name.includes('/')) throw bad(`an encoded '/' in ${quoted(raw)}`);
  if (name.includes('\0')) throw bad(`an encoded NUL in ${quoted(raw)}`);
  // eslint-disable-next-line no-control-regex
  if (/[\x01-\x1f\x7f]/.test(name)) throw bad(`a control character in ${quoted(raw)}`);
  return name;
}

/**
 * The places a request's path may name a repository, in the order git's own servers try them
 * without `--strict-paths`: `<path>/.git`, `<path>`, `<path>.git/.git`, `<path>.git`. So
 * `/project` finds `project.git` (bare) and `project/.git` (a work tree's), as `git daemon` does.
 */
function candidates(base: string): string[] {
  return [join(base, '.git'), base, join(`${base}.git`, '.git'), `${base}.git`];
}

/** Whether `dir` looks like a git directory: a HEAD, and objects and refs (or a common dir holding them). */
function isGitDirectory(dir: string): boolean {
  try {
    const head = readFileSync(join(dir, 'HEAD'), 'latin1');
    if (!/^(ref: refs\/|[0-9a-f]{40}\b|[0-9a-f]{64}\b)/.test(head)) return false;
    if (isFile(join(dir, 'commondir'))) return true;
    return statSync(join(dir, 'objects')).isDirectory() && statSync(join(dir, 'refs')).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds the repository `target` names inside `root`, a folder given by its real path (no
 * symlinks). Returns the repository's real path: what upload-pack is then given, so a symlink
 * changed after the check cannot redirect it.
 *
 * @throws {@link HttpRequestError} `ERR_HTTP_OUTSIDE_ROOT` when the path, with its symlinks
 *   followed, leaves `root`; `ERR_HTTP_NOT_A_REPOSITORY` when something is there but no git
 *   directory; `ERR_HTTP_NOT_FOUND` when nothing is.
 */
export function resolveRepository(root: string, target: RequestTarget): string {
  const name = target.repository.join('/');
  let found = false;
  for (const candidate of candidates(join(root, ...target.repository))) {
    if (!exists(candidate)) continue;
    found = true;
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      // A dangling symlink, or a loop: nothing usable there.
      continue;
    }
    if (real !== root && !real.startsWith(root.endsWith(sep) ? root : root + sep)) {
      throw new HttpRequestError(
        'ERR_HTTP_OUTSIDE_ROOT',
        `${quoted(name)} leads outside the served folder (through a symbolic link)`,
      );
    }
    if (isGitDirectory(real)) return real;
  }
  if (found)
    throw new HttpRequestError('ERR_HTTP_NOT_A_REPOSITORY', `${quoted(name)} is not a git repository`);
  throw new HttpRequestError('ERR_HTTP_NOT_FOUND', `no repository at ${quoted(name)}`);
}
