// Replacing a file whole, the one way every writer of writev-lint does it: the new bytes go to a
// temporary file created exclusively (O_CREAT | O_EXCL, a random name) in the target's folder, are
// flushed, and the temporary file is renamed over the target. O_EXCL refuses to open through a symbolic
// link or any existing file, so a link planted at a predictable name (`<file>.<pid>.tmp`) cannot make
// us write elsewhere; the rename replaces a link at the target itself rather than writing through it,
// and a crash leaves either the old file or the new one, never a truncated one.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** How many random names to try before giving up (a collision of 64 random bits means an attacker or a bug). */
const ATTEMPTS = 4;

/** What {@link writeAtomically} can be asked besides the bytes. */
export interface AtomicWriteOptions {
  /** Permission bits of the new file, before the umask (default 0o666, as a plain write creates). */
  readonly mode?: number;
  /**
   * Runs on the open temporary file after the bytes are written and before it is flushed (to give it
   * an owner and mode).
   */
  readonly prepare?: (handle: FileHandle) => Promise<void>;
  /** Runs after the temporary file is complete and closed, just before the rename; throw to cancel. */
  readonly beforeRename?: () => Promise<void>;
}

/** Creates a new temporary file beside `path`, exclusively, under a random name. */
async function createTemporary(path: string, mode: number): Promise<{ temp: string; handle: FileHandle }> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  for (let attempt = 1; ; attempt++) {
    const temp = join(dirname(path), `.${basename(path)}.writev-${randomBytes(8).toString('hex')}.tmp`);
    try {
      return { temp, handle: await open(temp, flags, mode) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= ATTEMPTS) throw error;
    }
  }
}

async function syncFolder(folder: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(folder, constants.O_RDONLY);
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a folder; the rename itself has still happened.
  } finally {
    await handle?.close();
  }
}

/**
 * Replaces `path` with `bytes` through an exclusively created temporary file in its folder, flushed and
 * then renamed over it (see the file comment). The temporary file is removed on any failure, and the
 * error (the system's, or what `beforeRename` threw) is passed on; `path` is then untouched.
 */
export async function writeAtomically(
  path: string,
  bytes: Uint8Array | string,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const { temp, handle } = await createTemporary(path, options.mode ?? 0o666);
  let renamed = false;
  try {
    try {
      await handle.writeFile(bytes);
      await options.prepare?.(handle);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await options.beforeRename?.();
    await rename(temp, path);
    renamed = true;
    await syncFolder(dirname(path));
  } finally {
    if (!renamed) await unlink(temp).catch(() => undefined);
  }
}
