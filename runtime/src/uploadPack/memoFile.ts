/**
 * The memo files kept in the pack cache folder (git's answers about refs and configuration, keyed
 * by the state they were computed from), read and written by the cache's file rules: read without
 * blocking or following links, written to a private temporary file and renamed into place, so a
 * reader sees a whole memo or none. A memo is an optimisation: a folder that cannot be read or
 * written only means asking git.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirs, openRegular } from './cacheFiles';

/** A file's bytes; `undefined` when it is absent, `false` when it is something else or unreadable. */
export function readIfRegular(path: string): Buffer | undefined | false {
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

/** The memo file of kind `kind` (`refs`, `config`) for a repository in `cacheDir`. */
export function memoPath(cacheDir: string, kind: string, gitDir: string): string {
  return join(cacheDir, `writev-${kind}-${createHash('sha256').update(gitDir).digest('hex')}.memo`);
}

/** The memo's body when the file at `path` starts with `head`, else `undefined`. */
export function readMemo(path: string, head: string): string | undefined {
  const memo = readIfRegular(path);
  if (!memo || memo.toString('latin1', 0, head.length) !== head) return undefined;
  return memo.toString('utf8', Buffer.byteLength(head, 'utf8'));
}

/** Replaces the memo at `path` (in `cacheDir`) with `head` and `body`; failures are ignored. */
export function writeMemo(cacheDir: string, path: string, head: string, body: string): void {
  const temp = join(cacheDir, `writev-fill-${process.pid}-${randomBytes(6).toString('hex')}.memo`);
  try {
    makeDirs(cacheDir);
    const fd = openSync(temp, 'wx', 0o644);
    try {
      writeSync(fd, head + body);
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
}
