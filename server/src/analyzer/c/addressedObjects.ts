// A protocol message built in a struct of the helper's own and sent whole by its address: `struct
// key_event ev = {KEY_EVENT}; ev.key = htonl(key); ev.down = down; write(fd, &ev, sizeof ev);`. Each
// call is one write of a message computed from the arguments, as a local array built from them is (see
// computedBuffers.ts, which decides whether every byte does come from the arguments). Only an aggregate
// counts: one filled member by member, or declared with a brace initializer. A scalar sent by its
// address (`uint32_t be = htonl(v); write(fd, &be, 4)`) is a value writer's (see convertedValues.ts),
// which reads it as a conversion of one argument or not at all.
import type { Node } from 'web-tree-sitter';
import { declaredName, withoutCasts } from './syntax';

/** True when `node` is `name.member` or `name.a.b` (the object itself, not through a pointer). */
function memberOf(node: Node, name: string): boolean {
  let at = withoutCasts(node);
  while (at.type === 'field_expression' || at.type === 'subscript_expression') {
    const base = at.childForFieldName('argument');
    if (!base) return false;
    if (at.type === 'field_expression' && at.childForFieldName('operator')?.text !== '.') return false;
    at = withoutCasts(base);
  }
  return at.type === 'identifier' && at.text === name && !node.equals(at);
}

/** True when `body` fills `name` as an aggregate: an assignment to a member, or a brace initializer. */
function filledAsAggregate(name: string, body: Node): boolean {
  for (const n of body.descendantsOfType(['assignment_expression', 'init_declarator'])) {
    if (!n) continue;
    if (n.type === 'init_declarator') {
      if (declaredName(n) === name && n.childForFieldName('value')?.type === 'initializer_list') return true;
      continue;
    }
    const left = n.childForFieldName('left');
    if (left && memberOf(left, name)) return true;
  }
  return false;
}

/**
 * The local aggregate `bufArg` sends whole by its address (`&ev`), when `body` fills it as one, and it
 * is not one of the helper's `params`; otherwise undefined.
 */
export function sentAggregate(
  bufArg: Node,
  body: Node,
  params: readonly (string | undefined)[],
): string | undefined {
  const b = withoutCasts(bufArg);
  if (b.type !== 'pointer_expression' || b.child(0)?.type !== '&') return undefined;
  const arg = b.childForFieldName('argument');
  const name = arg ? withoutCasts(arg) : undefined;
  if (name?.type !== 'identifier' || params.includes(name.text)) return undefined;
  return filledAsAggregate(name.text, body) ? name.text : undefined;
}
