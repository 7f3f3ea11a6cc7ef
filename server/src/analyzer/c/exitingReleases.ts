// A write helper's failure path that closes its descriptor and then ends the program: `if (write(fd,
// &nc, sizeof nc) != sizeof nc) { perror("write"); close(fd); exit(2); }`. The program never comes back
// to the caller, so no later call writes to the descriptor the failure closed: each call is still one
// write, as when the path closes and returns (see failurePaths.ts), and a gathered call keeps the path.
// That the path ends the program is read from the code: its last statement (a trailing block opened)
// calls a function that never returns (see noReturnCalls.ts), never from the helper's name.
import type { Node } from 'web-tree-sitter';
import { releasesDescriptor } from './failurePaths';
import { neverReturns, openTrailingBlocks, type NoReturnSources } from './noReturnCalls';
import { calleeName, namedKids } from './syntax';

/**
 * True when `call`, a call of `name` on the failure path of the helper's one write (`onFailure` tells
 * that), closes (or shuts down) a descriptor in the consequence of the `if` around it and a statement
 * after it in that consequence, the last, calls a function that never returns (looked up in `sources`).
 */
export function releasesBeforeExit(
  call: Node,
  name: string,
  onFailure: boolean,
  sources: NoReturnSources,
): boolean {
  if (!releasesDescriptor(name) || !onFailure) return false;
  let at = call.parent;
  while (at && at.type !== 'if_statement') at = at.parent;
  const then = at?.childForFieldName('consequence');
  if (!then || call.startIndex < then.startIndex || call.endIndex > then.endIndex) return false;
  const stmts = openTrailingBlocks(then.type === 'compound_statement' ? namedKids(then) : [then]).filter(
    (s) => s.type !== 'comment',
  );
  const last = stmts[stmts.length - 1];
  if (!last || last.startIndex < call.endIndex || last.type !== 'expression_statement') return false;
  const ends = last.namedChild(0);
  const callee = ends?.type === 'call_expression' ? calleeName(ends) : undefined;
  return callee !== undefined && neverReturns(callee, sources);
}
