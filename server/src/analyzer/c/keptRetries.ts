// A write retried where it stands that keeps its result: `while ((rv = write(fd, &n, 2)) == -1 && errno
// == EINTR);` then `if (rv != 2) return -1;`. The loop only repeats the same call until it succeeds or
// fails for good (see retries.ts), and what it leaves in `rv` is what that one call returned, exactly as
// `rv = write(fd, &n, 2);` leaves it. So the statement is read as that assignment is (see chains.ts's
// keptIn): one write whose result the checks after it read, and which a gathered call retried the same
// way would set to the total, so it is reported without a fix.
import type { Node } from 'web-tree-sitter';
import { retryCheck } from './retries';

/** No call is taken as pure in a retry's test here: it may read only `errno` and constants. */
const NO_PURE: ReadonlySet<string> = new Set();

/**
 * The call a retry loop makes where it stands and the plain variable it keeps the result in
 * (`while ((rv = write(...)) == -1 && errno == EINTR);` gives the call and `rv`), or undefined for
 * any other statement.
 */
export function keptRetry(stmt: Node): { call: Node; result: string } | undefined {
  const check = retryCheck(stmt, NO_PURE);
  if (!check?.assigned || check.assigned.type !== 'identifier') return undefined;
  return { call: check.call, result: check.assigned.text };
}
