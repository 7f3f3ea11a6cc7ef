// A helper that writes to a descriptor it is not given (a global, or its file's static: `Device` in
// `serial_write(s, n) { write(Device, s, n); }`) leaves that descriptor in reach of what it calls. A
// wrapper that goes on, once the write succeeded, to wait or to read (`send(s, n); usleep(20);`,
// `send(s, n); read_reply(...)`) or to a function handed nothing at all that may do I/O (`send(s, n);
// receive_ack();`: with no argument, what it works on is what it finds in globals, the descriptor among
// them) paces each command or reads the device's answer to it: its calls are turns of a dialogue, not
// writes to gather. A call handed arguments (a trace of the bytes sent, `dump(s, n)`), one on the
// write's failure path and one the fact base finds quiet are no such turn. A descriptor given as a
// parameter is checked where it is handed on (helperBodies.ts `given`).
import type { Node } from 'web-tree-sitter';
import { waitingCall } from './terminalRequests';
import { callArgs, calleeName, calls } from './syntax';

/**
 * The first call in `body` after `write` (a helper's one write, to a descriptor it is not given) that
 * waits, reads (`reads`, by what the name says) or is handed no argument and is not `quiet`; calls
 * inside `retry` (a loop that repeats the write only after a failure, see countedRetries.ts) and those
 * the caller's `failing` passes over (the write's failure path, the write again, another
 * configuration's code) aside. Undefined when there is none.
 */
export function globalDescriptorCall(
  body: Node,
  write: Node,
  opts: {
    readonly retry?: Node;
    readonly quiet: (name: string) => boolean;
    readonly reads: (name: string) => boolean;
    readonly failing: (call: Node) => boolean;
  },
): Node | undefined {
  const inside = (n: Node, outer: Node) => n.startIndex >= outer.startIndex && n.endIndex <= outer.endIndex;
  return calls(body).find((c) => {
    if (c.startIndex < write.endIndex || inside(c, write)) return false;
    if (opts.retry && inside(c, opts.retry)) return false;
    const name = calleeName(c);
    if (name === undefined || opts.quiet(name) || opts.failing(c)) return false;
    return waitingCall(c) || opts.reads(name) || callArgs(c).length === 0;
  });
}
