// A print to a standard stream between writes to a socket, a pipe or a file the function opened:
// `n = send(s, a, 3, 0); printf("sent %zd\n", n); n = send(s, b, 3, 0);`. The print goes to stdout,
// stderr or the system log, never to a descriptor the code shows to be another byte stream (its origin
// visible: `socket()`, `accept()`, `open()`, `pipe()`, a member the file fills with such), so the two
// cannot interleave: gathering the writes only moves the print before or after bytes nobody reads
// beside it. Where the written descriptor's kind is unknown (a parameter: fd 1 or 2 under inetd), or is
// a standard stream itself, the print stays a statement that may do I/O and stops the run. fflush(),
// fclose(), dup2() and anything that may write elsewhere are no such print.
import type { Node } from 'web-tree-sitter';
import { callArgs, calleeName } from './syntax';

/** Library calls that print to stdout or stderr, or send to the system log, whatever their arguments. */
const STANDARD_PRINTERS: ReadonlySet<string> = new Set([
  'printf',
  'vprintf',
  'puts',
  'putchar',
  'perror',
  'syslog',
  'vsyslog',
]);

/** Library calls given their stream: the index of that argument. */
const STREAM_PRINTERS: ReadonlyMap<string, number> = new Map([
  ['fprintf', 0],
  ['vfprintf', 0],
  ['fputs', 1],
  ['fputc', 1],
  ['putc', 1],
]);

/** The standard output streams, as C spells them. */
const STANDARD_STREAMS = /^(?:stdout|stderr)$/;

/** Descriptors that are the standard streams themselves: a print may write there. */
const STANDARD_DESCRIPTORS = /^(?:0|1|2|STD(?:IN|OUT|ERR)_FILENO|fileno\s*\(.*\))$/;

/** True when `call` prints only to stdout, stderr or the system log (see the file's comment). */
export function standardPrint(call: Node): boolean {
  const name = calleeName(call);
  if (!name) return false;
  if (STANDARD_PRINTERS.has(name)) return true;
  const at = STREAM_PRINTERS.get(name);
  if (at === undefined) return false;
  const stream = callArgs(call)[at];
  return stream !== undefined && STANDARD_STREAMS.test(stream.text.trim());
}

/**
 * The descriptors of `streams` (those the function or file shows to be byte streams) that are no
 * standard stream: a standard print cannot write to them.
 */
export function apartFromPrints(streams: ReadonlySet<string> | undefined): ReadonlySet<string> {
  const apart = new Set<string>();
  for (const t of streams ?? []) if (!STANDARD_DESCRIPTORS.test(t)) apart.add(t);
  return apart;
}
