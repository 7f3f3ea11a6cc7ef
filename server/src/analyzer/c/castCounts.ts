// A write's count kept through a conversion: `ret = (int)send(fd, buf, n, 0);`. Code built with
// -Wconversion (or to a coding standard) casts the ssize_t that write() and send() return to the int it
// keeps, and then tests it (`if (ret < 0)`) as it would the bare call's count.
import type { Node } from 'web-tree-sitter';
import { unwrap } from './syntax';

/**
 * `node` seen through parentheses and casts to a number type (`(int)`, `(ssize_t)`, `(long)`): each cast
 * converts the call's count, which keeps its sign and, for any one write's size, its value, so the tests
 * of it read the same. A cast to a pointer type (`(char *)f(...)`) makes no count and is kept.
 */
export function throughCountCasts(node: Node): Node {
  let at = unwrap(node);
  while (at.type === 'cast_expression') {
    const type = at.childForFieldName('type');
    const value = at.childForFieldName('value');
    // A type descriptor with a declarator is a pointer, array or function type (`char *`).
    if (!type || !value || type.childForFieldName('declarator')) return at;
    at = unwrap(value);
  }
  return at;
}
