// An object's bytes are often reached through its accessors rather than its members: string and buffer
// types in C keep their fields private behind `buf_data(b)` and `buf_len(b)`, and a helper that sends
// one (`write_all(fd, str_getbuf(s), str_getlen(s))`) writes what the object holds exactly as one
// spelling `s->data, s->len` does. The accessors are often defined in another file (the type's own),
// where a helper's body is read before any fact of the tree is known, so the call is judged by its
// shape: given the parameter alone, by a name that reads as no I/O (or a body known to do none).
import type { Node } from 'web-tree-sitter';
import { callArgs, calleeName, withoutCasts } from './syntax';

/**
 * The index of the parameter whose object `node` reads through an accessor (`str_getbuf(s)`, `(size_t)
 * buf_len(b)`), or -1: a call of a function `reads` accepts, given exactly one argument, a parameter
 * the helper never assigns. Does not decide whether the accessor is pure; `reads` does.
 */
export function accessedParam(
  node: Node,
  params: readonly (string | undefined)[],
  assigned: ReadonlySet<string>,
  reads: (callee: string) => boolean,
): number {
  const call = withoutCasts(node);
  if (call.type !== 'call_expression') return -1;
  const callee = calleeName(call);
  const args = callArgs(call);
  if (!callee || args.length !== 1 || !reads(callee)) return -1;
  const arg = withoutCasts(args[0]!);
  if (arg.type !== 'identifier' || assigned.has(arg.text)) return -1;
  return params.indexOf(arg.text);
}
