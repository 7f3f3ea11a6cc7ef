import { writevOrDie } from '../orDie';
import type { WriteOptions } from '../options';
import type { GitObject } from '../odb/objectType';
import type { Repository } from '../odb/repository';
import { NotABlobError } from './errors';

const LF = Buffer.from('\n');

/**
 * The buffers git fast-import writes for one `cat-blob` answer: `<oid> blob <size>\n`, the payload
 * and `\n` for a blob; `<oid> missing\n` when `object` is undefined. The payload is referenced, not
 * copied; an empty payload is left out (it would write nothing).
 *
 * @param oid - the object id, lowercase hexadecimal, as it is echoed.
 * @throws {@link NotABlobError} when `object` is not a blob.
 */
export function catBlobResponse(oid: string, object: GitObject | undefined): Buffer[] {
  if (object === undefined) return [Buffer.from(`${oid} missing\n`)];
  if (object.type !== 'blob') throw new NotABlobError(oid, object.type);
  const header = Buffer.from(`${oid} blob ${object.size}\n`);
  return object.size === 0 ? [header, LF] : [header, object.data, LF];
}

/**
 * Answers one `cat-blob <oid>` on `fd` exactly as git fast-import does, with one `writevInFull`
 * (through {@link writevOrDie}) instead of three writes. `oid` may be in either case; the answer
 * echoes it in lowercase, as Git does.
 *
 * @returns the number of bytes written.
 * @throws {@link NotABlobError} for a tree, commit or tag (nothing is written);
 * `WriteError`/`BrokenPipeError` when the write fails; the reader's errors for a malformed id or a
 * damaged repository.
 */
export function catBlob(fd: number, oid: string, repo: Repository, options: WriteOptions = {}): number {
  const hex = oid.toLowerCase();
  const bufs = catBlobResponse(hex, repo.readObjectShared(hex));
  writevOrDie(fd, bufs, options);
  repo.releaseShared();
  return bufs.reduce((sum, b) => sum + b.length, 0);
}
