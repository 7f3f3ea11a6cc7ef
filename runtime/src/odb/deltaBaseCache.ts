import type { ObjectType } from './objectType';

/** An object kept because deltas are built on it. */
export interface CachedBase {
  readonly type: ObjectType;
  readonly data: Buffer;
}

/**
 * The delta-base cache: recently used delta bases keyed by pack and offset, least recently used
 * evicted first, bounded by the total of their payload bytes (as Git's `core.deltaBaseCacheLimit`).
 * Resolving a chain of deltas repeatedly, as a request for many versions of a file does, thus
 * inflates each shared base once instead of once per request.
 *
 * Entries are shared: callers must not modify a cached `data` buffer (hand out copies).
 */
export class DeltaBaseCache {
  private readonly entries = new Map<number, CachedBase>();
  private bytes = 0;

  constructor(
    /** The most payload bytes held at once; an object larger than this is never cached. */
    readonly limit: number,
    /** Called with each entry evicted to make room (not with entries replaced or cleared). */
    private readonly onEvict: (base: CachedBase) => void = () => {},
  ) {}

  /** The payload bytes currently held. */
  get size(): number {
    return this.bytes;
  }

  /** The cached base for `key`, marked as most recently used, or undefined. */
  get(key: number): CachedBase | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  /** Caches `base` under `key`, evicting the least recently used entries to stay within the limit. */
  set(key: number, base: CachedBase): void {
    if (base.data.length > this.limit) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.bytes -= old.data.length;
    }
    this.entries.set(key, base);
    this.bytes += base.data.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.limit) break;
      this.entries.delete(oldest);
      this.bytes -= entry.data.length;
      this.onEvict(entry);
    }
  }

  /** Drops every entry. */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
