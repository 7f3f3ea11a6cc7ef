// Writes in two cases of one `switch` that cannot run in one call, as the two arms of an `if`/`else`
// cannot: a helper that picks its write by the descriptor's kind (`case SERIAL: write(fd, p, n)`,
// `case TCP: send_all(fd, p, (int)n)`) still makes one write per call. A case reaches the next one only
// by falling through; a case whose last statement leaves (`return`, `break`, `goto`, `continue`, or a
// block ending so) does not, so a write in it and a write in a later case are alternatives.
//
// The two writes must still send the same descriptor, buffer and count; a cast changes the type of an
// argument, not its value where the helper checked the range first (`if (n > INT_MAX) return -1;`
// before `(int)n`), so the arguments are compared without their casts.
import type { Node } from 'web-tree-sitter';
import { withoutCasts } from './syntax';

/** Statements that leave a `switch` case without reaching the next one. */
const LEAVING = new Set(['return_statement', 'break_statement', 'goto_statement', 'continue_statement']);

/** The innermost `case`/`default` of a `switch` that `node` lies in, with its `switch`. */
function enclosingCase(node: Node): { kase: Node; switched: Node } | undefined {
  for (let at = node.parent; at; at = at.parent) {
    if (at.type !== 'case_statement') continue;
    const switched = at.parent?.parent;
    if (switched?.type === 'switch_statement') return { kase: at, switched };
    return undefined;
  }
  return undefined;
}

/** True when the statement `s` never completes normally into what follows it. */
function leaves(s: Node | null): boolean {
  if (!s) return false;
  if (LEAVING.has(s.type)) return true;
  if (s.type === 'compound_statement') return leaves(lastStatement(s));
  return false;
}

/** The last statement of a block or of a case (after its label), comments left out. */
function lastStatement(block: Node): Node | null {
  const kids = block.namedChildren.filter((k): k is Node => !!k && k.type !== 'comment');
  const last = kids[kids.length - 1];
  // A case's first named child is its label value; a case without statements falls through.
  if (block.type === 'case_statement' && last === block.childForFieldName('value')) return null;
  return last ?? null;
}

/**
 * True when `a` and `b` lie in two different cases of one `switch` and the earlier case leaves before
 * the later one begins (see the file comment): only one of them runs in a call.
 */
export function otherCase(a: Node, b: Node): boolean {
  const x = enclosingCase(a);
  const y = enclosingCase(b);
  if (!x || !y || x.switched.id !== y.switched.id || x.kase.id === y.kase.id) return false;
  const [first, second] = x.kase.startIndex < y.kase.startIndex ? [x.kase, y.kase] : [y.kase, x.kase];
  // Every case from the first up to the second must leave: a case in between that falls through
  // would carry the first one's control into the second.
  for (let at: Node | null = first; at && at.id !== second.id; at = at.nextNamedSibling) {
    if (at.type === 'comment') continue;
    if (at.type !== 'case_statement' || !leaves(lastStatement(at))) return false;
  }
  return true;
}

/** An argument's text without its casts and spaces, as two alternative writes are compared. */
export function uncastText(arg: Node | undefined): string {
  return arg ? withoutCasts(arg).text.replace(/\s+/g, '') : '?';
}
