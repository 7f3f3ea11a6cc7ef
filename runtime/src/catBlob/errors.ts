/**
 * Errors of the cat-blob protocol, worded as git fast-import words them where it has an equivalent,
 * so a frontend sees the same message from either responder.
 */

/** `cat-blob` named an object that is not a blob ("Object <oid> is a tree but a blob was expected."). */
export class NotABlobError extends Error {
  /** Always `'ENOTBLOB'`. */
  readonly code = 'ENOTBLOB';

  constructor(
    /** The object id asked for (lowercase hexadecimal). */
    readonly oid: string,
    /** The object's actual type. */
    readonly type: string,
  ) {
    super(`Object ${oid} is a ${type} but a blob was expected.`);
    this.name = 'NotABlobError';
  }
}

/** A command line the responder cannot obey: an unsupported command or a malformed `cat-blob`. */
export class CatBlobCommandError extends Error {
  /** Always `'EBADCOMMAND'`. */
  readonly code = 'EBADCOMMAND';

  constructor(
    message: string,
    /** The offending line, without its LF. */
    readonly line: string,
    /** The line's number in the input, from 1. */
    readonly lineNumber: number,
  ) {
    super(message);
    this.name = 'CatBlobCommandError';
  }
}

/** A cat-blob response stream that does not follow the format (truncated, malformed, unexpected). */
export class CatBlobProtocolError extends Error {
  /** Always `'EPROTOCOL'`. */
  readonly code = 'EPROTOCOL';

  constructor(
    message: string,
    /** The byte offset in the response stream where the problem was found. */
    readonly offset: number,
  ) {
    super(`cat-blob response at byte ${offset}: ${message}`);
    this.name = 'CatBlobProtocolError';
  }
}
