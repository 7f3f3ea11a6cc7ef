// Code the compiler never runs: `if (0) write(sock, "\n", 1);` (a debugging line switched off in place)
// and `#if 0 ... #endif`. Its writes join nothing, and a run may pass it as it passes a comment.
import type { Node } from 'web-tree-sitter';
import { unwrap } from './syntax';

/** True when `test` is the constant 0 (`0`, `(0)`, `0L`, `0x0`), written as a literal. */
function constantZero(test: Node | null): boolean {
  if (!test) return false;
  const at = unwrap(test);
  return at.type === 'number_literal' && /^0+(x0+)?[uUlL]*$/i.test(at.text);
}

/**
 * True when `stmt` is an `if` whose test is the constant 0 and that has no `else`, or an `#if 0` block
 * without `#else`/`#elif`: nothing in it ever runs, so it neither writes nor separates writes.
 */
export function deadStatement(stmt: Node): boolean {
  if (stmt.type === 'if_statement')
    return !stmt.childForFieldName('alternative') && constantZero(stmt.childForFieldName('condition'));
  if (stmt.type === 'preproc_if')
    return !stmt.childForFieldName('alternative') && constantZero(stmt.childForFieldName('condition'));
  return false;
}
