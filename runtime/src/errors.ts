import { describeErrno, isSystemError } from './errno';

/** A system error from a write that may already have sent part of its bytes. */
export interface WriteFailure extends Error {
  /** The errno name, e.g. `'ENOSPC'`. */
  code: string;
  /** The descriptor written to. */
  fd: number;
  /** Bytes sent before the failure: they reached the file, the rest did not. */
  bytesWritten: number;
}

/**
 * Records on `err` where the failure happened and how far the write got, and returns it, so the
 * caller of an `*InFull` function still sees the system error it would have seen from `node:fs`.
 */
export function asWriteFailure(err: unknown, fd: number, bytesWritten: number): unknown {
  if (isSystemError(err)) Object.assign(err, { fd, bytesWritten });
  return err;
}

/**
 * A write that could not be completed, thrown by `writeOrDie` and `writevOrDie`. The message reads
 * like Git's ("writev error: No space left on device").
 */
export class WriteError extends Error {
  /** The errno name, e.g. `'ENOSPC'`. */
  readonly code: string;
  /** The descriptor written to. */
  readonly fd: number;
  /** Bytes sent before the failure. */
  readonly bytesWritten: number;

  constructor(
    operation: 'write' | 'writev',
    code: string,
    fd: number,
    bytesWritten: number,
    cause?: unknown,
  ) {
    super(`${operation} error: ${describeErrno(code)}`, { cause });
    this.name = 'WriteError';
    this.code = code;
    this.fd = fd;
    this.bytesWritten = bytesWritten;
  }
}

/**
 * The reader went away (EPIPE). Git exits quietly with status 141 here, as if killed by SIGPIPE:
 * a reader such as `head` stopping early is not an error worth printing.
 */
export class BrokenPipeError extends WriteError {
  constructor(operation: 'write' | 'writev', fd: number, bytesWritten: number, cause?: unknown) {
    super(operation, 'EPIPE', fd, bytesWritten, cause);
    this.name = 'BrokenPipeError';
  }
}

/** Turns a failure of an `*InFull` function into the typed error the `*OrDie` functions throw. */
export function toWriteError(operation: 'write' | 'writev', err: unknown, fd: number): unknown {
  if (!isSystemError(err)) return err;
  const written = (err as Partial<WriteFailure>).bytesWritten ?? 0;
  return err.code === 'EPIPE'
    ? new BrokenPipeError(operation, fd, written, err)
    : new WriteError(operation, err.code, fd, written, err);
}

/**
 * A descriptor a user named for output cannot be written to as asked: it is not open, not open for
 * writing, or one of Node's own descriptors (so the bytes would vanish or crash the process).
 */
export class UnusableDescriptorError extends Error {
  /** Always `'EBADDESCRIPTOR'`. */
  readonly code = 'EBADDESCRIPTOR';

  constructor(
    /** The descriptor number. */
    readonly fd: number,
    /** How the user named it (`--cat-blob-fd=7`), as the message starts. */
    readonly label: string,
    /** Why it was refused. */
    readonly reason: 'not-open' | 'read-only' | 'internal' | 'closed-at-start',
    problem: string,
  ) {
    super(`${label}: descriptor ${fd} ${problem}`);
    this.name = 'UnusableDescriptorError';
  }
}
