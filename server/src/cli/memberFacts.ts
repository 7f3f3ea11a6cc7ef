// What the CLI's second pass needs of the functions the tree stores in struct members (see
// analyzer/memberImplementations.ts): most stored names are values, and only members some write helper
// is stored in can make a call a write, so the facts of the other members are not sent to the workers.
import type { MemberFunction } from '../analyzer/c/memberWriters';
import type { FileWrappers } from '../analyzer/wrapperIndex';

/** By file: what it stores in the members some write helper of the tree (`all`, by file) is stored in. */
export function treeMemberFacts(
  all: readonly (readonly [string, FileWrappers])[],
): ReadonlyMap<string, readonly MemberFunction[]> {
  const writers = new Set<string>();
  for (const [, w] of all) for (const x of w.c) writers.add(x.name);
  const wanted = new Set<string>();
  for (const [, w] of all)
    for (const f of w.memberFunctions ?? []) if (writers.has(f.fn)) wanted.add(f.member);
  const stored = new Map<string, MemberFunction[]>();
  if (wanted.size === 0) return stored;
  for (const [path, w] of all) {
    const some = (w.memberFunctions ?? []).filter((f) => wanted.has(f.member));
    if (some.length > 0) stored.set(path, some);
  }
  return stored;
}

/**
 * The members whose implementations include one of `names` (wrappers whose reading changed): a call
 * through one of them reads differently too.
 */
export function membersStoring(
  names: readonly string[],
  files: Iterable<readonly [string, FileWrappers]>,
): string[] {
  if (names.length === 0) return [];
  const changed = new Set(names);
  const members = new Set<string>();
  for (const [, w] of files)
    for (const f of w.memberFunctions ?? []) if (changed.has(f.fn)) members.add(f.member);
  return [...members];
}
