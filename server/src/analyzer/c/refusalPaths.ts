// A write helper may refuse a call before it writes anything: a guard ahead of the write (`if (len >=
// SSIZE_MAX) { close(c->fd); c->fd = -1; free_conn(c); return 0; }`) tears the connection down and
// leaves with a failure. Such a call writes nothing, exactly like a call whose write failed, so what the
// guard does to the descriptor (closing it, setting it to -1) is read as a failure path's cleanup: the
// helper is still a helper of one write, and its calls that do write still write the same descriptor.
// A guard that goes on to the write (a reconnect: `if (c->fd < 0) c->fd = reopen(c);`) changes what the
// write sends to, and is no refusal.
import type { Node } from 'web-tree-sitter';

/** Statement kinds that repeat their body: a guard inside one that also holds the write runs mid-stream. */
const LOOPS = new Set(['for_statement', 'while_statement', 'do_statement']);

/** True when `block` (an `if`'s consequence) ends by leaving the function: its last statement returns. */
function leaves(block: Node): boolean {
  if (block.type === 'return_statement') return true;
  if (block.type !== 'compound_statement') return false;
  const statements = block.namedChildren.filter((n) => n && n.type !== 'comment');
  return statements.at(-1)?.type === 'return_statement';
}

/** True when `at` is a loop statement around `write`. */
function loopAround(at: Node, write: Node): boolean {
  return LOOPS.has(at.type) && write.startIndex >= at.startIndex && write.endIndex <= at.endIndex;
}

/**
 * True when `node` is inside the consequence of an `if` of `body` that ends before `write` begins and
 * whose consequence leaves the function: a guard that refuses the call before anything is written. The
 * guard must not be inside a loop around the write (there it would stop a call midway, after writes).
 */
export function refusesBefore(node: Node, write: Node, body: Node): boolean {
  for (let at = node.parent; at && at.id !== body.id; at = at.parent) {
    if (at.type !== 'if_statement' || at.endIndex > write.startIndex) continue;
    const then = at.childForFieldName('consequence');
    if (!then || node.startIndex < then.startIndex || node.endIndex > then.endIndex || !leaves(then))
      continue;
    for (let up = at.parent; up && up.id !== body.id; up = up.parent) if (loopAround(up, write)) return false;
    return true;
  }
  return false;
}
