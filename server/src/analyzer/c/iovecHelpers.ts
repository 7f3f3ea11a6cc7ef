// A write helper that sends its buffer through a one-element iovec: `iov[0].iov_base = buf;
// iov[0].iov_len = len;` then `sendmsg(sock, &msg, 0)` with `msg.msg_iov = iov; msg.msg_iovlen = 1;`
// (or `writev(sock, iov, 1)`). Each call sends one buffer, like a `send()` helper: a loop that moves
// `iov_base` on and shrinks `iov_len` by what went out sends it in full over a byte stream; without
// one, each call is one message on a descriptor that keeps message boundaries. A message with
// control data (`msg_control`: descriptors passed, credentials) is one record per call and no helper.
import type { Node } from 'web-tree-sitter';
import type { CWrapper } from '../wrapper';
import { OUT_OF_BAND } from './helperBodies';
import { callArgs, calleeName, calls, identifiers, parameterNames, withoutCasts } from './syntax';
import type { CContext } from './writes';

/** A helper's body, its parameters (all named), its calls and the one sendmsg()/writev() among them. */
export interface GatheredSend {
  readonly body: Node;
  readonly params: (string | undefined)[];
  readonly all: Node[];
  readonly send: Node;
}

/**
 * `fn`'s one gathered send, or undefined when it has no body, fewer than `fewestParams` parameters or
 * one without a name, or not exactly one sendmsg()/writev() call.
 */
export function soleGatheredSend(fn: Node, fewestParams: number): GatheredSend | undefined {
  const body = fn.childForFieldName('body');
  if (!body) return undefined;
  const params = parameterNames(fn);
  if (params.length < fewestParams || params.includes(undefined)) return undefined;
  const all = calls(body);
  const senders = all.filter((c) => ['sendmsg', 'writev'].includes(calleeName(c) ?? ''));
  if (senders.length !== 1) return undefined;
  return { body, params, all, send: senders[0]! };
}

/** Reads `fn` as a helper of one iovec, or undefined. */
export function singleIovecHelperOf(
  fn: Node,
  name: string,
  exported: boolean,
  ctx: CContext,
): CWrapper | undefined {
  const sole = soleGatheredSend(fn, 3);
  if (!sole) return undefined;
  const { body, params, all, send } = sole;
  const args = callArgs(send);
  const fd = params.indexOf(args[0] ? withoutCasts(args[0]).text : '');
  if (fd < 0) return undefined;
  const sendmsg = calleeName(send) === 'sendmsg';
  if (sendmsg && (args.length !== 3 || OUT_OF_BAND.test(args[2]!.text))) return undefined;
  if (!sendmsg && args[2]?.text !== '1') return undefined;
  const fields = assignedFields(body);
  // The iovec the call sends: `msg.msg_iov` for sendmsg (one element, no control data), or writev's.
  let iov: string | undefined;
  if (sendmsg) {
    const msg = /^&\s*(\w+)$/.exec(args[1]!.text)?.[1];
    if (!msg || fields.get(`${msg}.msg_iovlen`) !== '1' || !controlFree(fields.get(`${msg}.msg_control`)))
      return undefined;
    iov = fields.get(`${msg}.msg_iov`);
  } else iov = args[1]!.text;
  const element = iov ? /^&?\s*(\w+)$/.exec(iov)?.[1] : undefined;
  if (!element) return undefined;
  const base = fields.get(`${element}.iov_base`) ?? fields.get(`${element}[0].iov_base`);
  const length = fields.get(`${element}.iov_len`) ?? fields.get(`${element}[0].iov_len`);
  const buf = params.indexOf(base ?? '');
  const len = params.indexOf(length ?? '');
  if (buf < 0 || len < 0 || new Set([fd, buf, len]).size !== 3) return undefined;
  // Nothing else may write: no other call is given the descriptor, and no helper or write function is
  // called besides the one send.
  for (const c of all) {
    if (c.equals(send)) continue;
    const callee = calleeName(c);
    if (!callee || ctx.functions.has(callee) || ctx.wrappers.has(callee)) return undefined;
    if (callArgs(c).some((a) => identifiers(a).has(params[fd] as string))) return undefined;
  }
  const loop = loopAround(send, body);
  // A loop must move on by what went out: `iov_base` advanced and `iov_len` shrunk.
  if (loop && !(advanced(loop, element, 'iov_base', '+') && advanced(loop, element, 'iov_len', '-')))
    return undefined;
  return {
    name,
    exported,
    fd: { param: fd },
    buf,
    len,
    family: 'writev',
    arity: params.length,
    noFix: loop
      ? `${name}() is this project's own write loop, and it has no gathered twin to call instead`
      : `${name}() is this project's own write helper, and it has no gathered twin to call instead`,
    ...(!loop && { messages: true }),
  };
}

/**
 * The value of each field assigned once by a plain `=` (`msg.msg_iovlen = 1`, `iov[0].iov_base =
 * (void *) buf`), casts dropped, keyed by the field's path as written without spaces. A field assigned
 * twice (but from itself) maps to an empty string.
 */
export function assignedFields(body: Node): Map<string, string> {
  const fields = new Map<string, string>();
  for (const n of body.descendantsOfType('assignment_expression')) {
    if (!n || n.childForFieldName('operator')?.text !== '=') continue;
    const left = n.childForFieldName('left');
    const right = n.childForFieldName('right');
    if (left?.type !== 'field_expression' || !right) continue;
    const key = left.text.replace(/\s+/g, '');
    // A field moved on from itself (`iov.iov_base = (char *)iov.iov_base + n`) keeps its first value.
    if (right.text.replace(/\s+/g, '').includes(key)) continue;
    fields.set(key, fields.has(key) ? '' : withoutCasts(right).text);
  }
  return fields;
}

/** No control data: the field never set, or set to nothing. */
function controlFree(value: string | undefined): boolean {
  return value === undefined || value === 'NULL' || value === '0';
}

/** The innermost loop of `body` around `node`. */
export function loopAround(node: Node, body: Node): Node | undefined {
  for (let at = node.parent; at && !at.equals(body); at = at.parent)
    if (['while_statement', 'do_statement', 'for_statement'].includes(at.type)) return at;
  return undefined;
}

/**
 * True when `loop` moves `element`'s `field` by `op=` (`iov[0].iov_len -= ret`), or by `=` from itself
 * (`iov.iov_base = (char *)iov.iov_base + ret`, the portable form of `+=` on a `void *`).
 */
function advanced(loop: Node, element: string, field: string, op: '+' | '-'): boolean {
  const paths = [`${element}.${field}`, `${element}[0].${field}`];
  return loop.descendantsOfType('assignment_expression').some((n) => {
    const left = n?.childForFieldName('left')?.text.replace(/\s+/g, '');
    if (!n || !left || !paths.includes(left)) return false;
    const operator = n.childForFieldName('operator')?.text;
    if (operator === `${op}=`) return true;
    const right = n.childForFieldName('right');
    const sum = right ? withoutCasts(right) : undefined;
    return (
      operator === '=' &&
      sum?.type === 'binary_expression' &&
      sum.childForFieldName('operator')?.text === op &&
      withoutCasts(sum.childForFieldName('left')!).text.replace(/\s+/g, '') === left
    );
  });
}

/**
 * Whether `text` may define a helper of one iovec sent with `sendmsg()`, which names no write function
 * the first look at a file (or at a body) could see.
 */
export function maySendOneIovec(text: string): boolean {
  return text.includes('iov_base') && /\bsendmsg\s*\(/.test(text);
}
