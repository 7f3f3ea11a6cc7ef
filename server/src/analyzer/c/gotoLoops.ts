// A loop written with a backward `goto`: `retry: n = send(fd, p + off, left, 0); if (n < 0 && errno ==
// EINTR) goto retry; ... if (n < left) { left -= n; off += n; goto retry; }`. Older C and kernel-style
// code writes its write-in-full and retry loops this way as often as with `while`; the call after the
// label runs again each time a later `goto` jumps back, exactly as in a loop statement.
import type { Node } from 'web-tree-sitter';

/**
 * The statement list that a backward `goto` repeats around `node` within `body`: the innermost block
 * holding a label before `node` and a `goto` to that label after it. Undefined when no jump goes back
 * over `node`. The block stands for the loop: it has no condition, so it is read as a loop left only by
 * `return` or `break`, which is what a goto loop is.
 */
export function gotoLoop(node: Node, body: Node): Node | undefined {
  if (!body.text.includes('goto')) return undefined;
  const jumps = new Map<string, number>();
  for (const jump of body.descendantsOfType('goto_statement')) {
    const label = jump?.childForFieldName('label')?.text;
    if (label && jump.startIndex >= node.endIndex)
      jumps.set(label, Math.max(jumps.get(label) ?? 0, jump.endIndex));
  }
  if (jumps.size === 0) return undefined;
  let loop: Node | undefined;
  for (const labelled of body.descendantsOfType('labeled_statement')) {
    const label = labelled?.childForFieldName('label')?.text;
    const end = label === undefined ? undefined : jumps.get(label);
    if (!labelled || end === undefined || labelled.startIndex > node.startIndex) continue;
    const block = enclosingBlock(labelled, end, body);
    if (block && (!loop || block.startIndex >= loop.startIndex)) loop = block;
  }
  return loop;
}

/**
 * The tests each backward jump over `call` in the goto loop `loop` is taken under (the conditions of
 * the `if`s around each `goto`, innermost first), one list per jump. A jump taken with no test makes
 * an empty list.
 */
export function jumpTests(call: Node, loop: Node): Node[][] {
  const before = new Set<string>();
  for (const labelled of loop.descendantsOfType('labeled_statement')) {
    const label = labelled?.childForFieldName('label')?.text;
    if (labelled && label && labelled.startIndex <= call.startIndex) before.add(label);
  }
  const tests: Node[][] = [];
  for (const jump of loop.descendantsOfType('goto_statement')) {
    const label = jump?.childForFieldName('label')?.text;
    if (!jump || !label || !before.has(label) || jump.startIndex < call.endIndex) continue;
    const around: Node[] = [];
    for (let at = jump.parent; at && at.id !== loop.id; at = at.parent) {
      const condition = at.type === 'if_statement' ? at.childForFieldName('condition') : null;
      if (condition) around.push(condition);
    }
    tests.push(around);
  }
  return tests;
}

/** The innermost block around `labelled` that also holds the text up to `end`. */
function enclosingBlock(labelled: Node, end: number, body: Node): Node | undefined {
  for (let at = labelled.parent; at; at = at.parent) {
    if (at.type === 'compound_statement' && at.endIndex >= end) return at;
    if (at.id === body.id) return undefined;
  }
  return undefined;
}
