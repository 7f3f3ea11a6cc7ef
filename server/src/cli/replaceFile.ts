// Replacing a file with its fixed version without ever losing bytes: the new content goes to a
// temporary file in the same folder, is flushed to disk, and is renamed over the original only if
// the original is still the version that was read. A rewrite in place (O_TRUNC) would leave a
// truncated file after a crash, and would silently overwrite an edit made while the analysis ran.
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { readRegularFile, SkippedFileError, type FileStamp } from '../workspace/sourceFile';
import { writeAtomically } from './writeAtomically';

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

/** The file grants no one write permission: a fix is refused, as editors refuse to save over it. */
export class ReadOnlyFileError extends Error {
  readonly code = 'EREADONLY';
  constructor(
    readonly path: string,
    readonly mode: number,
  ) {
    super(
      `${path} is read-only (mode ${mode.toString(8).padStart(4, '0')}); not fixed (make it writable to fix it)`,
    );
    this.name = 'ReadOnlyFileError';
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

/**
 * Replaces `path` (a regular file, read as `read`) with `bytes`, keeping its permission bits and owner.
 * Throws {@link FileChangedError} and leaves the file untouched when it no longer matches `read`
 * (size, content hash, modification time, identity), and {@link ReadOnlyFileError} when it is read-only
 * (no write permission bit, or none for this user); throws the system error when the temporary file
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
  // Editors refuse too: a read-only file is a statement, and a rename (which needs only the folder's
  // permission) would silently get past it. The bits for everyone, and access() for this user.
  if (
    (read.mode & 0o222) === 0 ||
    !(await access(path, constants.W_OK).then(
      () => true,
      () => false,
    ))
  )
    throw new ReadOnlyFileError(path, read.mode);
  await writeAtomically(path, bytes, {
    mode: 0o600,
    prepare: async (handle) => {
      // Owner first: chown clears set-user-ID bits, which the chmod then puts back.
      const info = await handle.stat();
      if (info.uid !== read.uid || info.gid !== read.gid) {
        await handle.chown(read.uid, read.gid).catch((error: NodeJS.ErrnoException) => {
          throw new Error(`cannot give the fixed file the owner of ${path} (${error.code ?? error.message})`);
        });
      }
      await handle.chmod(read.mode);
    },
    beforeRename: async () => {
      const now = await readRegularFile(path, Math.max(read.size, 1) * 2).catch((error: unknown) => {
        if (error instanceof SkippedFileError) throw new FileChangedError(path, error.reason);
        throw error;
      });
      const changed = difference(read, now.stamp);
      if (changed) throw new FileChangedError(path, changed);
    },
  });
}
