// Replacing a file with its fixed version without ever losing bytes: the new content goes to a
// temporary file in the same folder, is flushed to disk, and is renamed over the original only if
// the original is still the version that was read. A rewrite in place (O_TRUNC) would leave a
// truncated file after a crash, and would silently overwrite an edit made while the analysis ran.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { readRegularFile, SkippedFileError, type FileStamp } from '../workspace/sourceFile';

/** The file changed on disk between the read and the replacement: the fix was not written. */
export class FileChangedError extends Error {
  readonly code = 'ECHANGED';
  constructor(
    readonly path: string,
    readonly what: string,
  ) {
    super(`${path} changed on disk while it was analysed (${what}); not fixed, run again`);
    this.name = 'FileChangedError';
  }
}

/** What differs between two stamps, or undefined when they name the same version of a file. */
function difference(read: FileStamp, now: FileStamp): string | undefined {
  if (now.dev !== read.dev || now.ino !== read.ino) return 'replaced by another file';
  if (now.size !== read.size) return `size ${read.size} -> ${now.size} bytes`;
  if (now.sha256 !== read.sha256) return 'content differs';
  if (now.mtimeNs !== read.mtimeNs) return 'modification time differs';
  return undefined;
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
 * Replaces `path` (a regular file, read as `read`) with `bytes`, keeping its permission bits and owner.
 * Throws {@link FileChangedError} and leaves the file untouched when it no longer matches `read`
 * (size, content hash, modification time, identity); throws the system error when the temporary file
 * cannot be written. `path` must not be a symbolic link (resolve it first: a rename would replace the
 * link itself).
 *
 * The check and the rename are two steps: an edit landing between them (microseconds) is still lost.
 * Nothing portable closes that window; this narrows it from the whole analysis to one system call.
 */
export async function replaceFile(path: string, read: FileStamp, bytes: Uint8Array): Promise<void> {
  if (read.nlink > 1) {
    // A rename gives the path a new inode: the file's other names would keep the old content.
    throw new SkippedFileError(path, `has ${read.nlink} hard links, which a fix by rename would split`);
  }
  const folder = dirname(path);
  const temp = join(folder, `.${basename(path)}.writev-lint-${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  let renamed = false;
  try {
    try {
      await handle.writeFile(bytes);
      // Owner first: chown clears set-user-ID bits, which the chmod then puts back.
      const info = await handle.stat();
      if (info.uid !== read.uid || info.gid !== read.gid) {
        await handle.chown(read.uid, read.gid).catch((error: NodeJS.ErrnoException) => {
          throw new Error(`cannot give the fixed file the owner of ${path} (${error.code ?? error.message})`);
        });
      }
      await handle.chmod(read.mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    const now = await readRegularFile(path, Math.max(read.size, 1) * 2).catch((error: unknown) => {
      if (error instanceof SkippedFileError) throw new FileChangedError(path, error.reason);
      throw error;
    });
    const changed = difference(read, now.stamp);
    if (changed) throw new FileChangedError(path, changed);
    await rename(temp, path);
    renamed = true;
    await syncFolder(folder);
  } finally {
    if (!renamed) await unlink(temp).catch(() => undefined);
  }
}
