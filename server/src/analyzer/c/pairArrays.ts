// A program that keeps both ends of a pipe or a stream socketpair in a global array (`static int
// fds[2];` filled by `socketpair(AF_UNIX, SOCK_STREAM, 0, fds)` in its setup) writes to its elements
// from other functions, often by an index it names (`fds[PEER_A]`, `fds[c]`). Every element of such an
// array is a byte stream, wherever the file names it, while the file puts nothing else in it: an
// element assigned anything but a sentinel (`fds[1] = -1` after a close), or an array filled by a
// datagram socketpair as well, is left unknown.

import type { Node } from 'web-tree-sitter';
import type { CWrapper } from './writes';
import { callArgs, calleeName, canonicalTarget } from './syntax';

/** `pipe(name` / `pipe2(name`. */
const PIPE = /\bpipe2?\s*\(\s*([A-Za-z_]\w*)\s*[,)]/g;

/** `socketpair(domain, type, protocol, name)`: the arguments before the array, and the array. */
const SOCKETPAIR = /\bsocketpair\s*\(([^;]{0,300}?),\s*([A-Za-z_]\w*)\s*\)/g;

/** `name[index] = value`: an element assigned (not compared). */
const ELEMENT_ASSIGNED = /\b([A-Za-z_]\w*)\s*\[[^\]\n]*\]\s*=(?!=)\s*([^;]*)/g;

/** A value that says "no descriptor": a negative constant. */
const SENTINEL = /^\s*-\s*(?:\d+|[A-Z][A-Z0-9_]*)\s*$/;

/** The arrays `text` fills with byte-stream pairs only (see the file comment). */
export function streamPairArrays(text: string): Set<string> {
  if (!/\b(?:pipe2?|socketpair)\s*\(/.test(text)) return new Set();
  const streams = new Set<string>();
  const other = new Set<string>();
  for (const m of text.matchAll(PIPE)) streams.add(m[1]!);
  for (const m of text.matchAll(SOCKETPAIR)) {
    const type = m[1]!.split(',')[1] ?? '';
    (/\bSOCK_STREAM\b/.test(type) ? streams : other).add(m[2]!);
  }
  if (streams.size === 0) return streams;
  for (const m of text.matchAll(ELEMENT_ASSIGNED)) {
    // `fds[0] = fds[1] = -1`: a chain of sentinels.
    const value = m[2]!.replace(/^(?:[A-Za-z_]\w*\s*\[[^\]\n]*\]\s*=\s*)+/, '');
    if (streams.has(m[1]!) && !SENTINEL.test(value)) other.add(m[1]!);
  }
  for (const name of other) streams.delete(name);
  return streams;
}

/** The elements of `arrays` that `text` (one function) names, spelled without spaces (`fds[PEER_A]`). */
export function pairElements(text: string, arrays: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\b([A-Za-z_]\w*)\s*\[([^\]\n]+)\]/g))
    if (arrays.has(m[1]!)) found.push(`${m[1]}[${m[2]!.replace(/\s+/g, '')}]`);
  return found;
}

/**
 * The elements of `arrays` that calls in `body` write to through a helper indexing a global table by
 * its parameter (see elementTargets.ts): `must_write(PEER_A, ...)` writes to `fds[PEER_A]`.
 */
export function helperElements(
  body: Node,
  wrappers: ReadonlyMap<string, CWrapper>,
  arrays: ReadonlySet<string>,
): string[] {
  const found: string[] = [];
  for (const call of body.descendantsOfType('call_expression')) {
    const w = call && wrappers.get(calleeName(call) ?? '');
    if (!w || !('param' in w.fd) || !w.fd.element || !arrays.has(w.fd.element)) continue;
    const arg = callArgs(call)[w.fd.param];
    if (arg) found.push(canonicalTarget(`${w.fd.element}[${arg.text}]`));
  }
  return found;
}
