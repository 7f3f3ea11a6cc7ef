/**
 * The file-level rules of the pack cache, which may share its folder with files that are not its
 * own (a user's `backup.pack`, another tool's `tmp-notes.txt`, a FIFO someone left there):
 * - what the cache's own names look like, and the stamp that proves an entry was written by it;
 * - opening without ever blocking (a FIFO) or following a link (`/dev/zero`), and refusing what is
 *   not a regular file;
 * - creating the folder with a bounded number of system calls (Node's recursive `mkdirSync` loops
 *   forever where `mkdir` answers ENOENT for a parent that exists, as it does under `/proc`).
 */
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  realpathSync,
  type BigIntStats,
} from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { hasCode } from '../errno';

/** An entry's key: the SHA-256 of its request, in hex. */
export const KEY = /^[0-9a-f]{64}$/;

/** An entry's pack: `<key>.pack`. */
export const ENTRY_NAME = /^([0-9a-f]{64})\.pack$/;

/** A fill's temporary file: `writev-fill-<pid>-<12 hex>.pack` (or `.stamp`, `.memo`). */
export const FILL_NAME = /^writev-fill-\d+-[0-9a-f]{12}\.(pack|stamp|memo)$/;

/** The first word of every stamp: what makes a `<key>.pack` the cache's own. */
const STAMP_MAGIC = 'writev-upload-pack cache entry';

/** A stamp is two short lines; anything longer is not one. */
const STAMP_MAX_BYTES = 256;

/** Opens for reading without blocking on a FIFO or a device, and without following a link. */
const SAFE_READ = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/**
 * The stamp of an entry: its key, and the pack file's identity and state when it was verified
 * (inode, size, mtime and ctime in nanoseconds). Any write to the pack changes its ctime.
 */
export function stampText(key: string, st: BigIntStats): string {
  return `${STAMP_MAGIC} ${key}\n${st.ino} ${st.size} ${st.mtimeNs} ${st.ctimeNs}\n`;
}

/**
 * Whether `stamp` says the file `st` is the cache's entry for `key`: the stamp names the key and the
 * file's inode. Its size or times may differ (the file was changed after it was stamped): it is
 * still the cache's own file, to verify again or remove.
 */
export function stampOwns(stamp: string | undefined, key: string, st: BigIntStats): boolean {
  if (stamp === undefined || !st.isFile()) return false;
  const head = `${STAMP_MAGIC} ${key}\n`;
  const state = /^(\d+) \d+ \d+ \d+\n$/.exec(stamp.slice(head.length));
  return stamp.startsWith(head) && state !== null && BigInt(state[1]!) === st.ino;
}

/** What a non-regular file is, for messages. */
export function kindOf(st: {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSymbolicLink(): boolean;
  isSocket(): boolean;
}): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isSocket()) return 'a socket';
  return 'a device';
}

/** An error's code and message, short, for a warning. */
export function describe(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** A cache file that is there but cannot be used as one (not regular, or unreadable). */
export class CacheFileError extends Error {
  /** Always `'ERR_PACK_CACHE_FILE'`. */
  readonly code = 'ERR_PACK_CACHE_FILE';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CacheFileError';
  }
}

/**
 * Opens a regular file for reading without blocking or following a final symbolic link.
 *
 * @returns the descriptor and its status, or `undefined` when nothing is at `path`.
 * @throws {@link CacheFileError} when something is there that is not a readable regular file
 *   (a directory, FIFO, device, symbolic link, or a permission or path error), naming it.
 */
export function openRegular(path: string): { fd: number; st: BigIntStats } | undefined {
  let fd: number;
  try {
    fd = openSync(path, SAFE_READ);
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return undefined;
    if (hasCode(err, 'ELOOP')) throw new CacheFileError(`${path} is a symbolic link`, { cause: err });
    throw new CacheFileError(`cannot open ${path}: ${describe(err)}`, { cause: err });
  }
  try {
    const st = fstatSync(fd, { bigint: true });
    if (!st.isFile()) throw new CacheFileError(`${path} is ${kindOf(st)}, not a regular file`);
    return { fd, st };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** Reads a stamp, or `undefined` when there is none or it is not a small regular file. */
export function readStamp(path: string): string | undefined {
  let opened;
  try {
    opened = openRegular(path);
  } catch {
    return undefined;
  }
  if (opened === undefined) return undefined;
  try {
    const buffer = Buffer.alloc(STAMP_MAX_BYTES + 1);
    let length = 0;
    for (let n = 1; n > 0 && length < buffer.length; length += n) {
      n = readSync(opened.fd, buffer, length, buffer.length - length, length);
    }
    return length > STAMP_MAX_BYTES ? undefined : buffer.toString('latin1', 0, length);
  } catch {
    return undefined;
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * `mkdir -p` with at most two `mkdir` calls per path component: a parent that `mkdir` reports
 * missing is created once, then the child is tried once more, and a second ENOENT is final.
 *
 * @throws the error of the component that could not be made (ENOENT, ENOTDIR, EACCES, ...).
 */
export function makeDirs(dir: string): void {
  const path = resolve(dir);
  try {
    mkdirSync(path);
    return;
  } catch (err) {
    if (hasCode(err, 'EEXIST')) return;
    if (!hasCode(err, 'ENOENT') || dirname(path) === path) throw err;
  }
  makeDirs(dirname(path));
  try {
    mkdirSync(path);
  } catch (err) {
    if (!hasCode(err, 'EEXIST')) throw err;
  }
}

/**
 * `path` with symbolic links resolved as far as it exists (the rest appended), so two spellings of
 * one folder compare equal even before the folder is created.
 */
function realpathSoFar(path: string): string {
  const missing: string[] = [];
  let at = resolve(path);
  for (;;) {
    try {
      return join(realpathSync(at), ...missing.reverse());
    } catch {
      const parent = dirname(at);
      if (parent === at) return resolve(path);
      missing.push(basename(at));
      at = parent;
    }
  }
}

/** Whether `inner` is `outer` or lies below it, symbolic links resolved. */
export function isWithin(inner: string, outer: string): boolean {
  const a = realpathSoFar(inner);
  const b = realpathSoFar(outer);
  return a === b || a.startsWith(b.endsWith(sep) ? b : b + sep);
}
