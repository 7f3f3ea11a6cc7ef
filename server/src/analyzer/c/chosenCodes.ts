// A status chosen between codes: `return errno == EPIPE ? ERR_HUP : ERR_SYS;`, or a status local given
// such a choice before the helper returns it (`er = errno == EPIPE ? ERR_HUP : ERR_SYS; break; ...
// return er;`). Whichever arm the test picks, the value is one of the arms' constants, so a helper whose
// other returns are codes too still returns a status (0 on success, another code on failure), never a
// byte count, and a caller may test it as one (`if ((er = put(fd, hdr, 8)) != ERR_OK) break;`).
import type { Node } from 'web-tree-sitter';
import { unwrap } from './syntax';

/**
 * The values `value` may take when it is a choice (`test ? a : b`, nested or in parentheses): each
 * arm's own values, in source order. Undefined when `value` is no conditional expression or an arm is
 * missing (the GNU `test ?: b`, whose value may be the test's). Does not modify `value`.
 */
export function chosenValues(value: Node): readonly Node[] | undefined {
  const at = unwrap(value);
  if (at.type !== 'conditional_expression') return undefined;
  const arms = [at.childForFieldName('consequence'), at.childForFieldName('alternative')];
  if (arms.some((arm) => !arm)) return undefined;
  return arms.flatMap((arm) => chosenValues(arm!) ?? [unwrap(arm!)]);
}

/**
 * The codes `value` gives when it is a choice whose every arm is a code by `isCode` (see
 * {@link chosenValues}); undefined otherwise. Does not modify `value`.
 */
export function chosenCodes(value: Node, isCode: (arm: Node) => boolean): readonly Node[] | undefined {
  const values = chosenValues(value);
  return values && values.every(isCode) ? values : undefined;
}
