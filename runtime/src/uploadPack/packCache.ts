/**
 * A directory of finished packs keyed by a hash of the request, so repeated clones of the same
 * refs are served straight from a file, the case Git's sideband change was made for.
 *
 * Guarantees:
 * - An entry appears only complete: a fill writes a private temporary file, checks the pack's own
 *   trailer hash, syncs it, then renames it into place. Two servers filling the same entry at once
 *   each rename a complete pack; the last one wins and both are valid.
 * - An entry that changed after it was verified is caught: a stamp beside each pack records its
 *   inode, size, mtime and ctime when it was verified. Any write to the pack changes ctime, so a
 *   mismatch sends the next serve down the slow path, which re-hashes the pack while it streams
 *   and removes it if the hash is wrong. (Bit rot below the filesystem is not seen here; the
 *   client's index-pack still rejects such a pack by its trailer.)
 * - The directory stays under its size bound: after each fill the least recently served entries
 *   go first; a pack larger than the bound is not kept.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync,
  type BigIntStats,
} from 'node:fs';
import { join } from 'node:path';
import { hasCode } from '../errno';
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
  readonly objectFormat: 'sha1' | 'sha256';
}

/**
 * The cache key of a request: SHA-256 of the object ids and the options that change the pack.
 * Object ids name content, so a key never goes stale when the repository changes.
 */
export function cacheKey(request: PackRequest): string {
  const lines = [
    'writev-upload-pack cache v1',
    `object-format ${request.objectFormat}`,
    `ofs-delta ${request.ofsDelta ? 1 : 0}`,
    ...[...new Set(request.wants)].sort().map((oid) => `want ${oid}`),
    ...[...new Set(request.common)].sort().map((oid) => `have ${oid}`),
  ];
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** An open cache entry. Close `fd` when done. */
export interface CachedPack {
  readonly key: string;
  readonly path: string;
  readonly fd: number;
  readonly size: number;
  /** Whether the stamp says the file is exactly as verified (else: re-hash while serving). */
  readonly trusted: boolean;
}

function stampOf(st: BigIntStats): string {
  return `${st.ino} ${st.size} ${st.mtimeNs} ${st.ctimeNs}\n`;
}

/** The pack cache in one directory; see the module comment. */
export class PackCache {
  constructor(
    readonly dir: string,
    readonly maxBytes: number = DEFAULT_CACHE_MAX_BYTES,
  ) {}

  private packPath(key: string): string {
    return join(this.dir, `${key}.pack`);
  }

  private stampPath(key: string): string {
    return join(this.dir, `${key}.stamp`);
  }

  /** A temporary file name no other fill uses, in this process or another. */
  private tempPath(ext: string): string {
    return join(this.dir, `tmp-${process.pid}-${randomBytes(6).toString('hex')}.${ext}`);
  }

  /** Opens the entry for `key`, or returns `undefined` on a miss. */
  open(key: string): CachedPack | undefined {
    const path = this.packPath(key);
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (err) {
      if (hasCode(err, 'ENOENT')) return undefined;
      throw err;
    }
    const st = fstatSync(fd, { bigint: true });
    let stamp = '';
    try {
      stamp = readFileSync(this.stampPath(key), 'latin1');
    } catch {
      // no stamp: verify while serving
    }
    return { key, path, fd, size: Number(st.size), trusted: stamp === stampOf(st) };
  }

  /** Records that `entry` was verified as it is now, and marks it recently served. */
  trust(entry: CachedPack): void {
    this.writeStamp(entry.key, fstatSync(entry.fd, { bigint: true }));
  }

  /** Marks `entry` recently served, for the size bound's least-recently-served order. */
  touch(entry: CachedPack): void {
    const now = new Date();
    try {
      utimesSync(this.stampPath(entry.key), now, now);
    } catch {
      // a missing stamp is rewritten when the entry is next verified
    }
  }

  /**
   * Removes `entry` (a corrupt one), unless another server has meanwhile renamed a fresh pack into
   * its place: only the very file that was read is removed.
   */
  discard(entry: CachedPack): void {
    try {
      if (statSync(entry.path).ino !== fstatSync(entry.fd).ino) return;
    } catch {
      return;
    }
    rmSync(entry.path, { force: true });
    rmSync(this.stampPath(entry.key), { force: true });
  }

  /**
   * Starts filling the entry for `key`, or returns `undefined` when the directory cannot be written
   * (the cache is an optimisation: serving goes on without it).
   */
  startFill(key: string, objectFormat: 'sha1' | 'sha256'): PackFill | undefined {
    try {
      mkdirSync(this.dir, { recursive: true });
      const temp = this.tempPath('pack');
      const fd = openSync(temp, 'wx', 0o444);
      return new PackFill(this, key, temp, fd, new PackChecksum(objectFormat));
    } catch {
      return undefined;
    }
  }

  /** Renames a verified fill into place, stamps it, and enforces the size bound. */
  commitFill(key: string, temp: string, fd: number): void {
    fdatasyncSync(fd);
    renameSync(temp, this.packPath(key));
    // The rename changed the inode's ctime: stamp what the file is now.
    this.writeStamp(key, fstatSync(fd, { bigint: true }));
    this.evict(key);
  }

  private writeStamp(key: string, st: BigIntStats): void {
    const temp = this.tempPath('stamp');
    writeFileSync(temp, stampOf(st));
    renameSync(temp, this.stampPath(key));
  }

  /**
   * Removes the least recently served entries until the packs fit `maxBytes` (never `keep`, just
   * filled), and temporary files of fills that died long ago.
   */
  evict(keep: string): void {
    const packs: { key: string; size: number; used: number }[] = [];
    const now = Date.now();
    for (const name of readdirSync(this.dir)) {
      const path = join(this.dir, name);
      try {
        const st = statSync(path);
        if (name.startsWith('tmp-')) {
          if (now - st.mtimeMs > STALE_FILL_MS) rmSync(path, { force: true });
        } else if (name.endsWith('.pack')) {
          const key = name.slice(0, -'.pack'.length);
          let used = st.mtimeMs;
          try {
            used = statSync(this.stampPath(key)).mtimeMs;
          } catch {
            // never stamped: its own mtime
          }
          packs.push({ key, size: st.size, used });
        }
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
}

/**
 * One fill in progress: the pack is written to a private temporary file while it streams to the
 * client, and hashed on the way. A write failure or a pack over the size bound abandons the fill
 * quietly; serving the client is not affected.
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
    } catch {
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
    } catch {
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
