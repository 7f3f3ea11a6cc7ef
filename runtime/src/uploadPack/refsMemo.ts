/**
 * A memo of `git for-each-ref`'s answer, kept in the pack cache folder, so a fetch the cache
 * answers starts no git process at all: that spawn was the largest single entry of a cached
 * serve's CPU profile.
 *
 * The memo is keyed by everything the answer depends on in a files-backend repository: the bytes
 * of `packed-refs` and of every loose ref under `refs/`, with their names. A ref's object and an
 * annotated tag's peeled object are fixed by those bytes (object ids name content), so a memo
 * whose key matches is exact. Repositories whose refs live elsewhere (reftable) or a namespaced
 * serve always ask git.
 *
 * The memo is an optimisation: a folder that cannot be read or written only means asking git.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { makeDirs, openRegular } from './cacheFiles';

/** The memo's first line, with the format's version. */
const MEMO_MAGIC = 'writev-upload-pack refs memo v1';

/** Loose refs beyond this many are not worth reading one by one: ask git. */
const MAX_LOOSE_REFS = 2000;

/**
 * The key of the refs' current state, or `undefined` when it cannot be computed cheaply and
 * exactly (reftable, a namespace, too many loose refs, a ref that is not a small regular file).
 */
export function refsFingerprint(gitDir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.GIT_NAMESPACE || existsSync(join(gitDir, 'reftable'))) return undefined;
  const hash = createHash('sha256').update(`${MEMO_MAGIC}\n${gitDir}\n`);
  const packed = readIfRegular(join(gitDir, 'packed-refs'));
  if (packed === false) return undefined;
  hash.update(`packed-refs ${packed?.length ?? -1}\n`);
  if (packed) hash.update(packed);
  let count = 0;
  const walk = (dir: string, name: string): boolean => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const refName = `${name}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!walk(join(dir, entry.name), refName)) return false;
        continue;
      }
      const bytes = readIfRegular(join(dir, entry.name));
      if (!bytes || ++count > MAX_LOOSE_REFS) return false;
      hash.update(`${refName} ${bytes.length}\n`).update(bytes);
    }
    return true;
  };
  return walk(join(gitDir, 'refs'), 'refs') ? hash.digest('hex') : undefined;
}

/** A file's bytes; `undefined` when it is absent, `false` when it is something else or unreadable. */
function readIfRegular(path: string): Buffer | undefined | false {
  try {
    const opened = openRegular(path);
    if (opened === undefined) return undefined;
    try {
      return readFileSync(opened.fd);
    } finally {
      closeSync(opened.fd);
    }
  } catch {
    return false;
  }
}

/** The memo file of a repository in `cacheDir`. */
function memoPath(cacheDir: string, gitDir: string): string {
  return join(cacheDir, `writev-refs-${createHash('sha256').update(gitDir).digest('hex')}.memo`);
}

/**
 * `for-each-ref`'s output for the refs' current state: from the memo in `cacheDir` when its key
 * matches, else from `ask` (which runs git), remembered for next time. Without a cache folder,
 * always `ask`.
 */
export function memoizedRefs(cacheDir: string | undefined, gitDir: string, ask: () => string): string {
  const fingerprint = cacheDir === undefined ? undefined : refsFingerprint(gitDir);
  if (cacheDir === undefined || fingerprint === undefined) return ask();
  const path = memoPath(cacheDir, gitDir);
  const head = `${MEMO_MAGIC}\n${fingerprint}\n`;
  const memo = readIfRegular(path);
  if (memo && memo.toString('latin1', 0, head.length) === head) return memo.toString('utf8', head.length);
  const answer = ask();
  // Refs that moved while git listed them: the answer may be of either state, so keep no memo.
  if (refsFingerprint(gitDir) !== fingerprint) return answer;
  const temp = join(cacheDir, `writev-fill-${process.pid}-${randomBytes(6).toString('hex')}.memo`);
  try {
    makeDirs(cacheDir);
    const fd = openSync(temp, 'wx', 0o644);
    try {
      writeSync(fd, head + answer);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch {
    // an unwritable folder means asking git next time too; the pack cache warns about the folder
    try {
      rmSync(temp, { force: true });
    } catch {
      // nothing was created
    }
  }
  return answer;
}
