// A write helper may first check that its peer is still there: it polls the descriptor and, when poll
// says there is something to read, peeks at it (`recv(fd, tmp, sizeof tmp, MSG_PEEK | MSG_DONTWAIT)`)
// and gives up when the peek returns 0 (the peer closed). A peek takes no byte off the stream and puts
// none on it: the helper still sends its buffer with its one write, so the peek is no other I/O on the
// descriptor. A receive without MSG_PEEK consumes what it reads and stays other I/O.
import type { Node } from 'web-tree-sitter';
import { callArgs, calleeName } from './syntax';

/** Where each receive function takes its flags (POSIX `recv`, `recvfrom`, `recvmsg`). */
const FLAGS_INDEX: ReadonlyMap<string, number> = new Map([
  ['recv', 3],
  ['recvfrom', 3],
  ['recvmsg', 2],
]);

/**
 * True when `call` is a POSIX receive whose flags say `MSG_PEEK`: it reads data without removing it
 * from the descriptor, so it changes neither what the descriptor's reader sees nor what is written.
 */
export function peeksOnly(call: Node): boolean {
  const index = FLAGS_INDEX.get(calleeName(call) ?? '');
  const flags = index === undefined ? undefined : callArgs(call)[index];
  return flags !== undefined && /\bMSG_PEEK\b/.test(flags.text);
}
