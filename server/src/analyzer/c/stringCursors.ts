/**
 * A write-in-full loop over a NUL-terminated string steps a cursor through it and asks the string's
 * length again from the cursor each round:
 *
 *   while (*p) { n = write(fd, p, strlen(p)); if (n <= 0) return -1; p += n; }
 *
 * The count is the length of what is left, so it shrinks as the cursor grows, though no variable holds
 * it: such a loop sends the string once, as one holding the count in a variable does. The length must
 * measure the very buffer the write is given (spelled alike, casts aside), and that buffer must be the
 * one the loop grows (checked by the caller).
 */
import type { Node } from 'web-tree-sitter';
import { calleeName, callArgs, withoutCasts } from './syntax';

/** True when `lenArg` is `strlen(x)` with `x` spelled as `bufArg` is (casts and spaces aside). */
export function measuresItsBuffer(lenArg: Node | undefined, bufArg: Node | undefined): boolean {
  if (!lenArg || !bufArg) return false;
  const len = withoutCasts(lenArg);
  if (len.type !== 'call_expression' || calleeName(len) !== 'strlen') return false;
  const measured = callArgs(len)[0];
  const spelled = (n: Node) => withoutCasts(n).text.replace(/\s+/g, '');
  return !!measured && spelled(measured) === spelled(bufArg);
}
