// Openers returning the opening call itself: `int net_open(void) { return socket(AF_INET, SOCK_DGRAM,
// 0); }`. messageReturning reads what a function's text assigns and then returns (`s = socket(...);
// return s;`); a socket or device opened in the return statement is the same descriptor, handed back
// without a name. A caller in this file or another then holds a message descriptor, as it does from an
// opener that names it first.
import { isMessageOpening, MESSAGE_SOCKET } from './messageDescriptors';
import { NO_DEVICES } from './deviceMacros';

/** A returned value that is one call: its callee and its arguments' text (whitespace removed). */
const CALL = /^\(?([A-Za-z_]\w*)\((.*)\)\)?$/;

/**
 * Whether `value` (a return statement's value, whitespace removed) opens a descriptor that keeps
 * message boundaries: a socket naming a message type or family, or a device opened by its path (see
 * isMessageOpening).
 */
export function returnedOpening(value: string, devices: ReadonlySet<string> = NO_DEVICES): boolean {
  const m = CALL.exec(value);
  if (!m) return false;
  // A socket's type or family must name a message kind (`udp ? SOCK_DGRAM : SOCK_STREAM` does): a type
  // the caller passes is read at each call (see typedSockets.ts).
  if (m[1] === 'socket') return MESSAGE_SOCKET.test(m[2]!);
  if (!/^(open|open64|openat|xopen)$/.test(m[1]!)) return false;
  return isMessageOpening(m[1]!, m[2]!, false, devices);
}
