// A helper may take which descriptor to write to as an index into a global table rather than as the
// descriptor itself: privilege-separated programs keep `static int fds[2]` (one end of a socketpair
// per peer) and call `must_write(PEER_A, &cmd, sizeof cmd)`. Such a helper writes to `fds[PEER_A]` for
// that call, exactly as one taking `int fd` would given `fds[PEER_A]`; two calls given different
// indexes write to different descriptors. The kind of descriptor is then what the file says of the
// array's elements (a stream socketpair, a pipe), as for the direct spelling.
import type { Node } from 'web-tree-sitter';
import type { WrapperTarget } from '../wrapper';
import { declaredName, withoutCasts } from './syntax';

/**
 * `table[param]` where `table` is a name the helper neither declares nor takes (a global array) and
 * `param` one of its parameters it never assigns: the target that writes to the caller's element.
 */
export function elementTarget(
  node: Node,
  params: readonly (string | undefined)[],
  assigned: ReadonlySet<string>,
  body: Node | undefined,
): WrapperTarget | undefined {
  if (!body || node.type !== 'subscript_expression') return undefined;
  const array = node.childForFieldName('argument');
  const index = node.childForFieldName('index');
  if (array?.type !== 'identifier' || !index) return undefined;
  const at = withoutCasts(index);
  if (at.type !== 'identifier') return undefined;
  const param = params.indexOf(at.text);
  if (param < 0 || assigned.has(at.text) || params.includes(array.text)) return undefined;
  // A local table (declared in the body) is not the caller's: each call has its own.
  const local = body
    .descendantsOfType(['init_declarator', 'declaration'])
    .some(
      (d) =>
        d && declaredName(d.type === 'declaration' ? d.childForFieldName('declarator') : d) === array.text,
    );
  return local ? undefined : { param, element: array.text };
}
