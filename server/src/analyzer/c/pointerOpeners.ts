// Openers handing their socket back through a pointer parameter: `int open_sink(int *fd) { *fd =
// socket(AF_INET, SOCK_DGRAM, 0); ... }`, called `open_sink(&fd)` in this file or another. The caller's
// text shows no socket call; the opener's body says what its pointee becomes. Such an opener is handed
// on among the functions returning a message descriptor under a key naming the parameter
// (`open_sink#&0`: a key no argument type matches, see typedSockets.ts), and a call passing `&x`
// there makes `x` a message descriptor. An opener that also stores a stream socket there, or a value
// its body does not show to be a message socket, is none.
import type { Node } from 'web-tree-sitter';
import { MESSAGE_SOCKET } from './messageDescriptors';
import { openerName, socketDefinitions, topLevelArguments } from './typedSockets';

/** What separates an opener's name from the parameter's position in its key. */
const AT = '#&';

/** `*p = value;` (the pointee of a plain name assigned). */
const POINTEE_ASSIGNED = /(?:^|[^\w)\]])\*\s*([A-Za-z_]\w*)\s*=(?!=)\s*([^;]+);/g;

/** `name = socket(args` (a local assigned a socket). */
const SOCKET_ASSIGNED = /\b([A-Za-z_]\w*)\s*=\s*socket\s*\(([^;]*)\)\s*;/g;

/** A message socket's arguments: a type or family keeping message boundaries, never SOCK_STREAM. */
function messageArgs(args: string): boolean {
  return MESSAGE_SOCKET.test(args) && !/\bSOCK_STREAM\b/.test(args);
}

/**
 * The keys (`name#&position`) of the functions among `bodies` that store through a pointer parameter
 * only message sockets (`*fd = socket(AF_INET, SOCK_DGRAM, 0)`, or a local assigned one), or a
 * failure's value (`*fd = -1`).
 */
export function pointerSocketOpeners(bodies: readonly { fn: Node; text: string }[]): string[] {
  const found: string[] = [];
  for (const { name, params, text } of socketDefinitions(bodies)) {
    const locals = new Map<string, boolean>();
    for (const m of text.matchAll(SOCKET_ASSIGNED))
      locals.set(m[1]!, (locals.get(m[1]!) ?? true) && messageArgs(m[2] ?? ''));
    const stored = new Map<number, boolean>();
    for (const m of text.matchAll(POINTEE_ASSIGNED)) {
      const at = params.indexOf(m[1]);
      if (at < 0) continue;
      const value = m[2]!.trim();
      const socket = /^socket\s*\(/.test(value)
        ? messageArgs(value)
        : /^\(?\s*-\s*1\s*\)?$/.test(value)
          ? undefined
          : locals.get(value) === true;
      if (socket === undefined) continue;
      stored.set(at, (stored.get(at) ?? true) && socket);
    }
    for (const [at, message] of stored) if (message) found.push(`${name}${AT}${at}`);
  }
  return found;
}

/**
 * The variables `text` hands to an opener of `keys` (see {@link pointerSocketOpeners}) by address
 * (`open_sink(&fd)`), with the offset of the call: each is a message descriptor from there on.
 */
export function pointerOpenedTargets(
  text: string,
  keys: ReadonlySet<string>,
): { target: string; index: number }[] {
  return keyedArguments(text, keys, AT, /^\s*&\s*([A-Za-z_][\w.>\-[\]]*)\s*$/);
}

/**
 * The arguments `text` passes to the openers of `keys` (`name` + `separator` + position) at each key's
 * position and matching `argument` (its first group is the target), with the offset of the call.
 */
function keyedArguments(
  text: string,
  keys: ReadonlySet<string>,
  separator: string,
  argument: RegExp,
): { target: string; index: number }[] {
  const found: { target: string; index: number }[] = [];
  for (const key of keys) {
    const at = key.indexOf(separator);
    if (at < 0) continue;
    const callee = openerName(key);
    const position = Number(key.slice(at + separator.length));
    for (const m of text.matchAll(new RegExp(`\\b${callee}\\s*\\(`, 'g'))) {
      const arg = topLevelArguments(text.slice(m.index + m[0].length))[position];
      const target = argument.exec(arg ?? '')?.[1];
      if (target) found.push({ target, index: m.index });
    }
  }
  return found;
}

/** What separates an opener's name from the position of the array parameter a socketpair fills. */
const FILLS = '#[';

/** `socketpair(domain, type, protocol, name)`: the arguments before the array, and the array. */
const PAIR_FILLED = /\bsocketpair\s*\(([^;]{0,300}?),\s*([A-Za-z_]\w*)\s*\)/g;

/**
 * The keys (`name#[position`) of the functions among `bodies` that fill an array parameter with a
 * socketpair keeping message boundaries (`int pair_open(int sv[2]) { return socketpair(AF_UNIX,
 * SOCK_SEQPACKET, 0, sv); }`) and with no stream pair: the caller's array (`pair_open(chan)`) then
 * holds two message sockets, as it would had the caller made the pair itself.
 */
export function pairFillingOpeners(bodies: readonly { fn: Node; text: string }[]): string[] {
  const found: string[] = [];
  for (const { name, params, text } of socketDefinitions(bodies)) {
    if (!text.includes('socketpair')) continue;
    const filled = new Map<number, boolean>();
    for (const m of text.matchAll(PAIR_FILLED)) {
      const at = params.indexOf(m[2]);
      if (at < 0) continue;
      filled.set(at, (filled.get(at) ?? true) && messageArgs(m[1]!));
    }
    for (const [at, message] of filled) if (message) found.push(`${name}${FILLS}${at}`);
  }
  return found;
}

/**
 * The arrays `text` hands to an opener of `keys` (see {@link pairFillingOpeners}) by name
 * (`pair_open(chan)`, `pair_open(c->sv)`), with the offset of the call: each holds message sockets.
 */
export function pairFilledArrays(
  text: string,
  keys: ReadonlySet<string>,
): { target: string; index: number }[] {
  return keyedArguments(text, keys, FILLS, /^\s*([A-Za-z_][\w.>-]*)\s*$/);
}
