// What a loop's syntax says about its writes, beyond what changes per iteration: what its header reads
// (a `for` whose update advances by a write's result, `off += nw`, finishes one write rather than
// writing once per item), and which variables its writes send by address while the loop assigns them
// (`port = p->min; write(fd, &port, 4);`: one storage rewritten each iteration, so the buffers of
// earlier iterations are gone by the time the loop ends and cannot be gathered after it).
import type { Node } from 'web-tree-sitter';
import { identifiers, withoutCasts } from './syntax';

/** The identifiers the loop's header parts (condition, a `for`'s initializer and update) read. */
export function headerReads(header: readonly Node[]): string[] {
  const names = new Set<string>();
  for (const part of header) identifiers(part, names);
  return [...names];
}

/**
 * The variable whose own storage `&operand` points into: `port` for `&port` and `&hdr.len`; none when
 * a pointer is followed on the way (`&p->min`, `&buf[i]`): then the storage is wherever that points.
 */
function ownStorage(operand: Node): string | undefined {
  let at = withoutCasts(operand);
  while (at.type === 'field_expression' && at.child(1)?.type === '.') {
    const arg = at.childForFieldName('argument');
    if (!arg) return undefined;
    at = withoutCasts(arg);
  }
  return at.type === 'identifier' ? at.text : undefined;
}

/**
 * The variables of `varying` (assigned in the loop, or declared in its body) whose address a write
 * statement of the body takes (`write(fd, &port, sizeof port)`): each iteration sends the same memory
 * with new contents.
 */
export function rewrittenByAddress(writeStatements: readonly Node[], varying: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  for (const stmt of writeStatements) {
    for (const p of stmt.descendantsOfType('pointer_expression')) {
      if (p?.child(0)?.type !== '&') continue;
      const arg = p.childForFieldName('argument');
      const name = arg ? ownStorage(arg) : undefined;
      if (name && varying.has(name)) found.add(name);
    }
  }
  return [...found];
}
