// A printf-style helper that writes what it formatted only when the formatting gave some text: `if ((len
// = alloc_vprintf(&buf, mem, sizeof mem, fmt, ap)) > 0) len = conn_write(conn, buf, len);`. The test
// reads the length the formatting returned, not any state of the program: every call that formats
// text writes it, once. It is no logger's test of a mode (`if (logmode & LOG_STDIO)`), under which a
// call may write nothing, so it does not make the helper one that writes only some of the time.
import type { Node } from 'web-tree-sitter';
import { callArgs, identifiers, withoutCasts } from './syntax';

/** Strips parentheses and casts around `node`. */
function bare(node: Node): Node {
  let at = withoutCasts(node);
  while (at.type === 'parenthesized_expression' && at.namedChild(0)) at = withoutCasts(at.namedChild(0)!);
  return at;
}

/** Whether `node` is a call handed one of `formatting` (the helper's format or `va_list` parameter). */
function formats(node: Node, formatting: readonly string[]): boolean {
  const call = bare(node);
  return (
    call.type === 'call_expression' &&
    callArgs(call).some((a) => {
      const arg = bare(a);
      return arg.type === 'identifier' && formatting.includes(arg.text);
    })
  );
}

/**
 * Whether `test` (an `if`'s condition) only asks whether the formatting gave text: it compares `length`
 * (the local the helper's write takes as its length) with a number by `>`, `>=` or `!=`, where that
 * local is assigned, in the test itself or in `body` before it, the result of a call handed one of
 * `formatting` (the format parameter and the `va_list`).
 */
export function testsFormattedLength(
  test: Node,
  length: string,
  body: Node,
  formatting: readonly string[],
): boolean {
  const t = bare(test);
  if (t.type !== 'binary_expression') return false;
  const op = t.childForFieldName('operator')?.text ?? '';
  if (!['>', '>=', '!='].includes(op)) return false;
  const left = t.childForFieldName('left');
  const right = t.childForFieldName('right');
  if (!left || !right || bare(right).type !== 'number_literal') return false;
  const side = bare(left);
  if (side.type === 'assignment_expression') {
    const target = side.childForFieldName('left');
    const value = side.childForFieldName('right');
    return !!target && !!value && bare(target).text === length && formats(value, formatting);
  }
  if (side.type !== 'identifier' || side.text !== length) return false;
  // Assigned before the test, from the formatting (`len = vsnprintf(buf, sizeof buf, fmt, ap);`).
  return body.descendantsOfType(['assignment_expression', 'init_declarator']).some((a) => {
    if (!a || a.endIndex > test.startIndex) return false;
    const target = a.childForFieldName(a.type === 'init_declarator' ? 'declarator' : 'left');
    const value = a.childForFieldName(a.type === 'init_declarator' ? 'value' : 'right');
    return !!target && !!value && [...identifiers(target)].join() === length && formats(value, formatting);
  });
}
