import { hasCode } from './errno';
import { leadingThatFit } from './iovec';
import { defaultAsyncSys, defaultSys } from './nodeSys';
import { resolveLimits, type AsyncWriteOptions, type ResolvedLimits, type WriteOptions } from './options';
import { runAsync, runSync, type Steps, type Syscall } from './syscall';
import { byteView, byteViews, checkFd } from './writeArguments';

/**
 * Makes one call, restarting it until it neither is interrupted nor would block. EINTR restarts at
 * once. EAGAIN waits for room (see {@link Sys.waitWritable}) and restarts, through a blocking twin of
 * the descriptor when the Sys offers one; EAGAIN never reaches the caller.
 */
function* restarting(fd: number, request: (target: number) => Syscall): Steps<number> {
  for (let attempt = 0; ;) {
    try {
      return (yield request(fd)) as number;
    } catch (err) {
      if (hasCode(err, 'EINTR')) continue;
      if (!hasCode(err, 'EAGAIN')) throw err;
    }
    const twin = yield { call: 'waitWritable', fd, attempt: attempt++ };
    if (twin === undefined) continue;
    try {
      return (yield request(twin)) as number;
    } catch (err) {
      if (!hasCode(err, 'EINTR') && !hasCode(err, 'EAGAIN')) throw err;
    } finally {
      yield { call: 'release', fd: twin };
    }
  }
}

/** The steps of {@link xwrite}. */
export function* xwriteSteps(fd: number, buf: Uint8Array, limits: ResolvedLimits): Steps<number> {
  // As Git's xwrite does, clamp to the largest size every platform handles in one call; the rest
  // is a short write, which the layers above loop over.
  const chunk = buf.length > limits.maxIoSize ? buf.subarray(0, limits.maxIoSize) : buf;
  return yield* restarting(fd, (target) => ({ call: 'write', fd: target, buf: chunk }));
}

/** The steps of {@link xwritev}. */
export function* xwritevSteps(
  fd: number,
  bufs: readonly Uint8Array[],
  limits: ResolvedLimits,
): Steps<number> {
  if (bufs.length === 0) return 0;
  const count = leadingThatFit(bufs, limits.maxIoSize, limits.iovMax);
  if (count === 0) return yield* xwriteSteps(fd, bufs[0]!, limits);
  const iov = count === bufs.length ? bufs : bufs.slice(0, count);
  return yield* restarting(fd, (target) => ({ call: 'writev', fd: target, bufs: iov }));
}

/**
 * Writes some prefix of `buf` to `fd` with one `write(2)`, restarting on EINTR and EAGAIN.
 *
 * At most `maxIoSize` bytes go in one call; the return value may therefore be shorter than
 * `buf.length` (a short write), and is 0 only when `buf` is empty or the kernel wrote nothing.
 * Use {@link writeInFull} to write everything.
 *
 * @param buf - any ArrayBufferView (Buffer, TypedArray, DataView), counted in bytes.
 * @returns the bytes written. Throws the system error (with `code`) of any other failure, and a
 *   TypeError or RangeError, before any call, for an argument that is not a descriptor or a buffer.
 */
export function xwrite(fd: number, buf: ArrayBufferView, options: WriteOptions = {}): number {
  checkFd(fd);
  const bytes = byteView(buf, 'buf');
  return runSync(xwriteSteps(fd, bytes, resolveLimits(options)), options.sys ?? defaultSys());
}

/**
 * Writes some prefix of the concatenation of `bufs` to `fd` with one `writev(2)`, restarting on
 * EINTR and EAGAIN.
 *
 * As Git's xwritev does, it passes only the leading buffers that together fit `maxIoSize` bytes
 * (a short write as far as the caller knows), and when the first buffer alone is larger, it writes
 * that buffer's first `maxIoSize` bytes with {@link xwrite}. Unlike Git, it also passes at most
 * `iovMax` buffers (1024 on Linux), beyond which the kernel answers EINVAL. An empty list makes no
 * call and returns 0.
 *
 * @param bufs - an array of ArrayBufferViews (Buffer, TypedArray, DataView), counted in bytes.
 * @returns the bytes written. Does not modify `bufs` or the buffers. Throws a TypeError or
 *   RangeError, before any call, for an argument that is not a descriptor or an array of buffers.
 */
export function xwritev(fd: number, bufs: readonly ArrayBufferView[], options: WriteOptions = {}): number {
  checkFd(fd);
  const views = byteViews(bufs);
  return runSync(xwritevSteps(fd, views, resolveLimits(options)), options.sys ?? defaultSys());
}

/**
 * The promise-based twin of {@link xwrite}: waits for room without blocking the event loop. Bad
 * arguments reject the promise.
 */
export async function xwriteAsync(
  fd: number,
  buf: ArrayBufferView,
  options: AsyncWriteOptions = {},
): Promise<number> {
  checkFd(fd);
  const bytes = byteView(buf, 'buf');
  return runAsync(xwriteSteps(fd, bytes, resolveLimits(options)), options.sys ?? defaultAsyncSys());
}

/**
 * The promise-based twin of {@link xwritev}: waits for room without blocking the event loop. Bad
 * arguments reject the promise.
 */
export async function xwritevAsync(
  fd: number,
  bufs: readonly ArrayBufferView[],
  options: AsyncWriteOptions = {},
): Promise<number> {
  checkFd(fd);
  const views = byteViews(bufs);
  return runAsync(xwritevSteps(fd, views, resolveLimits(options)), options.sys ?? defaultAsyncSys());
}
