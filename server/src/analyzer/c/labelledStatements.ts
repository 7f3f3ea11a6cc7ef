// A label (`retry:`) is where a `goto` may enter a statement list: the statements before it may not
// have run when the ones after it do, so no run of writes crosses it. A run may still start at the
// labelled statement itself: a gathered call in its place keeps the label in front of it, and a jump
// to the label then sends everything the run sent.
import type { Node } from 'web-tree-sitter';
import { namedKids } from './syntax';

/** The statement a label stands in front of (`retry: n = write(...);`), or undefined for a bare one. */
export function labelledStatement(stmt: Node): Node | undefined {
  if (stmt.type !== 'labeled_statement') return undefined;
  const kids = namedKids(stmt).filter((k) => k.type !== 'statement_identifier' && k.type !== 'comment');
  const inner = kids[kids.length - 1];
  return inner?.type === 'expression_statement' || inner?.type === 'if_statement' ? inner : undefined;
}

/**
 * A statement list cut at its labels: each segment starts at a label (but the first), and the
 * labelled statement is given as the statement it labels. Undefined when no label holds a statement
 * that may write (a list read whole, as before).
 */
export function labelSegments(statements: readonly Node[]): Node[][] | undefined {
  if (!statements.some((s) => labelledStatement(s))) return undefined;
  const segments: Node[][] = [[]];
  for (const stmt of statements) {
    const inner = labelledStatement(stmt);
    if (inner) segments.push([inner]);
    else segments[segments.length - 1]!.push(stmt);
  }
  return segments.filter((s) => s.length > 0);
}
