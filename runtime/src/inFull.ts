import { systemError } from './errno';
import { asWriteFailure } from './errors';
import { advance, pendingViews, START, totalLength } from './iovec';
import { defaultAsyncSys, defaultSys } from './nodeSys';
import { resolveLimits, type AsyncWriteOptions, type ResolvedLimits, type WriteOptions } from './options';
import { runAsync, runSync, type Steps } from './syscall';
import { byteView, byteViews, checkFd } from './writeArguments';
import { xwriteSteps, xwritevSteps } from './xwrite';

/** A call that wrote nothing although bytes were pending: the disk is full, as Git treats it. */
function nothingWritten(syscall: string): Error {
  return systemError('ENOSPC', syscall);
}

/** The steps of {@link writeInFull}. */
export function* writeInFullSteps(fd: number, buf: Uint8Array, limits: ResolvedLimits): Steps<number> {
  let written = 0;
  while (written < buf.length) {
    let n: number;
    try {
      n = yield* xwriteSteps(fd, buf.subarray(written), limits);
      if (n === 0) throw nothingWritten('write');
    } catch (err) {
      throw asWriteFailure(err, fd, written);
    }
    written += n;
  }
  return written;
}

/** The steps of {@link writevInFull}. */
export function* writevInFullSteps(
  fd: number,
  bufs: readonly Uint8Array[],
  limits: ResolvedLimits,
): Steps<number> {
  const total = totalLength(bufs);
  let written = 0;
  let at = START;
  while (written < total) {
    // Only what one call can take is laid out: building the whole remainder after every short
    // write would be quadratic in the number of buffers.
    const views = pendingViews(bufs, at, limits.iovMax, limits.maxIoSize);
    let n: number;
    try {
      n = yield* xwritevSteps(fd, views, limits);
      if (n === 0) throw nothingWritten('writev');
    } catch (err) {
      throw asWriteFailure(err, fd, written);
    }
    written += n;
    at = advance(bufs, at, n);
  }
  return written;
}

/**
 * Writes all of `buf` to `fd`, looping over short writes; a call that writes nothing becomes
 * ENOSPC, as in Git.
 *
 * @param buf - any ArrayBufferView (Buffer, TypedArray, DataView), counted in bytes.
 * @returns `buf.byteLength`. On failure throws the system error (with `code`), carrying `fd` and
 * `bytesWritten`: that many leading bytes were written, none after them. An argument that is not
 * a descriptor or a buffer is a TypeError or RangeError before anything is written.
 */
export function writeInFull(fd: number, buf: ArrayBufferView, options: WriteOptions = {}): number {
  checkFd(fd);
  const bytes = byteView(buf, 'buf');
  return runSync(writeInFullSteps(fd, bytes, resolveLimits(options)), options.sys ?? defaultSys());
}

/**
 * Writes the concatenation of `bufs` to `fd`, in order, with as few `writev(2)` calls as the limits
 * allow, looping over short writes: fully written buffers are skipped and a partly written one
 * continues from a `subarray` view, so no payload byte is copied. A call that writes nothing
 * becomes ENOSPC, as in Git.
 *
 * Unlike Git's writev_in_full, the caller's array and buffers are never modified, so they can be
 * reused or written again.
 *
 * Calls made, for T bytes in N non-empty buffers and a limit of M bytes per call: one when the
 * kernel takes everything (T <= M, N <= IOV_MAX); in general at most
 * 2·⌈T/M⌉ + ⌈N/(IOV_MAX − 1)⌉ + 2·(short writes) + 1 successful calls, plus one per EINTR or EAGAIN
 * (the property tests check this bound).
 *
 * Every ArrayBufferView is written by its bytes (a `Uint16Array` of n elements is 2n bytes); an
 * argument that is not a descriptor or an array of such views is a TypeError (RangeError for a
 * negative or fractional descriptor) naming it and its index, before anything is written.
 *
 * @returns the total length of `bufs` in bytes. On failure throws the system error (with `code`),
 * carrying `fd` and `bytesWritten`.
 */
export function writevInFull(
  fd: number,
  bufs: readonly ArrayBufferView[],
  options: WriteOptions = {},
): number {
  checkFd(fd);
  const views = byteViews(bufs);
  return runSync(writevInFullSteps(fd, views, resolveLimits(options)), options.sys ?? defaultSys());
}

/** The promise-based twin of {@link writeInFull}; bad arguments reject the promise. */
export async function writeInFullAsync(
  fd: number,
  buf: ArrayBufferView,
  options: AsyncWriteOptions = {},
): Promise<number> {
  checkFd(fd);
  const bytes = byteView(buf, 'buf');
  return runAsync(writeInFullSteps(fd, bytes, resolveLimits(options)), options.sys ?? defaultAsyncSys());
}

/** The promise-based twin of {@link writevInFull}; bad arguments reject the promise. */
export async function writevInFullAsync(
  fd: number,
  bufs: readonly ArrayBufferView[],
  options: AsyncWriteOptions = {},
): Promise<number> {
  checkFd(fd);
  const views = byteViews(bufs);
  return runAsync(writevInFullSteps(fd, views, resolveLimits(options)), options.sys ?? defaultAsyncSys());
}
