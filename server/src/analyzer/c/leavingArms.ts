// A connection written through its session, when it has one, by an arm that leaves: `if (c->ssl) {
// ssl_send(c, buf, n); return; }` and then the descriptor's write loop below. The write runs only where
// the test failed, the arm only where it held: one or the other, as with an if/else.
import type { Node } from 'web-tree-sitter';
import { namedKids } from './syntax';

/** True when `stmt` always leaves the function: a `return`, or a block whose last statement is one. */
function leaves(stmt: Node | null): boolean {
  if (!stmt) return false;
  if (stmt.type === 'return_statement') return true;
  if (stmt.type !== 'compound_statement') return false;
  const kids = namedKids(stmt).filter((k) => k.type !== 'comment');
  return kids.length > 0 && kids[kids.length - 1]!.type === 'return_statement';
}

/**
 * True when `inArm` lies in the arm of an `if` with no `else` that always returns, and `after` lies
 * after that `if` in the block holding it (an `#if` group around the `if` aside): no run of the function
 * reaches both. Does not modify the tree.
 */
export function leavingArm(inArm: Node, after: Node): boolean {
  for (let at = inArm.parent; at; at = at.parent) {
    if (at.type !== 'if_statement') continue;
    const arm = at.childForFieldName('consequence');
    if (!arm || inArm.startIndex < arm.startIndex || inArm.endIndex > arm.endIndex) continue;
    if (at.childForFieldName('alternative') || !leaves(arm)) return false;
    // The block holding the `if`, past any `#if` group around it (`#ifdef WITH_TLS if (...) {...} #endif`).
    let block = at.parent;
    while (block && block.type !== 'compound_statement') block = block.parent;
    return !!block && after.startIndex >= at.endIndex && after.endIndex <= block.endIndex;
  }
  return false;
}
