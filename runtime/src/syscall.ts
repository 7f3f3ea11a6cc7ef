/**
 * The syscall seam. Every layer of the writev stack describes the system calls it wants as
 * {@link Syscall} values and a driver performs them through a {@link Sys} (synchronous) or an
 * {@link AsyncSys} (promises). One algorithm thus serves both the fd-based synchronous API, which
 * behaves like Git's, and its promise-based twins, and tests inject faults by passing their own Sys.
 */

/** One request from the write stack to the system. */
export type Syscall =
  | { readonly call: 'write'; readonly fd: number; readonly buf: Uint8Array }
  | { readonly call: 'writev'; readonly fd: number; readonly bufs: readonly Uint8Array[] }
  | { readonly call: 'waitWritable'; readonly fd: number; readonly attempt: number }
  | { readonly call: 'release'; readonly fd: number };

/** How many calls a Sys has made, failed ones included, by kind. */
export interface SyscallCounts {
  /** `write(2)` calls. */
  write: number;
  /** `writev(2)` calls (a Sys using the emulation counts its `write` calls instead). */
  writev: number;
  /** Waits for room after EAGAIN. */
  waits: number;
  /** Failed calls by errno name, e.g. `{ EAGAIN: 12 }`. */
  errors: Record<string, number>;
}

/**
 * The synchronous system calls the stack needs. Each call either returns a result or throws an
 * error whose `code` is the errno name (`'EINTR'`, `'EAGAIN'`, `'EPIPE'`, `'ENOSPC'`...).
 */
export interface Sys {
  /** Writes some prefix of `buf`; returns the number of bytes written. */
  write(fd: number, buf: Uint8Array): number;
  /** Writes some prefix of the concatenation of `bufs`; returns the number of bytes written. */
  writev(fd: number, bufs: readonly Uint8Array[]): number;
  /**
   * Called after `fd` refused a write with EAGAIN. Blocks, without spinning, until a retry is
   * worthwhile. Returns `undefined` to retry on `fd`, or a temporary blocking descriptor for the
   * same file, which the caller writes through once and then passes to {@link Sys.release}.
   * `attempt` counts the consecutive EAGAINs of this write, from 0.
   */
  waitWritable(fd: number, attempt: number): number | undefined;
  /** Closes a descriptor returned by {@link Sys.waitWritable}. */
  release(fd: number): void;
  /** Calls made so far through this Sys. */
  readonly counts: SyscallCounts;
}

/** The promise-based twin of {@link Sys}, for code that must not block the event loop. */
export interface AsyncSys {
  /** See {@link Sys.write}. */
  write(fd: number, buf: Uint8Array): Promise<number>;
  /** See {@link Sys.writev}. */
  writev(fd: number, bufs: readonly Uint8Array[]): Promise<number>;
  /** See {@link Sys.waitWritable}; waits without blocking the event loop. */
  waitWritable(fd: number, attempt: number): Promise<number | undefined>;
  /** See {@link Sys.release}. */
  release(fd: number): Promise<void>;
  /** Calls made so far through this AsyncSys. */
  readonly counts: SyscallCounts;
}

/** A step of the write stack: yields syscalls, receives their results, returns its own result. */
export type Steps<T> = Generator<Syscall, T, number | undefined>;

/** A fresh, zeroed set of counters. */
export function newCounts(): SyscallCounts {
  return { write: 0, writev: 0, waits: 0, errors: {} };
}

/** Performs the steps synchronously through `sys`, feeding each result or error back in. */
export function runSync<T>(steps: Steps<T>, sys: Sys): T {
  let next = steps.next();
  while (!next.done) {
    let result: number | undefined;
    try {
      result = performSync(sys, next.value);
    } catch (err) {
      next = steps.throw(err);
      continue;
    }
    next = steps.next(result);
  }
  return next.value;
}

/** Performs the steps through `sys`, awaiting each call, feeding each result or error back in. */
export async function runAsync<T>(steps: Steps<T>, sys: AsyncSys): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    let result: number | undefined;
    try {
      result = await performAsync(sys, next.value);
    } catch (err) {
      next = steps.throw(err);
      continue;
    }
    next = steps.next(result);
  }
  return next.value;
}

function performSync(sys: Sys, s: Syscall): number | undefined {
  switch (s.call) {
    case 'write':
      return sys.write(s.fd, s.buf);
    case 'writev':
      return sys.writev(s.fd, s.bufs);
    case 'waitWritable':
      return sys.waitWritable(s.fd, s.attempt);
    case 'release':
      sys.release(s.fd);
      return undefined;
  }
}

async function performAsync(sys: AsyncSys, s: Syscall): Promise<number | undefined> {
  switch (s.call) {
    case 'write':
      return sys.write(s.fd, s.buf);
    case 'writev':
      return sys.writev(s.fd, s.bufs);
    case 'waitWritable':
      return sys.waitWritable(s.fd, s.attempt);
    case 'release':
      await sys.release(s.fd);
      return undefined;
  }
}
