// A helper that builds its message in memory it allocates, writes it, and then hands that memory to a
// release function: `pt = xmalloc(n); daemon_crlf(pt, text); write_all(fd, pt, strlen(pt)); xfree(pt);`.
// The release comes after the bytes left and is given nothing but the memory the call built: it reads
// no byte the call sends and no state from outside. A project's own `free` wrapper is often defined in a
// library outside the tree (its body not in view), so it is known by C's naming convention for it, as
// the steps know it (catalogue.ts `freesFirstArgument`).
import type { Node } from 'web-tree-sitter';
import { freesFirstArgument } from '../catalogue';
import { calleeName, callArgs, withoutCasts } from './syntax';

/**
 * True when `call` runs after `write` and only releases `local`: a release function (by name) given
 * `local` itself as its one argument. Reads the nodes only.
 */
export function releasesLocalAfter(call: Node, local: string, write: Node): boolean {
  if (call.startIndex < write.endIndex) return false;
  const args = callArgs(call);
  return (
    freesFirstArgument(calleeName(call) ?? '') &&
    args.length === 1 &&
    withoutCasts(args[0]!).type === 'identifier' &&
    withoutCasts(args[0]!).text === local
  );
}
