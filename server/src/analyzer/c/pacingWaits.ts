// A helper that waits after its write (`write(fd, s, n); tcdrain(fd);`, `send(...); usleep(delay);`) on
// the way to success: each call's bytes go out, then the program waits before anything else runs, a
// device's or a peer's pacing. Two calls of it are two writes split by a wait, which a program makes on
// purpose (see catalogue's libraryWaits); gathered, the wait between them would be lost. A wait on the
// write's failure path (`poll()` for EAGAIN in a write-in-full loop) only retries the one write.
import type { Node } from 'web-tree-sitter';
import { libraryWaits } from '../catalogue';
import { calleeName } from './syntax';

/**
 * The first call among `all` (a helper body's calls, in source order) after `write` that is a library
 * wait, where `failing` (the write's failure path, another configuration's code) does not say it runs
 * only when the write failed; undefined when there is none.
 */
export function waitAfterWrite(
  write: Node,
  all: readonly Node[],
  failing: (call: Node) => boolean,
): Node | undefined {
  return all.find((c) => {
    if (c.startIndex < write.endIndex) return false;
    const callee = calleeName(c);
    return callee !== undefined && libraryWaits(callee) && !failing(c);
  });
}
