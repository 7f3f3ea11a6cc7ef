// Connections accepted on a listening socket that keeps message boundaries: `l = socket(AF_UNIX,
// SOCK_SEQPACKET, 0); bind(...); listen(l, 4);` and then `c = accept(l, NULL, NULL)`. The accepted
// socket has the listener's type, so each write to `c` is one record its peer reads whole, as it is
// on `l`'s own kind. `accept()` itself says nothing of the type (a stream listener's connections are
// streams); only the listener does, here or in another file (a global or member the tree shows to be
// a message socket).
/** An assignment of a call's result, as messageDescriptors' assignedCalls reads them. */
export interface AssignedCall {
  readonly target: string;
  readonly callee: string;
  readonly args: string;
  readonly index: number;
}

/**
 * The assignments among `calls` that take a connection from `accept()` or `accept4()` on a listener
 * that `isMessage` says keeps message boundaries (its text, whitespace removed): each target is a
 * message descriptor from there on.
 */
export function acceptedFrom(
  calls: readonly AssignedCall[],
  isMessage: (listener: string) => boolean,
): AssignedCall[] {
  return calls.filter((c) => {
    if (c.callee !== 'accept' && c.callee !== 'accept4') return false;
    // `args` runs from the parenthesis to the statement's end: the listener is what precedes the comma.
    const listener = /^\s*([A-Za-z_][\w.>\-[\]\s]*?)\s*,/.exec(c.args)?.[1]?.replace(/\s+/g, '');
    return listener !== undefined && isMessage(listener);
  });
}
