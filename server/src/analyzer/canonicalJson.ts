// One text for one value: the keys of every object sorted, so that a digest depends on the data, not on
// the order in which a record was built. The cache's keys and the fact base's digests both use it.

/** JSON of `value` with the keys of every object sorted. */
export function canonicalJson(value: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(canonical(value));
}
