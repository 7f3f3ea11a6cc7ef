/** What the cache needs to know of an entry. */
export interface CacheEntry {
  /** The memory the entry holds, in bytes. */
  readonly bytes: number;
}

/**
 * The delta-base cache: recently read objects keyed by pack and offset, bounded by the memory they
 * hold (as Git's `core.deltaBaseCacheLimit`), the least recently used dropped first.
 *
 * Every object read from a pack is kept, the one asked for as well as those its chain passed: a
 * request for a file's versions in history order (newest first, as a history-rewriting frontend
 * asks) reads each version right after the one it is a delta of, so the base is here and each
 * answer costs one delta. Git keeps only the objects a chain passed, so there the version just
 * answered is rebuilt for the next one: two deltas per answer.
 *
 * Entries are shared: callers must not modify what they get.
 */
export class DeltaBaseCache<T extends CacheEntry> {
  /** A Map iterates in insertion order: the first entry is the least recently used. */
  private readonly entries = new Map<number, T>();
  private held = 0;

  constructor(
    /** The most bytes held at once; an entry larger than this is never cached. */
    readonly limit: number,
    /** Called with each entry dropped to make room (not with entries replaced or cleared). */
    private readonly onEvict: (entry: T) => void = () => {},
  ) {}

  /** The bytes currently held. */
  get size(): number {
    return this.held;
  }

  /** The cached entry for `key`, marked as most recently used, or undefined. */
  get(key: number): T | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  /** Caches `entry` under `key`, dropping the least recently used entries to stay within the limit. */
  set(key: number, entry: T): void {
    if (entry.bytes > this.limit) return;
    this.delete(key);
    this.entries.set(key, entry);
    this.held += entry.bytes;
    while (this.held > this.limit) {
      const oldest = this.entries.entries().next();
      if (oldest.done === true) break;
      this.delete(oldest.value[0]);
      this.onEvict(oldest.value[1]);
    }
  }

  /** Drops every entry. */
  clear(): void {
    this.entries.clear();
    this.held = 0;
  }

  private delete(key: number): void {
    const old = this.entries.get(key);
    if (old === undefined) return;
    this.entries.delete(key);
    this.held -= old.bytes;
  }
}
