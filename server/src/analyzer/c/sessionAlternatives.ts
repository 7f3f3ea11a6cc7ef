// A connection that may carry a session of its own (TLS) is written through that session when it has one
// and to its descriptor when not: `if (c->tls) n = tls_write(c, buf, len); else n = write(c->fd, buf,
// len);`, often with the session's arm under `#ifdef` (`#ifdef WITH_TLS if (...) ...; else #endif n =
// write(...)`). Each call of such a helper still makes one write of its buffer, by one path or the other,
// so it is a helper of one write; a gathered call would have to go through the helper too.
import type { Node } from 'web-tree-sitter';
import type { CWriteFunction } from '../catalogue';
import { resumedFrom } from './resumedSpellings';
import { armGroup, danglingElse, endsInOpenIf, inDirectiveArm, strayElse } from './elifElses';
import { cursorStart } from './sessionCursors';
import { samePeer } from './sessionChoices';
import { callArgs, withoutCasts } from './syntax';

/** Where a helper's write takes its buffer and count. */
interface Slots {
  readonly fd?: number;
  readonly buf: number;
  readonly len?: number;
}

/**
 * True when `other` sends the same bytes as the helper's `write` by another path, of which a call takes
 * one: the two lie in the two arms of one `if`/`else` (`exclusive` says so) or in the `#ifdef`-split
 * spelling of one, `other` is given the write's buffer and count spelled alike, and not its descriptor.
 */
export function sessionAlternative(
  other: Node,
  write: Node,
  slots: Slots,
  exclusive: (a: Node, b: Node) => boolean,
): boolean {
  const spelled = (n: Node | undefined) => n?.text.replace(/\s+/g, '');
  // A cursor the session's loop walks through the bytes (see sessionCursors.ts) is the buffer it starts at.
  const given = callArgs(other).map((a) => {
    const bare = withoutCasts(a);
    return (bare.type === 'identifier' && cursorStart(bare.text, other)) || spelled(a);
  });
  const bare = callArgs(other).map((a) => spelled(withoutCasts(a)));
  const args = callArgs(write);
  const buf = spelled(args[slots.buf]);
  const len = slots.len === undefined ? undefined : spelled(args[slots.len]);
  const fd = slots.fd === undefined ? undefined : spelled(args[slots.fd]);
  // A cast changes neither the bytes nor their count (`SSL_write(ssl, buf, len)` against `send(sock,
  // buf, (size_t)len, 0)`): each side is compared without its casts too.
  const uncast = (n: Node | undefined) => n && spelled(withoutCasts(n));
  const bareBuf = uncast(args[slots.buf]);
  const bareLen = slots.len === undefined ? undefined : uncast(args[slots.len]);
  const alike =
    (!!buf && given.includes(buf) && (len === undefined || given.includes(len))) ||
    (!!bareBuf && bare.includes(bareBuf) && (bareLen === undefined || bare.includes(bareLen)));
  // A write-in-full loop in the plain arm sends the session's buffer and count from where it got to
  // (see resumedSpellings.ts).
  const from =
    !alike && args[slots.buf]
      ? resumedFrom(args[slots.buf]!, slots.len === undefined ? undefined : args[slots.len])
      : undefined;
  const resumes = !!from && bare.includes(from.buf) && (from.len === undefined || bare.includes(from.len));
  if (!alike && !resumes) return false;
  if (fd !== undefined && given.includes(fd)) return false;
  // The session must be the connection's own, not another peer's (see sessionChoices.ts).
  if (fd !== undefined && !samePeer(other, fd)) return false;
  return exclusive(write, other) || splitElse(other, write);
}

/**
 * True when `other` is in the arm of an `if` whose `else` is cut off by `#endif` (the last thing in its
 * `#if`/`#ifdef` group, or in one of its `#elif`/`#else` arms: see elifElses.ts), and `write` is in the
 * statement right after that `#endif`: the `else` arm when the group is compiled, the only path when it
 * is not.
 */
function splitElse(other: Node, write: Node): boolean {
  for (let at = other.parent; at; at = at.parent) {
    if (at.type !== 'if_statement') continue;
    const arm = at.childForFieldName('consequence');
    if (at.childForFieldName('alternative') || !arm || other.startIndex < arm.startIndex) return false;
    const group = armGroup(at);
    if (!danglingElse(at) || !group) return false;
    // A comment after `#endif` (`#endif /* WITH_SSL */`) is no statement: the `else` arm is the one after it.
    let next = group.nextNamedSibling;
    while (next?.type === 'comment') next = next.nextNamedSibling;
    return !!next && write.startIndex >= next.startIndex && write.endIndex <= next.endIndex;
  }
  return false;
}

/**
 * True when the only parse errors in `node` are `else`s cut off by `#endif` (see {@link splitElse}): the
 * grammar reads each group alone, so that `else` stands by itself, and the rest of the body is read right.
 */
export function onlySplitElses(node: Node): boolean {
  if (!node.hasError) return true;
  if (node.isMissing) return false;
  if (node.type === 'ERROR') {
    const before = node.previousNamedSibling;
    const open =
      (before?.type === 'if_statement' && !before.childForFieldName('alternative')) ||
      (!!before && endsInOpenIf(before));
    return strayElse(node) && open && inDirectiveArm(node.parent);
  }
  return node.children.every((child) => !child || onlySplitElses(child));
}

/**
 * True when `callee` is a TLS library's write as the catalogue gives it: a library write with no gathered
 * twin, each call sealing a record and sending it.
 */
export function sealsRecords(
  callee: string | undefined,
  functions: ReadonlyMap<string, CWriteFunction>,
): boolean {
  const fn = callee === undefined ? undefined : functions.get(callee);
  return !!fn?.library && !fn.gathered && fn.gatheredName === undefined;
}
