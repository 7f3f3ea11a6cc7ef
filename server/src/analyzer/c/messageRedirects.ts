// Descriptors a file turns into message sockets with `dup2()`. A log helper writing `write(2, line,
// n)` reads as a stream writer, since stderr is a terminal or a file; but a daemon whose log master
// collects its workers' lines makes `socketpair(AF_UNIX, SOCK_SEQPACKET, 0, log_pipe)` and then
// `dup2(log_pipe[1], 1); dup2(1, 2);`, and a `--logto host:port` option makes a UDP socket and
// `dup2()`s it onto stderr. There each write is one log record, and one writev of two lines would be
// one record holding both. A file that does this has shown that what it writes to that descriptor
// need not be a stream: its writes there stay quiet, and its helpers of that descriptor are not handed
// on to other files as writers.
//
// Only a source traced to a socket of a message kind counts: spelled so in the `socket()` or
// `socketpair()` call (`SOCK_DGRAM`, `SOCK_SEQPACKET`, ...), a member or pair array the file fills with
// one, a function returning one (the file's own or, through the fact base, another file's), or a
// descriptor an earlier `dup2()` turned. A server handing its accepted TCP connection (or a socket of
// a type it reads from a table) to a child as stdin and stdout says nothing of the sort: most inetd-like
// and netcat-like code does that, and its other writes to stdout are a stream's.
import { canonicalTarget } from './syntax';
import { argumentsAt } from './callSiteWriters';
import { assignedCalls, MESSAGE_SOCKET, SOCKETPAIR, type MessageDescriptors } from './messageDescriptors';

/** `dup2(` and `dup3(`: where their arguments start. */
const DUP = /\bdup[23]\s*\(/g;

/** A plain identifier. */
const IDENTIFIER = /^[A-Za-z_]\w*$/;

/**
 * The descriptors (canonical text: `2` for `STDERR_FILENO`) that `text` makes a copy of a
 * message socket with `dup2()` or `dup3()`, by the file's own `messages` (with the functions that
 * return one, see withReturning). Empty when the file copies none.
 */
export function messageRedirects(
  text: string,
  messages: MessageDescriptors | undefined,
): ReadonlySet<string> {
  const turned = new Set<string>();
  if (!messages || !/\bdup[23]\s*\(/.test(text)) return turned;
  const returning = messages.returning ?? new Set<string>();
  const dups: { source: string; target: string; at: number }[] = [];
  for (const m of text.matchAll(DUP)) {
    const args = argumentsAt(text, m.index + m[0].length - 1);
    if (args && args.length >= 2) dups.push({ source: args[0]!, target: args[1]!, at: m.index });
  }
  // A chain (`dup2(sock, 1); dup2(1, 2);`) turns the second target too: read until nothing changes.
  for (let grew = true; grew;) {
    grew = false;
    for (const { source, target, at } of dups) {
      const t = canonicalTarget(target);
      if (turned.has(t) || !fixedTarget(t, text, at)) continue;
      if (messageSource(canonicalTarget(source), text, at, returning, turned)) {
        turned.add(t);
        grew = true;
      }
    }
  }
  return turned;
}

/**
 * Whether `source` (canonical) at `at` in `text` is a message socket: a descriptor an earlier copy
 * turned, or one assigned such a socket. A local's assignments are read in its function only (another
 * function's variable of that name is another variable); a global's, a member's or a pair array's
 * anywhere in the file.
 */
function messageSource(
  source: string,
  text: string,
  at: number,
  returning: ReadonlySet<string>,
  turned: ReadonlySet<string>,
): boolean {
  if (turned.has(source)) return true;
  const region = functionBefore(text, at);
  const here = assignedSockets(region, source, returning);
  if (here !== undefined) return here;
  if (IDENTIFIER.test(source) && declares(region, source)) return false;
  return assignedSockets(text, source, returning) ?? false;
}

/**
 * What `scope` assigns `source` (canonical; `sv[1]` an end of the pair array `sv`): undefined when
 * nothing, else whether one of those is a socket of a message kind spelled in its call, or the result
 * of one of `returning` (functions that return such a socket).
 */
function assignedSockets(scope: string, source: string, returning: ReadonlySet<string>): boolean | undefined {
  let found: boolean | undefined;
  for (const a of assignedCalls(scope))
    if (canonicalTarget(a.target) === source)
      found ||= (a.callee === 'socket' && MESSAGE_SOCKET.test(a.args)) || returning.has(a.callee);
  const array = /^(.*)\[[^\]]*\]$/.exec(source)?.[1];
  if (array !== undefined)
    for (const m of scope.matchAll(SOCKETPAIR))
      if (canonicalTarget(m[2]!) === array) found ||= MESSAGE_SOCKET.test(m[1]!);
  return found;
}

/**
 * Whether the copy's target (canonical) at `at` is a descriptor that outlives the function: a
 * standard descriptor, a member or element, or a name the function does not declare.
 */
function fixedTarget(target: string, text: string, at: number): boolean {
  if (target === '0' || target === '1' || target === '2') return true;
  if (/^\d+$/.test(target)) return false;
  if (!IDENTIFIER.test(target)) return /^[A-Za-z_][\w.>\-[\]]*$/.test(target);
  return !declares(functionBefore(text, at), target);
}

/** Whether `region` declares `name` (a local or a parameter of its type `int`, `SOCKET` or the like). */
function declares(region: string, name: string): boolean {
  return new RegExp(`\\b(?:int|SOCKET|socket_t|long)\\s+(?:[^;(){}]*[\\s,*])?${name}\\s*[=;,)[]`).test(
    region,
  );
}

/**
 * The text of the function holding `at`, up to `at`: from the end of the definition before it (a `}`
 * in column 0), or the file's start.
 */
function functionBefore(text: string, at: number): string {
  const end = text.lastIndexOf('\n}', at);
  return text.slice(end < 0 ? 0 : end + 2, at);
}
