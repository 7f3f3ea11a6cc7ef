// A write loop that forgets to advance: `while (nw < len && (n = write(fd, buf, len)) > 0) nw += n;`
// counts what it sent against the length it passes, but passes the same buffer and length each time.
// It goes round again only after a short write (then it sends the start again, the loop's own bug); a
// write that sends everything ends it. So one call of the helper is one write of its buffer, as a retry
// on failure is, and the helper's calls join runs like writes. A loop that repeats for any other reason
// (a round counter, a count grown by something else than the write's result) sends the bytes again and
// again and stays no helper of one write.
import type { Node } from 'web-tree-sitter';
import { conjuncts } from './retries';
import { calls, identifiers, resultName, withoutCasts } from './syntax';

/** The name a test keeps below `bound` (`nw < len`, `len > nw`), or undefined. */
function keptBelow(term: Node, bound: string): string | undefined {
  if (term.type !== 'binary_expression') return undefined;
  const op = term.childForFieldName('operator')?.text;
  const left = term.childForFieldName('left');
  const right = term.childForFieldName('right');
  if (!left || !right) return undefined;
  const [low, high] = op === '<' ? [left, right] : op === '>' ? [right, left] : [];
  if (!low || !high || withoutCasts(high).text !== bound) return undefined;
  const counted = withoutCasts(low);
  return counted.type === 'identifier' ? counted.text : undefined;
}

/** True when `node` adds `by` to `name`: `name += by`, `name = name + by`, `name = by + name`. */
function addsTo(node: Node, name: string, by: string): boolean {
  if (node.type !== 'assignment_expression') return false;
  const left = node.childForFieldName('left');
  const right = node.childForFieldName('right');
  if (left?.type !== 'identifier' || left.text !== name || !right) return false;
  const op = node.childForFieldName('operator')?.text;
  if (op === '+=') return withoutCasts(right).text === by;
  const sum = withoutCasts(right);
  if (op !== '=' || sum.type !== 'binary_expression' || sum.childForFieldName('operator')?.text !== '+')
    return false;
  const sides = [sum.childForFieldName('left'), sum.childForFieldName('right')].map((s) =>
    s ? withoutCasts(s).text : '',
  );
  return sides.includes(name) && sides.includes(by);
}

/** The names `loop` assigns or steps anywhere (its test, update and body). */
function changedIn(loop: Node): Set<string> {
  const changed = new Set<string>();
  for (const n of loop.descendantsOfType(['assignment_expression', 'update_expression'])) {
    const target = n?.childForFieldName(n.type === 'assignment_expression' ? 'left' : 'argument');
    if (target?.type === 'identifier') changed.add(target.text);
  }
  return changed;
}

/**
 * True when `loop` runs `call` again only after a short write: its test goes on while a count grown by
 * the call's result stays below the length `lenArg` the call is given, every other part of the test
 * calls nothing but the write, and nothing in the loop changes the buffer `bufArg` or that length.
 */
export function resendsShortWrite(loop: Node, call: Node, bufArg: Node, lenArg: Node | undefined): boolean {
  const length = lenArg ? withoutCasts(lenArg) : undefined;
  if (length?.type !== 'identifier') return false;
  const result = resultName(call);
  const condition = loop.childForFieldName('condition');
  if (!result || !condition) return false;
  const terms = conjuncts(withoutCasts(condition));
  const counted = terms.map((t) => keptBelow(withoutCasts(t), length.text)).find((n) => n !== undefined);
  if (!counted || counted === result) return false;
  const ownCall = (t: Node) => calls(t).every((c) => c.id === call.id);
  if (!terms.every(ownCall)) return false;
  const grows = loop
    .descendantsOfType('assignment_expression')
    .some((n) => n !== null && addsTo(n, counted, result));
  if (!grows) return false;
  const changed = changedIn(loop);
  return ![length.text, ...identifiers(bufArg)].some((n) => changed.has(n));
}
