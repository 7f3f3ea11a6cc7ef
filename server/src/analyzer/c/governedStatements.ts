// A call standing as a statement without its `;` is a macro that takes the statement after it as its
// body: a loop (`list_for_each(e, head) write(fd, e->buf, e->len);`) or a condition (`IF_DEBUG(x)
// write(...)`), from a header the analyzer does not read. That statement may run any number of
// times, or not at all: no run of writes may start, end or pass in it. The grammar reads the call as
// a statement whose `;` is missing, and the body as the next statement of the list (a braced body is
// read as a block of its own, as before).
import type { Node } from 'web-tree-sitter';

/** True when `stmt` is a macro call with no `;` of its own, so the next statement is its body. */
export function governsNext(stmt: Node): boolean {
  if (stmt.type !== 'expression_statement' || stmt.namedChild(0)?.type !== 'call_expression') return false;
  const last = stmt.child(stmt.childCount - 1);
  return last?.type === ';' && last.isMissing;
}
