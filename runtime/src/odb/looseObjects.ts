import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { ObjectCorruptError } from './errors';
import { hashObject, type HashAlgorithm } from './objectId';
import { objectTypeFromName, type GitObject, type ObjectHeader } from './objectType';
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

  /** The object, or undefined when there is no loose file for it. */
  read(oid: string): GitObject | undefined {
    const file = this.pathOf(oid);
    const compressed = readIfExists(file);
    if (compressed === undefined) return undefined;
    const header = parseHeader(
      inflatePrefix(compressed.subarray(0, HEADER_PROBE), { file, offset: 0 }),
      file,
    );
    const whole = inflateExact(compressed, header.payloadStart + header.size, { file, offset: 0 });
    const data = whole.subarray(header.payloadStart);
    const actual = hashObject(header.type, data, this.algorithm);
    if (actual !== oid) {
      throw new ObjectCorruptError(file, undefined, `loose object hashes to ${actual}, not to its name`);
    }
    return { type: header.type, size: header.size, data };
  }

  /** The object's type and size from its header, inflating only the first bytes of the file. */
  readHeader(oid: string): ObjectHeader | undefined {
    const file = this.pathOf(oid);
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch (err) {
      if ((err as { code?: unknown }).code === 'ENOENT') return undefined;
      throw err;
    }
    try {
      const probe = Buffer.alloc(HEADER_PROBE);
      const n = readSync(fd, probe, 0, HEADER_PROBE, 0);
      const { type, size } = parseHeader(inflatePrefix(probe.subarray(0, n), { file, offset: 0 }), file);
      return { type, size };
    } finally {
      closeSync(fd);
    }
  }
}

function readIfExists(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Parses `<type> <decimal size>\0` at the start of inflated loose object bytes. */
function parseHeader(inflated: Buffer, file: string): LooseHeader {
  const nul = inflated.subarray(0, MAX_HEADER).indexOf(0);
  const text = inflated.toString('latin1', 0, nul < 0 ? Math.min(inflated.length, MAX_HEADER) : nul);
  const match = nul < 0 ? null : /^([a-z]+) (0|[1-9][0-9]{0,15})$/.exec(text);
  const type = match ? objectTypeFromName(match[1]) : undefined;
  if (!match || type === undefined) {
    throw new ObjectCorruptError(file, 0, `bad loose object header ${JSON.stringify(text)}`);
  }
  const size = Number(match[2]);
  if (!Number.isSafeInteger(size))
    throw new ObjectCorruptError(file, 0, `object size ${match[2]} is too large`);
  return { type, size, payloadStart: nul + 1 };
}
