/**
 * Opening and reading the files of a repository so that a hostile repository cannot make the
 * reader hang or grow without bound. A path in `.git` may be a symbolic link to `/dev/zero` (read
 * forever, until memory runs out), a FIFO (an open for reading waits for a writer that
 * never comes), or a directory (EISDIR from `read`, which Node reports without the path). So files
 * are opened with O_NONBLOCK, which makes opening a FIFO return at once, then checked with `fstat`
 * to be regular files before a byte is read, and read no further than a bound the caller gives.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { hasCode } from '../errno';

/** Makes the error to throw for `problem` (e.g. "is a FIFO, not a regular file"). */
export type Fail = (problem: string) => Error;

/** An open regular file: its descriptor and its size when opened. */
export interface OpenedFile {
  readonly fd: number;
  readonly size: number;
}

/** What a non-regular file is, in words. */
function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a file';
}

/** O_NONBLOCK where the platform has it (not on Windows, which has no FIFOs to open). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Checks, without opening it, that `file` (followed through links) is a regular file: for files
 * another module opens itself. Returns false when it does not exist.
 *
 * @throws what `fail` makes when it exists but is not a regular file.
 */
export function checkRegularFile(file: string, fail: Fail): boolean {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (stat === undefined) return false;
  if (!stat.isFile()) throw fail(`is ${kindOf(stat)}, not a regular file`);
  return true;
}

/**
 * Opens `file` for reading if it is a regular file. A FIFO does not block the open, and is refused
 * like a directory or a device.
 *
 * @returns the descriptor (the caller closes it) and the size, or `undefined` when the file does
 *   not exist.
 * @throws what `fail` makes for a file that is not regular; other open errors as Node reports them
 *   (they name the path).
 */
export function openRegularFile(file: string, fail: Fail): OpenedFile | undefined {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return undefined;
    if (hasCode(err, 'EISDIR')) throw fail('is a directory, not a regular file');
    throw err;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw fail(`is ${kindOf(stat)}, not a regular file`);
    return { fd, size: stat.size };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/**
 * Reads up to `length` bytes at `position` from `fd`, fewer only at the end of the file.
 * Restarts on EINTR and EAGAIN (a regular file opened with O_NONBLOCK does not return EAGAIN, but
 * a restart costs nothing).
 */
export function readAt(fd: number, length: number, position: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    let n: number;
    try {
      n = readSync(fd, buf, done, length - done, position + done);
    } catch (err) {
      if (hasCode(err, 'EINTR') || hasCode(err, 'EAGAIN')) continue;
      throw err;
    }
    if (n === 0) break;
    done += n;
  }
  return done === length ? buf : buf.subarray(0, done);
}

/**
 * The content of `file`, a regular file of at most `maxBytes` bytes, or `undefined` when it does
 * not exist.
 *
 * @throws what `fail` makes for a file that is not regular or is larger than `maxBytes`.
 */
export function readRegularFile(file: string, maxBytes: number, fail: Fail): Buffer | undefined {
  const opened = openRegularFile(file, fail);
  if (opened === undefined) return undefined;
  try {
    if (opened.size > maxBytes) throw fail(`is ${opened.size} bytes, more than the ${maxBytes} allowed`);
    // One byte more than the size: a file that grew since fstat is read to the bound, not beyond.
    const data = readAt(opened.fd, Math.min(opened.size + 1, maxBytes + 1), 0);
    if (data.length > maxBytes) throw fail(`grew past the ${maxBytes} bytes allowed while it was read`);
    return data;
  } finally {
    closeSync(opened.fd);
  }
}
