/**
 * Errors crossing from one thread to another: structured cloning keeps only plain data, so an
 * error travels as its class name, message, stack and cloneable fields, and is rebuilt as an
 * instance of its own class on the other side (a `BrokenPipeError` must still exit 141).
 */
import { BrokenPipeError, WriteError } from '../errors';
import { InvalidObjectIdError, ObjectCorruptError, RepositoryError } from '../odb/errors';
import { CatBlobCommandError, NotABlobError } from './errors';

/** An error as it crosses threads: its class by name, message, stack and own fields. */
export interface SentError {
  readonly name: string;
  readonly message: string;
  readonly stack: string | undefined;
  readonly fields: Record<string, unknown>;
}

/** The error classes rebuilt as themselves; any other arrives as a plain `Error`. */
const KNOWN_ERRORS: Record<string, { prototype: Error }> = {
  BrokenPipeError,
  WriteError,
  NotABlobError,
  CatBlobCommandError,
  ObjectCorruptError,
  RepositoryError,
  InvalidObjectIdError,
  TypeError,
  RangeError,
};

/** `err` in a form that crosses threads; fields that do not are left out. */
export function sendable(err: unknown): SentError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), stack: undefined, fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(err)) {
    try {
      structuredClone(value);
      fields[key] = value;
    } catch {
      // Not cloneable (a function, a handle): the message still says what happened.
    }
  }
  return { name: err.name, message: err.message, stack: err.stack, fields };
}

/** The error sent, as an instance of its own class where it is one of {@link KNOWN_ERRORS}. */
export function revive(sent: SentError): Error {
  const type = Object.hasOwn(KNOWN_ERRORS, sent.name) ? KNOWN_ERRORS[sent.name] : undefined;
  const err = Object.create(type?.prototype ?? Error.prototype) as Error;
  Object.defineProperty(err, 'message', { value: sent.message, writable: true, configurable: true });
  if (sent.stack !== undefined) {
    Object.defineProperty(err, 'stack', { value: sent.stack, writable: true, configurable: true });
  }
  return Object.assign(err, sent.fields);
}
