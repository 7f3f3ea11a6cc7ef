// A write loop that takes what it sent off the length it passes but never moves the buffer:
// `while (left) { if ((n = write(fd, buf, left)) != left) { if (n <= 0) return n; } left -= n; }`.
// A write that sends everything leaves nothing to send and ends the loop; only a short write sends
// again, and then it sends the start of the buffer once more (the loop's own bug). So one call of the
// helper is one write of its buffer, as with the loop that counts up to the length without advancing
// (shortWriteResends.ts), and the helper's calls join runs like writes. A loop whose length changes by
// anything else than the write's result, or that moves the buffer, is no such loop.
import type { Node } from 'web-tree-sitter';
import { conjuncts } from './retries';
import { calls, identifiers, resultName, withoutCasts } from './syntax';

/** True when `term` holds while `name` is left over: `left`, `left > 0`, `0 < left`, `left != 0`. */
function leftOver(term: Node, name: string): boolean {
  if (term.type === 'identifier') return term.text === name;
  if (term.type !== 'binary_expression') return false;
  const op = term.childForFieldName('operator')?.text;
  const left = term.childForFieldName('left');
  const right = term.childForFieldName('right');
  if (!left || !right) return false;
  const [l, r] = [withoutCasts(left), withoutCasts(right)];
  if (op === '>' || op === '!=') return l.text === name && r.text === '0';
  if (op === '<') return l.text === '0' && r.text === name;
  return false;
}

/** True when `node` takes `by` off `name`: `name -= by` or `name = name - by`. */
function takesFrom(node: Node, name: string, by: string): boolean {
  if (node.type !== 'assignment_expression') return false;
  const left = node.childForFieldName('left');
  const right = node.childForFieldName('right');
  if (left?.type !== 'identifier' || left.text !== name || !right) return false;
  const op = node.childForFieldName('operator')?.text;
  if (op === '-=') return withoutCasts(right).text === by;
  const diff = withoutCasts(right);
  if (op !== '=' || diff.type !== 'binary_expression' || diff.childForFieldName('operator')?.text !== '-')
    return false;
  const l = diff.childForFieldName('left');
  const r = diff.childForFieldName('right');
  return !!l && !!r && withoutCasts(l).text === name && withoutCasts(r).text === by;
}

/** The nodes of `loop` that assign or step `name`. */
function changesOf(loop: Node, name: string): Node[] {
  const found: Node[] = [];
  for (const n of loop.descendantsOfType(['assignment_expression', 'update_expression'])) {
    const target = n?.childForFieldName(n.type === 'assignment_expression' ? 'left' : 'argument');
    if (n && target?.type === 'identifier' && target.text === name) found.push(n);
  }
  return found;
}

/**
 * True when `loop` runs `call` again only after a short write: its test goes on while the length
 * `lenArg` the call is given is left over, every part of the test calls nothing but the write, the loop
 * changes that length only by taking the call's result off it, and nothing in the loop changes the
 * buffer `bufArg`.
 */
export function resendsShrinkingCount(
  loop: Node,
  call: Node,
  bufArg: Node,
  lenArg: Node | undefined,
): boolean {
  const length = lenArg ? withoutCasts(lenArg) : undefined;
  if (length?.type !== 'identifier') return false;
  const result = resultName(call);
  const condition = loop.childForFieldName('condition');
  if (!result || result === length.text || !condition) return false;
  const terms = conjuncts(withoutCasts(condition)).map((t) => withoutCasts(t));
  if (!terms.some((t) => leftOver(t, length.text))) return false;
  if (!terms.every((t) => calls(t).every((c) => c.id === call.id))) return false;
  const changes = changesOf(loop, length.text);
  if (changes.length === 0 || !changes.every((n) => takesFrom(n, length.text, result))) return false;
  return ![...identifiers(bufArg)].some((n) => changesOf(loop, n).length > 0);
}
