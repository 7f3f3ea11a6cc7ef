/** What the cache needs to know of an entry. */
export interface CacheEntry {
  /** The memory the entry holds, in bytes. */
  readonly bytes: number;
}

/**
 * The delta-base cache: recently read objects keyed by pack and offset, bounded by the memory they
 * hold (as Git's `core.deltaBaseCacheLimit`), the least recently used dropped first.
 *
 * The reader keeps the objects a chain passed and the one asked for: a request for a file's
 * versions in history order (newest first, as a history-rewriting frontend asks) reads each version
 * right after the one it is a delta of, so the base is here and each answer costs one delta. Git
 * keeps only the objects a chain passed. Once the pack's entries are counted, the reader takes an
 * object asked for out again ({@link DeltaBaseCache.take}) when every delta against it is made.
 *
 * Entries are shared: callers must not modify what they get.
 */
export class DeltaBaseCache<T extends CacheEntry> {
  /**
   * The entries by key, each a link of a list from the least to the most recently used: a hit
   * moves its link to the end, one lookup in all (a Map re-inserted on every hit took three).
   */
  private readonly links = new Map<number, Link<T>>();
  /** The least recently used link (the list's head), and the most recently used (its tail). */
  private oldest: Link<T> | undefined;
  private newest: Link<T> | undefined;
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
    const link = this.links.get(key);
    if (link === undefined) return undefined;
    if (link !== this.newest) {
      this.unlink(link);
      this.append(link);
    }
    return link.entry;
  }

  /** Caches `entry` under `key`, dropping the least recently used entries to stay within the limit. */
  set(key: number, entry: T): void {
    if (entry.bytes > this.limit) return;
    const old = this.links.get(key);
    if (old !== undefined) this.remove(old);
    const link: Link<T> = { key, entry, older: undefined, newer: undefined };
    this.links.set(key, link);
    this.append(link);
    this.held += entry.bytes;
    while (this.held > this.limit && this.oldest !== undefined) {
      const evicted = this.oldest;
      this.remove(evicted);
      this.onEvict(evicted.entry);
    }
  }

  /** Removes the entry for `key` without calling `onEvict`, and returns it (undefined when absent). */
  take(key: number): T | undefined {
    const link = this.links.get(key);
    if (link === undefined) return undefined;
    this.remove(link);
    return link.entry;
  }

  /** Drops every entry. */
  clear(): void {
    this.links.clear();
    this.oldest = this.newest = undefined;
    this.held = 0;
  }

  private remove(link: Link<T>): void {
    this.links.delete(link.key);
    this.unlink(link);
    this.held -= link.entry.bytes;
  }

  private append(link: Link<T>): void {
    link.older = this.newest;
    link.newer = undefined;
    if (this.newest === undefined) this.oldest = link;
    else this.newest.newer = link;
    this.newest = link;
  }

  private unlink(link: Link<T>): void {
    if (link.older === undefined) this.oldest = link.newer;
    else link.older.newer = link.newer;
    if (link.newer === undefined) this.newest = link.older;
    else link.newer.older = link.older;
  }
}

/** An entry in the recency list. */
interface Link<T> {
  readonly key: number;
  readonly entry: T;
  older: Link<T> | undefined;
  newer: Link<T> | undefined;
}
