import { createHash } from 'node:crypto';
import { InvalidObjectIdError } from './errors';
import type { ObjectType } from './objectType';

/** The hash functions Git names objects with (`extensions.objectFormat`). */
export type HashAlgorithm = 'sha1' | 'sha256';

/** The length of an object id of `algorithm`, in bytes (20 or 32). */
export function rawLength(algorithm: HashAlgorithm): number {
  return algorithm === 'sha1' ? 20 : 32;
}

/** The length of an object id of `algorithm` in hexadecimal digits (40 or 64). */
export function hexLength(algorithm: HashAlgorithm): number {
  return rawLength(algorithm) * 2;
}

/**
 * The binary form of a full hexadecimal object id (either case), as indexes store it.
 *
 * @throws {@link InvalidObjectIdError} for anything but exactly 40 (SHA-1) or 64 (SHA-256) digits.
 */
export function parseObjectId(text: string, algorithm: HashAlgorithm): Buffer {
  const digits = hexLength(algorithm);
  // Decoding stops at the first pair that is not hexadecimal (as Node documents), so a full-length
  // result proves every digit valid without a second pass.
  const id = text.length === digits ? Buffer.from(text, 'hex') : undefined;
  if (id === undefined || id.length * 2 !== digits) throw new InvalidObjectIdError(text, digits);
  return id;
}

/**
 * The id Git gives an object: the hash of `<type> <size>\0` followed by the payload, in lowercase
 * hexadecimal. Used to prove that bytes read back are the object that was asked for.
 */
export function hashObject(type: ObjectType, data: Uint8Array, algorithm: HashAlgorithm): string {
  return createHash(algorithm).update(`${type} ${data.length}\0`).update(data).digest('hex');
}
