// A helper that writes a request and then hands the same descriptor to a function whose body does I/O
// (`ser_send(fd, "%s", cmd); ser_get_line(fd, reply, ...)`, the reader in another file): each call is
// a turn of a dialogue, not one write. Gathered, the second request would leave before the device or
// peer answered the first, and the reply the first call waits for would be read by nobody. The name of
// the reader says nothing (`ser_get_char`, `get_data`): its body, in this file or another of the tree,
// reaches `read()` through `select()` and is what the fact base finds not quiet. A function whose body
// is nowhere in view is left as before: nothing is known of it, and a file read alone knows no more.
import type { Node } from 'web-tree-sitter';
import { calleeName } from './syntax';
import type { CContext } from './writes';

/**
 * The first of `calls` (a helper body's calls, in source order) after `write` that `handed` says is
 * given the write's descriptor, runs where the write did not fail (`onFailure` false), is no writer
 * (`writes` false) and calls a function whose body is in view and does I/O ({@link CContext.bodyIO}):
 * the call that awaits the reply to what the helper wrote. Undefined when there is none or the context
 * knows no bodies. Does not modify `calls`.
 */
export function awaitedReply(
  write: Node,
  calls: readonly Node[],
  handed: (call: Node) => boolean,
  onFailure: (call: Node) => boolean,
  writes: (call: Node, callee: string) => boolean,
  ctx: CContext,
): Node | undefined {
  const bodyIO = ctx.bodyIO;
  if (!bodyIO) return undefined;
  return calls.find((c) => {
    if (c.startIndex < write.endIndex) return false;
    const callee = calleeName(c);
    return (
      callee !== undefined && bodyIO(callee) && !writes(c, callee) && handed(c) && !onFailure(c)
    );
  });
}
