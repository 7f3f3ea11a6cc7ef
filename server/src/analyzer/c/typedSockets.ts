// Openers whose caller chooses the socket's type: `int open_sock(int type) { return socket(AF_INET,
// type, 0); }`, called `fd = open_sock(SOCK_DGRAM)` in another file. The opener's own text cannot
// say what it returns; each call can, by the argument it passes for the type. Such an opener is
// handed on among the functions returning a message descriptor under a key naming the parameter
// (`open_sock#0`), and a call whose argument there is a message socket type (`SOCK_DGRAM`,
// `SOCK_SEQPACKET`, `SOCK_RAW`, ...) opens a message descriptor. A call passing `SOCK_STREAM`, or a
// value the call does not spell, keeps the reading it had (a descriptor of unknown kind).
import type { Node } from 'web-tree-sitter';
import { MESSAGE_SOCKET } from './messageDescriptors';
import { canonicalTarget, functionName, parameterNames } from './syntax';

/** What separates an opener's name from the parameter's position in its key. */
const AT = '#';

/** `socket(family, type, ...`: the target (when assigned) and the type argument. */
const SOCKET_CALL = /(?:([A-Za-z_]\w*)\s*=\s*)?\bsocket\s*\(\s*[^,()]+,\s*([^,()]+),/g;

/** A `return` statement's value, up to its `;`. */
const RETURNED = /\breturn\b\s*([^;]*);/g;

/** A failure's value: -1 or a negative constant, maybe in parentheses. */
const SENTINEL = /^\(?-(\d+|[A-Z][A-Z0-9_]*)\)?$/;

/** The named definitions among `bodies` whose text calls `socket`, with their parameters' names. */
export function* socketDefinitions(
  bodies: readonly { fn: Node; text: string }[],
): Generator<{ name: string; params: (string | undefined)[]; text: string }> {
  for (const { fn, text } of bodies) {
    if (!text.includes('socket')) continue;
    const name = functionName(fn);
    if (name) yield { name, params: parameterNames(fn), text };
  }
}

/**
 * The keys (`name#position`) of the functions among `bodies` whose every return gives a socket whose
 * type is one of their parameters (with flags or'ed in), or a failure's value: the socket is made in
 * the return itself or assigned to a variable that is returned.
 */
export function typedSocketOpeners(bodies: readonly { fn: Node; text: string }[]): string[] {
  const found: string[] = [];
  for (const { name, params, text } of socketDefinitions(bodies)) {
    let position: number | undefined;
    const sockets = new Set<string>();
    let consistent = true;
    for (const m of text.matchAll(SOCKET_CALL)) {
      const words = (m[2] ?? '').split('|').map((w) => w.trim());
      const at = params.findIndex((p) => p !== undefined && words.includes(p));
      if (at < 0 || (position !== undefined && position !== at)) {
        consistent = false;
        break;
      }
      position = at;
      if (m[1]) sockets.add(m[1]);
    }
    if (!consistent || position === undefined) continue;
    const values = [...text.matchAll(RETURNED)].map((m) => canonicalTarget(m[1] ?? ''));
    const socket = (v: string) => sockets.has(v) || /^socket\(/.test(v);
    if (values.some(socket) && values.every((v) => socket(v) || SENTINEL.test(v)))
      found.push(`${name}${AT}${position}`);
  }
  return found;
}

/** The function's name of a key {@link typedSocketOpeners} makes, or `key` itself for a plain name. */
export function openerName(key: string): string {
  const at = key.indexOf(AT);
  return at < 0 ? key : key.slice(0, at);
}

/**
 * Whether a call of `callee` with arguments `args` (their text) opens a message descriptor by one of
 * `keys` (see {@link typedSocketOpeners}): the argument at the key's position names a message type.
 */
export function typedMessageCall(callee: string, args: string, keys: ReadonlySet<string>): boolean {
  for (const key of keys) {
    if (openerName(key) !== callee) continue;
    const position = Number(key.slice(callee.length + AT.length));
    const arg = topLevelArguments(args)[position];
    if (arg !== undefined && MESSAGE_SOCKET.test(arg) && !/\bSOCK_STREAM\b/.test(arg)) return true;
  }
  return false;
}

/**
 * Whether a call of `callee` with arguments `args` (their text) asks one of `keys`' openers (see
 * {@link typedSocketOpeners}) for a byte stream: the argument at the key's position spells
 * `SOCK_STREAM` (flags may be or'ed in) and no argument names a message kind. Such an opener is also
 * a function returning a message descriptor by its plain name when it names the socket before
 * returning it (`l = socket(AF_UNIX, type, 0); ... return l;`: a type the call leaves to a variable may
 * be a datagram's), which would make the stream its caller asked for one of them; the call says
 * otherwise.
 */
export function typedStreamCall(callee: string, args: string, keys: ReadonlySet<string>): boolean {
  for (const key of keys) {
    if (openerName(key) !== callee || key === callee) continue;
    const position = Number(key.slice(callee.length + AT.length));
    const arg = topLevelArguments(args)[position];
    // No other argument may name a message kind either (a family, a protocol).
    if (arg !== undefined && /\bSOCK_STREAM\b/.test(arg) && !MESSAGE_SOCKET.test(args)) return true;
  }
  return false;
}

/** The arguments of a call's text after its `(`, split at the commas of its own level. */
export function topLevelArguments(args: string): string[] {
  const found: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < args.length; i++) {
    const c = args[i];
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) {
        found.push(args.slice(from, i));
        return found;
      }
      depth--;
    } else if (c === ',' && depth === 0) {
      found.push(args.slice(from, i));
      from = i + 1;
    }
  }
  found.push(args.slice(from));
  return found;
}
