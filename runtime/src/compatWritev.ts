import { IOV_MAX, SSIZE_MAX } from './constants';
import { systemError } from './errno';
import { byteViews } from './writeArguments';

/** Limits the emulation checks, as a real writev would. */
export interface CompatLimits {
  /** The most buffers accepted (default {@link IOV_MAX}). */
  iovMax?: number;
  /** The largest total length accepted (default {@link SSIZE_MAX}). */
  ssizeMax?: number;
}

/**
 * An emulation of `writev(2)` for platforms without an atomic one, such as Windows, where libuv
 * writes the buffers one by one and another writer's bytes can land between them.
 *
 * It validates like the real call (EINVAL for an empty list, more than `iovMax` buffers, or a
 * total beyond `ssizeMax`), then writes only the first non-empty buffer with `write`. That is a
 * short write as far as the caller knows, so callers that loop (`writevInFull`) still send
 * everything, and no single call ever tears or interleaves. Returns 0 when every buffer is empty.
 *
 * @param write - the single-buffer write to use, e.g. a {@link Sys}'s `write`.
 * @param bufs - ArrayBufferViews of any kind, counted in bytes; `write` is given a `Uint8Array`.
 * @returns the bytes written. Does not modify `bufs`. Throws a TypeError naming the argument for
 *   a `bufs` that is not an array of ArrayBufferViews.
 */
export function compatWritev(
  write: (fd: number, buf: Uint8Array) => number,
  fd: number,
  bufs: readonly ArrayBufferView[],
  limits: CompatLimits = {},
): number {
  const { iovMax = IOV_MAX, ssizeMax = SSIZE_MAX } = limits;
  const views = byteViews(bufs);
  if (views.length === 0 || views.length > iovMax) throw systemError('EINVAL', 'writev');
  let total = 0;
  for (const buf of views) {
    total += buf.length;
    if (total > ssizeMax) throw systemError('EINVAL', 'writev');
  }
  const first = views.find((buf) => buf.length > 0);
  return first === undefined ? 0 : write(fd, first);
}
