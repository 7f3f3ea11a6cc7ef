// A helper may take its descriptor by address (`int *sock`, or a `void *` handle that points at one) and
// copy what it points at into a local first: `int sock = *(int *) s;` at the top of a send loop, then
// `send(sock, p, left, 0)`. Kept as it was, the local is the caller's descriptor exactly as `*s` spelled
// in the write is: a call given `&fd` writes to `fd`. The helper is read as writing through the pointer,
// with the same test that it never changes what the pointer points at (see keepsPointee).
import type { Node } from 'web-tree-sitter';
import type { WrapperTarget } from '../wrapper';
import { withoutCasts } from './syntax';

/**
 * `*param` (through casts: `*(int *) s`, `(int) *((int *) s)`) of a parameter the helper never assigns:
 * the target that writes to what the caller's pointer points at. Undefined for anything else.
 */
export function pointeeTarget(
  node: Node,
  params: readonly (string | undefined)[],
  assigned: ReadonlySet<string>,
): WrapperTarget | undefined {
  const b = withoutCasts(node);
  if (b.type !== 'pointer_expression' || b.childForFieldName('operator')?.text !== '*') return undefined;
  const pointer = b.childForFieldName('argument');
  const param = pointer ? params.indexOf(withoutCasts(pointer).text) : -1;
  return param >= 0 && !assigned.has(params[param]!) ? { param, deref: true } : undefined;
}

/**
 * Rule `pointeeLocals`: a local whose one value is its initializer, that initializer the pointee of a
 * parameter (`source`, read by {@link pointeeTarget}), stands for that pointee; `member` is what the
 * write adds to the local (a member of a pointee is not read: `member` must be empty).
 */
export function pointeeLocal(source: WrapperTarget | undefined, member: string): WrapperTarget | undefined {
  return source && 'param' in source && source.deref && member === '' ? source : undefined;
}
