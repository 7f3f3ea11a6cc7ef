// A helper of C strings may send the terminator too (`write(fd, s, strlen(s) + 1)`): protocols whose
// strings end in a NUL byte (a database's wire format, a list of names) mark the end that way. The
// bytes are still its argument's, the string and the one byte after it, so a vector lists them as
// `{ s, strlen(s) + 1 }` and two calls are two pieces of one message, as with any object written whole.
import type { Node } from 'web-tree-sitter';
import { callArgs, calleeName, withoutCasts } from './syntax';

/** True when `len` (casts removed) is `strlen(pointer) + 1` (or `1 + strlen(pointer)`): a string and its NUL. */
export function terminatedString(len: Node, pointer: string): boolean {
  if (len.type !== 'binary_expression' || len.childForFieldName('operator')?.text !== '+') return false;
  const left = len.childForFieldName('left');
  const right = len.childForFieldName('right');
  if (!left || !right) return false;
  const one = (n: Node) => withoutCasts(n).type === 'number_literal' && withoutCasts(n).text === '1';
  const measured = (n: Node) => {
    const call = withoutCasts(n);
    if (call.type !== 'call_expression' || calleeName(call) !== 'strlen') return false;
    const args = callArgs(call);
    return args.length === 1 && withoutCasts(args[0]!).text === pointer;
  };
  return (one(right) && measured(left)) || (one(left) && measured(right));
}
