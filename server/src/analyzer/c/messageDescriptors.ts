// Descriptors the file shows to keep message boundaries: a datagram, sequenced-packet or raw socket (or
// one whose type the call leaves to a variable), a
// socketpair of those kinds, or a device or kernel file opened by its literal path. One write there is
// one message (or one command), so gathering writes would change what the peer receives: whatever the
// analyzer assumes about descriptors of unknown kind, these stay quiet.
//
// Read from the text alone, for every assignment in the file: a member assigned such a socket anywhere
// in the file (`ctx->sock = socket(AF_NETLINK, SOCK_RAW, 0)`) makes every descriptor at that member
// name a message descriptor, since the analyzer cannot tell which struct a member of another
// expression belongs to. That errs on the quiet side.

import { addrinfoStreams, isStreamSocketCall } from './socketTypes';

/** Socket types and families where one send is one message. */
const MESSAGE_SOCKET =
  /\bSOCK_(DGRAM|SEQPACKET|RAW|RDM|PACKET)\b|\bAF_(NETLINK|PACKET|CAN)\b|\bIPPROTO_(UDP|ICMP)/;

/** Literal paths of devices and kernel files (terminals and the byte sinks excepted). */
const DEVICE_PATH = /"\/(dev\/(?!(tty|console|null"|stdout"|stderr"|pts\/))|proc\/|sys\/)/;

/** `target = socket(...)` and `target = open(...)`-like calls: the target and the call's arguments. */
const ASSIGNED_CALL = /([A-Za-z_][\w.>\-[\]]*?)\s*=\s*(?:\(\s*int\s*\)\s*)?(\w+)\s*\(([^;]{0,300})/g;

/** `socketpair(domain, type, protocol, name)`: the type and the array. */
const SOCKETPAIR = /\bsocketpair\s*\(([^;]{0,300}?),\s*&?\s*([A-Za-z_][\w.>-]*)\s*(?:\[\s*0\s*\])?\s*\)/g;

/** What a file shows about message descriptors, by canonical text and by last member name. */
export interface MessageDescriptors {
  /** Canonical descriptor texts (`sock`, `ctx->fd`, `sv[1]`). */
  readonly targets: ReadonlySet<string>;
  /** Member names assigned a message descriptor (`fd` of `ctx->fd`). */
  readonly members: ReadonlySet<string>;
  /** Arrays filled by a message socketpair (`sv` of `sv[0]`, `sv[1]`). */
  readonly arrays: ReadonlySet<string>;
}

const canonical = (text: string) => text.replace(/\s+/g, '');

/** The last member name of a descriptor text (`fd` of `ctx->fd`), if it is a member. */
function member(target: string): string | undefined {
  return /(?:->|\.)(\w+)$/.exec(target)?.[1];
}

/** The message descriptors `text` shows (see the file comment). */
export function messageDescriptors(text: string): MessageDescriptors {
  const targets = new Set<string>();
  const members = new Set<string>();
  const arrays = new Set<string>();
  const add = (target: string) => {
    const t = canonical(target);
    targets.add(t);
    const m = member(t);
    if (m) members.add(m);
  };
  if (/\bsocket\s*\(|\bopen\w*\s*\(/.test(text)) {
    const hints = addrinfoStreams(text);
    for (const m of text.matchAll(ASSIGNED_CALL)) {
      const [, target, callee, args] = m as unknown as [string, string, string, string];
      // A socket whose type the call does not spell as a stream may be a datagram socket.
      if (callee === 'socket' && (MESSAGE_SOCKET.test(args) || !isStreamSocketCall(args, hints))) add(target);
      else if (/^(open|open64|openat|xopen|creat)$/.test(callee) && DEVICE_PATH.test(args)) add(target);
    }
  }
  if (text.includes('socketpair')) {
    for (const m of text.matchAll(SOCKETPAIR)) {
      const [, head, array] = m as unknown as [string, string, string];
      if (MESSAGE_SOCKET.test(head)) {
        const a = canonical(array);
        arrays.add(a);
        const mem = member(a);
        if (mem) members.add(mem);
      }
    }
  }
  return { targets, members, arrays };
}

/** True when `target` (canonical) is a descriptor `found` shows to keep message boundaries. */
export function isMessageDescriptor(target: string, found: MessageDescriptors): boolean {
  if (found.targets.has(target)) return true;
  const m = member(target);
  if (m && found.members.has(m)) return true;
  const array = /^(.*)\[[^\]]*\]$/.exec(target)?.[1];
  if (
    array !== undefined &&
    (found.arrays.has(array) || (member(array) && found.members.has(member(array)!)))
  )
    return true;
  return false;
}

/**
 * `found` as one function sees it. A local variable of the function (`declared`: declared in its body)
 * is not the variable of the same name that another function opened, so only the function's own text
 * (`fnText`) makes it a message descriptor. Its parameters (`params`) keep the file's answer while the
 * file calls the function (`name`), since a caller may pass them the socket it opened; a function the
 * file never calls or takes the address of is called from other files, which another function's local
 * cannot reach. Members and arrays keep the file's answer, as the file comment says.
 */
export function messagesIn(
  found: MessageDescriptors,
  fnText: string,
  declared: ReadonlySet<string>,
  params: readonly string[] = [],
  reached: () => boolean = () => true,
): MessageDescriptors {
  const own = (t: string) => declared.has(t) || params.includes(t);
  if (![...found.targets].some(own)) return found;
  const keptParams = reached();
  const mine = messageDescriptors(fnText).targets;
  const kept = (t: string) => mine.has(t) || !(declared.has(t) || (params.includes(t) && !keptParams));
  return { ...found, targets: new Set([...found.targets].filter(kept)) };
}

/**
 * True when `text` uses function `name` otherwise than by defining or declaring it: a call, or its
 * address taken (a callback). Read from the text: a mention after a type (`int name(`) is a
 * definition or a prototype.
 */
export function usedInFile(text: string, name: string): boolean {
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"/g, ' ');
  for (const m of code.matchAll(new RegExp(`\\b${name}\\b(\\s*\\()?`, 'g'))) {
    if (m[1] === undefined) return true;
    const before = code.slice(Math.max(0, m.index - 80), m.index);
    if (!/[\w*]\s+\**$/.test(before) || /\b(?:return|else|case)\s+$/.test(before)) return true;
  }
  return false;
}

/**
 * The member names `text` assigns a message descriptor (see {@link MessageDescriptors.members}), for the
 * fact base: another file that writes to `conn->dgram` cannot see the `socket(AF_INET, SOCK_DGRAM, 0)`
 * this file put there. Empty without a `socket(` or `open(` call (most files).
 */
export function messageMembers(text: string): string[] {
  if (!/\bsocket(?:pair)?\s*\(|\bopen\w*\s*\(/.test(text)) return [];
  return [...messageDescriptors(text).members].sort();
}

/** `found` with the members other files assign message descriptors (`elsewhere`) added. */
export function withMembers(found: MessageDescriptors, elsewhere: ReadonlySet<string>): MessageDescriptors {
  if (elsewhere.size === 0) return found;
  return { ...found, members: new Set([...found.members, ...elsewhere]) };
}
