// Helpers of no parameters that write bytes spelled out in their body, always or as a setting of the
// program says: `static void send_crlf(void) { if (mime_mode) put_bytes("\r\n", 2); }`. A protocol
// server writes its optional separators and fixed tokens this way, one such helper called between the
// helpers that write the text around them. Each call writes those bytes once, or nothing where the
// setting is off: either way it stands in its caller's run as any helper of one write does, and the run
// is the other writes where it wrote nothing. Only the shape is read here: the whole body is that one
// call, or that call under an `if` without an `else` whose test calls nothing and changes nothing (a
// test of the file's state, since there is no argument to test); the function returns nothing, so no
// caller can take a status of it for one of the write. The helper reading (helperBodies.ts) then asks
// what any helper's write must be: a fixed descriptor, constant bytes (constantWriters.ts), no other
// I/O.
import type { Node } from 'web-tree-sitter';
import { functionDeclarator, namedKids } from './syntax';

/**
 * The call that is the whole work of `fn` when `fn` has the shape above (no parameters, returns
 * `void`, a body of that call alone or of that call under a quiet test), else undefined. Reads `fn` only.
 */
export function settingWrite(fn: Node): Node | undefined {
  const declarator = functionDeclarator(fn);
  if (!declarator || fn.childForFieldName('declarator')?.id !== declarator.id) return undefined;
  if (fn.childForFieldName('type')?.text !== 'void') return undefined;
  const list = declarator.childForFieldName('parameters');
  const params = list ? namedKids(list).filter((p) => p.type !== 'comment') : [];
  // `(void)` is one parameter declaration of type void and no name.
  if (params.length > 1 || (params.length === 1 && params[0]!.text.replace(/\s+/g, '') !== 'void'))
    return undefined;
  const body = fn.childForFieldName('body');
  return body ? soleCall(body, true) : undefined;
}

/** The call `node` (a statement or a block) is made of, alone; `tested`: it may sit under one `if`. */
function soleCall(node: Node, tested: boolean): Node | undefined {
  if (node.type === 'compound_statement') {
    const kids = namedKids(node).filter((k) => k.type !== 'comment');
    return kids.length === 1 ? soleCall(kids[0]!, tested) : undefined;
  }
  if (node.type === 'expression_statement') {
    const call = namedKids(node)[0];
    return call?.type === 'call_expression' ? call : undefined;
  }
  if (node.type !== 'if_statement' || !tested || node.childForFieldName('alternative')) return undefined;
  const test = node.childForFieldName('condition');
  const consequence = node.childForFieldName('consequence');
  if (!test || !consequence || !quietTest(test)) return undefined;
  return soleCall(consequence, false);
}

/** True when evaluating `test` calls nothing and changes nothing: it only reads. */
function quietTest(test: Node): boolean {
  if (test.descendantsOfType(['call_expression', 'assignment_expression', 'update_expression']).length > 0)
    return false;
  return !test.text.includes('#');
}
