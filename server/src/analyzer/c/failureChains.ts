// Checks of one kept write result chained with `else if`, each naming another failure and each
// leaving: `if (n < 0) { log("error"); return -1; } else if (n != len) { log("short"); return -1; }`.
// The chain is one check split by the message it prints: past it, as past a single leaving check,
// the write sent its whole length. Any arm that goes on (no return, goto, break or continue), a test
// that reads more than the result or holds a call, a test of success (`n == len`), or a final plain
// `else` keeps the check unknown, and the run ends at it as before.
import type { Node } from 'web-tree-sitter';
import { testsSuccess } from './storedTests';
import { identifiers } from './syntax';
import { readsOnly, type CContext } from './writes';

/**
 * True when `check` is `if (...) ... else if (...) ...` (one `else if` at least, no final `else`)
 * whose every test reads only `result` among the names it tests, names a failure of it (not success:
 * `kind` as storedTests.ts reads it), and whose every arm leaves (`leaves`, as the single check's).
 */
export function leavingFailureChain(
  check: Node,
  result: string,
  kind: string | undefined,
  ctx: CContext,
  leaves: (body: Node | null) => boolean,
): boolean {
  let node: Node | null = check;
  let tests = 0;
  while (node) {
    if (node.type !== 'if_statement' || node.hasError) return false;
    const cond = node.childForFieldName('condition');
    if (!cond || !identifiers(cond).has(result) || !readsOnly(cond, ctx.pure)) return false;
    if (testsSuccess(cond, result, kind)) return false;
    if (!leaves(node.childForFieldName('consequence'))) return false;
    tests++;
    const alternative = node.childForFieldName('alternative');
    if (!alternative) return tests > 1;
    // An else clause holds its statement as its one named child: another `if` continues the chain.
    node = alternative.type === 'else_clause' ? alternative.namedChild(0) : alternative;
  }
  return false;
}
