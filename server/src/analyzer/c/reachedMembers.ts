// The members a function's helper calls write to without spelling them. A helper that writes to a
// member of the object it is handed (`write(c->fd, ...)` in `put(struct conn *c, ...)`, or each
// function stored in a connection's send hook, called as `con->send(con, ...)`) writes, for the caller,
// to `con->fd`; but the caller's text names `con`, never `con->fd`. The file's facts about members are
// read from the member expressions a function's text holds (a byte stream stored at `fd` of `struct
// conn`, a datagram socket at `fd` of `struct peer`): a target the text does not spell got neither,
// and read as a member of no known struct, a datagram socket at any struct's `fd` made it a message.
// The spelled targets of such calls are read with the function's text, so that the struct of `con`
// decides as it does for a member the function names itself.
import type { Node } from 'web-tree-sitter';
import { calleeName, namedKids, unwrap } from './syntax';
import { memberCalleeOf, type CWrapper } from './writes';

/**
 * The member targets the calls in `body` write to through helpers among `wrappers` that write to a
 * member of a parameter (`con->fd` for `put(con, ...)` where `put` writes to `c->fd`), each once, for
 * arguments that are plain names. Empty for most functions: no helper writes to a member.
 */
export function reachedMembers(body: Node, wrappers: ReadonlyMap<string, CWrapper>): string[] {
  const called = memberHelperCalls(wrappers);
  // Most functions call none of them: their text says so without a walk of their syntax.
  if (!called || !called.test(body.text)) return [];
  const found = new Set<string>();
  for (const call of body.descendantsOfType('call_expression')) {
    if (!call) continue;
    const name = calleeName(call) ?? memberCalleeOf(call);
    const w = name === undefined ? undefined : wrappers.get(name);
    if (!w || !('param' in w.fd) || !w.fd.member?.startsWith('->') || w.fd.element || w.fd.deref) continue;
    const list = call.childForFieldName('arguments');
    const arg = list ? namedKids(list)[w.fd.param] : undefined;
    const value = arg && unwrap(arg);
    if (value?.type === 'identifier') found.add(`${value.text}${w.fd.member.replace(/\s+/g, '')}`);
  }
  return [...found];
}

/** {@link memberHelperCalls}' answers, by the wrappers asked about (one map per file's analysis). */
const callPatterns = new WeakMap<ReadonlyMap<string, CWrapper>, RegExp | null>();

/** What finds a call of one of `wrappers` writing to a member of a parameter; null for none. */
function memberHelperCalls(wrappers: ReadonlyMap<string, CWrapper>): RegExp | null {
  let pattern = callPatterns.get(wrappers);
  if (pattern !== undefined) return pattern;
  const names: string[] = [];
  for (const w of wrappers.values())
    if ('param' in w.fd && w.fd.member?.startsWith('->')) names.push(w.name.replace(/^->/, ''));
  const plain = names.filter((n) => /^\w+$/.test(n));
  pattern = plain.length > 0 ? new RegExp(`\\b(?:${plain.join('|')})\\s*\\(`) : null;
  callPatterns.set(wrappers, pattern);
  return pattern;
}
