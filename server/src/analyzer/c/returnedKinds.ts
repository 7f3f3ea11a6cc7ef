// What kind of descriptor a function returns, for its callers in any file: a project opens its
// sockets in one file (`int net_connect(...) { s = socket(AF_INET, SOCK_STREAM, 0); ... return s; }`)
// and writes to them in others (`fd = net_connect(sa); write(fd, ...)`). A caller that cannot see the
// body would take its descriptor for one of unknown kind: reported with the assumption when the
// function returns a byte stream, and wrongly so when it returns a datagram socket, whose every write
// is one message. Each file reads its own functions' returns (origins.ts for streams,
// messageDescriptors.ts for messages); the workspace index and the CLI's first pass hand the exported
// ones to every other file, which reads a call of one as the call of an opener.
import type { Node } from 'web-tree-sitter';
import { deviceOpeners, messageAccessors } from './messageAccessors';
import { messageReturning } from './messageDescriptors';
import { openerName, typedSocketOpeners } from './typedSockets';
import { pairFillingOpeners, pointerSocketOpeners } from './pointerOpeners';
import { streamReturning } from './origins';
import { NO_DEVICES } from './deviceMacros';
import { functionName } from './syntax';

/** Functions that return a descriptor of a known kind on every path (or a failure's value). */
export interface ReturnedKinds {
  /** Those returning a byte stream (a file, a pipe, a stream socket). */
  readonly stream: ReadonlySet<string>;
  /** Those returning a descriptor that keeps message boundaries (datagram, raw, device). */
  readonly message: ReadonlySet<string>;
}

/** No function known to return a descriptor. */
export const NO_RETURNED: ReturnedKinds = { stream: new Set(), message: new Set() };

/**
 * The calls that open a message descriptor or a device (see messageReturning): a body calling none
 * returns none of its own.
 */
const MESSAGE_OPENER = /\b(?:socket|open\w*|ioctl)\s*\(/;

/** A call of one of `names`. */
function callOf(names: Iterable<string>): RegExp {
  const words = [...names].filter((n) => /^\w+$/.test(n));
  return words.length > 0 ? new RegExp(`\\b(?:${words.join('|')})\\s*\\(`) : /(?!)/;
}

/**
 * True when `text` calls an opener of either kind (`openers`: see {@link returnedKinds}): a file that
 * calls none defines no function {@link returnedKinds} finds.
 */
export function mayReturnDescriptor(text: string, openers: ReadonlySet<string>): boolean {
  // A socketpair fills an array parameter (see pointerOpeners.ts) rather than returning.
  return openerPattern(openers).test(text) || /\bsocketpair\s*\(/.test(text);
}

/** True when a call of `name` opens a descriptor of either kind (`openers`: see {@link returnedKinds}). */
export function isOpener(name: string, openers: ReadonlySet<string>): boolean {
  return openers.has(name) || OPENER_NAME.test(name);
}

const OPENER_NAME = /^(?:socket|socketpair|open\w*|ioctl)$/;

/** A call of an opener of either kind (`openers`: see {@link returnedKinds}), also through a line continuation. */
export function openerPattern(openers: ReadonlySet<string>): RegExp {
  const words = [...openers].filter((n) => /^\w+$/.test(n));
  return new RegExp(`\\b(?:${[...words, 'open\\w*', 'ioctl'].join('|')})[\\s\\\\]*\\(`);
}

/**
 * The functions among `bodies` that return a descriptor of a known kind. `openers`: the functions
 * whose result is a byte stream (the catalogue's, the user's, other files' returning one); `hints`:
 * the file's addrinfo hints ask for stream sockets only. A name found both ways (two definitions under
 * `#if` alternatives) is left out of both, but for an opener that hands its descriptor to a device
 * request, which is a device's (see messageAccessors.ts). With the file's `text`, also the accessors
 * returning a message descriptor the file keeps (see messageAccessors.ts).
 */
export function returnedKinds(
  bodies: readonly { fn: Node; text: string }[],
  openers: ReadonlySet<string>,
  hints: boolean,
  text?: string,
  devices: ReadonlySet<string> = NO_DEVICES,
): ReturnedKinds {
  const opener = callOf(openers);
  const stream = streamReturning(
    bodies.filter((b) => opener.test(b.text)).map((b) => b.fn),
    openers,
    hints,
    devices,
  );
  const message = messageReturning(
    bodies.flatMap((b) => {
      if (!MESSAGE_OPENER.test(b.text)) return [];
      const name = functionName(b.fn);
      return name ? [{ name, text: b.text }] : [];
    }),
    devices,
  );
  if (text !== undefined) for (const name of messageAccessors(bodies, text)) message.add(name);
  // Openers whose caller chooses the type, keyed by the parameter (see typedSockets.ts).
  for (const key of typedSocketOpeners(bodies.filter((b) => b.text.includes('socket')))) message.add(key);
  // Openers storing a message socket through a pointer parameter, keyed by it (see pointerOpeners.ts).
  for (const key of pointerSocketOpeners(bodies.filter((b) => b.text.includes('socket')))) message.add(key);
  // Openers filling an array parameter with a message socketpair, keyed by it (see pointerOpeners.ts).
  for (const key of pairFillingOpeners(bodies.filter((b) => b.text.includes('socketpair')))) message.add(key);
  const deviceOpening = [...stream].some((n) => message.has(n)) ? deviceOpeners(bodies) : new Set<string>();
  for (const name of stream)
    if (message.has(name)) {
      stream.delete(name);
      if (!deviceOpening.has(name)) message.delete(name);
    }
  return stream.size === 0 && message.size === 0 ? NO_RETURNED : { stream, message };
}

/**
 * `elsewhere` (the exported functions of other files) less the names `own` defines: the file's own
 * definition decides what its calls return.
 */
export function othersReturned(elsewhere: ReturnedKinds, own: ReadonlySet<string>): ReturnedKinds {
  if (elsewhere.stream.size === 0 && elsewhere.message.size === 0) return elsewhere;
  const keep = (names: ReadonlySet<string>) => new Set([...names].filter((n) => !own.has(openerName(n))));
  return { stream: keep(elsewhere.stream), message: keep(elsewhere.message) };
}
