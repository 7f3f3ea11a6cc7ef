// What a pointer computed from an object points into: `(char *)(buf + off)`, `buf + off`, `off + buf`
// and `buf - k` all reach the bytes of `buf`. A call given such a pointer (`snprintf((char *)(buf +
// len), ...)`, `memcpy(buf + off, ...)`, `read(fd, buf + got, n)`) may change `buf`, exactly as one
// given `&buf[off]` or `buf` itself: a later write of `buf` then sends other bytes than an earlier one.
import type { Node } from 'web-tree-sitter';
import { withoutCasts } from './syntax';

/**
 * The operands of `node` (through casts and parentheses, and nested sums) that may be the object a
 * pointer sum points into: every operand of a `+` that is neither a number nor one of `scalars`
 * (names of integer type), and the left of a `-`; also under a `*` or `&`. Empty when `node` is no
 * sum or difference.
 */
export function offsetBases(node: Node, scalars: ReadonlySet<string>): Node[] {
  const b = withoutCasts(node);
  // `*(buf + off) = c` stores into buf too.
  if (b.type === 'pointer_expression') {
    const inner = b.childForFieldName('argument');
    return inner ? offsetBases(inner, scalars) : [];
  }
  if (b.type !== 'binary_expression') return [];
  const op = b.childForFieldName('operator')?.text;
  const left = b.childForFieldName('left');
  const right = b.childForFieldName('right');
  if (!left || !right || (op !== '+' && op !== '-')) return [];
  const sides = op === '+' ? [left, right] : [left];
  const found: Node[] = [];
  for (const side of sides) {
    const s = withoutCasts(side);
    if (s.type === 'binary_expression') found.push(...offsetBases(s, scalars));
    else if (s.type === 'number_literal' || (s.type === 'identifier' && scalars.has(s.text))) continue;
    else found.push(side);
  }
  return found;
}
