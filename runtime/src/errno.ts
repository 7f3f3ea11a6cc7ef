import { getSystemErrorMap } from 'node:util';
import { constants } from 'node:os';

/** An error raised by a system call, as Node reports it: `code` is the errno name (`'EPIPE'`). */
export interface SystemError extends Error {
  code: string;
  errno?: number;
  syscall?: string;
}

/**
 * Whether `err` is an error carrying an errno name such as `'EAGAIN'`. Node's own argument errors
 * also carry a `code` (`'ERR_OUT_OF_RANGE'`, `'ERR_INVALID_ARG_TYPE'`), but they are a caller's
 * mistake, not a failure of the system call, so they are not system errors.
 */
export function isSystemError(err: unknown): err is SystemError {
  if (!(err instanceof Error) || err instanceof TypeError || err instanceof RangeError) return false;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && !code.startsWith('ERR_');
}

/** Whether `err` is a system error with the given errno name. */
export function hasCode(err: unknown, code: string): boolean {
  return isSystemError(err) && err.code === code;
}

/**
 * Makes an error that looks like the ones `node:fs` throws, for the layers that must fail the way
 * the kernel would (the writev emulation's EINVAL, a zero-byte write's ENOSPC) and for fault
 * injection in tests.
 */
export function systemError(code: string, syscall: string): SystemError {
  const errno = (constants.errno as Record<string, number>)[code];
  const err = new Error(`${code}: ${describeErrno(code)}, ${syscall}`) as SystemError;
  err.code = code;
  if (errno !== undefined) err.errno = -errno;
  err.syscall = syscall;
  return err;
}

/**
 * The C library's wording for an errno name, capitalised as `strerror` prints it ("No space left
 * on device"), so messages read like Git's.
 */
export function describeErrno(code: string): string {
  for (const [name, message] of getSystemErrorMap().values()) {
    if (name === code) return message.charAt(0).toUpperCase() + message.slice(1);
  }
  return code;
}
