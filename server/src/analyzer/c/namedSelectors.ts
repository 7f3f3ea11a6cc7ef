// A transfer helper told its direction by a named constant rather than a number: `#define TO_PEER 1`,
// `if (dir == TO_PEER) n = write(fd, p, left); else if (dir == FROM_PEER) n = read(fd, p, left); else
// complain();` (a tool that copies between a file and a chain of sockets with one loop for both ways).
// Its callers pass the name (`move(sock, TO_PEER, buf, len)`), and the name's value is in a header the
// helper's file and each caller's include, not in view where the call is read. The name itself says
// enough: a call passing the very name the helper's quiet arm is tested equal to runs that arm, as a
// call passing a number that satisfies a numeric test does (see selectedBranches.ts). A call passing
// another name, a number or a variable may take the other arms, and is no write to join. The name is
// taken for a constant when it is spelled as C spells macros and enumeration members (upper case),
// which no parameter or local of the helper is.
import type { Node } from 'web-tree-sitter';
import { withoutCasts } from './syntax';

/** An identifier spelled as a macro or an enumeration member: upper case, digits and underscores. */
const CONSTANT_NAME = /^[A-Z][A-Z0-9_]*$/;

/**
 * The name `node` is when it is an identifier spelled as a named constant (see the file comment), or
 * undefined. Does not modify `node`.
 */
export function constantName(node: Node | null | undefined): string | undefined {
  if (!node) return undefined;
  let n = withoutCasts(node);
  while (n.type === 'parenthesized_expression' && n.namedChild(0)) n = withoutCasts(n.namedChild(0)!);
  return n.type === 'identifier' && CONSTANT_NAME.test(n.text) ? n.text : undefined;
}

/**
 * Whether a call passing `arg` makes `param op name` come out as `when`: only for `==` and `!=`, and
 * only when `arg` is that same name (the test then holds for `==`, fails for `!=`). Another name may
 * have the same value, and a number's relation to the name is not in view: both are no.
 */
export function selectsByName(arg: Node | undefined, op: string, name: string, when: boolean): boolean {
  if (constantName(arg) !== name) return false;
  if (op === '==') return when;
  if (op === '!=') return !when;
  return false;
}
