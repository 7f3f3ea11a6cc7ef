import { IOV_MAX, MAX_IO_SIZE } from './constants';
import type { AsyncSys, Sys } from './syscall';

/** Per-call limits of the write stack. */
export interface WriteLimits {
  /** The most bytes one call passes to the kernel (default {@link MAX_IO_SIZE}). */
  maxIoSize?: number;
  /** The most buffers one writev call passes (default {@link IOV_MAX}). */
  iovMax?: number;
}

/** Options of the synchronous write functions. */
export interface WriteOptions extends WriteLimits {
  /** The syscall seam to write through (default: the process-wide `node:fs` one). */
  sys?: Sys;
}

/** Options of the promise-based write functions. */
export interface AsyncWriteOptions extends WriteLimits {
  /** The syscall seam to write through (default: the process-wide `node:fs` one). */
  sys?: AsyncSys;
}

/** Limits with every default filled in and checked. */
export interface ResolvedLimits {
  readonly maxIoSize: number;
  readonly iovMax: number;
}

/** Fills in defaults; a limit below 1 would make no progress, so it is a caller's error. */
export function resolveLimits(limits: WriteLimits): ResolvedLimits {
  const { maxIoSize = MAX_IO_SIZE, iovMax = IOV_MAX } = limits;
  if (!(Number.isInteger(maxIoSize) && maxIoSize >= 1)) {
    throw new RangeError(`maxIoSize must be a positive integer, got ${maxIoSize}`);
  }
  if (!(Number.isInteger(iovMax) && iovMax >= 1)) {
    throw new RangeError(`iovMax must be a positive integer, got ${iovMax}`);
  }
  return { maxIoSize, iovMax };
}
