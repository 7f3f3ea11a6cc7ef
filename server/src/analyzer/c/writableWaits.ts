// A function that waits only for one descriptor to take more output: libslack's shape, `int
// write_timeout(int fd, long sec, long usec)` whose body is a select() with `fd` alone in the write set
// and no read or exception set (or a poll() of one pollfd asking POLLOUT). Called before each write to
// that descriptor, it only bounds how long the write may block: the bytes go out as they would without
// it, so it is no pacing wait (the library's waits end a run on purpose: see catalogue.ts) and no
// output. Read from the body's text (see functionFacts.ts), never from a name.
// Text only, as the function facts are: no parser, nothing of the front end.
import { parameterName } from './parameterName';
import { splitTopLevel } from './topLevelCommas';

/** The one wait such a body makes. */
const WAIT_CALL = /\b(p?select|p?poll)\s*\(/g;

/** A pointer argument that passes no set: `NULL`, `0`, `(fd_set *)0`. */
const NO_SET = /^(?:\(\s*\w+\s*\*\s*\)\s*)?(?:NULL|0|nullptr)$/;

/** True for `name` as the library's wait of one descriptor for output (see {@link writableWait}). */
export function writableWaitCall(name: string): boolean {
  return /^p?(?:select|poll)$/.test(name);
}

/**
 * The index of the parameter whose descriptor the body `body` (text between the braces, comments and
 * literals blanked) waits for to be writable, when that is the only wait it makes: one select() (or
 * pselect()) whose read and exception sets are null and whose write set holds only that parameter
 * (`FD_SET(fd, &w)`), or one poll() (or ppoll()) of one pollfd whose `fd` is that parameter and whose
 * `events` ask for output only. `params`: the definition's parameter list as written. Undefined for any
 * other body. What else the body calls is the fact base's question (see quietFunctions).
 */
export function writableWait(params: string, body: string): number | undefined {
  if (!/select|poll/.test(body)) return undefined;
  const calls = [...body.matchAll(WAIT_CALL)];
  if (calls.length !== 1) return undefined;
  const call = calls[0]!;
  const args = callArguments(body, call.index + call[0].length);
  if (!args) return undefined;
  const names = parameterNames(params);
  const waited = call[1]!.endsWith('select') ? selected(args, body) : polled(args, body);
  const index = waited === undefined ? -1 : names.indexOf(waited);
  return index >= 0 ? index : undefined;
}

/** The arguments of the call whose `(` ends just before `from`, split at top-level commas. */
function callArguments(text: string, from: number): string[] | undefined {
  let depth = 1;
  for (let k = from; k < text.length; k++) {
    const c = text[k];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return splitTopLevel(text.slice(from, k))?.map((a) => a.trim());
  }
  return undefined;
}

/** The names of a parameter list's parameters, in order (`int fd, long sec` gives `fd`, `sec`). */
function parameterNames(params: string): string[] {
  return (splitTopLevel(params) ?? []).map(parameterName);
}

/** A set argument's name: `&w`, `w` (an array of one), parentheses aside. */
function setName(arg: string): string | undefined {
  return /^&?\s*([A-Za-z_]\w*)$/.exec(unparenthesised(arg))?.[1];
}

/** The descriptor a select()'s arguments wait on for output alone, by the `FD_SET`s of the body. */
function selected(args: readonly string[], body: string): string | undefined {
  if (args.length < 5 || !NO_SET.test(args[1]!) || !NO_SET.test(args[3]!)) return undefined;
  const set = setName(args[2]!);
  if (!set) return undefined;
  const added = [...body.matchAll(/\bFD_SET\s*\(([^;]*)\)\s*;/g)].map((m) => splitTopLevel(m[1]!));
  const into = added.map((a) => (a?.length === 2 ? [unparenthesised(a[0]!.trim()), setName(a[1]!)] : []));
  if (into.length === 0 || into.some(([fd, s]) => s !== set || fd !== into[0]![0])) return undefined;
  return into[0]![0];
}

/** The descriptor a poll() of one pollfd waits on for output alone. */
function polled(args: readonly string[], body: string): string | undefined {
  if (args.length < 3 || args[1] !== '1') return undefined;
  const fds = setName(args[0]!);
  if (!fds) return undefined;
  const member = (field: string) =>
    [
      ...body.matchAll(
        new RegExp(`\\b${fds}\\s*(?:\\.|->|\\[\\s*0\\s*\\]\\s*\\.)\\s*${field}\\s*=(?!=)\\s*([^;]+);`, 'g'),
      ),
    ].map((m) => m[1]!.trim());
  const fd = member('fd');
  const events = member('events');
  if (fd.length !== 1 || events.length !== 1) return undefined;
  if (!/^(?:POLLOUT|POLLWRNORM)(?:\s*\|\s*(?:POLLOUT|POLLWRNORM))*$/.test(events[0]!)) return undefined;
  return /^[A-Za-z_]\w*$/.test(fd[0]!) ? fd[0] : undefined;
}

/** `text` trimmed, without parentheses around all of it (`((fd))` is `fd`). */
function unparenthesised(text: string): string {
  let at = text.trim();
  while (at.startsWith('(') && at.endsWith(')') && splitTopLevel(at.slice(1, -1)) !== undefined)
    at = at.slice(1, -1).trim();
  return at;
}
