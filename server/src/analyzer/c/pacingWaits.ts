// A helper that waits after its write (`write(fd, s, n); tcdrain(fd);`, `send(...); usleep(delay);`) on
// the way to success: each call's bytes go out, then the program waits before anything else runs, a
// device's or a peer's pacing. Two calls of it are two writes split by a wait, which a program makes on
// purpose (see catalogue's libraryWaits); gathered, the wait between them would be lost. A wait on the
// write's failure path (`poll()` for EAGAIN), or inside a loop around the write (a write-in-full loop
// polling until the rest can go), only completes the one write.
import type { Node } from 'web-tree-sitter';
import { waitingCall } from './terminalRequests';

/**
 * The first call among `all` (a helper body's calls, in source order) after `write` that is a library
 * wait, outside any loop around the write, where `failing` (the write's failure path, another
 * configuration's code) does not say it runs only when the write failed; undefined when there is none.
 */
export function waitAfterWrite(
  write: Node,
  all: readonly Node[],
  failing: (call: Node) => boolean,
): Node | undefined {
  return all.find((c) => {
    if (c.startIndex < write.endIndex) return false;
    return waitingCall(c) && !failing(c) && !retrying(c, write);
  });
}

const LOOPS = new Set(['while_statement', 'for_statement', 'do_statement']);

/** Whether `wait` lies in a loop that holds `write` too: it waits to go on with the same write. */
function retrying(wait: Node, write: Node): boolean {
  for (let at = wait.parent; at; at = at.parent)
    if (LOOPS.has(at.type) && write.startIndex >= at.startIndex && write.endIndex <= at.endIndex) return true;
  return false;
}
