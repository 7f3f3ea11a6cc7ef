// Getters called through a function pointer held in a struct member: `c->peer_name(c)` in a later
// write's arguments, where the tree stores only pure functions in `peer_name` (`.peer_name =
// tcp_peer_name,` in one file's operations table, `c->peer_name = tls_peer_name;` in another's). The
// member is an interface, and its implementations are the functions stored in it anywhere in the tree
// (see memberWriters.ts for the writers among them): when each of them is pure (it reads only and calls
// only pure functions, see pureFunctions), so is a call through the member, whichever one it reaches,
// and it may be made before an earlier write as a call of one of them may. One implementation that is
// not pure, or a stored name whose body the tree does not show (a parameter handed to a setter, a
// library function, a value of another struct's member of that name), leaves every call through the
// member unknown, as it was.
import type { Node } from 'web-tree-sitter';
import { memberCallee, type MemberFunction } from './memberWriters';

/**
 * The members (as {@link memberCallee} names them: `->m`) in which `files` store only pure functions:
 * each file's stored functions, with `pure` saying whether the name, as that file sees it (`own`: its
 * own definition; else another file's exported one), is pure. A member with no function stored is none.
 */
export function pureMembers(
  files: Iterable<{
    readonly functions: readonly MemberFunction[];
    readonly pure: (fn: string, own: boolean) => boolean;
  }>,
): Set<string> {
  const impure = new Set<string>();
  const found = new Set<string>();
  for (const { functions, pure } of files)
    for (const { member, fn, own } of functions) {
      if (impure.has(member)) continue;
      if (pure(fn, own === true)) found.add(member);
      else {
        impure.add(member);
        found.delete(member);
      }
    }
  return new Set([...found].map(memberCallee));
}

/** The name a call through a member is known by among the pure names (`->m` of `c->m(c)`), if it is one. */
export function memberCallName(call: Node): string | undefined {
  const fn = call.childForFieldName('function');
  if (fn?.type !== 'field_expression') return undefined;
  const field = fn.childForFieldName('field');
  return field ? memberCallee(field.text) : undefined;
}
