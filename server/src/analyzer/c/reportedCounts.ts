// A write's kept count that the code after the run only reports: `nwrite = cwrite(net_fd, buffer, n);`
// then `do_debug("wrote %d bytes", nwrite);`. The count goes into a message to a log or a standard
// stream, not into anything the program computes or tests with, so the write is still one write of a
// run (see chains.ts, `resultChecked`); the finding says a gathered call would set the variable to the
// total, and has no fix. A count handed to any other call (`account(n)`, `snprintf(msg, .., n)`) is a
// use of it, as `total += n;` is.
import type { Node } from 'web-tree-sitter';
import { reportCall, reports } from './keptFailures';
import { calleeName, callArgs, calls, identifiers } from './syntax';
import type { CContext } from './writes';

/**
 * True when `stmt` only reports, on a descriptor no report can reach (see keptFailures.ts, `reports`),
 * and hands `name` to reports alone: every call that reads it is one of the C library's reports or a
 * logger named as one, which formats it into its message.
 */
export function reportedOnly(stmt: Node, name: string, descriptor: string, ctx: CContext): boolean {
  if (!reports(stmt, descriptor, ctx)) return false;
  const readers = calls(stmt).filter((c) => callArgs(c).some((a) => identifiers(a).has(name)));
  return readers.length > 0 && readers.every((c) => reportCall(calleeName(c) ?? ''));
}
