// `http_cmd(conn, "If-Modified-Since: %s\r\n", buf)` inside a function of the project: a printf-style
// write helper given a format the call spells out. Such a call formats what its other arguments say
// by a pattern fixed in the code, so it writes the bytes those arguments stand for, once, as a helper
// handing its arguments on to a writer of values does (see helperBodies.ts `handedOn`). The function
// around it (`set_if_modified_since(conn, t)`, a helper of a helper) is then a write helper too.
import type { Node } from 'web-tree-sitter';
import { withoutCasts } from './syntax';

/**
 * True when `arg` is a format written out in the call: a string literal, or literals side by side
 * (`"%s" "\r\n"`). A format read from a variable or a parameter may say anything. Reads `arg` only.
 */
export function fixedFormat(arg: Node | undefined): boolean {
  const t = arg && withoutCasts(arg);
  if (!t) return false;
  if (t.type === 'string_literal') return true;
  return t.type === 'concatenated_string' && t.namedChildren.every((c) => c?.type === 'string_literal');
}
