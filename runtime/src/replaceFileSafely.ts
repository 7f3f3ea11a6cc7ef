/**
 * Replaces a file whole through a temporary file that no one else can have prepared: the temporary
 * name is random, and it is created with `O_CREAT | O_EXCL` (`'wx'`), which fails on any existing
 * path, a symbolic link included, dangling or not. So a link planted at a predictable name (the
 * classic `<file>.<pid>.tmp`) can never redirect the write to a file elsewhere. The temporary file sits
 * in the target's own folder, so that the final rename stays on one file system and is atomic: a
 * reader sees the old content or the new, never half of it.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A fresh, unpredictable temporary name beside `path` (`.<name>.<12 hex digits>.tmp`). */
export function temporaryNameBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Writes `data` to `path` through an exclusively created temporary file in the same folder, renamed
 * over `path` once complete. A symbolic link at `path` itself is replaced, not followed (as `mv`
 * does). On any failure the temporary file is removed and the error thrown; `path` is untouched.
 * `mode` applies to the new file (before the umask); the default is 0o644.
 */
export function replaceFileSafelySync(path: string, data: string | Uint8Array, mode = 0o644): void {
  const temp = temporaryNameBeside(path);
  const fd = openSync(temp, 'wx', mode);
  let renamed = false;
  try {
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      for (let done = 0; done < bytes.byteLength;) done += writeSync(fd, bytes, done);
      // The rename must not land before the data: after a crash the name holds the old file or the new.
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
    renamed = true;
  } finally {
    if (!renamed) rmSync(temp, { force: true });
  }
}
