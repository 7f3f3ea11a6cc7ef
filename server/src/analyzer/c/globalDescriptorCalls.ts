// A helper that writes to a descriptor it is not given (a global, or its file's static: `Device` in
// `serial_write(s, n) { write(Device, s, n); }`) leaves that descriptor in reach of every function it
// calls. A wrapper that goes on, once the write succeeded, to a function that may do I/O and is handed
// no text to print (`send(s, n); receive_ack();`, `send(s, n); usleep(20); poll_keys();`) may read the
// device's answer or pace it there: its calls are turns of a dialogue or paced commands, not writes to
// gather. A log line (a call handed a string literal: `info("sent %d bytes", n)`) is output elsewhere
// and the failure path's calls run only where nothing was sent; calls the fact base finds quiet do no
// I/O. A descriptor given as a parameter is checked where it is handed on (helperBodies.ts `given`).
import type { Node } from 'web-tree-sitter';
import { calleeName, calls } from './syntax';

/** True when `call` hands a string literal to its callee: a message to print, as a log line does. */
function logs(call: Node): boolean {
  const args = call.childForFieldName('arguments');
  return !!args && args.descendantsOfType(['string_literal', 'concatenated_string']).length > 0;
}

/**
 * The first call in `body` after `write` (a helper's one write, to a descriptor it is not given) that
 * may do I/O there: not `quiet`, not inside `retry` (a loop that repeats the write only after a failure,
 * see countedRetries.ts), handed no string literal, and not one the caller's `failing` passes over (the
 * write's failure path, the write again, another configuration's code); or undefined when there is none.
 */
export function globalDescriptorCall(
  body: Node,
  write: Node,
  opts: {
    readonly retry?: Node;
    readonly quiet: (name: string) => boolean;
    readonly failing: (call: Node) => boolean;
  },
): Node | undefined {
  const inside = (n: Node, outer: Node) => n.startIndex >= outer.startIndex && n.endIndex <= outer.endIndex;
  return calls(body).find((c) => {
    if (c.startIndex < write.endIndex || inside(c, write)) return false;
    if (opts.retry && inside(c, opts.retry)) return false;
    const name = calleeName(c);
    if (name !== undefined && opts.quiet(name)) return false;
    return !logs(c) && !opts.failing(c);
  });
}
