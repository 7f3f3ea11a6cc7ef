/**
 * A directory of finished packs keyed by a hash of the request, so repeated clones of the same
 * refs are served straight from a file, the case Git's sideband change was made for.
 *
 * Guarantees:
 * - An entry appears only complete: a fill writes a private temporary file, checks the pack's own
 *   trailer hash, syncs it, then renames it into place. Two servers filling the same entry at once
 *   each rename a complete pack; the last one wins and both are valid.
 * - An entry that changed after it was verified is caught: a stamp beside each pack names its key
 *   and records its inode, size, mtime and ctime when it was verified. Any write to the pack
 *   changes ctime, so a mismatch sends the next serve down the slow path, which re-hashes the pack
 *   before a byte of it is sent and removes it if the hash is wrong. (Bit rot below the filesystem
 *   is not seen here; the client's index-pack still rejects such a pack by its trailer.)
 * - Only the cache's own files are ever removed or replaced: a `<key>.pack` whose stamp names its
 *   key and inode, or a `writev-fill-*` temporary file of this user older than an hour. The folder
 *   may hold anything else (it may be shared, or misconfigured); other files are left alone.
 * - Nothing in the folder can hang or wedge a serve: entries are opened without blocking or
 *   following links, and what is not a regular file is skipped with a warning.
 * - The cache is an optimisation: every problem with it (a path that is a file, no permission, a
 *   read-only folder) becomes a warning through `warn`, and the serve goes on without it.
 * - The directory stays under its size bound: after each fill the least recently served entries
 *   go first; a pack larger than the bound is not kept.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  utimesSync,
  writeSync,
  type BigIntStats,
} from 'node:fs';
import { join } from 'node:path';
import {
  CacheFileError,
  describe,
  ENTRY_NAME,
  FILL_NAME,
  KEY,
  makeDirs,
  openRegular,
  readStamp,
  stampOwns,
  stampText,
} from './cacheFiles';
import { PackChecksum } from './packChecksum';

/** The default size bound of a pack cache: 1 GiB. */
export const DEFAULT_CACHE_MAX_BYTES = 1 << 30;

/** Temporary files of fills that crashed are removed after this long (1 hour). */
const STALE_FILL_MS = 60 * 60 * 1000;

/** What determines a pack's contents. */
export interface PackRequest {
  readonly wants: readonly string[];
  /** Objects the client has in common with the server. */
  readonly common: readonly string[];
  /** Whether deltas may refer to their base by offset (`ofs-delta`). */
  readonly ofsDelta: boolean;
  /** `thin-pack`: deltas may refer to objects the client has, outside the pack. */
  readonly thin?: boolean;
  /**
   * `include-tag`: the pack also holds annotated tags (under `refs/tags/`) of objects it holds; the
   * pack then depends on the tags, so their state must be part of `settings`.
   */
  readonly includeTag?: boolean;
  readonly objectFormat: 'sha1' | 'sha256';
  /**
   * The object filter of a partial clone, in the canonical form `git pack-objects --filter=`
   * receives (see `filterSpec.ts`): absent for a whole pack.
   */
  readonly filter?: string;
  /**
   * Whatever else shapes the pack's bytes (the pack settings of the configuration, the hook that
   * makes packs), as one opaque string; requests that differ here never share an entry.
   */
  readonly settings?: string;
  /** The shallow commits pack-objects stops at, when the client is or becomes shallow. */
  readonly shallows?: readonly string[];
  /** Commits the client has without their parents (it unshallows them). */
  readonly edges?: readonly string[];
}

/**
 * The cache key of a request: SHA-256 of the object ids and the options that change the pack.
 * Object ids name content, so a key never goes stale when the repository changes.
 */
export function cacheKey(request: PackRequest): string {
  const lines = [
    'writev-upload-pack cache v2',
    `object-format ${request.objectFormat}`,
    `settings ${JSON.stringify(request.settings ?? '')}`,
    `ofs-delta ${request.ofsDelta ? 1 : 0}`,
    `thin-pack ${request.thin ? 1 : 0}`,
    `include-tag ${request.includeTag ? 1 : 0}`,
    // Added only when set, so the keys of unfiltered packs are what they were.
    ...(request.filter === undefined ? [] : [`filter ${JSON.stringify(request.filter)}`]),
    ...[...new Set(request.wants)].sort().map((oid) => `want ${oid}`),
    ...[...new Set(request.common)].sort().map((oid) => `have ${oid}`),
  ];
  // Only shallow requests add lines, so every other key stays as it was.
  if (request.shallows !== undefined) {
    lines.push('shallow-file none', ...[...new Set(request.shallows)].sort().map((oid) => `shallow ${oid}`));
  }
  for (const oid of [...new Set(request.edges ?? [])].sort()) lines.push(`edge ${oid}`);
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** An open cache entry. Close `fd` when done. */
export interface CachedPack {
  readonly key: string;
  readonly path: string;
  readonly fd: number;
  readonly size: number;
  /** Whether the stamp says the file is exactly as verified (else: re-hash before serving). */
  readonly trusted: boolean;
  /** Whether the stamp says the file is the cache's own, so it may be removed if corrupt. */
  readonly ours: boolean;
}

/** Options of a {@link PackCache}. */
export interface PackCacheOptions {
  /** The size bound in bytes (default {@link DEFAULT_CACHE_MAX_BYTES}). */
  maxBytes?: number;
  /** Receives each problem that made the cache skip something; default: ignore. */
  warn?: (message: string) => void;
}

/** The pack cache in one directory; see the module comment. */
export class PackCache {
  readonly maxBytes: number;
  private readonly warn: (message: string) => void;

  constructor(
    readonly dir: string,
    options: PackCacheOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    this.warn = options.warn ?? (() => undefined);
  }

  private packPath(key: string): string {
    if (!KEY.test(key)) throw new RangeError(`a pack cache key is 64 hex digits, got '${key}'`);
    return join(this.dir, `${key}.pack`);
  }

  private stampPath(key: string): string {
    return join(this.dir, `${key}.stamp`);
  }

  /** A temporary file name no other fill uses, in this process or another. */
  private tempPath(ext: string): string {
    return join(this.dir, `writev-fill-${process.pid}-${randomBytes(6).toString('hex')}.${ext}`);
  }

  /**
   * Opens the entry for `key`. Returns `undefined` on a miss, and also (with a warning) when the
   * entry cannot be used: the folder is unusable, or `<key>.pack` is not a readable regular file.
   */
  open(key: string): CachedPack | undefined {
    const path = this.packPath(key);
    let opened;
    try {
      opened = openRegular(path);
    } catch (err) {
      this.warn(`pack cache entry skipped: ${describe(err)}`);
      return undefined;
    }
    if (opened === undefined) return undefined;
    const { fd, st } = opened;
    const stamp = readStamp(this.stampPath(key));
    return {
      key,
      path,
      fd,
      size: Number(st.size),
      trusted: stamp === stampText(key, st),
      ours: stampOwns(stamp, key, st),
    };
  }

  /** Records that `entry` was verified as it is now, and marks it recently served. */
  trust(entry: CachedPack): void {
    try {
      this.writeStamp(entry.key, fstatSync(entry.fd, { bigint: true }));
    } catch (err) {
      this.warn(`cannot stamp ${entry.path} as verified (it will be verified again): ${describe(err)}`);
    }
  }

  /** Marks `entry` recently served, for the size bound's least-recently-served order. */
  touch(entry: CachedPack): void {
    const now = new Date();
    try {
      utimesSync(this.stampPath(entry.key), now, now);
    } catch {
      // a read-only cache still serves; its order of eviction just stays as it was
    }
  }

  /**
   * Removes `entry` (a corrupt one) if it is the cache's own, unless another server has meanwhile
   * renamed a fresh pack into its place: only the very file that was read is removed.
   *
   * @returns whether it was removed.
   */
  discard(entry: CachedPack): boolean {
    if (!entry.ours) {
      this.warn(`${entry.path} is not stamped as this cache's own: left in place, remove it by hand`);
      return false;
    }
    try {
      if (lstatSync(entry.path).ino !== fstatSync(entry.fd).ino) return false;
      rmSync(entry.path, { force: true });
      rmSync(this.stampPath(entry.key), { force: true });
      return true;
    } catch (err) {
      this.warn(`cannot remove ${entry.path}: ${describe(err)}`);
      return false;
    }
  }

  /**
   * Starts filling the entry for `key`, or returns `undefined` (with a warning) when the directory
   * cannot be written: serving goes on without the cache.
   */
  startFill(key: string, objectFormat: 'sha1' | 'sha256'): PackFill | undefined {
    this.packPath(key);
    try {
      makeDirs(this.dir);
      const temp = this.tempPath('pack');
      const fd = openSync(temp, 'wx', 0o444);
      return new PackFill(this, key, temp, fd, new PackChecksum(objectFormat));
    } catch (err) {
      this.warn(`cannot write to the pack cache: ${describe(err)}`);
      return undefined;
    }
  }

  /**
   * Renames a verified fill into place, stamps it, and enforces the size bound. The place must be
   * free or hold the cache's own entry: anything else there is left alone and the fill dropped.
   *
   * @throws {@link CacheFileError} when something not the cache's own holds the entry's name; a
   *   system error when the rename fails.
   */
  commitFill(key: string, temp: string, fd: number): void {
    fdatasyncSync(fd);
    const path = this.packPath(key);
    let there: BigIntStats | undefined;
    try {
      there = lstatSync(path, { bigint: true });
    } catch {
      // free
    }
    if (there && !stampOwns(readStamp(this.stampPath(key)), key, there)) {
      throw new CacheFileError(`${path} exists and is not this cache's own: the new pack was not stored`);
    }
    renameSync(temp, path);
    // The rename changed the inode's ctime: stamp what the file is now.
    this.writeStamp(key, fstatSync(fd, { bigint: true }));
    try {
      this.evict(key);
    } catch (err) {
      this.warn(`cannot enforce the pack cache's size bound: ${describe(err)}`);
    }
  }

  private writeStamp(key: string, st: BigIntStats): void {
    const temp = this.tempPath('stamp');
    const fd = openSync(temp, 'wx', 0o644);
    try {
      writeSync(fd, stampText(key, st));
    } finally {
      closeSync(fd);
    }
    try {
      renameSync(temp, this.stampPath(key));
    } catch (err) {
      rmSync(temp, { force: true });
      throw err;
    }
  }

  /**
   * Removes the least recently served of the cache's own entries until they fit `maxBytes` (never
   * `keep`, just filled), and its own temporary files of fills that died long ago. Files that are
   * not the cache's own are neither counted nor touched.
   */
  evict(keep: string): void {
    const packs: { key: string; size: number; used: number }[] = [];
    const now = Date.now();
    const uid = process.getuid?.();
    for (const name of readdirSync(this.dir)) {
      const path = join(this.dir, name);
      try {
        const st = lstatSync(path, { bigint: true });
        if (FILL_NAME.test(name)) {
          const mine = uid === undefined || Number(st.uid) === uid;
          if (st.isFile() && mine && now - Number(st.mtimeMs) > STALE_FILL_MS) rmSync(path, { force: true });
          continue;
        }
        const key = ENTRY_NAME.exec(name)?.[1];
        if (key === undefined) continue;
        const stampPath = this.stampPath(key);
        if (!stampOwns(readStamp(stampPath), key, st)) continue;
        packs.push({ key, size: Number(st.size), used: lstatSync(stampPath).mtimeMs });
      } catch {
        // removed by another server meanwhile
      }
    }
    let total = packs.reduce((sum, p) => sum + p.size, 0);
    for (const pack of packs.sort((a, b) => a.used - b.used)) {
      if (total <= this.maxBytes) break;
      if (pack.key === keep) continue;
      rmSync(this.packPath(pack.key), { force: true });
      rmSync(this.stampPath(pack.key), { force: true });
      total -= pack.size;
    }
  }

  /** Reports a problem through the cache's `warn` (for the fills it starts). */
  report(message: string): void {
    this.warn(message);
  }
}

/**
 * One fill in progress: the pack is written to a private temporary file while it streams to the
 * client, and hashed on the way. A write failure or a pack over the size bound abandons the fill
 * with a warning; serving the client is not affected.
 */
export class PackFill {
  private failed = false;
  private closed = false;

  constructor(
    private readonly cache: PackCache,
    private readonly key: string,
    private readonly temp: string,
    private readonly fd: number,
    private readonly checksum: PackChecksum,
  ) {}

  /** Appends the next pack bytes. */
  write(chunk: Uint8Array): void {
    if (this.failed) return;
    this.checksum.update(chunk);
    if (this.checksum.length > this.cache.maxBytes) return this.abandon();
    try {
      for (let at = 0; at < chunk.length;) at += writeSync(this.fd, chunk, at, chunk.length - at);
    } catch (err) {
      this.cache.report(`cannot write to the pack cache: ${describe(err)}`);
      this.abandon();
    }
  }

  /**
   * Puts the pack in place if it is complete and its trailer matches; otherwise removes it.
   * @returns whether the entry was stored.
   */
  commit(): boolean {
    if (this.failed || !this.checksum.matches()) {
      this.abandon();
      return false;
    }
    try {
      this.cache.commitFill(this.key, this.temp, this.fd);
      return true;
    } catch (err) {
      this.cache.report(`pack not cached: ${describe(err)}`);
      this.abandon();
      return false;
    } finally {
      this.close();
    }
  }

  /** Drops the fill and its temporary file. */
  abandon(): void {
    this.failed = true;
    this.close();
    rmSync(this.temp, { force: true });
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
