// A helper's write loop that gives up on a failed write often hands the connection to a function that
// tears it down or reports it (`if (n < 1) { connection_died(c, 0); return; }`) before returning. That
// call runs only once the helper's one write has failed, and the helper returns right after: whatever
// it does to the descriptor, no later byte of this call is written, and a run of such calls ends at the
// failure anyway. It is no other I/O beside the helper's write.
import type { Node } from 'web-tree-sitter';
import { namedKids } from './syntax';

/**
 * True when `call` stands in the arm of an `if` (innermost around it) whose last statement is a
 * `return`, and `onFailure` says that arm runs only where the helper's write failed. Does not modify
 * the tree.
 */
export function handsOffOnFailure(call: Node, onFailure: boolean): boolean {
  if (!onFailure) return false;
  for (let at = call.parent; at; at = at.parent) {
    if (at.type !== 'if_statement') continue;
    const arm = at.childForFieldName('consequence');
    if (!arm || call.startIndex < arm.startIndex || call.endIndex > arm.endIndex) return false;
    if (arm.type === 'return_statement') return false;
    const kids = arm.type === 'compound_statement' ? namedKids(arm).filter((k) => k.type !== 'comment') : [];
    return kids.length > 0 && kids[kids.length - 1]!.type === 'return_statement';
  }
  return false;
}
