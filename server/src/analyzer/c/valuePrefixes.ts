// A value writer that writes the first bytes of a value, as many as its caller says, after putting the
// value in file byte order in place: `put_le(c, v, n) { v = htole64(v); return put_all(c, (char
// *)&v, n); }` (a stream format whose header fields are one to eight bytes wide, each field's width a
// setting of the stream). Each call is still one write of the value its caller passes, as
// `write(fd, &v, sizeof v)` is, only of other bytes and fewer of them: the count is a parameter the body
// never changes, and the value parameter changes only by that one conversion of itself before the write
// (a pure call of one argument, as convertedValues.ts reads a converted local).
import type { Node } from 'web-tree-sitter';
import { callArgs, calleeName, namedKids, withoutCasts } from './syntax';
import { pureTest } from './writes';

/** True when `len` is a parameter the body never changes: the count of bytes the caller asks for. */
export function countParameter(
  len: Node,
  params: readonly (string | undefined)[],
  changed: (name: string) => boolean,
): boolean {
  const l = withoutCasts(len);
  return l.type === 'identifier' && params.includes(l.text) && !changed(l.text);
}

/** The one-argument pure conversion `value` is of `name` (`htole64(v)`, nested, through casts). */
function convertsItself(value: Node, name: string, pure: ReadonlySet<string>): boolean {
  const b = withoutCasts(value);
  if (b.type !== 'call_expression') return false;
  const args = callArgs(b);
  if (args.length !== 1 || !pureTest(calleeName(b), pure)) return false;
  const arg = withoutCasts(args[0]!);
  return arg.type === 'identifier' ? arg.text === name : convertsItself(arg, name, pure);
}

/**
 * The index of the parameter `name` when the body changes it only by one statement `name = conv(name);`
 * among the body's own statements, before `write` (see the file comment); otherwise -1. Does not modify
 * `body`.
 */
export function convertedInPlace(
  name: string,
  write: Node,
  body: Node,
  params: readonly (string | undefined)[],
  pure: ReadonlySet<string>,
): number {
  const param = params.indexOf(name);
  if (param < 0) return -1;
  const changes = [
    ...body.descendantsOfType('assignment_expression'),
    ...body.descendantsOfType('update_expression'),
  ].filter((n): n is Node => {
    const target = n?.childForFieldName(n.type === 'update_expression' ? 'argument' : 'left');
    return !!target && withoutCasts(target).type === 'identifier' && withoutCasts(target).text === name;
  });
  // Its address handed out (`&v` to anything but the write) could change it too.
  const addressed = body.descendantsOfType('pointer_expression').some((p) => {
    if (!p || p.child(0)?.type !== '&') return false;
    const arg = p.childForFieldName('argument');
    const inWrite = p.startIndex >= write.startIndex && p.endIndex <= write.endIndex;
    return !inWrite && !!arg && withoutCasts(arg).text === name;
  });
  const only = changes[0];
  if (changes.length !== 1 || !only || addressed || only.type !== 'assignment_expression') return -1;
  if (only.childForFieldName('operator')?.text !== '=') return -1;
  const statement = only.parent;
  const topLevel = statement?.type === 'expression_statement' && statement.parent?.id === body.id;
  if (!topLevel || statement.endIndex > write.startIndex) return -1;
  if (!namedKids(body).some((k) => k.id === statement.id)) return -1;
  const value = only.childForFieldName('right');
  return value && convertsItself(value, name, pure) ? param : -1;
}
