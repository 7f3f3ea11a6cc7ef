/**
 * A memo of `git for-each-ref`'s answer, kept in the pack cache folder, so a fetch the cache
 * answers starts no git process at all: that spawn was the largest single entry of a cached
 * serve's CPU profile.
 *
 * The memo holds every ref of the repository, unfiltered: the namespace and the hide rules are
 * applied to it on every serve (see `refView.ts`), so one memo serves every namespace and a change
 * of the rules takes effect at once. It is keyed by everything the unfiltered answer depends on in
 * a files-backend repository: the bytes of `packed-refs` and of every loose ref under `refs/`, with
 * their names, in the common folder and, for a linked worktree, in its own folder (its per-worktree
 * refs). A ref's object and an annotated tag's peeled object are fixed by those bytes (object ids
 * name content), so a memo whose key matches is exact. Repositories whose refs live elsewhere
 * (reftable) always ask git.
 *
 * The memo is an optimisation: a folder that cannot be read or written only means asking git.
 */
import { createHash, type Hash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { memoPath, readIfRegular, readMemo, writeMemo } from './memoFile';

/** The memo's first line, with the format's version. */
const MEMO_MAGIC = 'writev-upload-pack refs memo v3';

/** Loose refs beyond this many are not worth reading one by one: ask git. */
const MAX_LOOSE_REFS = 2000;

/** Hashes the loose refs under `dir` (named `name`); false when one cannot be read cheaply. */
function hashLooseRefs(hash: Hash, dir: string, name: string, count: { n: number }): boolean {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    return (err as { code?: string }).code === 'ENOENT';
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const refName = `${name}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!hashLooseRefs(hash, join(dir, entry.name), refName, count)) return false;
      continue;
    }
    const bytes = readIfRegular(join(dir, entry.name));
    if (!bytes || ++count.n > MAX_LOOSE_REFS) return false;
    hash.update(`${refName} ${bytes.length}\n`).update(bytes);
  }
  return true;
}

/**
 * The key of the refs' current state, or `undefined` when it cannot be computed cheaply and
 * exactly (reftable, too many loose refs, a ref that is not a small regular file).
 *
 * @param commonDir - where shared refs live: `gitDir` itself, or the main repository's folder of a
 *   linked worktree.
 */
export function refsFingerprint(gitDir: string, commonDir: string = gitDir): string | undefined {
  if (existsSync(join(commonDir, 'reftable'))) return undefined;
  const hash = createHash('sha256').update(`${MEMO_MAGIC}\n${gitDir}\n${commonDir}\n`);
  const packed = readIfRegular(join(commonDir, 'packed-refs'));
  if (packed === false) return undefined;
  hash.update(`packed-refs ${packed?.length ?? -1}\n`);
  if (packed) hash.update(packed);
  const count = { n: 0 };
  if (!hashLooseRefs(hash, join(commonDir, 'refs'), 'refs', count)) return undefined;
  if (gitDir !== commonDir) {
    hash.update('worktree\n');
    if (!hashLooseRefs(hash, join(gitDir, 'refs'), 'refs', count)) return undefined;
  }
  return hash.digest('hex');
}

/**
 * `for-each-ref`'s output for the refs' current state: from the memo in `cacheDir` when its key
 * matches, else from `ask` (which runs git), remembered for next time. Without a cache folder,
 * always `ask`.
 */
export async function memoizedRefs(
  cacheDir: string | undefined,
  gitDir: string,
  commonDir: string,
  ask: () => Promise<string>,
): Promise<string> {
  const fingerprint = cacheDir === undefined ? undefined : refsFingerprint(gitDir, commonDir);
  if (cacheDir === undefined || fingerprint === undefined) return ask();
  const path = memoPath(cacheDir, 'refs', gitDir);
  const head = `${MEMO_MAGIC}\n${fingerprint}\n`;
  const memo = readMemo(path, head);
  if (memo !== undefined) return memo;
  const answer = await ask();
  // Refs that moved while git listed them: the answer may be of either state, so keep no memo.
  if (refsFingerprint(gitDir, commonDir) === fingerprint) writeMemo(cacheDir, path, head, answer);
  return answer;
}
