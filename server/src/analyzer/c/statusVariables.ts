// A helper that keeps its status in a local and returns it once (`int ret = 0; ... ret = -1; goto out;
// ... out: close(tmp); return ret;`), the single-exit style of much C: the values the local can hold are
// the values the helper returns. When every one of them is a constant code, the helper's result is a
// status (0 on success among them) and never a byte count, just as if it returned the codes directly.
import type { Node } from 'web-tree-sitter';
import { declaredName, withoutCasts } from './syntax';

/** Node types that give or change a name's value, or hand its address on. */
const TOUCHES = ['declaration', 'assignment_expression', 'update_expression', 'pointer_expression'];

/**
 * The values local `name` of `body` can hold where the body returns it: each value its declaration and
 * its plain assignments (`=`) give it, when every one is a status code (`isCode`: a constant, or a call
 * whose result is known to be one). Undefined when `name` is no local of `body`, when some value is no
 * code (`ret = write(...)`, `ret = errno`), or when it changes otherwise (`ret += n`, `ret++`, `&ret`
 * handed to a call). Does not modify `body`.
 */
export function heldCodes(
  name: string,
  body: Node,
  isCode: (value: Node) => boolean,
): readonly Node[] | undefined {
  const values: Node[] = [];
  let declared = false;
  for (const n of body.descendantsOfType(TOUCHES)) {
    if (!n) continue;
    if (n.type === 'declaration') {
      for (const d of n.childrenForFieldName('declarator')) {
        if (!d || declaredName(d) !== name) continue;
        declared = true;
        const value = d.type === 'init_declarator' ? d.childForFieldName('value') : null;
        if (value) values.push(value);
      }
      continue;
    }
    if (n.type === 'update_expression') {
      if (n.childForFieldName('argument')?.text === name) return undefined;
      continue;
    }
    if (n.type === 'pointer_expression') {
      const operand = n.childForFieldName('argument');
      if (n.childForFieldName('operator')?.text === '&' && operand?.text === name) return undefined;
      continue;
    }
    const left = n.childForFieldName('left');
    if (left?.type !== 'identifier' || left.text !== name) continue;
    const right = n.childForFieldName('right');
    if (n.childForFieldName('operator')?.text !== '=' || !right) return undefined;
    values.push(right);
  }
  if (!declared || values.length === 0) return undefined;
  return values.every((v) => isCode(withoutCasts(v))) ? values : undefined;
}
