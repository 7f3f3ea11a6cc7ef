/**
 * A write-in-full loop that bounds its cursor by an end pointer rather than by a count:
 *
 *   const char *p = data; const char *const end = p + size;
 *   while (p < end) { n = send(fd, p, end - p, 0); if (n < 0) abort(); p += n; }
 *
 * The end is set once, to the buffer's start plus its length, and each round sends what lies between
 * the cursor and the end: that difference is what is left, and it shrinks as the cursor grows, as a
 * count variable would. Such a loop sends the buffer once a call. The end must keep its value (an end
 * moved in the loop bounds nothing), its start must be the buffer the cursor starts at, and the count
 * must be spelled from the cursor the write is given (`end - data`, from the start, resends what was
 * sent after a short write); the caller checks that the cursor grows.
 */
import type { Node } from 'web-tree-sitter';
import { withoutCasts } from './syntax';

/** What the helper's body says of its names, as the helper reading gathers it. */
export interface EndPointerFacts {
  /** The value each local is declared with. */
  readonly initial: ReadonlyMap<string, Node>;
  /** True for a name the body changes in any way after its declaration. */
  readonly changed: (name: string) => boolean;
  /** True for a name that stands for the buffer the write's cursor starts at. */
  readonly startsBuffer: (name: string) => boolean;
}

/**
 * The name of the count `lenArg` measures when it is `end - cursor`, `end` a local declared as `start +
 * count` (or `count + start`, casts aside) and never changed, `start` a name that stands for the buffer
 * (the cursor itself, before it moves, or the parameter it copies), and `cursor` the buffer the write is
 * given. Undefined for any other length.
 */
export function endPointerCount(
  lenArg: Node,
  cursor: string | undefined,
  facts: EndPointerFacts,
): string | undefined {
  const len = withoutCasts(lenArg);
  if (!cursor || len.type !== 'binary_expression' || len.childForFieldName('operator')?.text !== '-')
    return undefined;
  const left = len.childForFieldName('left');
  const right = len.childForFieldName('right');
  if (!left || !right || withoutCasts(right).type !== 'identifier' || withoutCasts(right).text !== cursor)
    return undefined;
  const end = withoutCasts(left);
  if (end.type !== 'identifier' || facts.changed(end.text)) return undefined;
  const value = facts.initial.get(end.text);
  // Declared in a loop, the end would be set again from a cursor that has moved.
  if (!value || inLoop(value)) return undefined;
  const sum = withoutCasts(value);
  if (sum.type !== 'binary_expression' || sum.childForFieldName('operator')?.text !== '+') return undefined;
  const sides = [sum.childForFieldName('left'), sum.childForFieldName('right')].map((s) =>
    s ? withoutCasts(s) : undefined,
  );
  if (!sides.every((s) => s?.type === 'identifier')) return undefined;
  const [a, b] = sides.map((s) => (s as Node).text) as [string, string];
  if (facts.startsBuffer(a) && !facts.startsBuffer(b)) return b;
  if (facts.startsBuffer(b) && !facts.startsBuffer(a)) return a;
  return undefined;
}

/** True when `node` lies in a loop of its function. */
function inLoop(node: Node): boolean {
  for (let at = node.parent; at && at.type !== 'function_definition'; at = at.parent)
    if (at.type === 'while_statement' || at.type === 'for_statement' || at.type === 'do_statement')
      return true;
  return false;
}
