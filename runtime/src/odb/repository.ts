import { readAlternates } from './alternates';
import { BufferPool, type MemorySource } from './bufferPool';
import type { SharedCopier } from './sharedCopy';
import { DeltaBaseCache } from './deltaBaseCache';
import { applyDelta, readDeltaSizes } from './deltaApply';
import { ObjectCorruptError } from './errors';
import { ObjectDirectory, type PackedLocation } from './objectDirectory';
import { hashObject, parseObjectId, type HashAlgorithm } from './objectId';
import type { GitObject, ObjectHeader, ObjectType } from './objectType';
import { MANY_CHILDREN, type PackFile, type RawEntry } from './packFile';
import { WindowCache } from './packWindows';
import { findRepository } from './repositoryLayout';
import { inflateExact, inflatePrefix } from './zlibInflate';

/** Git's default `core.deltaBaseCacheLimit`: 96 MiB. */
export const DEFAULT_DELTA_BASE_CACHE_LIMIT = 96 * 1024 * 1024;
/** The longest delta chain followed; longer means a loop of reference deltas (Git packs at most 4095). */
const MAX_CHAIN = 10_000;
/** The most bytes of dropped objects kept for reuse. */
const MAX_POOLED = 16 * 1024 * 1024;
/** What an entry of the delta-base cache costs besides its bytes: the entry, its key, its buffer. */
const ENTRY_OVERHEAD = 160;
/** The scratch buffer's size: deltas up to this size are inflated without an allocation. */
const SCRATCH_SIZE = 64 * 1024;
/**
 * Objects read from one pack before it is scanned for its delta bases ({@link Repository.unpack}):
 * at least {@link BULK_READS}, and at least one in {@link BULK_SHARE} of the pack's entries. The
 * scan reads every entry's header, which is worth it for a bulk request, not for a handful of
 * reads, and on a large pack costs a fraction of the reads made before it.
 */
const BULK_READS = 256;
const BULK_SHARE = 64;
/** Compressed bytes inflated to read a delta's sizes. */
const DELTA_HEADER_PROBE = 256;

/** Options of {@link openRepository}. */
export interface OpenRepositoryOptions {
  /**
   * The most bytes of delta bases kept for reuse (default: the repository's
   * `core.deltaBaseCacheLimit`, else {@link DEFAULT_DELTA_BASE_CACHE_LIMIT}, as in Git).
   */
  deltaBaseCacheLimit?: number;
  /**
   * Hash every object read and compare with the requested id (default false). Packed objects are
   * already checked by the index's CRC-32 of each entry, zlib's Adler-32 and every size, and loose
   * objects are always hashed; this adds a proof against what those cannot see, at the cost of one
   * hash pass over each payload.
   */
  verifyHash?: boolean;
  /**
   * Where the reader takes new memory for the objects it builds, before allocating its own: for
   * memory another thread faults in ahead (see `ArenaCarver`). Default: the reader's own.
   */
  memory?: MemorySource;
}

/** A pack entry: the pack and the entry's offset, with its index position when known. */
interface PackPlace {
  readonly pack: PackFile;
  readonly offset: number;
  readonly position?: number;
}

/** An object of known type and bytes. */
interface TypedBytes {
  readonly type: ObjectType;
  readonly data: Buffer;
}

/** What the delta-base cache holds: an object read from a pack, stored whole or built from deltas. */
interface CachedObject extends TypedBytes {
  readonly bytes: number;
  /** Its key in the cache. */
  readonly key: number;
  /** Objects still to be made from it (its pack's count less those made since it was cached). */
  pending: number;
  /** Whether it was asked for (not only met on the way to another object). */
  asked: boolean;
}

/** Where the search for an object's bytes starts. */
type Start = { readonly packed: PackedLocation } | { readonly loose: ObjectDirectory };

/**
 * Where a caller would have an object's bytes made when nothing else will need them: given the
 * object's type and size, memory of at least `size + 1` bytes (the spare byte shows an inflation
 * that runs long), or undefined to let the reader allocate. A cat-blob writer passes the place in
 * its output the answer will go, so the bytes are made there and never copied.
 */
export type Destination = (type: ObjectType, size: number) => Buffer | undefined;

/**
 * Opens the repository at or above `path` (a work tree, a bare repository or a git directory) for
 * reading objects, without running git. Read-only; call {@link Repository.close} when done.
 *
 * @throws {@link RepositoryError} when there is no repository or its format is not supported;
 * {@link ObjectCorruptError} when a pack or index is damaged.
 */
export function openRepository(path: string, options: OpenRepositoryOptions = {}): Repository {
  return new Repository(path, options);
}

/**
 * A Git object database: loose objects and packs of the repository's object directory and of its
 * alternates. Reads are synchronous.
 *
 * Guarantee: an object is returned only after its bytes passed every check available (sizes,
 * zlib's checksum, the pack index's CRC-32, the loose object's hash, and with `verifyHash` the
 * object's hash); anything else is an {@link ObjectCorruptError} naming the file and offset.
 */
export class Repository {
  /** The git directory. */
  readonly gitDir: string;
  /** The hash that names this repository's objects. */
  readonly algorithm: HashAlgorithm;
  /** The object directories searched, the repository's own first, then its alternates. */
  readonly objectDirectories: readonly ObjectDirectory[];
  private readonly cache: DeltaBaseCache<CachedObject>;
  /** Memory for the objects built, recycled from the cache's evictions. */
  private readonly pool: BufferPool;
  /** Where each delta is inflated (most are small) and used up at once: no allocation for it. */
  private readonly scratch: Buffer;
  private readonly verifyHash: boolean;
  /** Copies inside the memory the objects are built in, when it is shared (see sharedCopy). */
  private readonly copier: SharedCopier | undefined;
  private readonly packSerial = new Map<PackFile, number>();
  /** Objects asked of each pack so far, until it is scanned for its delta bases. */
  private readonly packReads = new Map<PackFile, number>();

  /** Use {@link openRepository}. */
  constructor(path: string, options: OpenRepositoryOptions = {}) {
    const layout = findRepository(path);
    this.gitDir = layout.gitDir;
    this.algorithm = layout.algorithm;
    const dirs = [layout.objectsDir, ...readAlternates(layout.objectsDir)];
    const opened: ObjectDirectory[] = [];
    try {
      // One window cache for every pack: the memory bound holds however many packs there are.
      const windows = new WindowCache();
      for (const dir of dirs) opened.push(new ObjectDirectory(dir, layout.algorithm, windows));
    } catch (err) {
      for (const dir of opened) dir.close();
      throw err;
    }
    this.objectDirectories = opened;
    const limit = options.deltaBaseCacheLimit ?? layout.deltaBaseCacheLimit ?? DEFAULT_DELTA_BASE_CACHE_LIMIT;
    this.pool = new BufferPool(Math.min(limit / 4, MAX_POOLED), options.memory);
    this.cache = new DeltaBaseCache(limit, (evicted) => this.pool.release(evicted.data));
    this.verifyHash = options.verifyHash ?? false;
    this.copier = options.memory?.copier;
    // In the objects' memory, a delta's inserts are copies inside one memory too.
    this.scratch = options.memory?.take(SCRATCH_SIZE) ?? Buffer.allocUnsafeSlow(SCRATCH_SIZE);
  }

  /**
   * The object named `oid` (full hexadecimal id, either case), or undefined when the repository
   * does not have it. The returned buffer belongs to the caller.
   *
   * @throws {@link InvalidObjectIdError} for a malformed id; {@link ObjectCorruptError} for damage.
   */
  readObject(oid: string): GitObject | undefined {
    const found = this.find(oid);
    if (found === undefined || !found.shared) return found?.object;
    // Packed objects are shared with the delta-base cache: the caller gets a copy.
    const { type, size, data } = found.object;
    return { type, size, data: Buffer.from(data) };
  }

  /**
   * As {@link Repository.readObject}, but without a copy: the returned bytes may be the delta-base
   * cache's own, and must not be modified. They stay valid until the caller says it is done with
   * them by {@link Repository.releaseShared}; until then their memory is never reused. For
   * callers that write the bytes out, as a cat-blob answer does.
   *
   * With `destination`, a packed object that no object to come is made from (known once the pack
   * was scanned for its delta bases) is made straight into the memory `destination` gives, when it
   * gives any: the returned bytes are then a view of that memory.
   */
  readObjectShared(oid: string, destination?: Destination): GitObject | undefined {
    return this.find(oid, destination)?.object;
  }

  /**
   * Says that no bytes returned by {@link Repository.readObjectShared} so far are in use any
   * more, so the memory of those the cache has dropped may serve new objects. A caller that never
   * says so is safe, and only allocates more.
   */
  releaseShared(): void {
    this.pool.recycle();
  }

  /** Finds and reads `oid`, saying whether its bytes are shared with the delta-base cache. */
  private find(oid: string, destination?: Destination): { object: GitObject; shared: boolean } | undefined {
    const id = parseObjectId(oid, this.algorithm);
    const hex = oid.toLowerCase();
    const start = this.locate(id, hex);
    if (start === undefined) return undefined;
    if ('loose' in start) {
      const object = start.loose.loose.read(hex);
      return object && { object, shared: false };
    }
    const { type, data } = this.unpack(start.packed, destination);
    if (this.verifyHash || start.packed.pack.index.version === 1) {
      const actual = hashObject(type, data, this.algorithm);
      if (actual !== hex) {
        throw new ObjectCorruptError(
          start.packed.pack.file,
          start.packed.offset,
          `object ${hex} hashes to ${actual}`,
        );
      }
    }
    return { object: { type, size: data.length, data }, shared: true };
  }

  /**
   * The type and size of `oid` without inflating its payload where the storage allows (a pack
   * entry's header, the first bytes of a loose object or of a delta), or undefined when missing.
   */
  readHeader(oid: string): ObjectHeader | undefined {
    const id = parseObjectId(oid, this.algorithm);
    const hex = oid.toLowerCase();
    const start = this.locate(id, hex);
    if (start === undefined) return undefined;
    if ('loose' in start) return start.loose.loose.readHeader(hex);
    const { pack, offset, position } = start.packed;
    const header = pack.readHeader(offset);
    if (header.kind === 'whole') return { type: header.type, size: header.size };
    const entry = pack.readEntry(offset, position);
    const place = { file: pack.file, offset: offset + entry.header.dataAt };
    const prefix = inflatePrefix(
      entry.bytes.subarray(entry.header.dataAt, entry.header.dataAt + DELTA_HEADER_PROBE),
      place,
    );
    return { type: this.typeOfChain(pack, offset), size: readDeltaSizes(prefix, place).resultSize };
  }

  /** The bytes the delta-base cache holds now (at most its limit). */
  get deltaBaseCacheBytes(): number {
    return this.cache.size;
  }

  /** Whether the repository has `oid`. */
  hasObject(oid: string): boolean {
    const id = parseObjectId(oid, this.algorithm);
    return this.locate(id, id.toString('hex')) !== undefined;
  }

  /** Closes every pack file. The repository must not be used afterwards. */
  close(): void {
    for (const dir of this.objectDirectories) dir.close();
    this.cache.clear();
    this.pool.clear();
  }

  /** Finds where `id` is stored: packs first (most objects are packed), then loose files. */
  private locate(id: Buffer, hex: string): Start | undefined {
    for (let attempt = 0; attempt < 2; attempt++) {
      for (const dir of this.objectDirectories) {
        const packed = dir.findPacked(id);
        if (packed !== undefined) return { packed };
      }
      for (const dir of this.objectDirectories) {
        if (dir.loose.has(hex)) return { loose: dir };
      }
      // A miss may be an object packed (and its loose file pruned) since the packs were listed.
      let changed = false;
      for (const dir of this.objectDirectories) changed = dir.rescan() || changed;
      if (!changed) break;
    }
    return undefined;
  }

  /** The type at the bottom of the delta chain starting at `offset`, reading headers only. */
  private typeOfChain(pack: PackFile, offset: number): ObjectType {
    let where = { pack, offset };
    for (let depth = 0; depth < MAX_CHAIN; depth++) {
      const cached = this.cache.get(this.keyOf(where.pack, where.offset));
      if (cached !== undefined) return cached.type;
      const header = where.pack.readHeader(where.offset);
      if (header.kind === 'whole') return header.type;
      if (header.kind === 'ofs-delta') {
        where = { pack: where.pack, offset: header.baseOffset };
        continue;
      }
      const base = this.deltaBase(where.pack, where.offset, header.baseId);
      if ('loose' in base) return base.loose.type;
      where = base.packed;
    }
    throw new ObjectCorruptError(pack.file, offset, `delta chain longer than ${MAX_CHAIN} (a loop?)`);
  }

  /**
   * Reads the packed object at `start`: walks its delta chain down to a cached object or a whole
   * one, then applies the deltas above it in turn, straight from each base into the next object,
   * and caches every object so made (see {@link DeltaBaseCache} for why the one asked for too).
   * Once the pack has counted each entry's deltas ({@link PackFile.findDeltaBases}), an object
   * that was asked for is kept only while objects made from it are still to come: the rest is
   * never needed again, and its memory serves the next object as soon as the caller is done with
   * it. The result may be shared with the cache.
   */
  private unpack(start: PackedLocation, destination?: Destination): TypedBytes {
    this.countRead(start.pack);
    const chain: { pack: PackFile; entry: RawEntry }[] = [];
    let where: PackPlace = start;
    let base: TypedBytes | CachedObject;
    for (;;) {
      const cached = this.cache.get(this.keyOf(where.pack, where.offset));
      if (cached !== undefined) {
        base = cached;
        if (chain.length === 0) this.asked(cached);
        break;
      }
      if (chain.length >= MAX_CHAIN) {
        throw new ObjectCorruptError(
          start.pack.file,
          start.offset,
          `delta chain longer than ${MAX_CHAIN} (a loop?)`,
        );
      }
      const entry = where.pack.readEntry(where.offset, where.position);
      const { header } = entry;
      if (header.kind === 'whole') {
        // One byte more than the object: inflating into it shows a stream longer than declared.
        const into =
          chain.length === 0
            ? this.answerMemory(where.pack, where.offset, header.type, header.size, destination)
            : undefined;
        const data = this.inflateEntry(
          where.pack,
          entry,
          header.size,
          into ?? this.pool.take(header.size + 1),
        );
        base = this.keep(where.pack, where.offset, header.type, data, chain.length === 0);
        break;
      }
      chain.push({ pack: where.pack, entry });
      if (header.kind === 'ofs-delta') {
        where = { pack: where.pack, offset: header.baseOffset };
        continue;
      }
      const found = this.deltaBase(where.pack, where.offset, header.baseId);
      if ('loose' in found) {
        base = found.loose;
        break;
      }
      where = found.packed;
    }
    let object: TypedBytes | CachedObject = base;
    for (let i = chain.length - 1; i >= 0; i--) {
      const { pack, entry } = chain[i]!;
      // Each delta is used up by the object it makes before the next is inflated: one scratch
      // buffer serves them all.
      const delta = this.inflateEntry(pack, entry, entry.header.size, this.scratch);
      const type = base.type;
      const allocate =
        i === 0 && destination !== undefined
          ? (size: number): Buffer =>
              this.answerMemory(pack, entry.offset, type, size, destination)?.subarray(0, size) ??
              this.pool.take(size)
          : this.allocate;
      const data = applyDelta(
        object.data,
        delta,
        { file: pack.file, offset: entry.offset },
        allocate,
        this.copier,
      );
      if ('pending' in object) this.madeFrom(object);
      object = this.keep(pack, entry.offset, base.type, data, i === 0);
    }
    return object;
  }

  /**
   * Caches an object read from a pack, and returns it. One asked for that no object to come is made
   * from is not cached: its memory is handed back at once, reused only after
   * {@link Repository.releaseShared}.
   */
  private keep(
    pack: PackFile,
    offset: number,
    type: ObjectType,
    data: Buffer,
    asked: boolean,
  ): TypedBytes | CachedObject {
    const pending = pack.deltaChildren(offset) ?? MANY_CHILDREN;
    if (asked && pending === 0) {
      this.pool.release(data);
      return { type, data };
    }
    const key = this.keyOf(pack, offset);
    const object = { type, data, bytes: this.pool.memoryOf(data) + ENTRY_OVERHEAD, key, pending, asked };
    this.cache.set(key, object);
    return object;
  }

  /** A cached object was asked for: dropped if nothing more is to be made from it. */
  private asked(object: CachedObject): void {
    object.asked = true;
    if (object.pending <= 0) this.drop(object);
  }

  /** One more object was made from `base`: dropped once it was asked for and nothing more is to come. */
  private madeFrom(base: CachedObject): void {
    if (base.pending >= MANY_CHILDREN) return;
    base.pending--;
    if (base.pending <= 0 && base.asked) this.drop(base);
  }

  /** Takes an object out of the cache; its memory serves others after {@link Repository.releaseShared}. */
  private drop(object: CachedObject): void {
    if (this.cache.take(object.key) === object) this.pool.release(object.data);
  }

  /**
   * Memory from `destination` for the object asked for at `offset`, when it will not be cached
   * (nothing more is made from it): at least `size + 1` bytes, or undefined.
   */
  private answerMemory(
    pack: PackFile,
    offset: number,
    type: ObjectType,
    size: number,
    destination: Destination | undefined,
  ): Buffer | undefined {
    if (destination === undefined || pack.deltaChildren(offset) !== 0) return undefined;
    const memory = destination(type, size);
    return memory !== undefined && memory.length > size ? memory : undefined;
  }

  /** Counts a read from `pack`, and scans it for its delta bases once reads come in bulk. */
  private countRead(pack: PackFile): void {
    const bulk = Math.max(BULK_READS, Math.ceil(pack.index.count / BULK_SHARE));
    const reads = (this.packReads.get(pack) ?? 0) + 1;
    if (reads > bulk) return;
    this.packReads.set(pack, reads);
    if (reads === bulk) pack.findDeltaBases();
  }

  /** Finds a reference delta's base: in the same pack first, then anywhere in the repository. */
  private deltaBase(
    pack: PackFile,
    offset: number,
    baseId: Buffer,
  ): { packed: PackedLocation } | { loose: TypedBytes } {
    const position = pack.index.find(baseId);
    if (position >= 0) return { packed: { pack, position, offset: pack.index.offsetAt(position) } };
    const hex = baseId.toString('hex');
    const start = this.locate(baseId, hex);
    if (start !== undefined && 'packed' in start) return start;
    const loose = start?.loose.loose.read(hex);
    if (loose === undefined) throw new ObjectCorruptError(pack.file, offset, `delta base ${hex} is missing`);
    return { loose };
  }

  private readonly allocate = (size: number): Buffer => this.pool.take(size);

  private inflateEntry(pack: PackFile, entry: RawEntry, size: number, scratch?: Buffer): Buffer {
    const at = entry.header.dataAt;
    const place = { file: pack.file, offset: entry.offset + at };
    return inflateExact(entry.bytes.subarray(at), size, place, 'reused', scratch);
  }

  /** The cache key of an entry: the pack's serial number above the offset's 41 bits (2 TiB packs). */
  private keyOf(pack: PackFile, offset: number): number {
    let serial = this.packSerial.get(pack);
    if (serial === undefined) this.packSerial.set(pack, (serial = this.packSerial.size));
    return serial * 2 ** 41 + offset;
  }
}
