/**
 * The errors of the object database reader. Each names the file and, where it applies, the byte
 * offset, so a report points at the damage instead of at the code that tripped over it.
 */

/**
 * Data in the object database is damaged or inconsistent: bad zlib, a delta that reaches past its
 * base, an index that points past its pack, a size or checksum that does not match. Thrown instead
 * of returning anything that might be wrong.
 */
export class ObjectCorruptError extends Error {
  /** Always `'EOBJECTCORRUPT'`, so callers can test for it without `instanceof`. */
  readonly code = 'EOBJECTCORRUPT';
  /** The file holding the damaged data (absolute path). */
  readonly file: string;
  /** The byte offset in {@link ObjectCorruptError.file} where the damage was found, if known. */
  readonly offset: number | undefined;

  constructor(file: string, offset: number | undefined, problem: string, cause?: unknown) {
    super(`${file}${offset === undefined ? '' : ` at offset ${offset}`}: ${problem}`, { cause });
    this.name = 'ObjectCorruptError';
    this.file = file;
    this.offset = offset;
  }
}

/** A path that is not a Git repository, or one this reader cannot read (an unknown format). */
export class RepositoryError extends Error {
  /** `'ENOTREPO'` for no repository at all, `'EUNSUPPORTED'` for a format this reader lacks. */
  readonly code: 'ENOTREPO' | 'EUNSUPPORTED';
  /** The path the problem is about. */
  readonly path: string;

  constructor(code: 'ENOTREPO' | 'EUNSUPPORTED', path: string, problem: string) {
    super(`${path}: ${problem}`);
    this.name = 'RepositoryError';
    this.code = code;
    this.path = path;
  }
}

/** An object name that is not a full hexadecimal object id of the repository's hash. */
export class InvalidObjectIdError extends Error {
  /** Always `'EINVALIDOID'`. */
  readonly code = 'EINVALIDOID';
  /** The text that was given as an object id. */
  readonly text: string;

  constructor(text: string, hexLength: number) {
    super(`not a full object id (${hexLength} hexadecimal digits): ${JSON.stringify(text)}`);
    this.name = 'InvalidObjectIdError';
    this.text = text;
  }
}
