// Helpers that hand another writer only constants: `term_say(t, "\033[?25l")`, a printf-style helper
// given a format written out (or named by a literal macro of the file, see literalMacros.ts) and
// constant values, or values that are a parameter offset by constants (`BASE + color`). Terminal
// control sequences and protocol tokens are written this way, one helper each, and called side by side
// with the text they frame. Each call is one write of what the other writer formats, so it stands in its
// caller's run as any helper of one write does; the bytes exist only once formatted, so such a run is
// reported without a fix. (A helper writing a literal with a plain write is not read so: a dot ending
// a mail after an if/else whose arms send the body in two ways, by one write or by a loop, then joined
// the one arm's write, a run the corpus labels say is none.)
import type { Node } from 'web-tree-sitter';
import { calleeName, callArgs, withoutCasts } from './syntax';

/** The reason a run through a constant-writing helper `name` has no automatic fix. */
export function constantNoFix(name: string): string {
  return `${name}() writes bytes spelled out in its body, which an iovec would have to copy from it`;
}

/**
 * True when `buf` (and `len`, when the write takes a length) names bytes written out in the code: a
 * string literal, or literals side by side, sent with a constant length (a number, a `sizeof`, a macro
 * constant, an arithmetic of those, or `strlen` of a literal). A variable, a parameter or a call's
 * result may hold other bytes on another call. Reads its arguments only.
 */
export function constantBytes(buf: Node, len: Node | undefined): boolean {
  const b = withoutCasts(buf);
  const literal =
    b.type === 'string_literal' ||
    (b.type === 'concatenated_string' && b.namedChildren.every((c) => c?.type === 'string_literal'));
  return literal && (len === undefined || constantCount(len));
}

/**
 * True when every argument a helper hands on besides the descriptor is a constant or a string literal
 * (`put(t, "\033[%dm", 31)`): what the other writer sends is then the same on every call.
 */
export function constantArguments(passed: readonly Node[], constant: (a: Node) => boolean): boolean {
  return passed.length > 0 && passed.every((a) => constant(a) || constantBytes(a, undefined));
}

/** A count that is the same on every call (see {@link constantBytes}). */
function constantCount(node: Node): boolean {
  const n = withoutCasts(node);
  switch (n.type) {
    case 'number_literal':
    case 'sizeof_expression':
    case 'char_literal':
      return true;
    case 'identifier':
      return /^[A-Z][A-Z0-9_]*$/.test(n.text);
    case 'parenthesized_expression':
      return n.namedChild(0) !== null && constantCount(n.namedChild(0)!);
    case 'binary_expression': {
      const left = n.childForFieldName('left');
      const right = n.childForFieldName('right');
      return !!left && !!right && constantCount(left) && constantCount(right);
    }
    case 'call_expression': {
      const args = callArgs(n);
      return calleeName(n) === 'strlen' && args.length === 1 && constantBytes(args[0]!, undefined);
    }
    default:
      return false;
  }
}

/**
 * The parameter `arg` is, offset by constants (`BASE + color`, `(n << 4) | FLAG`), where `param` says
 * which identifiers are parameters the helper hands on unchanged: a format's value standing for that
 * parameter alone, as the parameter itself does.
 */
export function offsetParameter(
  arg: Node,
  param: (n: Node) => boolean,
  constant: (n: Node) => boolean,
): Node | undefined {
  const a = withoutCasts(arg);
  if (a.type === 'identifier') return param(a) ? a : undefined;
  if (a.type === 'parenthesized_expression')
    return a.namedChild(0) ? offsetParameter(a.namedChild(0)!, param, constant) : undefined;
  if (
    a.type !== 'binary_expression' ||
    !/^(?:[-+*|&^]|<<|>>)$/.test(a.childForFieldName('operator')?.text ?? '')
  )
    return undefined;
  const left = a.childForFieldName('left');
  const right = a.childForFieldName('right');
  if (!left || !right) return undefined;
  if (constantCount(right) || constant(right)) return offsetParameter(left, param, constant);
  if (constantCount(left) || constant(left)) return offsetParameter(right, param, constant);
  return undefined;
}

/**
 * True when `call` runs on every call of the helper whose body is `body`: it is under no test
 * (`tested`), and no `return` of a value comes before it (`if (ok) return 0; reply(u, "bad"); return
 * -1;` writes only where it answers a failure, which its caller checks and then leaves: two such checks
 * side by side never both write). A `return;` of a void helper before it (a mode that shows nothing)
 * leaves its calls writing the same bytes or nothing.
 */
export function everyCall(call: Node, body: Node, tested: (n: Node) => boolean): boolean {
  if (tested(call)) return false;
  return !body
    .descendantsOfType('return_statement')
    .some((r) => r !== null && r.startIndex < call.startIndex && r.namedChildCount > 0);
}
