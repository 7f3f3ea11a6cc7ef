// Guards that leave: `if (len > MAX) return -1;` opening a body. What a reading of the body would
// make of such a statement is known from its syntax alone, so a question whose answer it settles is
// answered without reading the body (see wrappers.ts, framing wrappers).
import type { Node } from 'web-tree-sitter';
import { calls, namedKids } from './syntax';

/** Statements that leave the block they stand in, to anywhere. */
const JUMPS: ReadonlySet<string> = new Set([
  'return_statement',
  'goto_statement',
  'break_statement',
  'continue_statement',
]);

/**
 * `if (len > MAX) return -1;`: an `if` that calls nothing and whose body is a jump, or holds one among
 * its own statements. Read as a frame's first step, it is no write (a write is a call) and no
 * computation (an arm that leaves is a barrier), nor an if/else of frames: the body is no frame,
 * whatever follows. Nothing stands before it whose result it could be the check of.
 */
export function leavingGuard(first: Node | undefined): boolean {
  if (first?.type !== 'if_statement') return false;
  const then = first.childForFieldName('consequence');
  const leaves =
    !!then &&
    (JUMPS.has(then.type) ||
      (then.type === 'compound_statement' && namedKids(then).some((s) => JUMPS.has(s.type))));
  return leaves && calls(first).length === 0;
}
