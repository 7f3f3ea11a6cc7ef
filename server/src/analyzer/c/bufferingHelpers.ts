// A helper that sends a buffer held by one of its arguments and also copies another argument into that
// buffer: `out_add(fd, ob, data, n) { if (ob->used + n > sizeof ob->buf) { write(fd, ob->buf,
// ob->used); ob->used = 0; } memcpy(ob->buf + ob->used, data, n); ob->used += n; }`. It is an output
// buffer that appends what it is given and writes only when it fills up: the bytes a call sends are
// those earlier calls copied in, not its own argument's, and most calls send nothing. Its calls
// already gather, so they are no writes of a run (a helper that only sends an object it is given,
// leaving it as it was, stays one write a call).
import type { Node } from 'web-tree-sitter';
import { C_FIRST_ARGUMENT_FILLERS } from '../catalogue';
import { callArgs, calleeName, rootName, withoutCasts } from './syntax';

/**
 * True when `body` copies the bytes of another parameter (or what it points at) into the object
 * parameter `holder`: a library fill (`memcpy`, `strcpy`, `snprintf`, ...) whose destination is reached
 * through `holder` and whose other arguments name one of the other `params`. Does not modify `body`.
 */
export function fillsHeldBuffer(
  body: Node,
  holder: string,
  params: readonly (string | undefined)[],
): boolean {
  const others = new Set(params.filter((p): p is string => !!p && p !== holder));
  if (others.size === 0) return false;
  return body.descendantsOfType('call_expression').some((call) => {
    if (!call || !C_FIRST_ARGUMENT_FILLERS.test(calleeName(call) ?? '')) return false;
    const [dest, ...rest] = callArgs(call);
    if (!dest || rootName(withoutCasts(dest)) !== holder) return false;
    return rest.some((arg) => {
      const root = rootName(withoutCasts(arg));
      return root !== undefined && others.has(root);
    });
  });
}
