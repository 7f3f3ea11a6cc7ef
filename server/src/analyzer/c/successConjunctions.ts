// A write tested for success in the first term of a conjunction whose other terms only read: `if
// (put(fd, hdr, n) == 0 && method != HEAD) { put(fd, body, m); }`. C evaluates the terms in
// order and stops at the first false one, so the write runs where the if stands and the body runs only
// where it sent everything and the other terms hold: the same paths as `if (put(fd, hdr, n) == 0)
// { if (method != HEAD) { put(fd, body, m); } }`, which successBodies.ts reads as a run. Terms
// that call something not known to be pure may do I/O between the writes, and a write in a later term
// runs only on some paths of the test itself: neither is read so.
import type { Node } from 'web-tree-sitter';
import { unwrap } from './syntax';
import { readsOnly } from './writes';

/**
 * The first term of `test` when it is a chain of `&&` whose other terms only read (calls only to
 * functions in `pure`); undefined for any other test. Does not look at what the first term is: the
 * caller checks that it tests a write for success.
 */
export function conjoinedSuccess(test: Node, pure: ReadonlySet<string>): Node | undefined {
  const t = unwrap(test);
  if (t.type !== 'binary_expression' || t.childForFieldName('operator')?.text !== '&&') return undefined;
  const left = t.childForFieldName('left');
  const right = t.childForFieldName('right');
  if (!left || !right || !readsOnly(right, pure)) return undefined;
  // `a && b && c` is `(a && b) && c`: the first term is the leftmost one.
  return conjoinedSuccess(left, pure) ?? left;
}
