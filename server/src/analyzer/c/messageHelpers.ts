// Write helpers whose own file opens their descriptor as a datagram socket: `mainloop_sd_notify(s)`
// sends to its file's static `notify_fd`, which the same file opens with `socket(AF_UNIX, SOCK_DGRAM,
// 0)`. Each call is one datagram; two calls gathered into one writev would be one message holding
// both (`STATUS=RunningREADY=1`). A caller in another file sees only the helper's name and a descriptor
// it cannot read the kind of, so the helper is not handed on to other files as a writer: there a call
// of it is a call of a function that does output, and ends a run. So too a helper of stderr in a file
// that `dup2()`s a message socket onto stderr (see messageRedirects.ts): the caller sees a stream.
// And a helper writing to a member of the object it is handed (`conn_say(c, s)` sending on `c->fd`)
// where its file puts a datagram socket in that member of that struct (`c->fd = socket(AF_INET,
// SOCK_DGRAM, 0)` in `conn_open()`): its file's own callers read that from the file, but a caller in
// another file names neither the member nor the socket, and would read two calls as one stream's.
import type { Node } from 'web-tree-sitter';
import type { CWrapper } from '../wrapper';
import { isMessageDescriptor, messagesIn } from './messageDescriptors';
import type { FileStreams } from './origins';
import { canonicalTarget, functionName, parameterNames } from './syntax';

/**
 * `wrappers` (the file's own helpers) less those that write to a fixed descriptor (a global or static,
 * not a parameter) that `streams` (the same file's reading) shows to keep message boundaries, or that
 * the file makes a copy of a message socket (`streams.redirected`), and those that write to a member
 * of a parameter that the file assigns a datagram socket in the parameter's struct (see the file
 * comment; `bodies`: the file's definitions, for the parameter's declaration). Returns `wrappers`
 * itself when none is left out; does not modify it.
 */
export function handedOnWrappers(
  wrappers: CWrapper[],
  streams: FileStreams,
  text: string,
  bodies: readonly { readonly fn: Node; readonly text: string }[] = [],
): CWrapper[] {
  const targets = streams.messages?.targets;
  const members = streams.messages?.members;
  const redirected = streams.redirected;
  if ((!targets || targets.size === 0) && (!members || members.size === 0) && !redirected) return wrappers;
  const message = (fd: string) =>
    (!!targets?.has(fd) && datagramSocket(fd, text)) || !!redirected?.has(canonicalTarget(fd));
  const kept = wrappers.filter((w) =>
    'text' in w.fd ? !message(w.fd.text) : !datagramMember(w, streams, text, bodies),
  );
  return kept.length === wrappers.length ? wrappers : kept;
}

/**
 * True when wrapper `w` writes to a member of one of its parameters (`c->fd`) that the file's reading
 * (`streams.messages`) makes a message descriptor in that parameter's struct, and that the file assigns
 * a socket of a message kind (see {@link datagramSocket}; a device's member is left as it was).
 */
function datagramMember(
  w: CWrapper,
  streams: FileStreams,
  text: string,
  bodies: readonly { readonly fn: Node; readonly text: string }[],
): boolean {
  if (!('param' in w.fd) || !w.fd.member || !streams.messages) return false;
  const name = /\w+$/.exec(w.fd.member)?.[0];
  if (!name || !streams.messages.members.has(name) || !memberDatagram(name, text)) return false;
  const body = bodies.find((b) => functionName(b.fn) === w.name);
  const param = body && parameterNames(body.fn)[w.fd.param];
  if (!body || !param) return false;
  // Read as the helper's own function reads it: its parameter's struct against the file's message
  // members of that name (another struct's member of the same name keeps its bytes).
  const seen = messagesIn(streams.messages, body.text, new Set(), [], () => true, text);
  return isMessageDescriptor(canonicalTarget(`${param}${w.fd.member}`), seen);
}

/**
 * True when `text` assigns the member `name` of some object a socket of a message kind, directly
 * (`c->fd = socket(AF_INET, SOCK_DGRAM, 0)`) or through a local it assigned one (`c->fd = s`).
 */
function memberDatagram(name: string, text: string): boolean {
  const stored = new RegExp(`(?:->|\\.)\\s*${name}\\s*=(?!=)\\s*([^;]*);`, 'g');
  for (const m of text.matchAll(stored)) {
    const value = m[1]!.trim();
    if (/^socket\s*\(/.test(value) && MESSAGE_TYPE.test(value)) return true;
    if (/^[A-Za-z_]\w*$/.test(value) && datagramSocket(value, text)) return true;
  }
  return false;
}

/** A socket type that keeps message boundaries. */
const MESSAGE_TYPE = /\bSOCK_(?:DGRAM|RAW|SEQPACKET|PACKET)\b/;

/**
 * True when `text` assigns `name` a socket of a kind that keeps message boundaries (`SOCK_DGRAM`,
 * `SOCK_RAW`, `SOCK_SEQPACKET`, `SOCK_PACKET`). A device the file opens (a printer, a display) takes
 * commands a caller's run may still send together: only a socket's kind is a message's promise.
 */
function datagramSocket(name: string, text: string): boolean {
  if (!/^[A-Za-z_]\w*$/.test(name)) return false;
  return new RegExp(`\\b${name}\\s*=\\s*socket\\s*\\([^;]*\\bSOCK_(?:DGRAM|RAW|SEQPACKET|PACKET)\\b`).test(
    text,
  );
}
