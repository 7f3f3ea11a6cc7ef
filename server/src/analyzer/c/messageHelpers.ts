// Write helpers whose own file opens their descriptor as a datagram socket: `mainloop_sd_notify(s)`
// sends to its file's static `notify_fd`, which the same file opens with `socket(AF_UNIX, SOCK_DGRAM,
// 0)`. Each call is one datagram; two calls gathered into one writev would be one message holding
// both (`STATUS=RunningREADY=1`). A caller in another file sees only the helper's name and a descriptor
// it cannot read the kind of, so the helper is not handed on to other files as a writer: there a call
// of it is a call of a function that does output, and ends a run. So too a helper of stderr in a file
// that `dup2()`s a message socket onto stderr (see messageRedirects.ts): the caller sees a stream.
import type { CWrapper } from '../wrapper';
import type { FileStreams } from './origins';
import { canonicalTarget } from './syntax';

/**
 * `wrappers` (the file's own helpers) less those that write to a fixed descriptor (a global or static,
 * not a parameter) that `streams` (the same file's reading) shows to keep message boundaries, or that
 * the file makes a copy of a message socket (`streams.redirected`). Returns `wrappers` itself when none
 * is left out; does not modify it.
 */
export function handedOnWrappers(wrappers: CWrapper[], streams: FileStreams, text: string): CWrapper[] {
  const targets = streams.messages?.targets;
  const redirected = streams.redirected;
  if ((!targets || targets.size === 0) && !redirected) return wrappers;
  const message = (fd: string) =>
    (!!targets?.has(fd) && datagramSocket(fd, text)) || !!redirected?.has(canonicalTarget(fd));
  const kept = wrappers.filter((w) => !('text' in w.fd) || !message(w.fd.text));
  return kept.length === wrappers.length ? wrappers : kept;
}

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
