// A write helper that sends its buffer with fixed bytes around it in one gathered call: `iov[0].iov_base
// = line; iov[0].iov_len = strlen(line); iov[1].iov_base = "\r\n"; iov[1].iov_len = 2; writev(sock,
// iov, 2);` (or `sendmsg()` of such an iovec). The helper gathers within a call, so each call is still one
// system call, and calls in a row are as many calls where one writev() of all their pieces would do. No
// loop resends what a short write left, so each call is one message on a descriptor that keeps message
// boundaries, as a plain `send()`. Only literal pieces beside the buffer: a piece computed from the
// arguments (a header holding the length) makes each call a frame, which this reading does not claim.
import type { Node } from 'web-tree-sitter';
import type { CWrapper } from '../wrapper';
import { OUT_OF_BAND } from './helperBodies';
import { assignedFields, loopAround, soleGatheredSend } from './iovecHelpers';
import { callArgs, calleeName, identifiers, withoutCasts } from './syntax';
import type { CContext } from './writes';

/** The most pieces one call may send: a line and its terminator, a prefix and a suffix. */
const MOST_PIECES = 4;

/** Reads `fn` as a helper sending its buffer and literal pieces in one gathered call, or undefined. */
export function framedIovecHelperOf(
  fn: Node,
  name: string,
  exported: boolean,
  ctx: CContext,
): CWrapper | undefined {
  const sole = soleGatheredSend(fn, 2);
  if (!sole) return undefined;
  const { body, params, all, send } = sole;
  if (loopAround(send, body)) return undefined;
  const args = callArgs(send);
  const fd = params.indexOf(args[0] ? withoutCasts(args[0]).text : '');
  if (fd < 0 || args.length !== 3) return undefined;
  const fields = assignedFields(body);
  let array: string | undefined;
  let count: string | undefined;
  if (calleeName(send) === 'sendmsg') {
    const msg = /^&\s*(\w+)$/.exec(args[1]!.text)?.[1];
    if (!msg || OUT_OF_BAND.test(args[2]!.text)) return undefined;
    const control = fields.get(`${msg}.msg_control`);
    if (control !== undefined && control !== 'NULL' && control !== '0') return undefined;
    array = fields.get(`${msg}.msg_iov`);
    count = fields.get(`${msg}.msg_iovlen`);
  } else {
    array = args[1]!.text;
    count = args[2]!.text;
  }
  const pieces = count !== undefined && /^[0-9]+$/.test(count) ? Number(count) : 0;
  if (!array || !/^\w+$/.test(array) || pieces < 2 || pieces > MOST_PIECES) return undefined;
  // Each piece set once: the buffer parameter in one, literal bytes in the others.
  let buf = -1;
  let len: number | undefined;
  for (let i = 0; i < pieces; i++) {
    const base = fields.get(`${array}[${i}].iov_base`);
    const length = fields.get(`${array}[${i}].iov_len`);
    if (!base || !length) return undefined;
    const param = params.indexOf(base);
    if (param >= 0) {
      if (buf >= 0 || param === fd) return undefined;
      buf = param;
      const strlen = new RegExp(`^strlen\\s*\\(\\s*${base}\\s*\\)$`).test(length);
      len = strlen ? undefined : params.indexOf(length);
      if (len !== undefined && (len < 0 || len === fd || len === buf)) return undefined;
    } else if (!/^"(?:[^"\\]|\\.)*"$/.test(base) || !/^[0-9]+$/.test(length)) return undefined;
  }
  if (buf < 0) return undefined;
  // Nothing else may write: no other call is given the descriptor, and no helper or write function is
  // called besides the one send.
  for (const c of all) {
    if (c.equals(send)) continue;
    const callee = calleeName(c);
    if (!callee || ctx.functions.has(callee) || ctx.wrappers.has(callee)) return undefined;
    if (callArgs(c).some((a) => identifiers(a).has(params[fd] as string))) return undefined;
  }
  return {
    name,
    exported,
    fd: { param: fd },
    buf,
    ...(len !== undefined && { len }),
    family: 'writev',
    arity: params.length,
    messages: true,
    noFix: `${name}() sends its buffer with fixed bytes in one writev() per call; gathering across calls needs a variant of it that fills one iovec for all`,
  };
}
