// Functions that return a descriptor their file keeps, rather than one they open: `int conn_fd(void)
// { return the.fd; }` beside `the.fd = socket(AF_INET, SOCK_DGRAM, 0)` in `conn_init()`. The file's
// own readings know `the.fd` for a datagram socket, but a caller in another file sees only
// `write(conn_fd(), ...)`: without the accessor's answer that is a descriptor of unknown kind, and two
// such writes read as one stream's, when each is one datagram. So an accessor whose every return is
// a member or a file-scope variable that its file shows to keep message boundaries (or a failure's
// value) returns a message descriptor, as an opener of one does (see returnedKinds.ts).
//
// And openers whose descriptor their own body hands to a device `ioctl()` (`fd = open(path, O_RDWR);
// ioctl(fd, I2C_SLAVE, addr); return fd;`): `open()` alone reads as a byte stream, the request says
// it is a device, where each write is one bus transaction.
import type { Node } from 'web-tree-sitter';
import { deviceDescriptors, isMessageDescriptor, messageDescriptors, messagesIn } from './messageDescriptors';
import { canonicalTarget, declarationsOf, declaredName, functionName } from './syntax';

/** A `return` statement's value, up to its `;`. */
const RETURNED = /\breturn\b\s*([^;]*);/g;

/** A failure's value: -1 or a negative constant, maybe in parentheses. */
const SENTINEL = /^\(?-(\d+|[A-Z][A-Z0-9_]*)\)?$/;

/** A variable, a member of one (`the.fd`, `c->fd`) or an element (`chan[0]`): what an accessor returns. */
const KEPT = /^([A-Za-z_]\w*)(?:(?:\.|->)\w+|\[\w+\])*$/;

/** The names `fn` declares: its parameters and every local. */
function ownNames(fn: Node): Set<string> {
  const names = new Set<string>();
  for (const d of declarationsOf(fn))
    for (const k of d.childrenForFieldName('declarator')) {
      const n = declaredName(k);
      if (n) names.add(n);
    }
  return names;
}

/**
 * The functions among `bodies` (of the file `text`) whose every return gives a descriptor the file
 * keeps in a member or a file-scope variable and shows to keep message boundaries, or a failure's
 * value (see the file comment). A plain variable must be none of the function's own (a parameter or a
 * local); a member is read as the file's member facts are, by its struct where that is known.
 */
export function messageAccessors(bodies: readonly { fn: Node; text: string }[], text: string): Set<string> {
  const found = new Set<string>();
  const file = messageDescriptors(text);
  if (file.targets.size === 0 && file.members.size === 0 && file.arrays.size === 0) return found;
  for (const { fn, text: body } of bodies) {
    const name = functionName(fn);
    if (!name || !body.includes('return')) continue;
    const values = [...body.matchAll(RETURNED)].map((m) => canonicalTarget(m[1] ?? ''));
    const kept = values.filter((v) => !SENTINEL.test(v));
    if (kept.length === 0 || !kept.every((v) => KEPT.test(v))) continue;
    const own = ownNames(fn);
    const seen = messagesIn(file, body, new Set(), [], () => true, text);
    const message = (v: string) => {
      const root = KEPT.exec(v)?.[1] ?? '';
      if (v === root && own.has(root)) return false;
      return isMessageDescriptor(v, seen);
    };
    if (kept.every(message)) found.add(name);
  }
  return found;
}

/**
 * A return of a descriptor the file `text` shows to keep message boundaries, by its text or its member
 * name (`return the.fd;`): a part holding one may be an accessor (see {@link messageAccessors}).
 * Undefined when the file shows none.
 */
export function accessorReturn(text: string): RegExp | undefined {
  const found = messageDescriptors(text);
  const roots = new Set<string>();
  for (const t of found.targets) {
    const root = KEPT.exec(t)?.[1];
    if (root) roots.add(root);
  }
  for (const a of found.arrays) if (/^\w+$/.test(a)) roots.add(a);
  const names = [...roots].filter((n) => /^\w+$/.test(n));
  const members = [...found.members].filter((n) => /^\w+$/.test(n));
  if (names.length === 0 && members.length === 0) return undefined;
  const alternatives = [
    ...(names.length > 0 ? [`(?:${names.join('|')})\\b`] : []),
    ...(members.length > 0 ? [`[A-Za-z_][\\w.>\\-]*(?:\\.|->)\\s*(?:${members.join('|')})\\b`] : []),
  ];
  return new RegExp(`\\breturn\\s*\\(?\\s*(?:${alternatives.join('|')})[^;]*;`);
}

/**
 * The functions among `bodies` that hand a descriptor they return to a device `ioctl()` (see the file
 * comment): their answer is a device's even where `open()` made it a byte stream.
 */
export function deviceOpeners(bodies: readonly { fn: Node; text: string }[]): Set<string> {
  const found = new Set<string>();
  for (const { fn, text: body } of bodies) {
    if (!body.includes('ioctl')) continue;
    const name = functionName(fn);
    const devices = deviceDescriptors(body);
    if (!name || devices.size === 0) continue;
    const values = [...body.matchAll(RETURNED)].map((m) => canonicalTarget(m[1] ?? ''));
    if (values.some((v) => devices.has(v))) found.add(name);
  }
  return found;
}
