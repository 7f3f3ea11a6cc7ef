import { toWriteError } from './errors';
import { writeInFull, writeInFullAsync, writevInFull, writevInFullAsync } from './inFull';
import type { AsyncWriteOptions, WriteOptions } from './options';

/**
 * Writes all of `buf` to `fd` or throws: {@link BrokenPipeError} when the reader has gone (EPIPE),
 * {@link WriteError} ("write error: ...") for any other failure. Use it where a failed write
 * means the whole operation has failed, as Git's write_or_die does; pair it with
 * {@link exitLikeGit} in a command-line tool.
 *
 * A bad argument (not a descriptor, not a buffer) is the caller's error, not a failed write: it
 * stays the TypeError or RangeError it is, and nothing is written.
 */
export function writeOrDie(fd: number, buf: ArrayBufferView, options: WriteOptions = {}): void {
  try {
    writeInFull(fd, buf, options);
  } catch (err) {
    throw toWriteError('write', err, fd);
  }
}

/**
 * Writes the concatenation of `bufs` to `fd` or throws, like {@link writeOrDie}; the message reads
 * "writev error: ...". Does not modify `bufs`.
 */
export function writevOrDie(fd: number, bufs: readonly ArrayBufferView[], options: WriteOptions = {}): void {
  try {
    writevInFull(fd, bufs, options);
  } catch (err) {
    throw toWriteError('writev', err, fd);
  }
}

/** The promise-based twin of {@link writeOrDie}. */
export async function writeOrDieAsync(
  fd: number,
  buf: ArrayBufferView,
  options: AsyncWriteOptions = {},
): Promise<void> {
  try {
    await writeInFullAsync(fd, buf, options);
  } catch (err) {
    throw toWriteError('write', err, fd);
  }
}

/** The promise-based twin of {@link writevOrDie}. */
export async function writevOrDieAsync(
  fd: number,
  bufs: readonly ArrayBufferView[],
  options: AsyncWriteOptions = {},
): Promise<void> {
  try {
    await writevInFullAsync(fd, bufs, options);
  } catch (err) {
    throw toWriteError('writev', err, fd);
  }
}
