// selfRetries: a helper that retries by calling itself. `ssize_t put(int fd, const void *buf, size_t
// n) { ssize_t r = write(fd, buf, n); if (r < 0 && errno == EINTR) return put(fd, buf, n); if (r <
// (ssize_t) n) return put(fd, (char *) buf + r, n - r); return r; }` spells the usual retry loop as tail
// calls: each returns the helper's own call with the descriptor its write was given and the same
// buffer (or the rest of it). Such a call hands the descriptor to no other code; it is the write again,
// on the path where the first did not send everything, as a loop's next round is. A self-call that is
// not the returned value (the helper goes on after it), that passes another descriptor or other bytes,
// is no retry and stays a call given the descriptor.
import type { Node } from 'web-tree-sitter';
import { callArgs, calleeName, identifiers, withoutCasts } from './syntax';

/**
 * True when `call`, in the body of the helper `name`, returns the helper's own call again with the
 * descriptor `write` (the body's one write, whose descriptor and buffer are arguments `fd` and `buf`)
 * was given and a buffer naming what it sent: a retry of that write, as a loop's next round.
 */
export function retriesItself(
  call: Node,
  name: string,
  write: Node,
  slots: { readonly fd?: number; readonly buf: number },
): boolean {
  if (calleeName(call) !== name || slots.fd === undefined) return false;
  let holder = call.parent;
  while (holder?.type === 'parenthesized_expression' || holder?.type === 'cast_expression')
    holder = holder.parent;
  if (holder?.type !== 'return_statement') return false;
  const written = callArgs(write);
  const fd = written[slots.fd];
  const buf = written[slots.buf];
  if (!fd || !buf) return false;
  const fdText = withoutCasts(fd).text;
  const sent = new Set(identifiers(buf));
  const own = callArgs(call);
  return (
    own.some((a) => withoutCasts(a).text === fdText) &&
    own.some((a) => withoutCasts(a).text !== fdText && [...identifiers(a)].some((n) => sent.has(n)))
  );
}
