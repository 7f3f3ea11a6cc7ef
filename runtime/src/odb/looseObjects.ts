import { closeSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ObjectCorruptError } from './errors';
import { hashObject, type HashAlgorithm } from './objectId';
import { objectTypeFromName, type GitObject, type ObjectHeader } from './objectType';
import { openRegularFile, readAt, type OpenedFile } from './regularFile';
import { inflateExact, inflatePrefix } from './zlibInflate';

/** The longest loose object header Git writes: "commit", a space, 20 digits and the NUL. */
const MAX_HEADER = 32;
/** Compressed bytes read to find a header without inflating the payload. */
const HEADER_PROBE = 256;

/** A parsed `<type> <size>\0` header and where the payload starts in the inflated bytes. */
interface LooseHeader extends ObjectHeader {
  readonly payloadStart: number;
}

/**
 * The loose objects of one object directory: one zlib-compressed file per object at
 * `objects/xx/yyyy...`, holding `<type> <size>\0` and the payload (gitformat-loose).
 *
 * Every loose object read is hashed and compared with its name: nothing else ties the file's
 * content to its path (zlib's checksum only proves the file is intact, not that it is the right one).
 */
export class LooseObjectStore {
  constructor(
    /** The `objects` directory. */
    readonly objectsDir: string,
    private readonly algorithm: HashAlgorithm,
  ) {}

  /** The path of the loose object `oid` (lowercase hexadecimal), whether or not it exists. */
  pathOf(oid: string): string {
    return join(this.objectsDir, oid.slice(0, 2), oid.slice(2));
  }

  /** Whether a loose file for `oid` exists (its content is not checked). */
  has(oid: string): boolean {
    return existsSync(this.pathOf(oid));
  }

  /**
   * The object, or undefined when there is no loose file for it. The file must be a regular file
   * no larger than zlib needs for the size its header declares, so a link to `/dev/zero` or a
   * padded file is refused before it is read whole.
   *
   * @throws {@link ObjectCorruptError} naming the file for a file that is not regular, too large,
   *   damaged, or hashes to another name.
   */
  read(oid: string): GitObject | undefined {
    const file = this.pathOf(oid);
    return withLooseFile(file, (opened) => {
      const header = readLooseHeader(opened, file);
      const inflatedSize = header.payloadStart + header.size;
      const bound = zlibBound(inflatedSize);
      if (opened.size > bound) {
        throw new ObjectCorruptError(
          file,
          undefined,
          `loose object file is ${opened.size} bytes, more than the ${bound} zlib needs for the ` +
            `${inflatedSize} bytes its header declares`,
        );
      }
      // Only the size seen by fstat is read: a file still growing is cut there and fails zlib's check.
      const compressed = readAt(opened.fd, opened.size, 0);
      const whole = inflateExact(compressed, inflatedSize, { file, offset: 0 });
      const data = whole.subarray(header.payloadStart);
      const actual = hashObject(header.type, data, this.algorithm);
      if (actual !== oid) {
        throw new ObjectCorruptError(file, undefined, `loose object hashes to ${actual}, not to its name`);
      }
      return { type: header.type, size: header.size, data };
    });
  }

  /** The object's type and size from its header, inflating only the first bytes of the file. */
  readHeader(oid: string): ObjectHeader | undefined {
    const file = this.pathOf(oid);
    return withLooseFile(file, (opened) => {
      const { type, size } = readLooseHeader(opened, file);
      return { type, size };
    });
  }
}

/**
 * The most bytes zlib's deflate makes of `n` bytes (its compressBound: stored blocks at worst,
 * plus the stream's header and checksum). Git and the other writers of loose objects use zlib, so
 * no loose object they wrote is larger. Division, not shifts: sizes may pass 2^31.
 */
export function zlibBound(n: number): number {
  return n + Math.floor(n / 4096) + Math.floor(n / 16384) + Math.floor(n / 33554432) + 13;
}

/** Runs `use` on the opened loose file, closing it after; undefined when there is no such file. */
function withLooseFile<T>(file: string, use: (opened: OpenedFile) => T): T | undefined {
  const opened = openRegularFile(
    file,
    (problem) => new ObjectCorruptError(file, undefined, `loose object ${problem}`),
  );
  if (opened === undefined) return undefined;
  try {
    return use(opened);
  } finally {
    closeSync(opened.fd);
  }
}

/** Reads and parses the header from the first bytes of an opened loose file. */
function readLooseHeader(opened: OpenedFile, file: string): LooseHeader {
  const probe = readAt(opened.fd, Math.min(HEADER_PROBE, opened.size), 0);
  return parseHeader(inflatePrefix(probe, { file, offset: 0 }), file);
}

/** Parses `<type> <decimal size>\0` at the start of inflated loose object bytes. */
function parseHeader(inflated: Buffer, file: string): LooseHeader {
  const nul = inflated.subarray(0, MAX_HEADER).indexOf(0);
  const text = inflated.toString('latin1', 0, nul < 0 ? Math.min(inflated.length, MAX_HEADER) : nul);
  const match = nul < 0 ? null : /^([a-z]+) (0|[1-9][0-9]{0,15})$/.exec(text);
  const type = match ? objectTypeFromName(match[1]!) : undefined;
  if (!match || type === undefined) {
    throw new ObjectCorruptError(file, 0, `bad loose object header ${JSON.stringify(text)}`);
  }
  const size = Number(match[2]);
  if (!Number.isSafeInteger(size))
    throw new ObjectCorruptError(file, 0, `object size ${match[2]} is too large`);
  return { type, size, payloadStart: nul + 1 };
}
