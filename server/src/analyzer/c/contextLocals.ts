// A server that keeps the current connection in a global, or in a thread's slot behind an accessor macro
// (`#define CC MyContext()`), often copies it into a local before writing: `Ctx = CC; ... write(Ctx->sock,
// buf + done, len - done)`. The local is a copy of that fixed name, set once and never moved, so the
// helper writes where `CC->sock` would: the same socket at every call, as a helper naming the global
// itself does. A local set from a call (`s = open_session()`, a new connection each time) is no copy of
// a name and is left alone. So is a local holding the descriptor member of such a name itself (`int
// sock = conn->sockout;`, where `conn` is the thread's connection a macro declared out of sight): it
// names the socket `conn->sockout` names, at every call.
import type { Node } from 'web-tree-sitter';
import type { WrapperTarget } from '../wrapper';
import { withoutCasts } from './syntax';

/**
 * The fixed descriptor `local` + `member` names when `local` holds a copy of a fixed name: `init` (its
 * one value) is a plain identifier, casts aside, that `source` (how the helper reading read `init`) takes
 * for a fixed descriptor (a global or a macro, no parameter, no local of the body). The target is spelled
 * as the fixed name with the member (`CC->sock`) and lists the local among its names, so that a call
 * handed the local is handed the descriptor. With `member` empty, the local itself is the descriptor:
 * `init` must then be members of such a name, nothing computed (`conn->sockout`). `init` may also be
 * a call of no arguments to a function `pure` holds (`conn = get_conn();`, see
 * sharedStateAccessors.ts), named then as `get_conn()` with the member. Undefined for anything else.
 * Does not modify the tree.
 */
export function sharedContextMember(
  local: string,
  init: Node,
  source: WrapperTarget | undefined,
  member: string,
  pure?: ReadonlySet<string>,
): WrapperTarget | undefined {
  if (!source || !('text' in source)) return undefined;
  // `conn = get_conn();`: an accessor of no arguments that the fact base finds pure hands back the
  // same object at every call, the program's or the thread's (see sharedStateAccessors.ts).
  const call = withoutCasts(init);
  if (call.type === 'call_expression') {
    const callee = call.childForFieldName('function');
    const args = call.childForFieldName('arguments');
    if (
      !callee ||
      callee.type !== 'identifier' ||
      !args ||
      args.namedChildCount > 0 ||
      !pure?.has(callee.text)
    )
      return undefined;
    return member === '' ? undefined : { text: `${callee.text}()${member}`, names: [callee.text, local] };
  }
  if (member === '')
    return memberOfName(init) ? { text: source.text, names: [...source.names, local] } : undefined;
  if (withoutCasts(init).type !== 'identifier') return undefined;
  return { text: `${source.text}${member}`, names: [...source.names, local] };
}

/** Whether `init` is members down to a plain name, casts aside, nothing computed (`conn->sockout`). */
function memberOfName(init: Node): boolean {
  let at = withoutCasts(init);
  if (at.type !== 'field_expression') return false;
  while (at.type === 'field_expression') {
    const arg = at.childForFieldName('argument');
    if (!arg) return false;
    at = withoutCasts(arg);
  }
  return at.type === 'identifier';
}
